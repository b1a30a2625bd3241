"""The reads of games.core.selectors (and the hand-written ones of
games.core.page_reads) give each request what the ORM gives, field for field, in
the statements counted here, on SQLite and on PostgreSQL (the suite runs on both)."""

import datetime
from unittest import mock

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.core import live, selectors, talk
from games.models import Game, GameEvent, OutboxEmail, RecordOpening, Seat, TalkMessage
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _a_game_with_every_kind_of_field():
    game = start_game()
    seat = game.seats.get(index=2)
    # Dates, times, booleans, nulls and JSON, as a played game has them.
    seat.away_from = datetime.date(2026, 1, 2)
    seat.away_until = datetime.date(2026, 1, 5)
    seat.last_delivered_at = timezone.now()
    seat.digest_hour = 7
    seat.save()
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now(), skip_weekends=True)
    return Game.objects.get(pk=game.pk), Seat.objects.get(pk=seat.pk)


def test_a_seat_and_its_game_read_as_the_orm_reads_them():
    game, seat = _a_game_with_every_kind_of_field()
    found = selectors.seat_with_game(seat.pk, game.pk)
    assert _fields(found) == _fields(seat)
    assert _fields(found.game) == _fields(game)
    assert isinstance(found.game.state, dict) and found.game.engine_state().round == 1
    assert isinstance(found.game.paused_at, datetime.datetime) and found.game.skip_weekends is True
    assert found.away_from == datetime.date(2026, 1, 2)
    assert found.record_opened is False
    assert found.game is found.game  # attached, not read again
    assert model_to_dict(found) == model_to_dict(seat)


def test_a_seat_at_its_table_reads_the_seats_in_one_statement_without_the_state():
    game, seat = _a_game_with_every_kind_of_field()
    with CaptureQueriesContext(connection) as read:
        found, seats = selectors.seat_at_table(seat.pk, game.pk)
    assert len(read.captured_queries) == 1
    assert [_fields(s) for s in seats] == [_fields(s) for s in game.seats.order_by("index")]
    assert found in seats and _fields(found) == _fields(seat)
    assert all(s.game is found.game and s.record_opened is False for s in seats)
    assert "state" in found.game.get_deferred_fields()
    assert found.game.state == game.state  # read when asked for, as with defer()
    RecordOpening.objects.create(game=game, reason="a dispute")
    assert selectors.seat_at_table(seat.pk, game.pk)[0].record_opened is True
    assert selectors.seat_at_table(seat.pk, start_game().pk) == (None, [])
    assert selectors.seat_at_table(10**9, game.pk) == (None, [])


def test_a_seat_of_another_game_is_not_found():
    game, seat = _a_game_with_every_kind_of_field()
    other = start_game()
    assert selectors.seat_with_game(seat.pk, other.pk) is None
    assert selectors.seat_with_game(10**9, game.pk) is None


def test_an_opened_record_is_known_with_the_seat():
    game, seat = _a_game_with_every_kind_of_field()
    RecordOpening.objects.create(game=game, reason="a dispute")
    assert selectors.seat_with_game(seat.pk, game.pk).record_opened is True


def test_the_locked_game_and_the_seats():
    game, _ = _a_game_with_every_kind_of_field()
    with transaction.atomic():
        assert _fields(selectors.game_locked(game.pk)) == _fields(game)
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        selectors.game_locked(10**9)
    seats = selectors.seats_of(game)
    assert [_fields(s) for s in seats] == [_fields(s) for s in game.seats.order_by("index")]
    assert all(s.game is game for s in seats)


def test_event_batches_in_both_directions():
    game, _ = _a_game_with_every_kind_of_field()
    every = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True))
    assert len(every) > 3
    assert selectors.event_data(game.pk, newest_first=False, bound=None, limit=10**6) == every
    assert selectors.event_data(game.pk, newest_first=True, bound=None, limit=2) == every[::-1][:2]
    middle = every[2]["seq"]
    assert selectors.event_data(game.pk, True, middle, 10**6) == [
        e for e in every[::-1] if e["seq"] < middle
    ]
    assert selectors.event_data(game.pk, False, middle, 1) == [every[3]]


def test_an_event_reads_as_its_data():
    game, _ = _a_game_with_every_kind_of_field()
    newest = selectors.event_data(game.pk, newest_first=True, bound=None, limit=1)[0]
    stored = GameEvent.objects.get(game=game, seq=newest["seq"])
    assert (newest["seq"], newest["type"]) == (stored.seq, stored.type)
    assert newest == stored.data and newest.get("nothing") is None


def test_a_page_s_event_is_decoded_only_when_its_data_is_asked_for():
    game, seat = _a_game_with_every_kind_of_field()
    newest = selectors.seat_page(seat.pk, game.pk, 1)[2][0]
    assert (newest["seq"], newest["type"]) == (newest.seq, newest.type)
    assert newest._data is None  # seq and type came from their own columns
    stored = GameEvent.objects.get(game=game, seq=newest.seq).data
    assert dict(newest) == stored and newest.get("nothing") is None


def test_the_events_a_seat_was_not_told_yet():
    game, _ = _a_game_with_every_kind_of_field()
    every = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True))
    since = every[2]["seq"]
    assert selectors.events_since(game.pk, since) == [e for e in every[::-1] if e["seq"] >= since]
    assert selectors.events_since(game.pk, every[-1]["seq"] + 1) == []


def test_the_last_round_that_ended():
    game, _ = _a_game_with_every_kind_of_field()
    assert selectors.last_round_events(game.pk) == []  # round 1 is in play
    seq = GameEvent.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True)[0]
    played = [
        {"seq": seq + 1, "type": "gold_transferred", "from": 0, "to": 1, "amount": 2},
        {"seq": seq + 2, "type": "round_ended", "round": 1},
        {"seq": seq + 3, "type": "round_started", "round": 2},
        {"seq": seq + 4, "type": "round_ended", "round": 2},
        {"seq": seq + 5, "type": "round_started", "round": 3},
    ]
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=e["seq"], type=e["type"], data=e) for e in played
    )
    assert selectors.last_round_events(game.pk) == played[2:4]
    GameEvent.objects.filter(game=game, seq__gte=seq + 3).delete()
    every = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True))
    first_round = every[next(i for i, e in enumerate(every) if e["type"] == "round_started") :]
    assert selectors.last_round_events(game.pk) == first_round


def test_an_outbox_email_to_send_reads_as_the_orm_reads_it():
    game, seat = _a_game_with_every_kind_of_field()
    email = OutboxEmail.objects.create(
        game=game, seat=seat, key="k", to="a@example.org", subject="s", headers={"X": "1"},
        attachments=[{"filename": "a.ics"}], next_attempt_at=timezone.now(), uncertain=True,
    )  # fmt: skip
    with transaction.atomic():
        assert _fields(selectors.outbox_email_to_send(email.pk)) == _fields(
            OutboxEmail.objects.get(pk=email.pk)
        )
    OutboxEmail.objects.filter(pk=email.pk).update(status=OutboxEmail.Status.SENT)
    with transaction.atomic():
        assert selectors.outbox_email_to_send(email.pk) is None


def test_a_seat_page_reads_what_its_reads_alone_give():
    game, seat = _a_game_with_every_kind_of_field()
    read, seats, events, talk_rows, fingerprint = selectors.seat_page(seat.pk, game.pk, 2)
    alone = selectors.seat_with_game(seat.pk, game.pk)
    assert _fields(read) == _fields(alone) and _fields(read.game) == _fields(alone.game)
    assert read.record_opened is False
    assert [_fields(s) for s in seats] == [_fields(s) for s in selectors.seats_of(game)]
    assert all(s.game is read.game for s in seats)
    assert events == selectors.event_data(game.pk, newest_first=True, bound=None, limit=2)
    assert talk_rows == []
    assert fingerprint == live.SEAT.rows(seat=seat.pk, game=game.pk)
    assert selectors.seat_page(seat.pk, game.pk + 1, 2) == (None, [], [], [], [])


@pytest.mark.parametrize("server_side_binding", [False, True])
def test_a_seat_page_reads_in_one_round_trip_on_postgresql_else_one_by_one(server_side_binding):
    game, seat = _a_game_with_every_kind_of_field()
    alone = selectors.seat_with_game(seat.pk, game.pk)
    options = connection.settings_dict.setdefault("OPTIONS", {})
    with (
        mock.patch.dict(options, {"server_side_binding": server_side_binding}),
        CaptureQueriesContext(connection) as reads,
    ):
        read, seats, events, _talk, _fingerprint = selectors.seat_page(seat.pk, game.pk, 3)
    on_postgresql = connection.vendor == "postgresql"
    assert len(reads.captured_queries) == (1 if on_postgresql else 5)
    if on_postgresql:  # the round trip is logged as one query of its five statements
        assert reads.captured_queries[0]["sql"].count(";\n") == 4
    assert _fields(read) == _fields(alone) and _fields(read.game) == _fields(alone.game)
    assert events == selectors.event_data(game.pk, newest_first=True, bound=None, limit=3)
    assert [_fields(s) for s in seats] == [_fields(s) for s in selectors.seats_of(game)]


def _prepared_on_the_server() -> list:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)  # a new connection sees the game
@pytest.mark.parametrize("threshold", [5, None])
def test_a_seat_page_s_reads_are_kept_prepared_unless_the_settings_say_not(threshold):
    """settings.py sets psycopg's prepare_threshold; None (Django's default, for a
    pooler that cannot keep prepared statements) keeps the server from holding any."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's; the suite runs there under CI")
    game, seat = _a_game_with_every_kind_of_field()
    options = connection.settings_dict.setdefault("OPTIONS", {})
    with mock.patch.dict(options, {"prepare_threshold": threshold}):
        connection.close()  # the setting is the connection's: take a new one
        first = selectors.seat_page(seat.pk, game.pk, 3)
        again = selectors.seat_page(seat.pk, game.pk, 3)
        prepared = _prepared_on_the_server()
        connection.close()  # the next test's connection has the settings' threshold
    assert _fields(first[0]) == _fields(again[0]) and first[2] == again[2]
    page_reads = [s for s in prepared if 'FROM "games_seat" s' in s or "games_gameevent" in s]
    assert len(page_reads) == (3 if threshold else 0), prepared


def _talk_at_a_table():
    """Lines of talk of every kind: the table's, private ones each way, one hidden."""
    game = start_game()
    seats = list(game.seats.order_by("index"))
    said = [
        (seats[0], None), (seats[1], seats[2]), (seats[2], seats[1]), (seats[3], None),
        (seats[1], seats[0]), (seats[0], seats[3]),
    ]  # fmt: skip
    for i, (author, to) in enumerate(said):
        TalkMessage.objects.create(
            game=game, seat=author, to_seat=to, ref=f"r{i}", text=f"line {i}",
            hidden_at=timezone.now() if i == 3 else None,
        )  # fmt: skip
    return game, seats


def _ids(rows) -> list:
    return [m.pk for m in rows]


@pytest.mark.parametrize("finished", [False, True])
def test_a_seat_page_reads_the_talk_the_seat_may_read_as_the_orm_does(finished):
    game, seats = _talk_at_a_table()
    if finished:  # every private line is revealed to the table once the game is over
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, reveal_private=True)
    for seat in seats:
        talk_rows = selectors.seat_page(seat.pk, game.pk, 1)[3]
        orm = list(talk.visible_to(seat).order_by("-id")[: talk.PAGE + 1])
        assert _ids(talk_rows) == _ids(orm)
        assert [_fields(m) for m in talk_rows] == [_fields(m) for m in orm]
    # Seat 1 reads all but the line from seat 0 to seat 3, until the game reveals it.
    assert len(selectors.seat_page(seats[1].pk, game.pk, 1)[3]) == (6 if finished else 5)


def test_the_talk_a_seat_has_not_read_as_the_orm_reads_it():
    game, seats = _talk_at_a_table()
    for seat in seats:
        for since in (0, TalkMessage.objects.filter(game=game).order_by("id")[1].pk):
            seat.talk_read_id = since
            orm = list(talk.unread(seat).order_by("id")[: talk.EMAIL_MESSAGES + 1])
            assert [_fields(m) for m in selectors.unread_talk(seat)] == [_fields(m) for m in orm]


@pytest.mark.parametrize("server_side_binding", [False, True])
def test_an_email_s_row_and_its_seat_s_news_read_as_each_read_alone(server_side_binding):
    """Read together (one round trip on PostgreSQL, the seat and the game taken from
    the row) as outbox_email_to_send, seat_news and unread_talk read them apart."""
    game, seats = _talk_at_a_table()
    seat = seats[1]
    Seat.objects.filter(pk=seat.pk).update(talk_read_id=_ids(TalkMessage.objects.order_by("id"))[1])
    seat.refresh_from_db()
    email = OutboxEmail.objects.create(game=game, seat=seat, key="k", to="a@example.org")
    options = connection.settings_dict.setdefault("OPTIONS", {})
    with mock.patch.dict(options, {"server_side_binding": server_side_binding}):
        with transaction.atomic():
            read, (found, table, news, talk_rows) = selectors.outbox_email_with_news(email.pk)
        assert _fields(read) == _fields(OutboxEmail.objects.get(pk=email.pk))
        alone, alone_table, alone_news, _ = selectors.seat_news(seat.pk, game.pk)
        assert _fields(found) == _fields(alone) and _fields(found.game) == _fields(alone.game)
        assert [_fields(s) for s in table] == [_fields(s) for s in alone_table]
        assert list(map(dict, news)) == list(map(dict, alone_news)) != []
        assert _ids(talk_rows) == _ids(selectors.unread_talk(seat)) != []
        alert = OutboxEmail.objects.create(game=game, key="a", to="o@example.org")
        with transaction.atomic():
            assert selectors.outbox_email_with_news(alert.pk)[1] == (None, [], [], [])
        OutboxEmail.objects.filter(pk=email.pk).update(status=OutboxEmail.Status.SENT)
        with transaction.atomic():
            assert selectors.outbox_email_with_news(email.pk)[0] is None
