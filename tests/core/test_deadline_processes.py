"""Two real deadline processes (``manage.py run_deadlines``) on the same database:
they share the deadlines that fall together and never advance a game twice; and
when one of them is killed outright a second before the deadline, the other takes
its deadlines over once their leases run out, and every game moves on once.

No timing is asserted: a wait that runs out only says what never happened."""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from games.core import game_setup
from games.models import Game, GameEvent
from tests.support.real_services import REAL_SERVICES

pytestmark = REAL_SERVICES

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
ROOT = Path(__file__).resolve().parents[2]
GAMES = 40
# Small batches, so that both processes claim a share of the burst.
BATCH = "2"
# Far more than it takes (the leases run out 3 s after the deadline): a bound on
# waiting, not on speed.
WAIT_SECONDS = 60


def process_env() -> dict:
    db = connection.settings_dict
    user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    url = f"postgres://{user}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"  # the test database
    return {**os.environ, "DATABASE_URL": url}


def start_process(env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_deadlines", "--batch", BATCH],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_until(check, what: str) -> None:
    end = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {WAIT_SECONDS} s")


def new_game(i: int) -> Game:
    return game_setup.create_game(
        name=f"Two processes {i}",
        players=PLAYERS,
        config={"edition": 2},
        seed="e5" * 32,
        timing={"deadline_mode": "duration", "market_minutes": 60, "load_minutes": 60},
    )


def timed_out_per_game(ids: list) -> dict:
    counted = (
        GameEvent.objects.filter(game_id__in=ids, type="timed_out")
        .values("game_id")
        .annotate(n=Count("pk"))
    )
    return {row["game_id"]: row["n"] for row in counted}


def holders(ids: list) -> dict:
    """Each process's pid -> how many of these games it holds a claim on."""
    claimed = Game.objects.filter(pk__in=ids, deadline_claimed_until__isnull=False)
    held = {}
    for holder in claimed.values_list("deadline_claimed_by", flat=True):
        pid = int(holder.split(":")[1])
        held[pid] = held.get(pid, 0) + 1
    return held


def all_fall_in(ids: list, seconds: float):
    deadline = timezone.now() + timedelta(seconds=seconds)
    Game.objects.filter(pk__in=ids).update(phase_deadline=deadline, deadline_claimed_until=None)
    return deadline


def test_two_processes_never_advance_a_game_twice_and_one_killed_leaves_the_rest_to_the_other():
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    env = process_env()
    ids = [new_game(i).pk for i in range(GAMES)]
    processes = [start_process(env), start_process(env)]
    try:
        time.sleep(3)  # both started and looking for deadlines
        # Round 1: both alive. Every game moves on once.
        all_fall_in(ids, 6)
        wait_until(lambda: len(timed_out_per_game(ids)) == GAMES, "every game advances")
        assert set(timed_out_per_game(ids).values()) == {1}

        # Round 2: the process holding most of the deadlines is killed outright
        # (SIGKILL: no release of its claims) a second before they fall.
        deadline = all_fall_in(ids, 6)
        wait_until(lambda: sum(holders(ids).values()) == GAMES, "the new deadlines are all claimed")
        held = holders(ids)
        victim = max(held, key=held.get)
        assert victim in {p.pid for p in processes}
        time.sleep(max(0.0, (deadline - timezone.now()).total_seconds() - 1))
        os.killpg(victim, signal.SIGKILL)
        wait_until(
            lambda: sum(timed_out_per_game(ids).values()) == 2 * GAMES,
            "the other process advances every game",
        )
        assert set(timed_out_per_game(ids).values()) == {2}  # none twice in a round
        assert not Game.objects.filter(pk__in=ids, phase_deadline=deadline).exists()
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        broker.flushdb()
        connection.close()
