"""Is the service keeping up? For operators, load balancers and Compose's health
checks: how late the oldest overdue deadline is, how long the oldest email that
is due has waited, and how many tasks wait in each queue.

Ages and counts only: nothing here names a game, a seat, a player or an address,
so the report may be shown to anyone (``/healthz/backlog``, ``manage.py health``).
Each figure is compared with a threshold from the settings (HEALTH_*): past one,
the report says so and the endpoint answers 503.

``/healthz`` stays the cheap liveness check (the database answers); this one asks
the database two indexed aggregates and the broker one length per queue.
"""

import logging
import time

from django.conf import settings
from django.db.models import Case, Count, Min, Q, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.core.deadline_claims import SWEEP_HOLDER, held_by_nobody
from games.models import Game, OutboxEmail

log = logging.getLogger(__name__)

# The broker must answer within this (a health check that hangs is no answer).
BROKER_TIMEOUT_SECONDS = 2


def _age(now, since) -> float | None:
    return None if since is None else round(max((now - since).total_seconds(), 0.0), 1)


def deadlines_behind(now) -> dict:
    """The games in play whose phase deadline has passed (paused ones wait on purpose);
    of those, the ones no deadline process holds (``unclaimed``: none is running, or
    their leases ran out, games.core.deadline_claims) and the ones the beat's safety
    sweep found so and took (``safety_sweep``)."""
    unheld = held_by_nobody(now)
    swept = Q(deadline_claimed_by=SWEEP_HOLDER, deadline_claimed_until__gte=now)
    overdue = Game.objects.filter(
        status=Game.Status.ACTIVE, paused_at=None, phase_deadline__lte=now
    ).aggregate(
        count=Count("pk"),
        oldest=Min("phase_deadline"),
        unclaimed=Count("pk", filter=unheld),
        swept=Count("pk", filter=swept),
    )
    return {
        "overdue": overdue["count"],
        "oldest_overdue_seconds": _age(now, overdue["oldest"]),
        "unclaimed": overdue["unclaimed"],
        "safety_sweep": overdue["swept"],
    }


def mail_behind(now) -> dict:
    """The emails due now and not yet sent: each waits since it was due (its retry
    time, the end of an offer's quiet time, or its writing) or, while being sent,
    since the send began. A retry not yet due is not late: it waits on purpose."""
    sending = OutboxEmail.Status.SENDING
    pending_due = Q(status=OutboxEmail.Status.PENDING) & (
        Q(next_attempt_at__lte=now) | Q(next_attempt_at=None)
    )
    # A retry keeps the sending_at of its last attempt: only a row being sent reads it.
    waiting_since = Case(
        When(status=sending, then=Coalesce("sending_at", "created_at")),
        default=Coalesce("next_attempt_at", "created_at"),
    )
    owed = OutboxEmail.objects.filter(pending_due | Q(status=sending)).aggregate(
        count=Count("pk"), oldest=Min(waiting_since)
    )
    return {"owed": owed["count"], "oldest_owed_seconds": _age(now, owed["oldest"])}


def queue_depths() -> dict:
    """The tasks waiting in each Celery queue (None: the broker did not answer)."""
    from sheriff_pbem.celery import app

    names = [queue.name for queue in settings.CELERY_TASK_QUEUES]
    try:
        with app.connection_for_read(connect_timeout=BROKER_TIMEOUT_SECONDS) as broker:
            broker.ensure_connection(max_retries=1)
            channel = broker.default_channel
            return {name: channel.queue_declare(name).message_count for name in names}
    except Exception as error:  # the report says so; a health check must not fail itself
        log.warning("health: the broker did not answer: %s", error)
        return dict.fromkeys(names)


def report(now=None, with_queues: bool = True) -> dict:
    """Every figure, the thresholds, and ``problems``: what is past its threshold."""
    now = now or timezone.now()
    deadlines, mail = deadlines_behind(now), mail_behind(now)
    queues = queue_depths() if with_queues else {}
    limits = {
        "deadline_late_seconds": settings.HEALTH_DEADLINE_LATE_SECONDS,
        "mail_late_seconds": settings.HEALTH_MAIL_LATE_SECONDS,
        "queue_depth": settings.HEALTH_QUEUE_DEPTH,
    }
    problems = []
    if (deadlines["oldest_overdue_seconds"] or 0) > limits["deadline_late_seconds"]:
        problems.append("deadlines late")
    if (mail["oldest_owed_seconds"] or 0) > limits["mail_late_seconds"]:
        problems.append("mail backed up")
    for name, depth in queues.items():
        if depth is None:
            problems.append(f"queue {name} unknown: the broker did not answer")
        elif depth > limits["queue_depth"]:
            problems.append(f"queue {name} too deep")
    return {
        "ok": not problems,
        "problems": problems,
        "deadlines": deadlines,
        "mail": mail,
        "queues": queues,
        "thresholds": limits,
    }


class BackedUpMail:
    """Says in the log, at most once per ``every`` seconds, that mail is backed up:
    the outbox sweep asks it each time it runs."""

    def __init__(self, every: float):
        self.every = every
        self.said_at = None

    def check(self, now=None) -> bool:
        """Log a warning if the oldest due email waits past the threshold and nothing
        was said for a while; True if it did."""
        mail = mail_behind(now or timezone.now())
        late = mail["oldest_owed_seconds"]
        if late is None or late <= settings.HEALTH_MAIL_LATE_SECONDS:
            return False
        if self.said_at is not None and time.monotonic() - self.said_at < self.every:
            return False
        self.said_at = time.monotonic()
        log.warning(
            "mail is backed up: %d emails due and unsent, the oldest waiting %.0f s "
            "(threshold %d s); the email workers or the provider cannot keep up",
            mail["owed"],
            late,
            settings.HEALTH_MAIL_LATE_SECONDS,
        )
        return True
