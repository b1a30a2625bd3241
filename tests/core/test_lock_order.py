"""Talk, replies, moves and deadlines meeting on one game, on PostgreSQL: each takes
the game's row before a seat's, so none ever waits for the other in a circle.

Each test forces the interleaving that deadlocked when talk locked its seat first:
the first write stops with its locks taken; the second runs until it stops too, or
waits on a lock; then the first goes on to its commit, and once it is done (or
waits on a lock) the second goes on. Runs whenever the database is PostgreSQL
(always under CI)."""

import logging
import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from games.core import game_setup, moves, notifications, replies, talk, timers
from games.models import Game, InboundMessage, OutboxEmail, Seat, TalkMessage

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
WAIT = 15  # seconds: far longer than PostgreSQL's deadlock_timeout (1 s)


class Pause:
    """``module.name`` stops its first call (after ``real`` runs, if ``after``)
    until ``go`` is set: the write holding it keeps every lock taken so far."""

    def __init__(self, module, name: str, after: bool):
        self.module, self.name, self.after = module, name, after
        self.reached, self.go = threading.Event(), threading.Event()

    @contextmanager
    def installed(self):
        real = getattr(self.module, self.name)

        def paused(*args, **kwargs):
            if not self.after:
                self.stop()
            result = real(*args, **kwargs)
            if self.after:
                self.stop()
            return result

        with mock.patch.object(self.module, self.name, paused):
            yield

    def stop(self):
        if not self.reached.is_set():
            self.reached.set()
            self.go.wait(WAIT)


class Write(threading.Thread):
    """A write on a connection of its own; its result, or what it raised."""

    def __init__(self, call):
        super().__init__(daemon=True)
        self.call, self.result, self.error = call, None, None
        self.backend = threading.Event()
        self.pid = None

    def run(self):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self.backend.set()
            self.result = self.call()
        except Exception as error:  # the test reads it
            self.error = error
        finally:
            connection.close()

    def waiting_on_a_lock(self) -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [self.pid]
            )
            row = cursor.fetchone()
        return bool(row) and row[0] == "Lock"


def until(condition) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "the forced interleaving did not happen"
        time.sleep(0.02)


def forced(first, first_pause: Pause, second, second_pause: Pause) -> tuple:
    """Run the two writes in the order above; both threads, once finished."""
    with first_pause.installed(), second_pause.installed():
        a = Write(first)
        a.start()
        until(lambda: first_pause.reached.is_set() or not a.is_alive())
        b = Write(second)
        b.start()
        b.backend.wait(WAIT)
        until(lambda: second_pause.reached.is_set() or b.waiting_on_a_lock() or not b.is_alive())
        first_pause.go.set()
        until(lambda: not a.is_alive() or a.waiting_on_a_lock())
        second_pause.go.set()
        a.join(WAIT)
        b.join(WAIT)
    assert not a.is_alive() and not b.is_alive()
    return a, b


@pytest.fixture
def victims(caplog):
    """The writes the database chose as a deadlock's victim (and ran again)."""
    caplog.set_level(logging.WARNING, logger="games.core.game_writes")
    return lambda: [r for r in caplog.records if "deadlock victim" in r.getMessage()]


def market_game() -> Game:
    """A market whose last merchant's move ends the phase (seat 2 has set aside)."""
    timing = {"deadline_mode": Game.DeadlineMode.DURATION, "market_minutes": 60}
    game = game_setup.create_game(
        name="Locks", players=PLAYERS, config={"edition": 2}, timing=timing
    )
    phase = game.engine_state().phase.since
    seat = game.seats.get(index=2)
    assert moves.submit(seat, set_aside(), version=phase, key="seat2").accepted
    return Game.objects.get(pk=game.pk)


def set_aside() -> dict:
    return {"type": "set_aside", "cards": []}


def ending_move(game: Game):
    seat = game.seats.get(index=1)
    phase = game.engine_state().phase.since
    return lambda: moves.submit(seat, set_aside(), version=phase, key="seat1")


def talk_pause() -> Pause:
    """Inside the talk's transaction, its message written, its locks taken."""
    return Pause(notifications, "record_talk", after=True)


def move_pause() -> Pause:
    """Inside the move's transaction, the game's row locked."""
    return Pause(moves, "locked_game", after=True)


def assert_moved_on(game: Game) -> None:
    assert Game.objects.get(pk=game.pk).engine_state().phase.kind == "load"


def test_a_talk_line_and_a_phase_ending_move_at_once_both_land(victims):
    game = market_game()
    ben = game.seats.get(index=1)
    say = lambda: talk.post(ben, "Nothing to see in my bag.", timezone.now())  # noqa: E731
    said, moved = forced(say, talk_pause(), ending_move(game), move_pause())
    assert said.error is None and moved.error is None
    assert moved.result.accepted
    assert TalkMessage.objects.filter(game=game).count() == 1  # the line is not lost
    assert_moved_on(game)
    assert victims() == []


def test_a_reply_and_a_phase_ending_move_at_once_both_land(settings, victims):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = market_game()
    ben = game.seats.get(index=1)
    received = replies.Received(
        message_id="<lock-order@mail.example>",
        recipients=(f"<play+{ben.reply_key}@in.example.org>",),
        from_header=ben.email,
        text="Honest goods, as always.",
    )
    answer = lambda: replies.handle(received)  # noqa: E731
    answered, moved = forced(answer, talk_pause(), ending_move(game), move_pause())
    assert answered.error is None and moved.error is None
    assert answered.result == InboundMessage.Outcome.TALK_POSTED
    assert moved.result.accepted
    assert TalkMessage.objects.filter(game=game).count() == 1
    assert_moved_on(game)
    assert victims() == []


def test_a_talk_line_and_a_deadline_at_once_both_land(victims):
    game = market_game()
    ben = game.seats.get(index=1)  # the merchant the deadline finds late
    due = game.phase_deadline + timedelta(seconds=1)
    say = lambda: talk.post(ben, "Still thinking, sorry.", due)  # noqa: E731
    advance = lambda: timers.advance_many([(game.pk, game.version)], now=due)  # noqa: E731
    # The deadline's transaction stops with its games locked, before it writes.
    deadline_pause = Pause(timers, "_write_transitions", after=False)
    said, advanced = forced(say, talk_pause(), advance, deadline_pause)
    assert said.error is None and advanced.error is None
    assert advanced.result == 1
    assert TalkMessage.objects.filter(game=game).count() == 1
    assert_moved_on(game)
    assert Seat.objects.get(pk=ben.pk).missed_in_a_row == 1
    assert victims() == []


def test_a_hard_bounce_and_a_phase_ending_move_at_once_both_land(victims):
    from anymail.signals import AnymailTrackingEvent

    from games.mail import tracking

    game = market_game()
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    email = OutboxEmail.objects.filter(game=game, seat__index=2).first()
    bounce = AnymailTrackingEvent(
        event_type="bounced",
        event_id="lock-order-bounce",
        recipient=email.to,
        metadata={"key": tracking.signed_key(email.key)},
        description="550 unknown user",
    )
    bounced = lambda: tracking.record("postmark", bounce)  # noqa: E731
    # The bounce stops with the seat locked and the organizer's alert written.
    bounce_pause = Pause(notifications, "record_undeliverable_alert", after=True)
    recorded, moved = forced(bounced, bounce_pause, ending_move(game), move_pause())
    assert recorded.error is None and moved.error is None
    assert moved.result.accepted
    assert Seat.objects.get(pk=email.seat_id).undeliverable_at is not None
    assert_moved_on(game)
    assert victims() == []
