"""A deadline worker that freezes (SIGSTOP, a paused container, a machine that
swaps) without dying must not hold back the deadlines it had taken: another
worker writes them within seconds of their time.

Why a frozen worker delays deadlines: the sweep hands each deadline out a few
seconds ahead as a task with an ETA, and a Celery worker reserves an ETA task as
soon as it sees it (prefetch limits only the tasks it may run now). A frozen
worker keeps the tasks it reserved: with acks_late Redis gives them to nobody
else before the visibility timeout, and the sweep used to hand the game out
again only REQUEUE_AFTER (10 s) past its deadline. Now a deadline handed out
ahead and not written REHAND_LATE_DEADLINE (2 s) after it falls is handed out
again, overdue, and the worker that is alive writes it."""

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.core import game_setup, timer_tasks
from games.models import Game

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]


def new_game(now=None, name="Frozen"):
    return game_setup.create_game(
        name=name,
        players=PLAYERS,
        config={"edition": 2},
        seed="f0" * 32,
        timing={"deadline_mode": "duration", "market_minutes": 60, "abandon_after": 0},
        now=now,
    )


class HandOuts:
    """The sweep run at given instants, its tasks recorded instead of sent."""

    def __init__(self):
        self.ahead, self.overdue = [], []

    def at(self, instant) -> None:
        with (
            mock.patch.object(timer_tasks.advance_games, "delay", side_effect=self.overdue.append),
            mock.patch.object(
                timer_tasks.advance_games,
                "apply_async",
                side_effect=lambda a, eta: self.ahead.append(a),
            ),
            mock.patch("games.core.timer_tasks.timezone.now", return_value=instant),
        ):
            timer_tasks.sweep_deadlines()


@pytest.mark.django_db
def test_a_deadline_held_by_a_frozen_worker_is_handed_out_again_two_seconds_after_it():
    game = new_game(now=T0)
    deadline = game.phase_deadline
    sweeps = HandOuts()
    sweeps.at(deadline - timedelta(seconds=3))  # handed out ahead; that worker then freezes
    assert len(sweeps.ahead) == 1
    for seconds in (-2, -1, 0, 1, 1.9):  # the deadline falls; its worker may be writing it
        sweeps.at(deadline + timedelta(seconds=seconds))
    assert sweeps.overdue == []
    sweeps.at(deadline + timedelta(seconds=2.5))  # not written: another worker's turn
    assert sweeps.overdue == [[(game.pk, None)]]
    for seconds in (3, 5, 8):  # and once only, as any overdue game
        sweeps.at(deadline + timedelta(seconds=seconds))
    assert len(sweeps.overdue) == 1


# --- with real worker processes, one of them frozen --------------------------------------


def start_worker(env: dict, name: str) -> subprocess.Popen:
    """A deadlines worker as deployed (prefork, 2 processes), in a process group of its
    own, so that SIGSTOP freezes it whole, as a paused container is."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "sheriff_pbem",
            "-q",
            "worker",
            "-Q",
            settings.DEADLINES_QUEUE,
            "--concurrency",
            "2",
            "-n",
            f"{name}@%h",
            "--loglevel",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def worker_env() -> dict:
    db = connection.settings_dict
    user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    url = f"postgres://{user}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"  # the test database
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DEADLINES_CONCURRENCY": "2",
        "DEADLINE_WORKERS": "2",
    }


def wait_until(check, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s")


def answers(name: str) -> bool:
    from sheriff_pbem.celery import app

    replies = app.control.ping(timeout=0.5)
    return any(name in reply_name for reply in replies for reply_name in reply)


class Beat(threading.Thread):
    """The beat's deadline sweep, every half second."""

    def __init__(self):
        super().__init__(daemon=True)
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            timer_tasks.sweep_deadlines.delay()
            self.done.wait(0.5)

    def stop(self):
        self.done.set()
        self.join()


@pytest.mark.real_worker
@pytest.mark.django_db(transaction=True)
def test_the_other_worker_keeps_deadlines_on_time_while_one_is_frozen():
    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("needs PostgreSQL and a Redis broker (always there under CI)")
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.flushdb()
    env = worker_env()
    frozen, alive = start_worker(env, "frozen"), start_worker(env, "alive")
    beat = Beat()
    try:
        wait_until(lambda: answers("frozen") and answers("alive"), 60, "the workers start")
        # While the deadlines are handed out, only the one that will freeze takes timer_tasks.
        os.killpg(frozen.pid, signal.SIGCONT)
        os.killpg(alive.pid, signal.SIGSTOP)
        games = [new_game(name=f"Frozen {i}") for i in range(6)]
        deadline = timezone.now() + timedelta(seconds=7)
        Game.objects.filter(pk__in=[g.pk for g in games]).update(phase_deadline=deadline)
        beat.start()
        wait_until(
            lambda: (
                not Game.objects.filter(
                    pk__in=[g.pk for g in games], advance_queued_at=None
                ).exists()
            ),
            6,
            "the deadlines are handed out ahead",
        )
        # Every deadline is now an ETA task reserved by `frozen`, its ETA still ahead.
        wait_until(lambda: broker.llen(settings.DEADLINES_QUEUE) == 0, 2, "the tasks are taken")
        assert timezone.now() < deadline - timer_tasks.PREPARE - timedelta(seconds=0.5)
        os.killpg(frozen.pid, signal.SIGSTOP)
        os.killpg(alive.pid, signal.SIGCONT)
        pending = {g.pk for g in games}
        late = {}
        while pending and timezone.now() < deadline + timedelta(seconds=20):
            moved = Game.objects.filter(pk__in=pending).exclude(phase_deadline=deadline)
            for pk in moved.values_list("pk", flat=True):
                late[pk] = (timezone.now() - deadline).total_seconds()
                pending.discard(pk)
            time.sleep(0.05)
        assert not pending, f"{len(pending)} games not advanced 20 s after their deadline"
        print(f"lateness with one worker frozen: max {max(late.values()):.2f} s")
        assert max(late.values()) < 4.5, sorted(late.values())
    finally:
        beat.stop()
        for worker in (frozen, alive):
            os.killpg(worker.pid, signal.SIGCONT)
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in (frozen, alive):
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
        broker.flushdb()
        connection.close()
