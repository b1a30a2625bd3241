"""The development commands say things once and start what they are asked to:
creategame's first deadline, a fresh demo game once the last one is over, and a
file-system broker that does not warn about a host it has no use for."""

import logging
import os
import signal
import subprocess
import sys
import time
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from kombu import Connection

from games.models import Game

pytestmark = pytest.mark.django_db

PLAYERS = [
    *("--player", "Ann <ann@example.org>"),
    *("--player", "Ben <ben@example.org>"),
    *("--player", "Cid <cid@example.org>"),
]


def creategame(*extra) -> str:
    out = StringIO()
    call_command(
        "creategame", "--name", "Clock", *PLAYERS, "--deadlines", "duration", *extra, stdout=out
    )
    return out.getvalue()


def deadline_line(output: str) -> str:
    return next(line for line in output.splitlines() if "First deadline" in line)


def test_creategame_says_a_utc_deadline_once():
    line = deadline_line(creategame("--market-minutes", "5"))
    assert line.count("UTC") == 1, line
    assert line.count(":") == 2, line  # "First deadline:" and one time


def test_creategame_says_a_local_deadline_with_its_utc_time():
    line = deadline_line(creategame("--market-minutes", "5", "--deadline-timezone", "Europe/Paris"))
    assert "(Europe/Paris)" in line and line.endswith("UTC)"), line


def demo(*args) -> str:
    out = StringIO()
    call_command("demo_game", *args, stdout=out)
    return out.getvalue()


def test_demo_game_is_found_again_while_it_is_in_play():
    demo()
    assert "exists" in demo()
    assert Game.objects.filter(name="Demo game").count() == 1


def test_a_finished_demo_game_gives_way_to_a_fresh_one():
    demo()
    Game.objects.filter(name="Demo game").update(status=Game.Status.FINISHED)
    output = demo()
    assert "Created 'Demo game'" in output
    fresh = Game.objects.filter(name="Demo game", status=Game.Status.ACTIVE).get()
    assert f"game {fresh.pk}" in output
    assert demo().count(f"game {fresh.pk}") == 1  # and that one is found again


def test_demo_game_new_starts_a_fresh_one_at_once():
    demo()
    assert "Created" in demo("--new")
    assert Game.objects.filter(name="Demo game", status=Game.Status.ACTIVE).count() == 2
    assert f"game {Game.objects.latest('pk').pk}" in demo()  # the newest is the one shown


def test_the_file_system_broker_does_not_warn_about_a_hostname(tmp_path, caplog):
    options = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path / "control"),
    }
    broker = Connection(
        "filesystem://", transport="games.devtools.dev_broker:Transport", transport_options=options
    )
    with caplog.at_level(logging.WARNING, logger="kombu"):
        with broker, broker.SimpleQueue("q") as queue:
            queue.put({"hello": 1})
            assert queue.get(timeout=1).payload == {"hello": 1}
        broker.clone()
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]


def test_a_worker_stopped_as_honcho_stops_it_says_no_error(tmp_path):
    """Ctrl-C on `make run`: honcho sends SIGTERM to each process's whole group, the
    pool's processes included. A clean stop prints no ERROR line."""
    env = {
        **os.environ,
        "VAR_DIR": str(tmp_path),
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "filesystem://",
        "REDIS_URL": "",
        "PYTHONUNBUFFERED": "1",
    }
    command = [sys.executable, "-m", "celery", "-A", "sheriff_pbem", "-q", "worker"]
    command += ["--loglevel=info", "--concurrency=2", "-n", "stop-test@%h"]
    worker = subprocess.Popen(
        command,
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # as honcho starts it: a group of its own
    )
    lines = []
    try:
        for line in worker.stdout:
            lines.append(line)
            if " ready." in line:
                break
        pool_started(worker.pid, count=2)
        os.killpg(worker.pid, signal.SIGTERM)
        lines += worker.stdout.readlines()
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
    output = "".join(lines)
    assert "ready." in output and "Warm shutdown" in output, output
    assert "ERROR" not in output, output


def pool_started(parent: int, count: int, wait: float = 20.0) -> None:
    """Wait until the worker's ``count`` pool processes are set up (each has run its
    start-up hooks: it ignores SIGTERM), or ``wait`` seconds (they never will)."""
    stop_at = time.monotonic() + wait
    while time.monotonic() < stop_at:
        pool = [pid for pid in _processes() if _field(pid, "PPid") == str(parent)]
        if len(pool) == count and all(_ignores_term(pid) for pid in pool):
            return
        time.sleep(0.1)


def _processes() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _field(pid: int, name: str) -> str:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(f"{name}:"):
                    return line.split(":", 1)[1].strip()
    except OSError:  # gone meanwhile
        pass
    return ""


def _ignores_term(pid: int) -> bool:
    return bool(int(_field(pid, "SigIgn") or "0", 16) & (1 << (signal.SIGTERM - 1)))
