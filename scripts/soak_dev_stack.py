"""Soak the development stack (`make run`: runserver, Celery workers and beat on
SQLite and the file-system broker) with games that play themselves.

Starts scripts/dev-run.sh in a var directory of its own, keeps a 1-minute-
deadline game going (a new one whenever none is active), and every few seconds
checks that web, the workers and beat are alive and how late the latest deadlines
were acted on. Prints a summary and exits non-zero on a crash or a game left
more than --late-limit seconds past its deadline.

    .venv/bin/python scripts/soak_dev_stack.py --minutes 60
"""

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = ROOT / ".venv" / "bin" / "python"
PLAYERS = [
    "Ann <ann@example.org>",
    "Ben <ben@example.org>",
    "Cid <cid@example.org>",
    "Dee <dee@example.org>",
]


def create_game(env: dict, number: int) -> None:
    args = [
        str(PY),
        "manage.py",
        "creategame",
        "--name",
        f"Clockwork {number}",
        "--edition",
        str(1 + number % 2),
        "--market-turn-minutes",
        "1",
    ]
    for player in PLAYERS:
        args += ["--player", player]
    args += [
        "--deadlines",
        "duration",
        "--market-minutes",
        "1",
        "--load-minutes",
        "1",
        "--inspection-minutes",
        "1",
        "--reminder-minutes",
        "0.5",
        "--organizer",
        "org@example.org",
        "--abandon-after",  # nobody plays: the defaults play to the end
        "0",
    ]
    subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True)


def lateness(db: Path) -> tuple[int, int, float]:
    """(active games, finished games, seconds the most overdue active game is late)."""
    with sqlite3.connect(db, timeout=20) as conn:
        rows = conn.execute("SELECT status, phase_deadline FROM games_game").fetchall()
    now = datetime.now(UTC)
    active = [r for r in rows if r[0] == "active"]
    finished = sum(r[0] == "finished" for r in rows)
    late = 0.0
    for _, deadline in active:
        if deadline:
            when = datetime.fromisoformat(deadline).replace(tzinfo=UTC)
            late = max(late, (now - when).total_seconds())
    return len(active), finished, late


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--port", type=int, default=8150)
    parser.add_argument(
        "--late-limit",
        type=float,
        default=60,
        help="seconds past a deadline that count as a failure",
    )
    args = parser.parse_args()

    var = Path(tempfile.mkdtemp(prefix="soak-var-"))
    env = {
        **os.environ,
        "VAR_DIR": str(var),
        "DEBUG": "1",
        "PORT": str(args.port),
        "SITE_URL": f"http://127.0.0.1:{args.port}",
    }
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)  # the stack that needs no server
    log_path = var / "dev-run.log"
    print(f"soak: var {var}, log {log_path}, {args.minutes} minutes", flush=True)
    with open(log_path, "w") as log:
        stack = subprocess.Popen(
            ["bash", "scripts/dev-run.sh"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    db = var / "db.sqlite3"
    started = time.monotonic()
    games, worst, samples, failure = 0, 0.0, 0, ""
    time.sleep(15)
    while time.monotonic() - started < args.minutes * 60:
        if stack.poll() is not None:
            failure = f"dev-run.sh exited with {stack.returncode}"
            break
        active, finished, late = lateness(db)
        if active < 2:  # two games at a time, both editions in turn
            games += 1
            create_game(env, games)
        worst = max(worst, late)
        samples += 1
        if samples % 30 == 0:
            print(
                f"soak: {(time.monotonic() - started) / 60:5.1f} min  games started {games}"
                f"  finished {finished}  worst lateness {worst:.1f} s",
                flush=True,
            )
        time.sleep(5)
    if stack.poll() is None:
        # SIGTERM, not SIGINT: a shell started in the background ignores SIGINT for good.
        os.killpg(stack.pid, signal.SIGTERM)
        try:
            stack.wait(timeout=60)
        except subprocess.TimeoutExpired:
            failure = failure or "dev-run.sh did not stop within 60 s of SIGTERM"
            os.killpg(stack.pid, signal.SIGKILL)
    text = log_path.read_text(errors="replace")
    tracebacks = text.count("Traceback")
    active, finished, _ = lateness(db)
    print(
        f"soak: {args.minutes} min; games started {games}, finished {finished}; "
        f"worst lateness {worst:.1f} s; tracebacks in the log {tracebacks}; "
        f"log lines {text.count(chr(10))}"
    )
    if failure or tracebacks or worst > args.late_limit:
        print(f"soak: FAILED {failure}", file=sys.stderr)
        return 1
    print("soak: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
