"""A deadline written by the one staged statement (games.core.staged_advances) writes
what the ordinary path (timers.advance_many) writes, row for row; anything that
changed the game since its plan, or that the statement does not write (a pause, an
organizer's alert), is left to the ordinary path."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict

from games import engine
from games.core import moves, staged_advances, timers
from games.models import DeadlinePlan, Game, GameEvent, OutboxEmail, Seat
from tests.support.clock_games import fresh, new_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        assert staged_advances.stage([], "p1") == set()  # elsewhere nothing is staged
        pytest.skip("the staged statement is PostgreSQL's; the suite runs there under CI")


def _claimed(game, holder: str = "p1"):
    deadline = game.phase_deadline
    Game.objects.filter(pk=game.pk).update(
        deadline_claimed_by=holder, deadline_claimed_until=deadline + timedelta(seconds=3)
    )
    return fresh(game), deadline


def _written(game) -> dict:
    """What a deadline wrote for ``game``: its fields, events, emails and missed counts
    (less the row ids and the times of writing)."""
    row = fresh(game)
    emails = OutboxEmail.objects.filter(game=game).order_by("key")
    return {
        "game": {name: getattr(row, name) for name in timers.ADVANCED_FIELDS},
        "events": list(GameEvent.objects.filter(game=game).values_list("seq", "type", "data")),
        "emails": [model_to_dict(e, exclude=["id", "created_at"]) for e in emails],
        "missed": dict(Seat.objects.filter(game=game).values_list("index", "missed_in_a_row")),
    }


def test_a_staged_deadline_writes_the_rows_the_ordinary_path_writes():
    game, deadline = _claimed(new_game())
    before = OutboxEmail.objects.filter(game=game).count()
    with transaction.atomic():
        plans = timers.plan_advances([(game.pk, None)], at=deadline)
        assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans, holder="p1")
        ordinary = _written(game)
        transaction.set_rollback(True)
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    assert staged_advances.stage(plans.values(), "p1") == {game.pk}
    assert staged_advances.write([game.pk], "p1", deadline) == {game.pk}
    staged = _written(game)
    assert staged == ordinary
    assert fresh(game).engine_state().phase.kind == "load"
    assert len(staged["emails"]) > before and sorted(staged["missed"].values()) == [0, 1, 1]
    assert not DeadlinePlan.objects.exists()  # used up


def test_a_move_after_the_plan_leaves_the_game_to_the_ordinary_path():
    game, deadline = _claimed(new_game())
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    staged_advances.stage(plans.values(), "p1")
    first = engine.awaiting(game.engine_state())[0]
    outcome = moves.submit(
        game.seats.get(index=first), {"type": "set_aside", "cards": []},
        version=game.phase_since, key="last-second", now=deadline,
    )  # fmt: skip
    assert outcome.accepted
    assert staged_advances.write([game.pk], "p1", deadline) == set()
    assert not DeadlinePlan.objects.exists()
    assert not GameEvent.objects.filter(game=game, type="timed_out").exists()
    assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans, holder="p1") == 1
    assert GameEvent.objects.filter(game=game, type="timed_out").count() == 1
    assert Seat.objects.get(game=game, index=first).missed_in_a_row == 0  # their move counted


def test_a_game_another_process_holds_or_not_yet_due_is_not_written():
    game, deadline = _claimed(new_game(), holder="p2")
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    staged_advances.stage(plans.values(), "p1")
    assert staged_advances.write([game.pk], "p1", deadline) == set()
    game, deadline = _claimed(game, holder="p1")
    staged_advances.stage(plans.values(), "p1")
    assert staged_advances.write([game.pk], "p1", deadline - timedelta(seconds=1)) == set()
    assert fresh(game).version == game.version


def test_a_transition_that_pauses_or_alerts_the_organizer_is_not_staged():
    alerting, deadline = _claimed(new_game(miss_alert_after=1))
    pausing, _ = _claimed(new_game(abandon_after=1))
    plans = timers.plan_advances([(alerting.pk, None), (pausing.pk, None)], at=deadline)
    assert plans[pausing.pk].pausing
    assert staged_advances.stage(plans.values(), "p1") == set()


def test_a_stopped_process_s_plans_are_dropped():
    game, deadline = _claimed(new_game())
    staged_advances.stage(timers.plan_advances([(game.pk, None)], at=deadline).values(), "p1")
    assert staged_advances.forget() == 1  # p1 never said it was alive
    staged_advances.stage(timers.plan_advances([(game.pk, None)], at=deadline).values(), "p1")
    assert staged_advances.forget("p2") == 0 and staged_advances.forget("p1") == 1
