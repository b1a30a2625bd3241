"""Celery tasks. The database is the source of truth: tasks carry no state of
their own, so a duplicated, late or lost task is harmless — every transition
is a compare-and-set, and the beat sweep finds whatever is overdue again.

Deadlines are not handed out here: each deadline process (games.core.deadline_runner)
claims its own. The beat's sweep keeps a safety net for them (a deadline overdue
that no process holds: none is running, or one died and its leases ran out) and
hands out the due reminders and ended bargaining times.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from games.core import (
    backlog,
    bot_turns,
    daily_emails,
    deadline_claims,
    lobbies,
    notifications,
    timers,
)
from games.models import Game

log = logging.getLogger(__name__)

SWEEP_BATCH = 1000
# Overdue games advanced per task: one commit for the chunk, so that a thousand
# deadlines found together are not a thousand fsyncs.
ADVANCE_CHUNK = 50
# The deadline processes claim every deadline ahead and write it as it falls: the
# safety sweep leaves them this long before it takes an overdue deadline nobody holds
# (one set in the past, or whose process's lease ran out).
SAFETY_GRACE = timedelta(seconds=2)
# A due reminder or ended bargaining time handed to a worker is not handed again
# before this: no pile of duplicates behind a busy worker, yet a task lost with
# Redis is given again.
REQUEUE_AFTER = timedelta(seconds=10)


@shared_task(name="games.tasks.send_digests", ignore_result=True)
def send_digests() -> int:
    """The players' daily summaries due this hour (beat runs it every few minutes)."""
    with transaction.atomic():
        return len(notifications.record_digests(timezone.now()))


@shared_task(name="games.tasks.send_daily_emails", ignore_result=True)
def send_daily_emails() -> int:
    """The people's daily emails across all their games due this hour (beat runs it
    every few minutes)."""
    with transaction.atomic():
        return len(daily_emails.record_daily(timezone.now()))


@shared_task(name="games.tasks.advance_games", ignore_result=True)
def advance_games(targets: list, at: str | None = None) -> int:
    """Advance a chunk of overdue games, each still at its given version (the
    safety sweep's). ``at`` is accepted from tasks an earlier version queued ahead
    of their deadline; a game whose deadline has not passed is left alone."""
    return timers.advance_chunk([tuple(t) for t in targets])


@shared_task(name="games.tasks.remind_game", ignore_result=True)
def remind_game(game_id: int) -> int:
    return timers.send_reminders(game_id)


@shared_task(name="games.tasks.end_bargaining", ignore_result=True)
def end_bargaining(game_id: int) -> bool:
    return timers.end_bargaining(game_id)


@shared_task(name="games.tasks.play_bots", ignore_result=True)
def play_bots(game_id: int) -> int:
    """The bots' turn at a table whose time for it has come (games.core.bot_turns)."""
    return bot_turns.play(game_id)


@shared_task(name="games.tasks.start_due_lobbies", ignore_result=True)
def start_due_lobbies() -> int:
    """Start the full tables whose start time has come (beat runs it every minute;
    a table filled after its start time starts with its last acceptance)."""
    return len(lobbies.start_due(timezone.now()))


# Says in the log when mail is backed up, at most this often (per worker process).
BACKED_UP_MAIL = backlog.BackedUpMail(every=300)


@shared_task(name="games.tasks.check_mail_backlog", ignore_result=True)
def check_mail_backlog() -> bool:
    """Warn when mail is backed up. Beat runs it on the deadlines queue: on the email
    queue it would wait behind the very emails that are late, and say nothing."""
    return BACKED_UP_MAIL.check()


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """The safety net for deadlines, and every due reminder, ended bargaining time
    and bots' turn, handed to the workers. Returns how many overdue deadlines it took."""
    now = timezone.now()
    # Claim, read and enqueue together: if the broker refuses, the claims are undone.
    with transaction.atomic():
        overdue = deadline_claims.claim_overdue(
            deadline_claims.SWEEP_HOLDER, now, SWEEP_BATCH, grace=SAFETY_GRACE
        )
        if overdue:
            oldest = (now - overdue[0][1]).total_seconds()
            log.warning(
                "safety sweep: %d overdue deadlines held by no deadline process (the oldest "
                "%.1f s late); is manage.py run_deadlines running?",
                len(overdue),
                oldest,
            )
        targets = [(pk, None) for pk, _due in overdue]
        for start in range(0, len(targets), ADVANCE_CHUNK):
            advance_games.delay(targets[start : start + ADVANCE_CHUNK])
        for pk, _due in claim("reminder_at", "remind_queued_at", now):
            remind_game.delay(pk)
        for pk, _due in claim("bargaining_until", "bargaining_queued_at", now):
            end_bargaining.delay(pk)
        for pk, _due in claim("bots_due_at", "bots_queued_at", now):
            play_bots.delay(pk)
    return len(overdue)


def claim(due_field: str, queued_field: str, now) -> list:
    """(id, due time) of the active games whose ``due_field`` has passed and that
    were not handed to a worker since, earliest first, marked as handed out at
    ``now``. Call inside a transaction.

    One hand-out per due time, not one per sweep, so no pile of duplicates forms
    behind a busy worker; again REQUEUE_AFTER past the mark, as that task was lost.
    A mark older than the due time was for an earlier one. Rows a worker holds
    (moving the game on) are skipped until the next sweep: marking such a game as
    handed out after its move gave it a new due time would hold that back."""
    not_queued = (
        Q(**{f"{queued_field}__isnull": True})
        | Q(**{f"{queued_field}__lt": F(due_field)})
        | Q(**{f"{queued_field}__lt": now - REQUEUE_AFTER})
    )
    due = (
        Game.objects.filter(not_queued, status=Game.Status.ACTIVE, paused_at=None)
        .filter(**{f"{due_field}__lte": now})
        .select_for_update(skip_locked=True)
        .order_by(due_field)
    )
    rows = list(due.values_list("pk", due_field)[:SWEEP_BATCH])
    Game.objects.filter(pk__in=[pk for pk, _ in rows]).update(
        **{queued_field: Greatest(F(due_field), Value(now))}
    )
    return rows
