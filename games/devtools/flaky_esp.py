"""An email backend for fault drills (``manage.py chaos``): an ESP that refuses a
share of the messages, loses the answer to another share after taking them, and
writes one JSON line per message it took, so that the drill can count what each
player really received.

    EMAIL_BACKEND=games.devtools.flaky_esp.EmailBackend
    FLAKY_MAIL_LOG=/tmp/drill/mail.jsonl   # required: the ESP's own record
    FLAKY_MAIL_FAIL=0.3                    # refused (taken: no), as an SMTP 451 or an HTTP 429
    FLAKY_MAIL_LOSE=0.05                   # taken, then the answer is lost...
    FLAKY_MAIL_LOSE_KINDS=timeout,504,tls,crash   # ...in one of these ways, at random

The ways an answer is lost after the ESP took the message:

- ``timeout``: the answer never comes (a read timeout);
- ``504``: a gateway in front of the ESP answers 504 (anymail's error *with* a response);
- ``tls``: the TLS connection breaks while the answer is on its way;
- ``crash``: the answer cannot be read (an exception no one expected).
"""

import json
import os
import random
import smtplib
import ssl
import time

import requests
from anymail.exceptions import AnymailAPIError
from django.core.mail.backends.base import BaseEmailBackend

from games.mail import tracking

LOSE_KINDS = ("timeout", "504", "tls", "crash")


def http_error(status: int, reason: str) -> AnymailAPIError:
    """What anymail raises when an HTTP ESP (or a gateway in front of it) answers ``status``."""
    response = requests.Response()
    response.status_code, response.reason, response._content = status, reason, b""
    return AnymailAPIError(f"{status} {reason}", status_code=status, response=response)


def refusal(kind: int) -> Exception:
    if kind == 0:
        return smtplib.SMTPDataError(451, b"Temporary failure, try again later")
    return http_error(429, "Too Many Requests")


def lost_answer(kind: str) -> Exception:
    if kind == "504":
        return http_error(504, "Gateway Timeout")
    if kind == "tls":
        return ssl.SSLEOFError(8, "EOF occurred in violation of protocol")
    if kind == "crash":
        return RuntimeError("the ESP's answer could not be read")
    return TimeoutError("the ESP took the message; its answer was lost")


class EmailBackend(BaseEmailBackend):
    def __init__(self, fail_silently=False, **kwargs):
        super().__init__(fail_silently=fail_silently, **kwargs)
        self.log_path = os.environ["FLAKY_MAIL_LOG"]
        self.fail = float(os.environ.get("FLAKY_MAIL_FAIL", "0"))
        self.lose = float(os.environ.get("FLAKY_MAIL_LOSE", "0"))
        kinds = os.environ.get("FLAKY_MAIL_LOSE_KINDS", ",".join(LOSE_KINDS))
        self.lose_kinds = [kind.strip() for kind in kinds.split(",") if kind.strip()]
        unknown = set(self.lose_kinds) - set(LOSE_KINDS)
        if unknown or not self.lose_kinds:
            raise ValueError(f"FLAKY_MAIL_LOSE_KINDS: choose among {', '.join(LOSE_KINDS)}")
        self.random = random.Random()

    def send_messages(self, messages) -> int:
        taken = 0
        for message in messages:
            if self.random.random() < self.fail:
                raise refusal(self.random.randrange(2))
            self._took(message)
            taken += 1
            if self.random.random() < self.lose:
                raise lost_answer(self.random.choice(self.lose_kinds))
        return taken

    def _took(self, message) -> None:
        metadata = getattr(message, "metadata", None) or {}
        sent = metadata.get("key", "")
        line = {
            # The outbox's key (the metadata carries it signed).
            "key": tracking.key_from(sent) or sent,
            "message_id": message.extra_headers.get("Message-ID", ""),
            "to": message.to,
            "at": time.time(),
        }
        # One short append per message: whole lines, even from several processes.
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")
