"""The hand-written writes of a move (games.core.bulk): what the ORM would write, on
SQLite and on PostgreSQL alike."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from fixtures_pages import start_game

from games.core import bulk
from games.models import Game, GameEvent, OutboxEmail, Seat

pytestmark = pytest.mark.django_db


def test_a_compare_and_set_update_changes_the_matching_row_only():
    game = start_game()
    other = start_game()
    now = timezone.now()
    fields = {"version": game.version + 1, "updated_at": now, "move_allowances": {"1": [2, 3]}}
    assert bulk.update_where(Game, {"pk": game.pk, "version": game.version + 7}, fields) == 0
    assert bulk.update_where(Game, {"pk": game.pk, "version": game.version}, fields) == 1
    written = Game.objects.get(pk=game.pk)
    assert (written.version, written.updated_at) == (game.version + 1, now)
    assert written.move_allowances == {"1": [2, 3]}
    assert Game.objects.get(pk=other.pk).version == other.version


def test_an_update_below_a_value_never_moves_it_back():
    seat = start_game().seats.get(index=1)
    told = {"notified_seq": 5}
    assert bulk.update_where(Seat, {"pk": seat.pk}, told, below=told) == 1
    assert (
        bulk.update_where(Seat, {"pk": seat.pk}, {"notified_seq": 3}, below={"notified_seq": 3})
        == 0
    )
    assert Seat.objects.get(pk=seat.pk).notified_seq == 5


def test_an_email_s_fields_are_written_as_the_orm_writes_them():
    game = start_game()
    email = OutboxEmail.objects.create(game=game, key="k", to="a@example.org", subject="s")
    now = timezone.now()
    values = {
        "status": OutboxEmail.Status.SENDING,
        "headers": {"X-A": "é"},
        "sending_at": now,
        "attachments": [{"filename": "a.ics"}],
        "rendered_version": None,
        "uncertain": True,
    }
    assert bulk.update_where(OutboxEmail, {"pk": email.pk}, values) == 1
    written = OutboxEmail.objects.filter(pk=email.pk).values(*values).get()
    assert written == values


def test_a_snapshot_and_a_status_are_written_as_the_orm_writes_them():
    game = start_game()
    state = {**game.state, "seq": game.state["seq"]}
    bulk.update_where(
        Game, {"pk": game.pk}, {"state": state, "status": Game.Status.FINISHED, "finished_at": None}
    )
    written = Game.objects.get(pk=game.pk)
    assert written.state == state and written.status == Game.Status.FINISHED


def test_a_few_events_and_many_events_are_inserted_whole():
    game = start_game()
    start = GameEvent.objects.filter(game=game).count()
    for count in (1, 3, 700):  # 700 rows: more values than SQLite takes in one statement
        first = GameEvent.objects.filter(game=game).count()
        data = [{"seq": first + i, "type": "note", "text": "é ✓"} for i in range(count)]
        before = timezone.now()
        bulk.insert([GameEvent(game=game, seq=d["seq"], type="note", data=d) for d in data])
        written = GameEvent.objects.filter(game=game, seq__gte=first).order_by("seq")
        assert [e.data for e in written] == data
        assert all(e.created_at >= before for e in written)  # auto_now_add filled in
    assert GameEvent.objects.filter(game=game).count() == start + 704


def test_rows_inserted_with_an_update_are_written_whole_in_one_statement_on_postgresql():
    game = start_game()
    for count in (1, 3, 700):  # 700 rows: COPY first, then the update
        first = GameEvent.objects.filter(game=game).count()
        data = [{"seq": first + i, "type": "note", "text": "é ✓"} for i in range(count)]
        events = [GameEvent(game=game, seq=d["seq"], type="note", data=d) for d in data]
        version = Game.objects.get(pk=game.pk).version
        with CaptureQueriesContext(connection) as sent:
            changed = bulk.update_where(
                Game,
                {"pk": game.pk, "version": version},
                {"version": version + 1},
                inserting=events,
            )
        assert changed == 1 and Game.objects.get(pk=game.pk).version == version + 1
        written = GameEvent.objects.filter(game=game, seq__gte=first).order_by("seq")
        assert [e.data for e in written] == data
        if connection.vendor == "postgresql" and count < bulk.FAST_FROM:
            assert len(sent.captured_queries) == 1, sent.captured_queries
