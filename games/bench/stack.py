"""The servers the benchmark drives: gunicorn with the site and the minimal view
(games.bench.settings), and a Celery worker that sends the emails the moves owe,
all with production settings (DEBUG off: cached templates, no query log)."""

import os
import secrets
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent.parent


def bench_env(port: int) -> dict:
    """Production-like settings on the configured database and broker."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="games.bench.settings",
        DEBUG="0",
        SECRET_KEY=env.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SITE_URL=f"http://127.0.0.1:{port}",
        SECURE_COOKIES="0",
        SECURE_SSL_REDIRECT="0",
        DEV_MAILBOX="0",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",  # no ESP to wait on
        BENCH_ENV="1",
    )
    return env


class Servers:
    """The running servers: their address, and the CPU time each has used."""

    def __init__(self, url: str, web, worker):
        self.url, self._web, self._worker = url, web, worker

    def cpu(self) -> dict:
        """CPU seconds so far: {"web": gunicorn, "worker": the Celery worker}, each
        with its processes' children."""
        return {"web": cpu_seconds(self._web.pid), "worker": cpu_seconds(self._worker.pid)}


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its descendants, living or
    reaped (Linux's /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            stat = Path(f"/proc/{current}/stat").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rpartition(")")[2].split()  # after the command's name
        # utime, stime, cutime, cstime: fields 14-17 of proc(5), 12-15 here.
        total += sum(int(v) for v in fields[11:15]) / tick
        pending.extend(int(child) for child in children)
    return total


@contextmanager
def servers(port: int, workers: int):
    """gunicorn (``workers`` processes) and one Celery worker, stopped on exit:
    yields a Servers."""
    env = dict(os.environ)
    python = sys.executable
    web = subprocess.Popen(
        [python, "-m", "gunicorn", "sheriff_pbem.wsgi", "--workers", str(workers),
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    worker = subprocess.Popen(
        [python, "-m", "celery", "-A", "sheriff_pbem", "worker", "--concurrency", "1",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for(f"http://127.0.0.1:{port}/healthz", web)
        yield Servers(f"http://127.0.0.1:{port}", web, worker)
    finally:
        for process in (web, worker):
            process.terminate()
        for process in (web, worker):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_for(url: str, process, seconds: float = 30) -> None:
    until = time.time() + seconds
    while time.time() < until:
        if process.poll() is not None:
            raise RuntimeError("gunicorn stopped at start")
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds} s")
