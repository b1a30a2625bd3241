"""With a real Celery worker on the machine's Redis and PostgreSQL: early
advance, a short deadline firing, a duplicated task, Redis losing its queue,
and a reminder sent exactly once. The beat is played by a thread calling the
sweep every half second, as the real beat schedule does every second."""

import threading
import time
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.core import mail
from django.db import connection
from django.utils import timezone

from games.core import game_setup, moves
from games.models import Game, GameEvent, OutboxEmail
from games.tasks import advance_games, sweep_deadlines
from sheriff_pbem.celery import app
from tests.support.real_services import REAL_SERVICES

pytestmark = REAL_SERVICES

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
QUEUES = [settings.DEADLINES_QUEUE, settings.CELERY_TASK_DEFAULT_QUEUE]


@pytest.fixture(scope="module")
def worker():
    from celery.contrib.testing.worker import start_worker

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.flushdb()  # no stale tasks from an earlier run
    with start_worker(
        app,
        pool="threads",
        concurrency=2,
        perform_ping_check=False,
        shutdown_timeout=20,
        queues=QUEUES,  # the deadlines' and the emails'
    ):
        yield
    broker.flushdb()


@pytest.fixture(autouse=True)
def drained(worker):
    """Let the worker finish what a test queued before the database is flushed
    between tests (a task still running then would deadlock with the flush)."""
    yield
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    deadline = time.monotonic() + 10
    while any(broker.llen(queue) for queue in QUEUES) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the last task taken off the queue finishes


class Beat:
    """Calls the deadline sweep every half second while the test runs."""

    def __init__(self):
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        try:
            while not self.stop.is_set():
                sweep_deadlines.delay()
                self.stop.wait(0.5)
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def wait_for(check, seconds: float) -> float:
    """Poll ``check`` until true; returns the time it took, fails after ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if check():
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")


def new_game(**timing):
    return game_setup.create_game(
        name="Worker",
        players=PLAYERS,
        config={"edition": 2},
        seed="e4" * 32,
        timing={"deadline_mode": "duration", "market_minutes": 60, **timing},
    )


def phase(game) -> str:
    return Game.objects.get(pk=game.pk).engine_state().phase.kind


def due_in(game, seconds: float) -> None:
    Game.objects.filter(pk=game.pk).update(
        phase_deadline=timezone.now() + timedelta(seconds=seconds)
    )


def test_an_early_advance_reaches_the_players_within_two_seconds(worker):
    game = new_game()
    wait_for(lambda: not OutboxEmail.objects.filter(status="pending").exists(), 10)
    since = game.engine_state().phase.since
    moves.submit(
        game.seats.get(index=1), {"type": "set_aside", "cards": []}, version=since, key="ben"
    )
    started = time.monotonic()
    moves.submit(
        game.seats.get(index=2), {"type": "set_aside", "cards": []}, version=since, key="cid"
    )
    assert phase(game) == "load"  # the advance commits with the last move
    # The two merchants' "load your bag" emails (the game's first emails are its start).
    load_emails = OutboxEmail.objects.filter(game=game, key__contains=":phase")
    assert load_emails.count() == 2
    wait_for(
        lambda: load_emails.filter(status="sent").count() == 2, 2 - (time.monotonic() - started)
    )


def test_a_short_deadline_fires_and_applies_the_defaults(worker):
    game = new_game()
    due_in(game, 1)
    with Beat():
        waited = wait_for(lambda: phase(game) == "load", 5)
    assert waited < 4
    assert GameEvent.objects.filter(game=game, type="timed_out").count() == 1


def test_the_same_advance_task_delivered_twice_makes_one_transition(worker):
    game = new_game()
    due_in(game, -1)
    version = Game.objects.get(pk=game.pk).version
    advance_games.delay([(game.pk, version)])
    advance_games.delay([(game.pk, version)])
    wait_for(lambda: phase(game) == "load", 5)
    time.sleep(1)  # give the duplicate its chance
    assert GameEvent.objects.filter(game=game, type="timed_out").count() == 1
    assert GameEvent.objects.filter(game=game, type="phase_started").count() == 2


def test_redis_flushed_after_the_deadline_was_set_the_sweep_still_advances(worker):
    game = new_game()
    due_in(game, 1)
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # every queued task is gone
    with Beat():
        wait_for(lambda: phase(game) == "load", 10)


def test_a_reminder_is_sent_exactly_once(worker):
    game = new_game(reminder_minutes=30)
    Game.objects.filter(pk=game.pk).update(reminder_at=timezone.now())
    mail.outbox.clear()
    with Beat():
        reminders = OutboxEmail.objects.filter(game=game, key__contains=":remind")
        wait_for(lambda: reminders.filter(status="sent").count() == 2, 5)
        time.sleep(1.5)  # three more sweeps
    assert reminders.count() == 2
    sent = [m for m in mail.outbox if "Reminder" in m.body]
    assert sorted(m.to[0] for m in sent) == ["ben@example.org", "cid@example.org"]


def test_a_practice_games_bots_move_within_seconds_with_the_worker(worker):
    """Bots (a seat played by a bot, no deadlines): the sweep hands their turn to the
    worker once its few seconds have passed, Redis flushed meanwhile or not."""
    bots = [
        game_setup.PlayerSpec(f"{n} (bot)", "", bot="smuggler") for n in ("Tuck", "Much", "Will")
    ]
    game = game_setup.create_game(
        name="Practice", players=bots, config={"edition": 2}, seed="e5" * 32,
        timing={"deadline_mode": "none", "bot_seconds": 1},
    )  # fmt: skip
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    with Beat():
        waited = wait_for(lambda: phase(game) == "inspection", 15)
    assert waited < 12  # the market's and the load's turns, a second or so each
    assert GameEvent.objects.filter(game=game, type="set_aside_submitted").count() == 2
