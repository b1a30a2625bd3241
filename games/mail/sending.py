"""Sending the outbox in the email worker (games.tasks.send_emails, sweep_outbox): the
emails one move made owed, and the sweep that sends whatever is still owed."""

import logging
import time

from django.conf import settings

from games.mail import outbox

log = logging.getLogger(__name__)

# A task still running when the broker's visibility timeout (Redis: 300 s, settings)
# runs out is delivered again to another worker, to run twice at once. An outbox
# sweep stops taking emails after SWEEP_OUTBOX_SECONDS (less if that timeout is
# shorter; the next sweep, 5 s later, goes on), and its task is stopped outright at
# SWEEP_OUTBOX_TIME_LIMIT, should one send hang: an email it leaves "sending" is
# taken up again after OUTBOX_SENDING_GRACE_SECONDS.
VISIBILITY_TIMEOUT = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
SWEEP_OUTBOX_SECONDS = min(60.0, VISIBILITY_TIMEOUT / 5)
SWEEP_OUTBOX_TIME_LIMIT = int(VISIBILITY_TIMEOUT * 0.8)


def send(pks: list) -> int:
    """Send the emails one move made owed; each is delivered (and locked) on its own,
    and one that cannot be rendered or sent does not hold up the others (the sweep
    tries it again). Returns how many were sent."""
    sent = 0
    for pk in pks:
        try:
            sent += outbox.deliver(pk) == "sent"
        except Exception:
            log.exception("email %s could not be delivered now", pk)
    return sent


def sweep() -> int:
    """Send what is owed and not yet sent: emails whose task was lost, and retries;
    for SWEEP_OUTBOX_SECONDS at most. Returns how many it took."""
    pending = outbox.due()
    stop_at = time.monotonic() + SWEEP_OUTBOX_SECONDS
    for done, pk in enumerate(pending):
        if time.monotonic() >= stop_at:
            log.info(
                "outbox sweep: %d of %d emails done; the next sweep goes on", done, len(pending)
            )
            return done
        try:
            outbox.deliver(pk)
        except Exception:  # one email that cannot be sent now does not hold up the others
            log.exception("email %s could not be delivered now", pk)
    return len(pending)
