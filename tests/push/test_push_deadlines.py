"""A deadline's pushes: written with its emails by every path a deadline takes (the
ordinary one, with or without a plan worked out ahead, and the one staged statement on
PostgreSQL), and held back with the emails while a deadline process writes a burst."""

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, transaction

from games.core import (
    deadline_runner,
    outbox_handoff,
    push_devices,
    pushes,
    staged_advances,
    timers,
)
from games.models import Game, OutboxPush
from tests.support.clock_games import PLAYERS, fresh, new_game

pytestmark = pytest.mark.django_db


def subscribe_everyone(service) -> None:
    for player in PLAYERS:
        device = push_devices.read_device(service.new_device().subscription())
        push_devices.subscribe(player.email, device, list(pushes.BODIES), "en", "")


def written(game) -> list:
    """The pushes written for ``game`` (less their ids and times of writing)."""
    fields = ("key", "kind", "seat__index", "topic", "payload", "status", "subscription_id")
    return list(OutboxPush.objects.filter(game=game).order_by("key").values_list(*fields))


def claimed(game, holder: str = "p1"):
    deadline = game.phase_deadline
    Game.objects.filter(pk=game.pk).update(
        deadline_claimed_by=holder, deadline_claimed_until=deadline + timedelta(seconds=3)
    )
    return fresh(game), deadline


def test_a_deadline_owes_the_new_phase_s_pushes_planned_or_not(push_service):
    subscribe_everyone(push_service)
    game = new_game()
    OutboxPush.objects.all().delete()
    deadline = game.phase_deadline
    with transaction.atomic():
        assert timers.advance(game.pk, now=deadline)
        unplanned = written(game)
        transaction.set_rollback(True)
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    assert plans[game.pk].pushes  # worked out ahead, with no query
    assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans) == 1
    assert written(game) == unplanned
    assert {row[1] for row in unplanned} == {pushes.YOUR_MOVE}
    assert sorted(row[2] for row in unplanned) == [1, 2]  # the loading merchants


def test_the_staged_statement_writes_the_pushes_the_ordinary_path_writes(push_service):
    if connection.vendor != "postgresql":
        pytest.skip("the staged statement is PostgreSQL's; the suite runs there under CI")
    subscribe_everyone(push_service)
    game, deadline = claimed(new_game())
    with transaction.atomic():
        plans = timers.plan_advances([(game.pk, None)], at=deadline)
        assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans, holder="p1")
        ordinary = written(game)
        transaction.set_rollback(True)
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    assert staged_advances.stage(plans.values(), "p1") == {game.pk}
    assert staged_advances.write([game.pk], "p1", deadline, plans) == {game.pk}
    assert written(game) == ordinary and ordinary


@pytest.mark.django_db(transaction=True)  # handed over on commit
def test_a_burst_s_pushes_are_held_with_its_emails_then_handed_over(push_service):
    subscribe_everyone(push_service)
    games = [new_game() for _ in range(2)]
    deadline = games[0].phase_deadline
    clock = mock.Mock(return_value=deadline - timedelta(seconds=30))
    runner = deadline_runner.DeadlineRunner("p1", ahead=timedelta(minutes=1), clock=clock)
    for _ in range(3):
        runner.step()
    before = set(OutboxPush.objects.values_list("pk", flat=True))
    clock.return_value = deadline
    task = outbox_handoff.app.tasks[outbox_handoff.SEND_PUSHES]
    with mock.patch.object(task, "delay") as delay:
        runner.step()
        assert runner.written == 2 and not delay.called
        owed = set(OutboxPush.objects.exclude(pk__in=before).values_list("pk", flat=True))
        held = [b for b in runner.unsent if isinstance(b, outbox_handoff.HeldPushes)]
        assert owed and {pk for ids in held for pk in ids} == owed
        runner.step()  # nothing due: the burst is written
        assert {pk for call in delay.call_args_list for pk in call.args[0]} == owed
