"""Benchmark what idle open pages cost the site: ``--pages`` pages (seat pages,
My games and organizers' pages) each polling every ``--every`` seconds with
nothing changing, through gunicorn with production settings, on the configured
database::

    createdb -h 127.0.0.1 -U postgres bench_live
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_live DEBUG=1 \\
        .venv/bin/python manage.py migrate
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_live DEBUG=1 \\
        .venv/bin/python manage.py bench_live --pages 1000 --seconds 30

Prints the polls made, how many were 304, their latency, and the CPU the site
spent per poll: gunicorn's processes and, where it runs on this machine, the
database server's, measured from /proc over the run (games.devtools.bench.stack),
against the bound of 1 ms. The clients run on the same machine; their own CPU is
not the site's and is not counted. Before the HTTP run, the same polls in-process
(Django's handler called directly, no HTTP) give the statements per poll and the
Python CPU per poll on its own. The games it makes are removed when done.
"""

import io
import logging
import os
import statistics
import sys
import threading
import time
from http.client import HTTPConnection

from django.core.handlers.wsgi import WSGIHandler
from django.core.management.base import BaseCommand
from django.db import connection

from games.core import game_setup, links, live
from games.core.compiled import BATCHED
from games.devtools.bench import stack
from games.models import Game
from games.present import live_poll
from sheriff_pbem.wsgi import application

BOUND_MS = 1.0  # the site's CPU per idle poll
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")
PREFIX = "Live bench"


def make_pages(pages: int) -> tuple[list[tuple[str, str]], list[int]]:
    """Games enough for ``pages`` open pages: nine in ten seat pages, the rest My
    games and organizers' pages; returns (poll path, ETag) of each, and the games."""
    polls, games = [], []
    index = 0
    while len(polls) < pages:
        index += 1
        organizer = f"org{index}@example.org"
        players = [game_setup.PlayerSpec(n, f"{n.lower()}{index}@example.org") for n in NAMES]
        game = game_setup.create_game(
            name=f"{PREFIX} {index}",
            players=players,
            config={"edition": 2},
            seed="ef" * 32,
            organizer_email=organizer,
        )
        games.append(game.pk)
        for seat in game.seats.all():
            token = links.make_token(seat)
            seen = live.seat(links.Token(game.pk, seat.pk, seat.link_version))
            polls.append((f"/play/{token}/live/", seen.tag))
        for poll in (
            live_poll.person_poll(players[0].email),
            live_poll.organizer_poll(game.pk, organizer),
        ):
            polls.append((poll["url"], poll["tag"]))
    return polls[:pages], games


def in_process(handler, polls: list, rounds: int) -> dict:
    """Each poll ``rounds`` times through the WSGI application ``handler``: the
    statements of one, and the CPU per poll, this process's and its database
    server process's."""

    def call(path: str, tag: str) -> int:
        environ = {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": path,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_IF_NONE_MATCH": f'"{tag}"',
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(b""),
        }
        status = []
        body = handler(environ, lambda s, h: status.append(s))
        b"".join(body)
        if hasattr(body, "close"):  # as a WSGI server does: the request's end
            body.close()
        return int(status[0].split()[0])

    sent = []

    def counted(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):  # (a request's start empties the query log)
        assert call(*polls[0]) == 304
    backend = _backend_pid()
    codes = []
    start, database = time.process_time(), stack.cpu_seconds(backend) if backend else 0
    for _ in range(rounds):
        for path, tag in polls:
            codes.append(call(path, tag))
    spent = time.process_time() - start
    database = (stack.cpu_seconds(backend) - database) if backend else 0
    return {
        "statements": sum(len(sql.split(BATCHED)) for sql in sent),
        "polls": len(codes),
        "not_modified": codes.count(304),
        "cpu_ms": spent * 1000 / len(codes),
        "database_ms": database * 1000 / len(codes),
    }


APP_NAME = "bench-live-web"
IDLE_SECONDS = 5


def _backends() -> list[int]:
    """The database server processes serving the benchmark's gunicorn, where the
    database runs on this machine."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", [APP_NAME])
        found = [row[0] for row in cursor.fetchall()]
    connection.close()
    return [pid for pid in found if stack.parent_pid(pid)]


def _cpu(site) -> dict:
    """CPU seconds so far of gunicorn and of the database's processes serving it."""
    backends = {pid: stack.cpu_seconds(pid) for pid in _backends()}
    return {"web": site.cpu()["web"], "backends": backends}


def _backend_pid() -> int | None:
    """This process's PostgreSQL server process, where it runs on this machine."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    return pid if stack.parent_pid(pid) else None


def over_http(url: str, polls: list, every: float, seconds: float, clients: int) -> dict:
    """``polls`` pages each polling every ``every`` s for ``seconds`` s, from
    ``clients`` threads: the latency and status of each poll."""
    host, port = url.removeprefix("http://").split(":")
    latencies, codes, lock = [], [], threading.Lock()
    interval = every / len(polls)  # the pages' polls spread evenly over ``every``
    start = time.monotonic()

    def client(offset: int) -> None:
        n = offset
        while True:
            due = start + n * interval
            if due - start >= seconds:
                return
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            path, tag = polls[n % len(polls)]
            began = time.perf_counter()
            conn = HTTPConnection(host, int(port), timeout=10)
            conn.request("GET", path, headers={"If-None-Match": f'"{tag}"'})
            answer = conn.getresponse()
            answer.read()
            conn.close()
            with lock:
                latencies.append((time.perf_counter() - began) * 1000)
                codes.append(answer.status)
            n += clients

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"latencies": latencies, "codes": codes}


class Command(BaseCommand):
    help = "What idle open pages cost the site: CPU per poll through gunicorn, against 1 ms."

    def add_arguments(self, parser):
        parser.add_argument("--pages", type=int, default=1000)
        parser.add_argument("--every", type=float, default=live_poll.EVERY, help="seconds")
        parser.add_argument("--seconds", type=float, default=30, help="of polling over HTTP")
        parser.add_argument("--workers", type=int, default=2, help="gunicorn's")
        parser.add_argument("--clients", type=int, default=16, help="threads polling")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--rounds", type=int, default=3, help="in-process, per page")

    def handle(self, *args, **options):
        if os.environ.get("BENCH_ENV") != "1":  # run again under the benchmark's settings
            os.execve(sys.executable, [sys.executable, *sys.argv], stack.bench_env(options["port"]))
        logging.getLogger("games").setLevel(logging.WARNING)  # not a line per game made
        polls, games = make_pages(options["pages"])
        try:
            self.run(polls, options)
        finally:
            Game.objects.filter(pk__in=games).delete()

    def run(self, polls: list, options: dict) -> None:
        say = self.stdout.write
        say(f"{len(polls)} idle pages on {connection.vendor}")
        # The site's application (the polls answered ahead of Django's request cycle,
        # games.web.live.LeanPolls), and Django's alone, side by side.
        for name, handler in (("site", application), ("Django's cycle", WSGIHandler())):
            inside = in_process(handler, polls, options["rounds"])
            say(
                f"in-process, {name}: {inside['polls']} polls, {inside['not_modified']} "
                f"answered 304, {inside['statements']} statement each; CPU per poll: "
                f"{inside['cpu_ms']:.3f} ms here, {inside['database_ms']:.3f} ms in the database"
            )
        with connection.cursor() as cursor:  # settled: no autovacuum of the new rows meanwhile
            cursor.execute("VACUUM ANALYZE") if connection.vendor == "postgresql" else None
        connection.close()  # the servers use their own
        # The database's CPU is its server processes' that serve gunicorn (named by
        # the application name libpq reads): other work on the same server (another
        # database's tests) is not the polls'.
        os.environ["PGAPPNAME"] = APP_NAME
        floor = measured_over_http("games.devtools.bench.empty_app", polls, options)
        site = measured_over_http("sheriff_pbem.wsgi", polls, options)
        made = len(site["codes"])
        latencies = sorted(site["latencies"])
        say(
            f"over HTTP: {made} polls in {options['seconds']:.0f} s "
            f"({made / options['seconds']:.0f}/s: {len(polls)} pages, "
            f"each every {options['every']:g} s), {site['codes'].count(304)} answered 304; "
            f"gunicorn's database connections: {site['connections']}"
        )
        say(
            f"latency ms: p50 {statistics.median(latencies):.1f}, "
            f"p95 {latencies[int(len(latencies) * 0.95)]:.1f}, max {latencies[-1]:.1f}"
        )
        total = site["web"] + site["database"]
        say(
            f"CPU per poll: site {total:.3f} ms (gunicorn {site['web']:.3f}, database "
            f"{site['database']:.3f}); bound {BOUND_MS:g} ms: {total / BOUND_MS:.2f} of it"
        )
        say(
            f"the floor, an empty WSGI application on the same gunicorn, same polls: "
            f"{floor['web']:.3f} ms a request; the site's poll {total / floor['web']:.2f}× it, "
            f"{total - floor['web']:.3f} ms more"
        )


def measured_over_http(app: str, polls: list, options: dict) -> dict:
    """The polls over HTTP to gunicorn serving ``app``: their codes and latencies,
    and the CPU per poll of gunicorn ("web") and of the database processes serving it,
    less what the servers spend idle."""
    # No Celery worker: a poll queues nothing, and an idle worker's own polling of
    # its broker would share the machine.
    with stack.servers(options["port"], options["workers"], app, celery=False) as site:
        over_http(site.url, polls, options["every"], 2, options["clients"])  # connected
        quiet = _cpu(site)
        time.sleep(IDLE_SECONDS)  # what the servers spend doing nothing is not the polls'
        before = _cpu(site)
        found = over_http(site.url, polls, options["every"], options["seconds"], options["clients"])
        after = _cpu(site)
    scale = options["seconds"] / IDLE_SECONDS
    idle_web = (before["web"] - quiet["web"]) * scale
    idle_database = _served(quiet, before) * scale
    made = len(found["codes"])
    found["web"] = (after["web"] - before["web"] - idle_web) * 1000 / made
    found["database"] = (_served(before, after) - idle_database) * 1000 / made
    found["connections"] = len(after["backends"])
    return found


def _served(before: dict, after: dict) -> float:
    """CPU seconds the database processes serving gunicorn spent between the two: a
    connection older than CONN_MAX_AGE is replaced, and its new process counts whole."""
    now, then = after["backends"], before["backends"]
    return sum(now.values()) - sum(cpu for pid, cpu in then.items() if pid in now)
