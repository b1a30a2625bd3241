"""An email backend for fault drills (``manage.py chaos``): an ESP that refuses a
share of the messages, loses the answer to another share after taking them, and
writes one JSON line per message it took, so that the drill can count what each
player really received.

    EMAIL_BACKEND=games.flakymail.EmailBackend
    FLAKY_MAIL_LOG=/tmp/drill/mail.jsonl   # required: the ESP's own record
    FLAKY_MAIL_FAIL=0.3                    # refused with 451 (taken: no)
    FLAKY_MAIL_LOSE=0.05                   # taken, then the answer times out
"""

import json
import os
import random
import smtplib
import time

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def __init__(self, fail_silently=False, **kwargs):
        super().__init__(fail_silently=fail_silently, **kwargs)
        self.log_path = os.environ["FLAKY_MAIL_LOG"]
        self.fail = float(os.environ.get("FLAKY_MAIL_FAIL", "0"))
        self.lose = float(os.environ.get("FLAKY_MAIL_LOSE", "0"))
        self.random = random.Random()

    def send_messages(self, messages) -> int:
        taken = 0
        for message in messages:
            if self.random.random() < self.fail:
                raise smtplib.SMTPDataError(451, b"Temporary failure, try again later")
            self._took(message)
            taken += 1
            if self.random.random() < self.lose:
                raise TimeoutError("the ESP took the message; its answer was lost")
        return taken

    def _took(self, message) -> None:
        metadata = getattr(message, "metadata", None) or {}
        line = {
            "key": metadata.get("key", ""),
            "message_id": message.extra_headers.get("Message-ID", ""),
            "to": message.to,
            "at": time.time(),
        }
        # One short append per message: whole lines, even from several processes.
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")
