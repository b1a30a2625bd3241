"""Sending the push outbox in the worker (games.tasks.send_pushes, sweep_pushes): the
pushes one change made owed, and the sweep that sends whatever is still owed. Each
logs what became of its pushes."""

import logging
import time
from collections import Counter

from django.conf import settings

from games.push import delivery

log = logging.getLogger(__name__)

# The bounds of the email outbox's sweep (games.mail.sending says why): a sweep stops
# taking pushes well before the broker would deliver its task again to another worker.
VISIBILITY_TIMEOUT = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
SWEEP_SECONDS = min(60.0, VISIBILITY_TIMEOUT / 5)
SWEEP_TIME_LIMIT = int(VISIBILITY_TIMEOUT * 0.8)
# What a send's outcome counts as in the log.
COUNTED = {"sent": "sent", "retry": "to retry", "failed": "failed", "gone": "device gone"}


def send(pks: list) -> int:
    """Send the pushes one change made owed, each on its own: one that cannot be sent
    now does not hold up the others (the sweep tries it again). Returns how many the
    push services took."""
    counts = _deliver_all(pks, stop_at=None)
    return counts["sent"]


def sweep() -> int:
    """Send what is owed and not yet sent: pushes whose task was lost, retries, and
    rows a dead sender left; for SWEEP_SECONDS at most. Returns how many it took."""
    pending = delivery.due()
    if not pending:
        return 0
    counts = _deliver_all(pending, stop_at=time.monotonic() + SWEEP_SECONDS)
    return sum(counts.values())


def _deliver_all(pks: list, stop_at: float | None) -> Counter:
    counts: Counter = Counter()
    for done, pk in enumerate(pks):
        if stop_at is not None and time.monotonic() >= stop_at:
            log.info("push sweep: %d of %d pushes done; the next sweep goes on", done, len(pks))
            break
        try:
            counts[delivery.deliver(pk)] += 1
        except Exception:  # one push that cannot be sent now does not hold up the others
            log.exception("push %s could not be delivered now", pk)
            counts["error"] += 1
    said = {COUNTED.get(outcome, outcome): n for outcome, n in sorted(counts.items())}
    if any(outcome in COUNTED or outcome == "error" for outcome in counts):
        log.info("pushes: %s", ", ".join(f"{n} {what}" for what, n in said.items()))
    return counts
