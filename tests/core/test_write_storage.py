"""How PostgreSQL stores what every move and deadline writes (migrations 0030, 0032):
the seats' pages leave room for updates in place, a game's events and seats are
found through their unique (game, …) indexes, with no index of their own to write,
and the rows a deadline writes by the thousand carry no foreign-key constraint to
check at commit (models.play, HOT_APPEND_ONLY), while Django still deletes them with
their game."""

import pytest
from django.db import connection

from games.core import page_reads
from games.models import Game, GameEvent, OutboxEmail
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


def _foreign_keys(table: str) -> set:
    rows = _rows(
        "SELECT a.attname FROM pg_constraint c JOIN pg_attribute a"
        " ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)"
        " WHERE c.contype = 'f' AND c.conrelid = %s::regclass",
        [table],
    )
    return {name for (name,) in rows}


def test_the_rows_a_deadline_writes_in_bulk_carry_no_key_to_check_at_commit():
    assert _foreign_keys("games_gameevent") == set()
    assert _foreign_keys("games_outboxemail") == set()
    assert "game_id" in _foreign_keys("games_seat")  # the rest keep theirs


def test_a_game_deleted_takes_its_events_and_emails_with_it_and_a_seat_its_address():
    game = start_game()
    seat = game.seats.order_by("index").first()
    owed = OutboxEmail.objects.filter(seat=seat)
    assert GameEvent.objects.filter(game=game).exists() and owed.exists()
    seat.delete()
    assert owed.count() == 0
    assert OutboxEmail.objects.filter(game=game, seat=None).exists()
    Game.objects.filter(pk=game.pk).delete()
    assert not GameEvent.objects.filter(game_id=game.pk).exists()
    assert not OutboxEmail.objects.filter(game_id=game.pk).exists()
