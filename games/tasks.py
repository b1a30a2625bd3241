"""Celery tasks. The database is the source of truth: tasks carry no state of
their own, so a duplicated, late or lost task is harmless — every transition
is a compare-and-set, and the beat sweep finds whatever is overdue again.

No task is scheduled far ahead (with a Redis broker, long ETAs are redelivered
after the visibility timeout and lost when Redis restarts): the sweep runs
every second and hands each overdue game to a worker.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import outbox, services
from games.models import Game

log = logging.getLogger(__name__)

SWEEP_BATCH = 1000
# Overdue games advanced per task: one commit for the chunk (a savepoint per game),
# so that a thousand deadlines falling in the same second are not a thousand fsyncs.
ADVANCE_CHUNK = 50
# An overdue game handed to a worker is not handed again before this: no pile of
# duplicates behind a busy worker, yet a task lost with Redis is given again.
REQUEUE_AFTER = timedelta(seconds=30)


@shared_task(ignore_result=True)
def send_emails(pks: list) -> int:
    """Send the emails one move made owed; each is delivered (and locked) on its own,
    and one that cannot be rendered or sent does not hold up the others (the sweep
    tries it again)."""
    sent = 0
    for pk in pks:
        try:
            sent += outbox.deliver(pk) == "sent"
        except Exception:
            log.exception("email %s could not be delivered now", pk)
    return sent


@shared_task(ignore_result=True)
def sweep_outbox() -> int:
    """Send what is owed and not yet sent: emails whose task was lost, and retries."""
    pending = outbox.due()
    for pk in pending:
        outbox.deliver(pk)
    return len(pending)


@shared_task(ignore_result=True)
def advance_games(targets: list) -> int:
    """Advance a chunk of overdue games, each still at its given version."""
    try:
        return services.advance_many([tuple(t) for t in targets])
    except Exception:  # one broken game must not hold up the others: one by one
        log.exception("chunk advance failed; advancing %d games one by one", len(targets))
        advanced = 0
        for game_id, version in targets:
            try:
                advanced += services.advance(game_id, expected_version=version)
            except Exception:
                log.exception("could not advance game %s", game_id)
        return advanced


@shared_task(ignore_result=True)
def remind_game(game_id: int) -> int:
    return services.send_reminders(game_id)


@shared_task(ignore_result=True)
def end_bargaining(game_id: int) -> bool:
    return services.end_bargaining(game_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Hand every overdue phase, due reminder and ended bargaining time to the workers."""
    now = timezone.now()
    active = Game.objects.filter(status=Game.Status.ACTIVE, paused_at=None)
    not_queued = Q(advance_queued_at=None) | Q(advance_queued_at__lt=now - REQUEUE_AFTER)
    # Claim and read together: a game advanced meanwhile (new phase, new deadline)
    # must not be marked as queued, or its next deadline would wait for REQUEUE_AFTER.
    # Enqueue inside the transaction: if the broker refuses, the claim is undone.
    with transaction.atomic():
        overdue = list(
            active.filter(not_queued, phase_deadline__lte=now)
            .select_for_update(skip_locked=True)
            .order_by("phase_deadline")
            .values_list("pk", "version")[:SWEEP_BATCH]
        )
        Game.objects.filter(pk__in=[pk for pk, _ in overdue]).update(advance_queued_at=now)
        for start in range(0, len(overdue), ADVANCE_CHUNK):
            enqueue(advance_games, overdue[start : start + ADVANCE_CHUNK])
    for pk in active.filter(reminder_at__lte=now).values_list("pk", flat=True)[:SWEEP_BATCH]:
        enqueue(remind_game, pk)
    ended = active.filter(bargaining_until__lte=now).values_list("pk", flat=True)[:SWEEP_BATCH]
    for pk in ended:
        enqueue(end_bargaining, pk)
    return len(overdue)


def enqueue(task, *args) -> None:
    """``task.delay(*args)``, surviving a Redis that lost its routing table (a
    flushed or restarted Redis forgets the queue bindings the worker declared):
    declare the queues again and retry once."""
    try:
        task.delay(*args)
    except Exception:
        log.warning("enqueue of %s failed; declaring the queues again", task.name, exc_info=True)
        with task.app.connection_for_write() as connection:
            for queue in task.app.amqp.queues.values():
                queue.bind(connection.default_channel).declare()
        task.delay(*args)
