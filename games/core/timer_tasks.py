"""Celery tasks. The database is the source of truth: tasks carry no state of
their own, so a duplicated, late or lost task is harmless — every transition
is a compare-and-set, and the beat sweep finds whatever is overdue again.

No task is scheduled far ahead (with a Redis broker, long ETAs are redelivered
after the visibility timeout and lost when Redis restarts): the sweep runs
every half second and hands each phase whose deadline is at most a few seconds
away to a worker, which works out the transitions ahead and writes them at the
deadline (see advance_games).
"""

import logging
import math
import time
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from games.core import backlog, daily_emails, lobbies, notifications, timers
from games.models import Game

log = logging.getLogger(__name__)

SWEEP_BATCH = 1000
# Overdue games advanced per task: one commit for the chunk, so that a thousand
# deadlines falling in the same second are not a thousand fsyncs.
ADVANCE_CHUNK = 50
# Deadlines that fall together are shared among the deadline worker's processes,
# at most this many games per task (the rows stay locked while it writes them).
MAX_CHUNK = 500
# A phase is handed out this long before its deadline, with an ETA PREPARE before
# it: the worker works out the transitions meanwhile, and at the deadline only the
# writes are left. Deadlines closer together than GATHER share a task (due at the
# last of them).
LOOKAHEAD = timedelta(seconds=4)
PREPARE = timedelta(seconds=2)
GATHER = timedelta(seconds=0.1)
# An overdue game handed to a worker is not handed again before this: no pile of
# duplicates behind a busy worker, yet a task lost with Redis is given again.
REQUEUE_AFTER = timedelta(seconds=10)
# A deadline handed out ahead and still not written this long after it falls is
# handed out again, overdue, to whichever worker takes it first. The task handed
# ahead waits in the worker that took it (an ETA task is reserved at once), so a
# worker that froze (SIGSTOP, a paused container, a machine swapping) holds it,
# and the row is not locked: a writing worker locks it, and the sweep skips it.
# A healthy worker writes within milliseconds of the deadline; a duplicate finds
# the deadline moved and changes nothing.
REHAND_LATE_DEADLINE = timedelta(seconds=2)


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
    """Advance a chunk of games, each still at its given version, once overdue.
    With ``at`` (their deadline, ISO 8601) and the task early, the transitions
    are worked out first, then the task waits for the deadline and writes them
    (redoing any game that changed meanwhile)."""
    targets = [tuple(t) for t in targets]
    plans = None
    due = None if at is None else datetime.fromisoformat(at)
    if due is not None and due > timezone.now():
        plans = timers.plan_advances(targets, at=due)
        wait = (due - timezone.now()).total_seconds()
        time.sleep(min(max(wait, 0.0), (LOOKAHEAD + PREPARE).total_seconds()))
    try:
        advanced = timers.advance_many(targets, plans=plans)
        if due is not None:
            late = (timezone.now() - due).total_seconds()
            log.info(
                "advanced %d of %d games %.3f s after their deadline", advanced, len(targets), late
            )
        return advanced
    except Exception:  # one broken game must not hold up the others: one by one
        log.exception("chunk advance failed; advancing %d games one by one", len(targets))
        advanced = 0
        for game_id, version in targets:
            try:
                advanced += timers.advance(game_id, expected_version=version)
            except Exception:
                log.exception("could not advance game %s", game_id)
        return advanced


@shared_task(name="games.tasks.remind_game", ignore_result=True)
def remind_game(game_id: int) -> int:
    return timers.send_reminders(game_id)


@shared_task(name="games.tasks.end_bargaining", ignore_result=True)
def end_bargaining(game_id: int) -> bool:
    return timers.end_bargaining(game_id)


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
    """Hand every overdue phase, due reminder and ended bargaining time to the workers."""
    now = timezone.now()
    # Claim, read and enqueue together: if the broker refuses, the claims are undone.
    with transaction.atomic():
        deadlines = claim("phase_deadline", "advance_queued_at", now, ahead=LOOKAHEAD)
        for at, chunk in advance_chunks(deadlines, now):
            if at is None:
                advance_games.delay(chunk)
            else:
                advance_games.apply_async((chunk, at.isoformat()), eta=at - PREPARE)
        for pk, _due in claim("reminder_at", "remind_queued_at", now):
            remind_game.delay(pk)
        for pk, _due in claim("bargaining_until", "bargaining_queued_at", now):
            end_bargaining.delay(pk)
    return len(deadlines)


def advance_chunks(rows: list, now) -> list:
    """Split claimed (id, deadline) rows, earliest first, into tasks:
    (None, chunk) for the overdue ones; (at, chunk) for deadlines still ahead,
    gathered while they fall within GATHER of each other and shared among the
    deadline worker's processes, due at the last deadline of the chunk.

    A chunk holds (id, None): no expected version, since a move that does not end
    the phase (a merchant's choice in the last seconds) must not cancel its
    deadline. A game whose phase did end meanwhile has a later deadline, which
    advance_many finds not yet passed, so a late or repeated task changes nothing."""
    overdue = [(pk, None) for pk, due in rows if due <= now]
    tasks = [
        (None, overdue[start : start + ADVANCE_CHUNK])
        for start in range(0, len(overdue), ADVANCE_CHUNK)
    ]
    groups: list[list] = []
    for row in (row for row in rows if row[1] > now):
        if groups and row[1] - groups[-1][0][1] <= GATHER:
            groups[-1].append(row)
        else:
            groups.append([row])
    processes = settings.DEADLINE_WORKER_PROCESSES
    for group in groups:
        size = min(MAX_CHUNK, max(1, math.ceil(len(group) / processes)))
        for start in range(0, len(group), size):
            chunk = group[start : start + size]
            tasks.append((chunk[-1][1], [(pk, None) for pk, _due in chunk]))
    return tasks


def claim(due_field: str, queued_field: str, now, ahead: timedelta = timedelta(0)) -> list:
    """(id, due time) of the active games whose ``due_field`` falls by
    ``now + ahead`` and that were not handed to a worker since, earliest first,
    marked as handed out at their due time (or ``now``, if that is later). Call
    inside a transaction.

    One hand-out per due time, not one per sweep, so no pile of duplicates forms
    behind a busy worker; again REQUEUE_AFTER past the mark, as that task was lost,
    or (handed out ``ahead``) REHAND_LATE_DEADLINE past the due time, as the worker
    holding it is stuck.
    A mark older than the due time was for an earlier one. Rows a worker holds
    (moving the game on) are skipped until the next sweep: marking such a game as
    handed out after its move gave it a new due time would hold that back."""
    not_queued = (
        Q(**{f"{queued_field}__isnull": True})
        | Q(**{f"{queued_field}__lt": F(due_field)})
        | Q(**{f"{queued_field}__lt": now - REQUEUE_AFTER})
    )
    if ahead:
        # Handed out ahead (marked at the due time itself) and still not done.
        not_queued |= Q(
            **{queued_field: F(due_field), f"{due_field}__lt": now - REHAND_LATE_DEADLINE}
        )
    due = (
        Game.objects.filter(not_queued, status=Game.Status.ACTIVE, paused_at=None)
        .filter(**{f"{due_field}__lte": now + ahead})
        .select_for_update(skip_locked=True)
        .order_by(due_field)
    )
    rows = list(due.values_list("pk", due_field)[:SWEEP_BATCH])
    Game.objects.filter(pk__in=[pk for pk, _ in rows]).update(
        **{queued_field: Greatest(F(due_field), Value(now))}
    )
    return rows
