"""How PostgreSQL stores what every move and deadline writes (migration 0030): the
seats' pages leave room for updates in place, and a game's events and seats are
found through their unique (game, …) indexes, with no index of their own to write."""

import pytest
from django.db import connection

from games.core import page_reads
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's storage; the suite runs there under CI")


def _rows(sql: str, params=()) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def test_the_seats_pages_leave_room_for_updates_in_place():
    (options,) = _rows("SELECT reloptions FROM pg_class WHERE relname = 'games_seat'")[0]
    assert "fillfactor=70" in options


@pytest.mark.parametrize(
    ("table", "unique"),
    [("games_seat", "unique_seat_index"), ("games_gameevent", "unique_event_seq")],
)
def test_rows_are_found_by_game_through_the_unique_index_alone(table, unique):
    indexes = dict(_rows("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s",
                         [table]))  # fmt: skip
    by_game = [name for name, definition in indexes.items() if "(game_id" in definition]
    assert by_game == [unique], indexes


def test_a_page_s_newest_events_are_read_through_the_unique_index():
    game = start_game()
    sql = page_reads._NEWEST_EVENTS.sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # as on a table of many games
        cursor.execute("EXPLAIN " + sql, [game.pk, 40])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "unique_event_seq" in plan, plan
