"""The beat's sweep (games.tasks.sweep_deadlines). The database is the source of
truth: the tasks it queues carry no state of their own, so a duplicated, late or lost
one is harmless — every transition is a compare-and-set, and the next sweep finds
whatever is overdue again.

Deadlines are not handed out here: each deadline process (games.core.deadline_runner)
claims its own. The sweep keeps a safety net for them (a deadline overdue that no
process holds: none is running, or one died and its leases ran out) and hands out the
due reminders, ended bargaining times and bots' turns.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from games.core import deadline_claims
from games.models import Game
from sheriff_pbem.celery import app

log = logging.getLogger(__name__)

# The tasks the sweep hands work to (games/tasks.py), queued by name: the tasks sit
# above this module.
ADVANCE_GAMES = "games.tasks.advance_games"
REMIND_GAME = "games.tasks.remind_game"
END_BARGAINING = "games.tasks.end_bargaining"
PLAY_BOTS = "games.tasks.play_bots"

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


def sweep() -> int:
    """Hand the overdue deadlines nobody holds, and every due reminder, ended
    bargaining time and bots' turn, to the workers. Returns how many overdue
    deadlines it took."""
    now = timezone.now()
    # Found by name in the site's Celery app, as notifications sends emails (not
    # send_task, which ignores CELERY_TASK_ALWAYS_EAGER).
    tasks = app.tasks
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
            tasks[ADVANCE_GAMES].delay(targets[start : start + ADVANCE_CHUNK])
        for pk, _due in claim("reminder_at", "remind_queued_at", now):
            tasks[REMIND_GAME].delay(pk)
        for pk, _due in claim("bargaining_until", "bargaining_queued_at", now):
            tasks[END_BARGAINING].delay(pk)
        for pk, _due in claim("bots_due_at", "bots_queued_at", now):
            tasks[PLAY_BOTS].delay(pk)
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
