"""Statements kept once compiled (games.core.compiled): they write what the ORM
would, on SQLite and on PostgreSQL alike, and refuse a rule that loses a parameter."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core import compiled
from games.models import Game, GameEvent, Submission
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


def _same_version(game, version):
    return Game.objects.filter(pk=game, version=version)


def test_events_and_the_game_s_compare_and_set_are_written_as_the_orm_writes_them():
    game = start_game()
    seq = GameEvent.objects.filter(game=game).count()
    events = [
        GameEvent(game=game, seq=seq + i, type="note", data={"t": "é ✓", "i": i}) for i in (0, 1)
    ]
    update = compiled.updates_of(Game, ("name", "version"), _same_version)
    assert compiled.updates_of(Game, ("name", "version"), _same_version) is update  # kept
    before = timezone.now()
    values = {"name": "Renamed ✓", "version": game.version + 1}
    with transaction.atomic():
        assert (
            compiled.insert_and_update(events, update, values, game=game.pk, version=game.version)
            == 1
        )
    game.refresh_from_db()
    assert (game.name, game.version) == ("Renamed ✓", values["version"])
    written = GameEvent.objects.filter(game=game, seq__gte=seq).order_by("seq")
    assert [e.data for e in written] == [{"t": "é ✓", "i": 0}, {"t": "é ✓", "i": 1}]
    assert all(e.created_at >= before for e in written)  # auto_now_add filled in
    # A version that moved on matches no row (the caller then rolls back).
    assert update.run({"name": "Stale", "version": 99}, game=game.pk, version=game.version - 1) == 0
    game.refresh_from_db()
    assert game.name == "Renamed ✓"


def test_a_taken_key_is_refused_by_the_insert_itself():
    game = start_game()
    seat = game.seats.first()
    first = Submission(game=game, seat=seat, key="k1", command={"type": "x"}, version_after=1)
    compiled.insert([first])
    assert not first._state.adding
    again = Submission(game=game, seat=seat, key="k1", command={"type": "y"}, version_after=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        compiled.insert([again])
    assert list(Submission.objects.filter(game=game).values_list("command", flat=True)) == [
        {"type": "x"}
    ]


def test_a_rule_that_drops_a_parameter_is_refused_when_compiled():
    update = compiled.CompiledUpdate(
        Game, ("name",), lambda game, version: Game.objects.filter(pk=game)
    )
    with pytest.raises(TypeError, match="does not compile with its parameters"):
        update.run({"name": "x"}, game=1, version=1)
