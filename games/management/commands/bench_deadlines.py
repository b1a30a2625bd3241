"""Benchmark the deadline machinery end to end: real deadline processes
(``manage.py run_deadlines``), a Celery worker for emails, one for the deadlines
queue, and beat.

Part A, deadline lateness, once for each count of deadline processes
(``--processes 1,2``): N games whose market deadlines all fall at the same instant
T, set ``--lead`` seconds ahead; lateness of a game = when its new phase is
committed (seen by a poll every 50 ms) minus T. Also shown: its ``timed_out``
event's time minus T (written in the transaction, before its commit), advances per
second, the emails the advances recorded in the outbox (and how long after T the
last was), and when the last of them was sent (the drain). Every game must advance
exactly once. The games are copies of one game created through the service (row
for row, with its seats and events: games/devtools/bench/scale.py), fresh for each
run; ``--create-each`` creates every game through the service instead.
The claim rate: how many deadlines one process claims per second, alone.
Part B, last move -> emails: the last merchant's market choice completes the
phase; latency = the last ``sent_at`` of the emails that move made owed minus
the moment the submit returned (its commit). ``sent_at`` is when the outbox
handed the message to the email backend (Django's dummy backend here).

The real measurement runs on PostgreSQL + Redis::

    createdb -h 127.0.0.1 -U postgres bench
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench
    export REDIS_URL=redis://127.0.0.1:6379/14 DEBUG=1
    .venv/bin/python manage.py migrate
    .venv/bin/python manage.py bench_deadlines --games 10000 --lead 30

The services are started here as subprocesses with the same environment
(EMAIL_BACKEND set to the dummy backend); their output goes to a log file in a
temporary directory whose path is printed. ``--mail N`` owes N emails just before
T, so that the deadlines fall while the email worker is still busy with them.
Every wait fails only after ``--timeout`` seconds without progress, so that the
same default fits 100 games and 10,000.
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
from django.db.models import Count, Max, Min
from django.utils import timezone

from games.core import deadline_claims, deadline_runner, game_setup, moves, notifications, timers
from games.devtools.bench.scale import copy_live_games
from games.models import Game, GameEvent, OutboxEmail, Seat
from games.tasks import send_emails

BENCH_EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
POLL_SECONDS = 0.2
COMMIT_POLL_SECONDS = 0.05  # part A: how often the games are polled for their commit
PART_B_MAX_GAMES = 200
TIMING_SAMPLES = 20
MAIL_PER_TASK = 4
NICE = ["nice", "-n", "10"]
# The bound: every email an advance owes is in the outbox this soon after T.
EMAILS_RECORDED_WITHIN = 10.0
CLAIM_RATE_GAMES = 10000


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


def process_counts(text: str) -> list:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CommandError(f"--processes: a comma-separated list of counts, not {text!r}") from None
    if not counts or min(counts) < 1:
        raise CommandError("--processes: each count must be at least 1")
    return counts


class Command(BaseCommand):
    help = (
        "Measure deadline lateness (with 1 and with 2 deadline processes), the claim rate, "
        "and last-move-to-email latency, with real deadline processes, Celery workers and "
        "beat. Run on PostgreSQL + Redis: `createdb -h 127.0.0.1 -U postgres bench`, then "
        "with DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench "
        "REDIS_URL=redis://127.0.0.1:6379/14 run `manage.py migrate` and this command."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000, help="games in part A")
        parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
        parser.add_argument(
            "--processes",
            default="1,2",
            help="deadline processes (run_deadlines) in each run of part A, comma-separated "
            "(default 1,2: a run with one, then one with two)",
        )
        parser.add_argument("--concurrency", type=int, default=2, help="email worker processes")
        parser.add_argument(
            "--timeout",
            type=float,
            default=120,
            help="seconds a wait may go without progress before it fails",
        )
        parser.add_argument(
            "--lead",
            type=float,
            default=30.0,
            help="seconds from setting the deadlines to T, as a real deadline is known "
            "long before it falls",
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
        parser.add_argument(
            "--create-each",
            action="store_true",
            help="create every game through the service (slow: about 20 ms each) "
            "instead of copying one",
        )
        parser.add_argument("--skip-last-move", action="store_true", help="skip part B")
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

    def wait_progress(self, what: str, left, stall: float, every: float = POLL_SECONDS) -> float:
        """Poll ``left()`` (how much is still to do) until 0; fail only once it has
        not gone down for ``stall`` seconds. Returns the seconds waited."""
        start = last_change = time.monotonic()
        best = None
        while (remaining := left()) > 0:
            now = time.monotonic()
            if best is None or remaining < best:
                best, last_change = remaining, now
            elif now - last_change > stall:
                raise CommandError(
                    f"no progress for {stall:.0f} s waiting for {what} ({remaining} left)"
                )
            time.sleep(every)
        return time.monotonic() - start

    def env(self) -> dict:
        env = {**os.environ, "EMAIL_BACKEND": BENCH_EMAIL_BACKEND}
        env.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
        return env

    def spawn(self, name: str, command: list) -> subprocess.Popen:
        process = subprocess.Popen(
            command,
            cwd=str(settings.BASE_DIR),
            env=self.env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # our own process group, signalled by its id
        )
        self.processes.append((name, process))
        return process

    def start_services(self, tmp: Path, concurrency: int) -> None:
        """As deployed (docker/compose.yaml): a worker for emails at a lower CPU
        priority, one for the deadlines queue (the safety sweep, reminders), beat."""
        self.log = open(tmp / "services.log", "ab")  # noqa: SIM115 - closed in stop_services
        celery = [sys.executable, "-m", "celery", "-A", "sheriff_pbem"]
        self.worker_names = []
        queues = {
            settings.CELERY_TASK_DEFAULT_QUEUE: (NICE, concurrency),
            settings.DEADLINES_QUEUE: ([], 1),
        }
        for queue, (nice, processes) in queues.items():
            name = f"bench-{queue}-{os.getpid()}-{uuid.uuid4().hex[:6]}@%h"
            self.spawn(
                f"worker {queue}",
                [*nice, *celery, "worker", "--concurrency", str(processes),
                 "--loglevel=warning", "-Q", queue, "-n", name,
                 "--without-gossip", "--without-mingle"],
            )  # fmt: skip
            self.worker_names.append(name)
        self.spawn(
            "beat",
            [*celery, "beat", "--loglevel=warning", "-s", str(tmp / "celerybeat-schedule"),
             "--pidfile", str(tmp / "celerybeat.pid")],
        )  # fmt: skip

    def start_deadline_processes(self, count: int) -> list:
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_deadlines"]
        return [self.spawn(f"run_deadlines {i + 1}", manage) for i in range(count)]

    def stop(self, processes: list) -> None:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.stderr.write(f"process {process.pid} did not stop in 30 s; killing its group")
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.processes = [(n, p) for n, p in self.processes if p not in processes]

    def wait_for_workers(self, timeout: float) -> None:
        from sheriff_pbem.celery import app

        hosts = {name.replace("%h", os.uname().nodename) for name in self.worker_names}

        def ready():
            for name, process in self.processes:
                if process.poll() is not None:
                    raise CommandError(f"{name} exited with {process.returncode}")
            replies = app.control.ping(destination=list(hosts), timeout=0.5) or []
            return hosts <= {host for reply in replies for host in reply}

        waited = self.wait_until("the workers to answer", ready, timeout)
        self.say(f"workers {', '.join(sorted(hosts))} ready after {waited:.1f} s")

    def stop_services(self) -> None:
        self.stop([process for _name, process in reversed(self.processes)])
        if self.log is not None:
            self.log.close()
            self.log = None

    # --- games ----------------------------------------------------------------------

    def create_games(self, count: int, players: int, label: str) -> list:
        specs = [
            game_setup.PlayerSpec(f"P{i + 1}", f"p{i + 1}@bench.invalid") for i in range(players)
        ]

        def create(i):
            return game_setup.create_game(
                name=f"{self.prefix}{label}-{i}",
                players=specs,
                config={"edition": 2},
                timing={"deadline_mode": Game.DeadlineMode.DURATION},
            ).pk

        started = time.monotonic()
        if self.create_each or count == 1:
            ids = [create(i) for i in range(count)]
            how = "through the service"
        else:
            template = Game.objects.get(pk=create(0))
            before = Game.objects.aggregate(last=Max("pk"))["last"]
            copy_live_games(template, count - 1)
            copies = Game.objects.filter(pk__gt=before, name__startswith="bench copy")
            ids = [template.pk, *copies.order_by("pk").values_list("pk", flat=True)]
            Game.objects.filter(pk__in=ids[1:]).update(name=f"{self.prefix}{label}-copy")
            how = "one through the service, the others copied from it"
        self.created.extend(ids)
        elapsed = time.monotonic() - started
        self.say(f"created {count} games ({label}, {how}) in {elapsed:.1f} s")
        return ids

    def vacuum(self) -> None:
        """What autovacuum does between a day's deadlines being set and falling: the
        rows of the games just copied and of those deleted (the claim rate's) are
        tidied, and the tables' statistics known."""
        if connection.vendor != "postgresql":
            return
        tables = [model._meta.db_table for model in (Game, Seat, GameEvent, OutboxEmail)]
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(tables)}")

    def pending_mail(self, ids: list):
        return OutboxEmail.objects.filter(
            game_id__in=ids, status__in=(OutboxEmail.Status.PENDING, OutboxEmail.Status.SENDING)
        )

    def drain_outbox(self, ids: list, timeout: float) -> None:
        waited = self.wait_progress(
            "the creation emails to be sent", lambda: self.pending_mail(ids).count(), timeout
        )
        self.say(f"outbox drained in {waited:.1f} s")

    # --- the claim rate -----------------------------------------------------------------

    def claim_rate(self, count: int, players: int) -> dict:
        """One process claiming ``count`` deadlines an hour ahead, as fast as it can,
        in the deadline processes' batches; then they are released."""
        ids = self.create_games(count, players, "claims")
        far = timezone.now() + timedelta(hours=1)
        Game.objects.filter(pk__in=ids).update(phase_deadline=far, deadline_claimed_until=None)
        holder = deadline_claims.new_holder()
        claimed = 0
        ahead = timedelta(hours=2)
        started = time.perf_counter()
        while rows := deadline_claims.claim(
            holder, timezone.now(), ahead, deadline_runner.CLAIM_BATCH, lapsed=False
        ):
            claimed += len(rows)
        took = time.perf_counter() - started
        deadline_claims.release(holder, ids)
        Game.objects.filter(pk__in=ids).delete()
        return {"claimed": claimed, "seconds": took, "rate": claimed / took if took else 0.0}

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

    def part_a(self, processes: int, options: dict) -> dict:
        count, lead, mail = options["games"], options["lead"], options["mail"]
        timeout = options["timeout"]
        ids = self.create_games(count, options["players"], f"a{processes}")
        self.drain_outbox(ids, timeout)
        self.vacuum()
        games = Game.objects.filter(pk__in=ids)
        started = time.monotonic()
        mail_pks = self.owe_mail(ids, mail) if mail else []
        if mail:
            self.say(f"part A: {mail} emails owed in {time.monotonic() - started:.1f} s")
        runners = self.start_deadline_processes(processes)
        deadline = timezone.now() + timedelta(seconds=lead)
        games.update(phase_deadline=deadline, deadline_claimed_until=None)
        self.say(
            f"part A, {processes} deadline process(es): {count} deadlines set to "
            f"T = {deadline:%H:%M:%S.%f} UTC"
        )
        # How many games have moved on, polled every COMMIT_POLL_SECONDS: the games first
        # seen at a poll were committed before its query and after the previous one's.
        # A count, not the rows, so that the poll costs the machine little.
        # The games still at T, by the index on (status, phase_deadline): a poll reads
        # only the rows left, not all of them.
        waiting = Game.objects.filter(status=Game.Status.ACTIVE, phase_deadline=deadline)
        seen = []  # (poll time, games seen moved on)
        while timezone.now() < deadline - timedelta(seconds=0.5):
            time.sleep(COMMIT_POLL_SECONDS)
        stall_from, best = time.monotonic(), 0
        while True:
            polled = timezone.now()
            done = count - waiting.count()
            seen.append((polled, done))
            if done >= count:
                break
            if done > best:
                stall_from, best = time.monotonic(), done
            elif time.monotonic() - stall_from > timeout:
                raise CommandError(f"no progress for {timeout:.0f} s: {done} of {count} advanced")
            time.sleep(COMMIT_POLL_SECONDS)
        self.stop(runners)

        lateness = []
        previous = 0
        for polled, done in seen:
            lateness += [(polled - deadline).total_seconds()] * (done - previous)
            previous = done
        timed_out = GameEvent.objects.filter(
            game_id__in=ids, type="timed_out", created_at__gte=deadline
        )
        per_game = dict(
            timed_out.values("game_id").annotate(n=Count("pk")).values_list("game_id", "n")
        )
        missing = set(ids) - set(per_game)
        twice = [pk for pk, n in per_game.items() if n > 1]
        written = sorted(
            (at - deadline).total_seconds() for at in timed_out.values_list("created_at", flat=True)
        )
        first_seen = next(polled for polled, done in seen if done > 0)
        rate_span = (seen[-1][0] - first_seen).total_seconds()
        owed = OutboxEmail.objects.filter(game_id__in=ids, created_at__gte=deadline)
        emails = owed.aggregate(n=Count("pk"), last=Max("created_at"))
        emails_per_game = owed.values("game_id").annotate(n=Count("pk")).values_list("n", flat=True)
        return {
            "processes": processes,
            "ids": ids,
            "deadline": deadline,
            "mail_pks": mail_pks,
            "missing": len(missing),
            "twice": len(twice),
            "written_p50": percentile(written, 50),
            "written_p99": percentile(written, 99),
            "p50": percentile(lateness, 50),
            "p99": percentile(lateness, 99),
            "max": max(lateness),
            "rate": count / max(rate_span, COMMIT_POLL_SECONDS),
            "emails": emails["n"],
            "emails_last": (
                (emails["last"] - deadline).total_seconds() if emails["last"] else None
            ),
            "emails_per_game": (min(emails_per_game, default=0), max(emails_per_game, default=0)),
        }

    def drain(self, a: dict, timeout: float) -> None:
        """Wait for the emails part A's advances owed to be sent: when the last was."""
        owed = OutboxEmail.objects.filter(game_id__in=a["ids"], created_at__gte=a["deadline"])
        self.wait_progress(
            "the advances' emails to be sent",
            lambda: owed.exclude(status=OutboxEmail.Status.SENT).count(),
            self.timeout,
        )
        last = owed.aggregate(last=Max("sent_at"))["last"]
        a["drain"] = (last - a["deadline"]).total_seconds() if last else None

    def mail_rate(self, pks: list, timeout: float) -> dict:
        """Wait for the mail load to be sent: how long it took from its first email."""
        if not pks:
            return {}
        load = OutboxEmail.objects.filter(pk__in=pks)
        self.wait_progress(
            "the mail load to be sent",
            lambda: load.filter(status=OutboxEmail.Status.PENDING).count(),
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

        self.wait_progress(
            "the next phase's emails to be sent", lambda: self.pending_mail(ids).count(), timeout
        )
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
        counts = process_counts(options["processes"])
        self.timeout = timeout = options["timeout"]
        self.create_each = options["create_each"]
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
        self.processes, self.log, self.created = [], None, []
        tmp = Path(tempfile.mkdtemp(prefix="bench_deadlines-"))
        self.say(
            f"db: {vendor} {settings.DATABASES['default']['NAME']}, broker: {masked(broker)}, "
            f"deadline processes: {', '.join(map(str, counts))}"
        )
        self.say(f"services' log: {tmp / 'services.log'}")
        runs, b, mail = [], None, {}
        try:
            claims = self.claim_rate(max(count, CLAIM_RATE_GAMES), players)
            self.say(f"claim rate: {claims['rate']:.0f} games/s")
            self.start_services(tmp, options["concurrency"])
            self.wait_for_workers(60)
            for processes in counts:
                a = self.part_a(processes, options)
                self.drain(a, timeout)
                self.say(
                    f"  p50 {a['p50']:.2f} s, p99 {a['p99']:.2f} s, max {a['max']:.2f} s, "
                    f"{a['rate']:.0f} advances/s, emails sent {a['drain']:.1f} s after T"
                )
                runs.append(a)
            mail = self.mail_rate(runs[-1]["mail_pks"], timeout)
            if not options["skip_last_move"]:
                b = self.part_b(min(count, PART_B_MAX_GAMES), players, options["rate"], timeout)
            advance_ms = self.time_advance(runs[-1]["ids"])
            self.wait_progress(
                "the last emails", lambda: self.pending_mail(self.created).count(), timeout
            )
        finally:
            self.stop_services()
            if self.created and not options["keep"]:
                for i in range(0, len(self.created), 500):
                    Game.objects.filter(pk__in=self.created[i : i + 500]).delete()
                self.say(f"deleted {len(self.created)} benchmark games")
            elif self.created:
                self.say(f"kept {len(self.created)} games named {self.prefix}*")
        self.report(count, runs, claims, mail, b, advance_ms, vendor, broker_kind)

    def report(self, count, runs, claims, mail, b, advance_ms, vendor, broker_kind) -> None:
        self.say("")
        self.say(f"games: {count}, db: {vendor}, broker: {broker_kind}")
        self.say(
            f"claim rate, one process alone: {claims['claimed']} deadlines claimed in "
            f"{claims['seconds']:.2f} s = {claims['rate']:.0f} games/s "
            f"(batches of {deadline_runner.CLAIM_BATCH})"
        )
        for a in runs:
            self.say(f"{a['processes']} deadline process(es):")
            self.say(
                f"  deadline lateness, to the commit: p50 {a['p50']:.2f} s, "
                f"p99 {a['p99']:.2f} s, max {a['max']:.2f} s "
                f"(polled every {COMMIT_POLL_SECONDS * 1000:.0f} ms)"
            )
            self.say(
                f"  timed_out event written: p50 {a['written_p50']:.2f} s, "
                f"p99 {a['written_p99']:.2f} s; {a['rate']:.0f} advances/s"
            )
            self.say(
                f"  advanced: {count - a['missing']} of {count}, left behind {a['missing']}, "
                f"advanced twice {a['twice']}"
            )
            low, high = a["emails_per_game"]
            within = a["emails_last"] is not None and a["emails_last"] <= EMAILS_RECORDED_WITHIN
            last = "none" if a["emails_last"] is None else f"{a['emails_last']:.2f} s"
            self.say(
                f"  emails recorded: {a['emails']} ({low}-{high} a game), the last {last} "
                f"after T ({'within' if within else 'NOT within'} "
                f"{EMAILS_RECORDED_WITHIN:.0f} s); all sent {a['drain']:.1f} s after T"
            )
        if runs and runs[-1]["mail_pks"]:
            self.say(
                f"mail load: {len(runs[-1]['mail_pks'])} emails owed before T, "
                f"all sent in {mail['span']:.1f} s ({mail['rate']:.0f} emails/s)"
            )
        if b is not None:
            self.say(
                f"last move -> emails handed over: p50 {b['p50']:.2f} s, "
                f"p99 {b['p99']:.2f} s ({b['n']} moves)"
            )
        self.say(
            f"timers.advance in-process: p50 {percentile(advance_ms, 50):.1f} ms, "
            f"max {max(advance_ms):.1f} ms ({len(advance_ms)} games)"
        )
