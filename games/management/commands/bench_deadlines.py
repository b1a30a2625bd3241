"""Benchmark the deadline machinery end to end: a real Celery worker and beat.

Part A, deadline lateness: N games whose market deadlines all fall at the same
instant T; lateness of a game = when its new phase is committed (seen by a poll
every 50 ms) minus T. Also shown: its ``timed_out`` event's time minus T (when
the transaction wrote it, before its commit).
Part B, last move -> emails: the last merchant's market choice completes the
phase; latency = the last ``sent_at`` of the emails that move made owed minus
the moment the submit returned (its commit). ``sent_at`` is when the outbox
handed the message to the email backend (Django's dummy backend here).

The real measurement runs on PostgreSQL + Redis::

    createdb -h 127.0.0.1 -U postgres bench
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench
    export REDIS_URL=redis://127.0.0.1:6379/14 DEBUG=1
    .venv/bin/python manage.py migrate
    .venv/bin/python manage.py bench_deadlines --games 1000 --concurrency 2 --mail 2000

The workers (one per queue, as deployed: deadlines and emails) and beat are
started here as subprocesses with the same environment (EMAIL_BACKEND set to
the dummy backend); their output goes to a log file in a temporary directory
whose path is printed. ``--mail N`` owes N emails just before T, so that the
deadlines fall while the email worker is still busy with them.
"""

import itertools
import logging
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Max, Min
from django.utils import timezone

from games.core import game_setup, moves, notifications, timers
from games.mail.send_tasks import send_emails
from games.models import Game, GameEvent, OutboxEmail, Seat

BENCH_EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
POLL_SECONDS = 0.2
COMMIT_POLL_SECONDS = 0.05  # part A: how often the games are polled for their commit
PART_B_MAX_GAMES = 200
TIMING_SAMPLES = 20
MAIL_PER_TASK = 4
NICE = ["nice", "-n", "10"]


def percentile(values: list, p: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def masked(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
    return url


class Command(BaseCommand):
    help = (
        "Measure deadline lateness and last-move-to-email latency with a real Celery "
        "worker and beat. Run on PostgreSQL + Redis: `createdb -h 127.0.0.1 -U postgres "
        "bench`, then with DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench "
        "REDIS_URL=redis://127.0.0.1:6379/14 run `manage.py migrate` and this command."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000, help="games in part A")
        parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
        parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
        parser.add_argument("--timeout", type=float, default=300, help="seconds per wait")
        parser.add_argument(
            "--lead",
            type=float,
            default=6.0,
            help="seconds from setting the deadlines to T; more than the sweep's look-ahead "
            "(4 s), as a real deadline is known long before it falls",
        )
        parser.add_argument(
            "--rate", type=float, default=20.0, help="part B: last moves per second"
        )
        parser.add_argument(
            "--mail",
            type=int,
            default=0,
            help="part A: emails owed just before T (4 per task, as a move owes them), "
            "a backlog the workers are still sending when the deadlines fall",
        )
        parser.add_argument("--keep", action="store_true", help="keep the benchmark games")
        parser.add_argument(
            "--allow-sqlite",
            action="store_true",
            help="run on SQLite / the file-system broker anyway (not the real measurement)",
        )

    # --- plumbing -----------------------------------------------------------------

    def say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def wait_until(self, what: str, done, timeout: float, every: float = POLL_SECONDS) -> float:
        """Poll ``done()`` every ``every`` seconds; return the seconds waited."""
        start = time.monotonic()
        while not done():
            if time.monotonic() - start > timeout:
                raise CommandError(f"timed out after {timeout:.0f} s waiting for {what}")
            time.sleep(every)
        return time.monotonic() - start

    def start_services(self, tmp: Path, concurrency: int) -> None:
        # The sweep shares deadlines out among the deadline worker's processes.
        env = {
            **os.environ,
            "EMAIL_BACKEND": BENCH_EMAIL_BACKEND,
            "DEADLINES_CONCURRENCY": str(concurrency),
        }
        env.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
        log_path = tmp / "celery.log"
        log = open(log_path, "ab")  # noqa: SIM115 - closed in stop_services
        celery = [sys.executable, "-m", "celery", "-A", "sheriff_pbem"]
        common = {
            "cwd": str(settings.BASE_DIR),
            "env": env,
            "stdout": log,
            "stderr": subprocess.STDOUT,
            "start_new_session": True,  # our own process group, signalled by its id
        }
        # As deployed (docker/compose.yaml): one worker for the deadlines, one for
        # emails at a lower CPU priority.
        self.worker_names = []
        workers = {settings.DEADLINES_QUEUE: [], settings.CELERY_TASK_DEFAULT_QUEUE: NICE}
        for queue, nice in workers.items():
            name = f"bench-{queue}-{os.getpid()}-{uuid.uuid4().hex[:6]}@%h"
            worker = subprocess.Popen(
                [
                    *nice,
                    *celery,
                    "worker",
                    "--concurrency",
                    str(concurrency),
                    # The deadline worker logs how late each chunk was written.
                    "--loglevel=" + ("info" if queue == settings.DEADLINES_QUEUE else "warning"),
                    "-Q",
                    queue,
                    "-n",
                    name,
                    "--without-gossip",
                    "--without-mingle",
                ],
                **common,
            )
            self.processes.append((f"worker {queue}", worker))
            self.worker_names.append(name)
        beat = subprocess.Popen(
            [
                *celery,
                "beat",
                "--loglevel=warning",
                "-s",
                str(tmp / "celerybeat-schedule"),
                "--pidfile",
                str(tmp / "celerybeat.pid"),
            ],
            **common,
        )
        self.processes.append(("beat", beat))
        self.logs.append(log)

    def wait_for_workers(self, timeout: float) -> None:
        from sheriff_pbem.celery import app

        hosts = {name.replace("%h", os.uname().nodename) for name in self.worker_names}

        def ready():
            for name, process in self.processes:
                if process.poll() is not None:
                    raise CommandError(f"celery {name} exited with {process.returncode}")
            replies = app.control.ping(destination=list(hosts), timeout=0.5) or []
            return hosts <= {host for reply in replies for host in reply}

        waited = self.wait_until("the workers to answer", ready, timeout)
        self.say(f"workers {', '.join(sorted(hosts))} ready after {waited:.1f} s")

    def stop_services(self) -> None:
        for _name, process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for name, process in reversed(self.processes):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.stderr.write(f"celery {name} did not stop in 30 s; killing its group")
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.processes.clear()
        for log in self.logs:
            log.close()
        self.logs.clear()

    # --- games ----------------------------------------------------------------------

    def create_games(self, count: int, players: int, label: str) -> list:
        specs = [
            game_setup.PlayerSpec(f"P{i + 1}", f"p{i + 1}@bench.invalid") for i in range(players)
        ]
        ids = []
        started = time.monotonic()
        for i in range(count):
            game = game_setup.create_game(
                name=f"{self.prefix}{label}-{i}",
                players=specs,
                config={"edition": 2},
                timing={"deadline_mode": Game.DeadlineMode.DURATION},
            )
            ids.append(game.pk)
        self.created.extend(ids)
        elapsed = time.monotonic() - started
        self.say(f"created {count} games ({label}) in {elapsed:.1f} s")
        return ids

    def drain_outbox(self, ids: list, timeout: float) -> None:
        def drained():
            return not OutboxEmail.objects.filter(
                game_id__in=ids, status=OutboxEmail.Status.PENDING
            ).exists()

        waited = self.wait_until("the creation emails to be sent", drained, timeout)
        self.say(f"outbox drained in {waited:.1f} s")

    # --- part A -----------------------------------------------------------------------

    def owe_mail(self, ids: list, count: int) -> list:
        """``count`` emails owed at once: each seat of the games ``ids`` is sent its
        current email again (rendered when sent, like every email), one task per
        four emails on the default queue, as the moves of busy games would."""
        seats = list(Seat.objects.filter(game_id__in=ids).order_by("game_id", "index"))
        rows = [
            OutboxEmail(
                game_id=seat.game_id,
                seat=seat,
                key=f"{self.prefix}mail-{i}",
                kind=notifications.RESEND,
                to=seat.email,
                subject="Sheriff of Nottingham",
            )
            for i, seat in zip(range(count), itertools.cycle(seats), strict=False)
        ]
        pks = [email.pk for email in OutboxEmail.objects.bulk_create(rows)]
        for start in range(0, len(pks), MAIL_PER_TASK):
            send_emails.delay(pks[start : start + MAIL_PER_TASK])
        return pks

    def part_a(self, count: int, players: int, lead: float, mail: int, timeout: float) -> dict:
        ids = self.create_games(count, players, "a")
        self.drain_outbox(ids, timeout)
        before = dict(Game.objects.filter(pk__in=ids).values_list("pk", "version"))
        started = time.monotonic()
        mail_pks = self.owe_mail(ids, mail) if mail else []
        if mail:
            self.say(f"part A: {mail} emails owed in {time.monotonic() - started:.1f} s")
        deadline = timezone.now() + timedelta(seconds=lead)
        Game.objects.filter(pk__in=ids).update(phase_deadline=deadline)
        self.say(f"part A: {count} deadlines set to T = {deadline:%H:%M:%S.%f} UTC")

        # game id -> when a poll first saw it advanced: its commit was before that
        # poll's query and after the previous one's (at most COMMIT_POLL_SECONDS).
        seen = {}

        def advanced():
            polled = timezone.now()
            for pk, version in Game.objects.filter(pk__in=ids).values_list("pk", "version"):
                if version > before[pk]:
                    seen.setdefault(pk, polled)
            return len(seen) == count

        self.wait_until(
            f"{count} games to advance", advanced, lead + timeout, every=COMMIT_POLL_SECONDS
        )
        first = dict(
            GameEvent.objects.filter(game_id__in=ids, type="timed_out", created_at__gte=deadline)
            .values("game_id")
            .annotate(at=Min("created_at"))
            .values_list("game_id", "at")
        )
        missing = set(ids) - set(first)
        if missing:
            raise CommandError(f"{len(missing)} games advanced without a timed_out event")
        written = [(first[pk] - deadline).total_seconds() for pk in ids]
        times = sorted(first.values())
        span = (times[-1] - times[0]).total_seconds()
        lateness = [(seen[pk] - deadline).total_seconds() for pk in ids]
        mail_left = OutboxEmail.objects.filter(pk__in=mail_pks, sent_at__lte=max(seen.values()))
        return {
            "mail_pks": mail_pks,
            # Emails of the load still unsent when the last game advanced: if any,
            # the deadlines did not wait for the mail backlog.
            "mail_unsent": len(mail_pks) - mail_left.count(),
            "ids": ids,
            "written_p50": percentile(written, 50),
            "written_p99": percentile(written, 99),
            "p50": percentile(lateness, 50),
            "p99": percentile(lateness, 99),
            "max": max(lateness),
            "rate": count / span if span > 0 else float("inf"),
        }

    def mail_rate(self, pks: list, timeout: float) -> dict:
        """Wait for the mail load to be sent: how long it took from its first email."""
        if not pks:
            return {}
        load = OutboxEmail.objects.filter(pk__in=pks)
        self.wait_until(
            "the mail load to be sent",
            lambda: not load.filter(status=OutboxEmail.Status.PENDING).exists(),
            timeout,
        )
        times = load.aggregate(first=Min("created_at"), last=Max("sent_at"))
        span = (times["last"] - times["first"]).total_seconds()
        return {"span": span, "rate": len(pks) / span if span > 0 else float("inf")}

    # --- part B -----------------------------------------------------------------------

    def part_b(self, count: int, players: int, rate: float, timeout: float) -> dict:
        ids = self.create_games(count, players, "b")
        last_moves = []
        for game in Game.objects.filter(pk__in=ids).order_by("pk"):
            merchants = game.engine_state().merchants()
            seats = {s.index: s for s in Seat.objects.filter(game=game)}
            for index in merchants[:-1]:
                outcome = moves.submit(
                    seats[index],
                    {"type": "set_aside", "cards": []},
                    version=game.phase_since,
                    key=uuid.uuid4().hex,
                )
                if not outcome.accepted:
                    raise CommandError(f"game {game.pk}: {outcome.code} {outcome.message}")
            last_moves.append((game, seats[merchants[-1]]))
        self.drain_outbox(ids, timeout)

        self.say(f"part B: {count} last moves at {rate:g} per second")
        timed = []  # (game id, submit start, commit)
        pace = 1 / rate
        next_at = time.monotonic()
        for game, seat in last_moves:
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += pace
            start = timezone.now()
            outcome = moves.submit(
                seat, {"type": "set_aside", "cards": []}, version=game.phase_since, key="last"
            )
            committed = timezone.now()
            if not outcome.accepted:
                raise CommandError(f"game {game.pk}: {outcome.code} {outcome.message}")
            timed.append((game.pk, start, committed))

        def sent():
            return not OutboxEmail.objects.filter(
                game_id__in=ids, status=OutboxEmail.Status.PENDING
            ).exists()

        self.wait_until("the next phase's emails to be sent", sent, timeout)
        latencies = []
        for pk, start, committed in timed:
            owed = OutboxEmail.objects.filter(game_id=pk, created_at__gte=start)
            last = owed.aggregate(last=Max("sent_at"))["last"]
            if last is None:
                raise CommandError(f"game {pk}: the last move made no email owed")
            latencies.append((last - committed).total_seconds())
        return {
            "ids": ids,
            "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99),
            "n": len(latencies),
        }

    def time_advance(self, ids: list) -> list:
        """timers.advance (forced) in this process, on a few of the games: ms each."""
        took = []
        for pk in ids[:TIMING_SAMPLES]:
            version = Game.objects.values_list("version", flat=True).get(pk=pk)
            start = time.perf_counter()
            timers.advance(pk, expected_version=version, force=True)
            took.append((time.perf_counter() - start) * 1000)
        return took

    # --- the command ----------------------------------------------------------------------

    def handle(self, *args, **options):
        count, players = options["games"], options["players"]
        concurrency, timeout = options["concurrency"], options["timeout"]
        if count < 1:
            raise CommandError("--games must be at least 1")
        vendor = connection.vendor
        broker = settings.CELERY_BROKER_URL
        broker_kind = broker.split("://", 1)[0] or broker
        if (vendor == "sqlite" or broker_kind == "filesystem") and not options["allow_sqlite"]:
            raise CommandError(
                f"database {vendor}, broker {broker_kind}: the real measurement runs on "
                "PostgreSQL + Redis (set DATABASE_URL and REDIS_URL; see --help), "
                "or pass --allow-sqlite."
            )
        logging.getLogger("games").setLevel(logging.WARNING)  # no line per created game
        overdue = Game.objects.filter(
            status=Game.Status.ACTIVE, paused_at=None, phase_deadline__lte=timezone.now()
        ).count()
        if overdue:
            self.stderr.write(f"warning: {overdue} other games are overdue and will compete")

        self.prefix = f"bench-{uuid.uuid4().hex[:8]}-"
        self.processes, self.logs, self.created = [], [], []
        tmp = Path(tempfile.mkdtemp(prefix="bench_deadlines-"))
        self.say(
            f"db: {vendor} {settings.DATABASES['default']['NAME']}, broker: {masked(broker)}, "
            f"worker concurrency: {concurrency}"
        )
        self.say(f"celery log: {tmp / 'celery.log'}")
        try:
            self.start_services(tmp, concurrency)
            self.wait_for_workers(60)
            a = self.part_a(count, players, options["lead"], options["mail"], timeout)
            mail = self.mail_rate(a["mail_pks"], timeout)
            b = self.part_b(min(count, PART_B_MAX_GAMES), players, options["rate"], timeout)
            advance_ms = self.time_advance(a["ids"])
            self.wait_until(
                "the last emails",
                lambda: (
                    not OutboxEmail.objects.filter(
                        game_id__in=self.created, status=OutboxEmail.Status.PENDING
                    ).exists()
                ),
                timeout,
            )
        finally:
            self.stop_services()
            if self.created and not options["keep"]:
                for i in range(0, len(self.created), 500):
                    Game.objects.filter(pk__in=self.created[i : i + 500]).delete()
                self.say(f"deleted {len(self.created)} benchmark games")
            elif self.created:
                self.say(f"kept {len(self.created)} games named {self.prefix}*")

        self.say("")
        self.say(
            f"games: {count}, worker concurrency: {concurrency}, db: {vendor}, "
            f"broker: {broker_kind}"
        )
        self.say(
            f"deadline lateness, to the commit: p50 {a['p50']:.2f} s, p99 {a['p99']:.2f} s, "
            f"max {a['max']:.2f} s (polled every {COMMIT_POLL_SECONDS * 1000:.0f} ms)"
        )
        self.say(
            f"  timed_out event written: p50 {a['written_p50']:.2f} s, "
            f"p99 {a['written_p99']:.2f} s ({a['rate']:.0f} games/s)"
        )
        if a["mail_pks"]:
            self.say(
                f"mail load: {len(a['mail_pks'])} emails owed before T, "
                f"{a['mail_unsent']} still unsent when the last game advanced; "
                f"all sent in {mail['span']:.1f} s ({mail['rate']:.0f} emails/s)"
            )
        self.say(
            f"last move -> emails handed over: p50 {b['p50']:.2f} s, p99 {b['p99']:.2f} s "
            f"({b['n']} moves)"
        )
        self.say(
            f"timers.advance in-process: p50 {percentile(advance_ms, 50):.1f} ms, "
            f"max {max(advance_ms):.1f} ms ({len(advance_ms)} games)"
        )
