"""Benchmark Web Push end to end: from a move's commit to the push service taking the
push it owes, through the outbox, the broker and a real Celery worker.

A Celery worker (the email worker as deployed: the emails' queue and the pushes') is
started as a subprocess with Web Push on (a key pair made for the run), and the test
push service of games/devtools/push_service.py runs in this process, as every
device's push service:
it checks each push's VAPID signature and decrypts it. ``--moves`` games are created,
their first merchants' market moves made, and one device subscribed for the person of
seat 2 (Ben, in each game under an address of its own). Then, at ``--rate`` moves a
second, the last merchant's market move of each game completes the market: the
loading phase owes Ben "your move" (one push) and the merchants their emails, which
the same worker sends meanwhile. Latency = when the push service received the push
minus when the move's submit returned (its commit), on this machine's clock; the
"accepted" figure adds the push service's 201 recorded back in the outbox row.

The real measurement runs on PostgreSQL + Redis, with a database of its own::

    createdb -h 127.0.0.1 -U postgres bench_push
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_push \\
        REDIS_URL=redis://127.0.0.1:6379/14 DEBUG=1
    .venv/bin/python manage.py migrate
    .venv/bin/python manage.py bench_push --moves 300
    dropdb -h 127.0.0.1 -U postgres bench_push

Its games and devices are removed when done. The broker's queue is purged first: use
a Redis database no other program uses.
"""

import logging
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from games.core import game_setup, moves, notifications, outbox_handoff, push_devices, pushes
from games.devtools.push_service import PushService
from games.models import Game, OutboxEmail, OutboxPush, PushSubscription
from games.push import vapid

CONTACT = "mailto:bench@bench.invalid"
BENCH_EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
TARGET_P95_SECONDS = 2.0


def percentile(values: list, fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


class Command(BaseCommand):
    help = (
        "Time from a move's commit to the push service taking its push, with a real "
        "Celery worker and the test push service (p50/p95/max; the target p95: 2 s)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=200, help="measured moves, one a game")
        parser.add_argument("--rate", type=float, default=5.0, help="measured moves a second")
        parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
        parser.add_argument(
            "--backlog",
            type=int,
            default=0,
            help="emails owed (at most 4 a game) just before the measured moves, which the "
            "worker is still sending while they are made (as after a burst of deadlines)",
        )
        parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait")
        parser.add_argument(
            "--shared-queue",
            action="store_true",
            help="queue the pushes behind the emails, on the emails' queue, as if they had "
            "no queue of their own (for comparison)",
        )
        parser.add_argument(
            "--allow-sqlite",
            action="store_true",
            help="run on SQLite / the file-system broker anyway (not the real measurement)",
        )

    def say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def handle(self, *args, **options):
        count = options["moves"]
        if count < 1:
            raise CommandError("--moves must be at least 1")
        broker = settings.CELERY_BROKER_URL
        local = connection.vendor != "postgresql" or not broker.startswith("redis")
        if local and not options["allow_sqlite"]:
            raise CommandError(
                "the real measurement runs on PostgreSQL + Redis (set DATABASE_URL and "
                "REDIS_URL; see --help), or pass --allow-sqlite."
            )
        logging.getLogger("games").setLevel(logging.WARNING)  # no line per created game
        private, public = vapid.new_pair()
        self.keys = {
            "WEBPUSH_VAPID_PRIVATE_KEY": private,
            "WEBPUSH_VAPID_PUBLIC_KEY": public,
            "WEBPUSH_VAPID_CONTACT": CONTACT,
            "WEBPUSH_ENDPOINT_HOSTS": "127.0.0.1",
        }
        for name, value in self.keys.items():  # this process owes the pushes
            setattr(settings, name, value if name != "WEBPUSH_ENDPOINT_HOSTS" else [value])
        self.prefix = f"bench-push-{uuid.uuid4().hex[:6]}"
        self.worker, self.games = None, []
        tmp = Path(tempfile.mkdtemp(prefix="bench_push-"))
        self.say(
            f"db: {connection.vendor} {settings.DATABASES['default']['NAME']}, broker: "
            f"{broker.split('@')[-1]}, worker processes: {options['concurrency']}, "
            f"log: {tmp / 'worker.log'}"
        )
        if options["shared_queue"]:  # routed where this process queues them
            from sheriff_pbem.celery import app

            behind = {outbox_handoff.SEND_PUSHES: {"queue": settings.CELERY_TASK_DEFAULT_QUEUE}}
            app.conf.task_routes = {**settings.CELERY_TASK_ROUTES, **behind}
            self.say("pushes queued on the emails' queue, behind them")
        with PushService(contact=CONTACT, public_key=public) as service:
            try:
                self.start_worker(tmp, options["concurrency"])
                devices = self.prepare(service, count, options["timeout"])
                self.owe_emails(options["backlog"])
                committed = self.play(devices, options["rate"])
                self.report(service, devices, committed, options["timeout"])
            finally:
                self.stop_worker()
                self.clean_up()

    # --- the worker ---------------------------------------------------------------------

    def start_worker(self, tmp: Path, concurrency: int) -> None:
        from sheriff_pbem.celery import app

        app.control.purge()  # nothing left over from an earlier run
        env = {**os.environ, **self.keys, "EMAIL_BACKEND": BENCH_EMAIL_BACKEND}
        env.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
        self.log = open(tmp / "worker.log", "ab")  # noqa: SIM115 - closed in stop_worker
        name = f"{self.prefix}@%h"
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "sheriff_pbem", "worker",
             "--concurrency", str(concurrency), "--loglevel=warning", "-n", name,
             "-Q", f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.PUSH_QUEUE}",
             "--without-gossip", "--without-mingle"],
            cwd=str(settings.BASE_DIR), env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        host = name.replace("%h", os.uname().nodename)
        started = time.monotonic()
        while not any(host in reply for reply in app.control.ping([host], timeout=0.5) or []):
            if self.worker.poll() is not None:
                raise CommandError(f"the worker exited with {self.worker.returncode}")
            if time.monotonic() - started > 60:
                raise CommandError("the worker did not answer within 60 s")
        self.say(f"worker ready after {time.monotonic() - started:.1f} s")

    def stop_worker(self) -> None:
        if self.worker is None:
            return
        if self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
        try:
            self.worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker.wait(timeout=10)
        self.log.close()

    # --- the games ----------------------------------------------------------------------

    def prepare(self, service: PushService, count: int, timeout: float) -> dict:
        """``count`` games one move short of the market's end, their creation emails sent,
        and a device for each game's Ben: device id -> (game, the last merchant's seat)."""
        devices = {}
        started = time.monotonic()
        for i in range(count):
            players = [
                game_setup.PlayerSpec(n, f"{n.lower()}-{self.prefix}-{i}@bench.invalid")
                for n in ("Ann", "Ben", "Cid", "Dee")
            ]
            game = game_setup.create_game(
                name=f"{self.prefix}-{i}", players=players, config={"edition": 2}
            )
            self.games.append(game.pk)
            seats = {seat.index: seat for seat in game.seats.all()}
            since = game.engine_state().phase.since
            for index in (1, 2):  # owe nothing: the market waits for Dee
                outcome = moves.submit(seats[index], SET_ASIDE, version=since, key=f"b{index}")
                if not outcome.accepted:
                    raise CommandError(f"a market move was refused: {outcome.message}")
            device = service.new_device()
            push_devices.subscribe(
                seats[1].email,
                push_devices.read_device(device.subscription()),
                list(pushes.BODIES),
                "en",
                "bench",
            )
            devices[device.id] = (game, seats[3])
        self.say(f"{count} games ready in {time.monotonic() - started:.1f} s")
        self.wait("the creation emails to be sent", lambda: self.unsent_mail() == 0, timeout)
        return devices

    def owe_emails(self, count: int) -> None:
        """``count`` emails owed at once (each seat's "your email again"), each its own
        task on the emails' queue: a backlog the measured pushes must not wait behind."""
        if count <= 0:
            return
        owed = 0
        for game in Game.objects.filter(pk__in=self.games).prefetch_related("seats"):
            for seat in game.seats.all():
                if owed >= count:
                    break
                with transaction.atomic():
                    owed += len(notifications.record_resend(game, seat))
        self.say(f"{owed} emails owed just before the moves (the worker's backlog)")

    def unsent_mail(self) -> int:
        return OutboxEmail.objects.filter(
            game_id__in=self.games,
            status__in=(OutboxEmail.Status.PENDING, OutboxEmail.Status.SENDING),
        ).count()

    def play(self, devices: dict, rate: float) -> dict:
        """The measured moves, at ``rate`` a second: device id -> its move's commit."""
        committed = {}
        gap = 1.0 / rate if rate > 0 else 0.0
        started = time.monotonic()
        for n, (device_id, (game, seat)) in enumerate(devices.items()):
            pause = started + n * gap - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            since = Game.objects.get(pk=game.pk).engine_state().phase.since
            outcome = moves.submit(seat, SET_ASIDE, version=since, key="last")
            committed[device_id] = time.time()
            if not outcome.accepted:
                raise CommandError(f"the last market move was refused: {outcome.message}")
        self.say(f"{len(committed)} moves made in {time.monotonic() - started:.1f} s")
        return committed

    def report(self, service: PushService, devices: dict, committed: dict, timeout: float):
        self.wait("every push to be taken", lambda: len(service.taken()) >= len(devices), timeout)
        self.unsent_at_end = self.unsent_mail()
        received = {r.device: r for r in service.taken()}
        latencies = [received[d].at - committed[d] for d in committed]
        rows = OutboxPush.objects.filter(game_id__in=self.games)
        accepted = {
            push.subscription.endpoint.rsplit("/", 1)[-1]: push.accepted_at.timestamp()
            for push in rows.select_related("subscription")
            if push.accepted_at is not None
        }
        to_accepted = [accepted[d] - committed[d] for d in committed if d in accepted]
        # Where the time went: waiting for the worker to take the push, then sending it.
        claimed = {
            push.subscription.endpoint.rsplit("/", 1)[-1]: push.sending_at.timestamp()
            for push in rows.select_related("subscription")
            if push.sending_at is not None
        }
        to_claimed = [claimed[d] - committed[d] for d in committed if d in claimed]
        claimed_to_accepted = [accepted[d] - claimed[d] for d in claimed if d in accepted]
        self.say(f"pushes taken: {len(received)} of {len(devices)}; refused by the checks: "
                 f"{len(service.errors())}; in doubt: {sum(r.in_doubt for r in rows)}; "
                 f"not sent: {rows.exclude(status=OutboxPush.Status.SENT).count()}")  # fmt: skip
        emails = OutboxEmail.objects.filter(game_id__in=self.games)
        self.say(
            f"emails owed in all: {emails.count()}, still unsent when the last push was "
            f"taken: {self.unsent_at_end}"
        )
        for label, values in (
            ("commit -> push service received", latencies),
            ("commit -> 201 recorded in the outbox", to_accepted),
            ("  of which commit -> taken by the worker", to_claimed),
            ("  and taken -> 201", claimed_to_accepted),
        ):
            self.say(
                f"{label}: p50 {statistics.median(values):.3f} s, "
                f"p95 {percentile(values, 0.95):.3f} s, max {max(values):.3f} s "
                f"({len(values)} moves)"
            )
        p95 = percentile(latencies, 0.95)
        verdict = "holds" if p95 <= TARGET_P95_SECONDS else "does NOT hold"
        self.say(f"target p95 <= {TARGET_P95_SECONDS:.0f} s: {verdict}")

    def wait(self, what: str, done, timeout: float) -> None:
        started = time.monotonic()
        while not done():
            if self.worker is not None and self.worker.poll() is not None:
                raise CommandError(f"the worker exited with {self.worker.returncode}")
            if time.monotonic() - started > timeout:
                raise CommandError(f"timed out after {timeout:.0f} s waiting for {what}")
            time.sleep(0.05)

    def clean_up(self) -> None:
        Game.objects.filter(pk__in=self.games).delete()
        PushSubscription.objects.filter(email__contains=self.prefix).delete()
        OutboxPush.objects.filter(game_id__in=self.games).delete()


SET_ASIDE = {"type": "set_aside", "cards": []}
