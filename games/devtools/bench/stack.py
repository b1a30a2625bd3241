"""The servers the benchmark drives: gunicorn with the site and the minimal view
(games.devtools.bench.bench_settings), and a Celery worker that sends the emails the moves owe,
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
        DJANGO_SETTINGS_MODULE="games.devtools.bench.bench_settings",
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

    def __init__(self, url: str, web, worker, services: dict[str, int]):
        self.url, self._web, self._worker, self._services = url, web, worker, services

    def cpu(self) -> dict:
        """CPU seconds so far: "web" (gunicorn) and "worker" (the Celery worker),
        each with its processes' children; "database" and "broker" where those
        servers run on this machine (local_services); "machine": every core's busy
        time, which also holds the clients, the kernel and whatever else runs."""
        spent = {"web": cpu_seconds(self._web.pid)}
        if self._worker is not None:
            spent["worker"] = cpu_seconds(self._worker.pid)
        spent.update({name: cpu_seconds(pid) for name, pid in self._services.items()})
        spent["machine"] = machine_busy_seconds()
        return spent


def local_services() -> dict[str, int]:
    """The main process ids of the PostgreSQL and Redis servers the site uses,
    where they run on this machine: {"database": postmaster, "broker": redis-server}.
    The postmaster's descendants are its backends, and its reaped ones are counted
    in its own children's time, so cpu_seconds(postmaster) is the whole server's."""
    from django.conf import settings
    from django.db import connection

    found = {}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        postmaster = parent_pid(backend)
        if postmaster and _command(postmaster) in ("postgres", "postmaster"):
            found["database"] = postmaster
    if settings.CELERY_BROKER_URL.startswith("redis"):
        import redis

        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        pid = int(client.info("server")["process_id"])
        if _command(pid).startswith("redis"):
            found["broker"] = pid
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:  # not a process of this machine
        return ""


def parent_pid(pid: int) -> int | None:
    try:
        return int(_stat_fields(pid)[1])  # ppid: field 4 of proc(5)
    except OSError:  # not a process of this machine
        return None


def _stat_fields(pid: int) -> list[str]:
    """/proc/<pid>/stat's fields after the command's name (which may hold spaces):
    field 3 of proc(5) comes first."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def machine_busy_seconds() -> float:
    """CPU seconds all of the machine's cores have been busy since boot (Linux's
    /proc/stat): what the servers, the clients, the database and the kernel spent."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its descendants, living or
    reaped (Linux's /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = _stat_fields(current)
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:  # gone meanwhile
            continue
        # utime, stime, cutime, cstime: fields 14-17 of proc(5), 12-15 here.
        total += sum(int(v) for v in fields[11:15]) / tick
        pending.extend(int(child) for child in children)
    return total


@contextmanager
def servers(port: int, workers: int, app: str = "sheriff_pbem.wsgi", celery: bool = True):
    """gunicorn (``workers`` processes, serving the WSGI module ``app``) and, with
    ``celery``, one Celery worker, stopped on exit: yields a Servers."""
    env = dict(os.environ)
    python = sys.executable
    web = subprocess.Popen(
        [python, "-m", "gunicorn", app, "--workers", str(workers),
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    worker = subprocess.Popen(
        [python, "-m", "celery", "-A", "sheriff_pbem", "worker", "--concurrency", "1",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    ) if celery else None  # fmt: skip
    try:
        _wait_for(f"http://127.0.0.1:{port}/healthz", web)
        yield Servers(f"http://127.0.0.1:{port}", web, worker, local_services())
    finally:
        running = [p for p in (web, worker) if p is not None]
        for process in running:
            process.terminate()
        for process in running:
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
        except (requests.ConnectionError, requests.Timeout):  # not yet, or a busy machine
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds} s")
