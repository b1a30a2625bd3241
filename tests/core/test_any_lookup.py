"""``field__any``: the same rows as ``field__in``, one array parameter on PostgreSQL."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from tests.support.clock_games import new_game

pytestmark = pytest.mark.django_db


def test_any_selects_what_in_selects_for_keys_and_foreign_keys():
    games = [new_game() for _ in range(3)]
    ids = [games[0].pk, games[2].pk, 10**9]
    assert set(Game.objects.filter(pk__any=ids)) == set(Game.objects.filter(pk__in=ids))
    seats = Seat.objects.filter(game__any=ids).values_list("pk", flat=True)
    assert set(seats) == set(Seat.objects.filter(game__in=ids).values_list("pk", flat=True))
    assert not Game.objects.filter(pk__any=[]).exists()
    assert Game.objects.filter(pk__any=[None, games[1].pk]).get() == games[1]


def test_any_sends_one_parameter_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the array form is PostgreSQL's; elsewhere it is IN")
    with CaptureQueriesContext(connection) as queries:
        Game.objects.filter(pk__any=list(range(500))).update(reminder_at=None)
    (sql,) = [q["sql"] for q in queries.captured_queries]
    assert "= ANY(" in sql and "IN (" not in sql
