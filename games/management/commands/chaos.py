"""Fault drill: games played over HTTP by random players while the service is
knocked about, then counted.

Starts gunicorn, the two Celery workers (emails, deadlines) and beat on the
configured PostgreSQL and Redis, with an ESP that refuses a share of the
messages and loses the answer to another share after taking them: a timeout, a
gateway's 504, a broken TLS connection or an unexpected exception, as
--lose-kinds says (games/flaky_esp.py, which logs every message it took).
Creates N games whose phases get a deadline a few seconds after they start (the
drill moves each new deadline in; the organizer's settings allow no less than a
minute), and plays them with random legal moves through the seat pages (GET the
page, POST its form, as a browser does); some seats sleep through a phase so
that deadlines fall. Between moves, seats talk: a line through the page's talk
form, or a reply by email through the inbound webhook, as Postmark posts it
(games/devtools/drill_talk.py). Meanwhile, in turn: kill -9 of a Celery process or a web
worker it started (and start a dead one again, as a process manager would),
kill -9 of beat, FLUSHDB of its Redis database, pg_terminate_backend of the
other connections to its database.

Then it prints: games finished or stuck, invariant violations (replay equals
the snapshot, conservation, the engine's checks), emails owed / delivered once
/ duplicated (and whether counted as in doubt) / lost / still owed / failed,
deadline lateness (a ``timed_out`` event's time minus the deadline it
answered), and three lines a drill must show at 0: ``deadlocks: N`` (PostgreSQL's
own count for the database, pg_stat_database), ``5xx: N`` (the site's answers
to every request, moves, talk and webhooks) and ``talk lines lost: N`` (lines
the site took, or answered with a 5xx, that are not in the database).

    createdb -h 127.0.0.1 -U postgres chaos
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/chaos \\
        REDIS_URL=redis://127.0.0.1:6379/13 DEBUG=1
    .venv/bin/python manage.py migrate
    .venv/bin/python manage.py chaos --games 12 --minutes 8

It FLUSHes the Redis database of REDIS_URL and cuts every other connection to
the database of DATABASE_URL: give it a database and a Redis database of their
own.
"""

import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

import requests
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.utils import timezone

from games import engine
from games.core import game_setup, links
from games.devtools import drill_talk, flaky_esp
from games.engine.invariants import check_state
from games.engine.self_play import RandomPlayers
from games.management.commands.bench_deadlines import percentile
from games.models import Game, GameEvent, InboundMessage, OutboxEmail, TalkMessage
from games.present.moves import form_fields

FAULTS = ("worker", "web", "beat", "redis", "db")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
OFFER_CHANCE = 0.15  # of an inspection move being an offer rather than the required one
TALK_CHANCE = 0.25  # of a player's turn being a line of talk rather than a move
REPLY_DOMAIN = "reply.drill.invalid"


def children(pid: int) -> list:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return found


def deadlocks() -> int:
    """PostgreSQL's count of deadlocks in this database so far (every victim, the
    ones a write ran again included). A backend reports it as it ends: read once
    the drill's processes are stopped."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


class Stack:
    """The processes the drill started, each in a process group of its own."""

    def __init__(self, env: dict, log_path: Path):
        self.env, self.log = env, open(log_path, "ab")  # noqa: SIM115 - closed in stop
        self.argv, self.processes = {}, {}

    def start(self, name: str, argv: list) -> None:
        self.argv[name] = argv
        self.processes[name] = subprocess.Popen(
            argv,
            cwd=str(settings.BASE_DIR),
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def revive(self) -> list:
        """Start again whatever died (as systemd or Compose's restart policy would)."""
        dead = [name for name, p in self.processes.items() if p.poll() is not None]
        for name in dead:
            self.start(name, self.argv[name])
        return dead

    def pids(self, name: str) -> list:
        main = self.processes[name].pid
        return [main, *children(main)]

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for process in self.processes.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.log.close()


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=12)
        parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
        parser.add_argument("--minutes", type=float, default=8, help="time to play and fault")
        parser.add_argument("--drain", type=float, default=240, help="seconds to settle after")
        parser.add_argument("--deadline-seconds", type=float, default=8)
        parser.add_argument("--sleep", type=float, default=0.3, help="chance a seat sleeps a phase")
        parser.add_argument("--fault-every", type=float, default=12, help="seconds between faults")
        parser.add_argument("--faults", default=",".join(FAULTS), help=f"of {', '.join(FAULTS)}")
        parser.add_argument("--fail", type=float, default=0.3, help="share of sends refused")
        parser.add_argument("--lose", type=float, default=0.05, help="share of answers lost")
        parser.add_argument(
            "--lose-kinds",
            default=",".join(flaky_esp.LOSE_KINDS),
            help=f"how answers are lost, of {', '.join(flaky_esp.LOSE_KINDS)}",
        )
        parser.add_argument("--players-threads", type=int, default=4)
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--keep", action="store_true", help="keep the drill's games")

    def say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    # --- the service ----------------------------------------------------------------

    def start_stack(self, tmp: Path, options) -> Stack:
        base = f"http://127.0.0.1:{options['port']}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "sheriff_pbem.settings",
            "EMAIL_BACKEND": "games.devtools.flaky_esp.EmailBackend",
            "FLAKY_MAIL_LOG": str(tmp / "mail.jsonl"),
            "FLAKY_MAIL_FAIL": str(options["fail"]),
            "FLAKY_MAIL_LOSE": str(options["lose"]),
            "FLAKY_MAIL_LOSE_KINDS": options["lose_kinds"],
            "OUTBOX_FIRST_RETRY_SECONDS": "5",
            "OUTBOX_SENDING_GRACE_SECONDS": "20",
            "SITE_URL": base,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DEADLINES_CONCURRENCY": "2",
            "PYTHONUNBUFFERED": "1",
            # Replies by email, through Postmark's inbound webhook.
            "INBOUND_DOMAIN": REPLY_DOMAIN,
            "INBOUND_ESPS": "postmark",
            "ANYMAIL_WEBHOOK_SECRET": self.webhook_secret,
        }
        stack = Stack(env, tmp / "services.log")
        py = sys.executable
        celery = [py, "-m", "celery", "-A", "sheriff_pbem"]
        bind = f"127.0.0.1:{options['port']}"
        stack.start("web", [py, "-m", "gunicorn", "sheriff_pbem.wsgi", "-w", "2", "-b", bind])
        for queue in ("celery", "deadlines"):
            name = f"chaos-{queue}-{uuid.uuid4().hex[:6]}@%h"
            stack.start(
                f"worker-{queue}",
                [*celery, "worker", "-Q", queue, "-c", "2", "-n", name, "--loglevel=warning"],
            )
        schedule = str(tmp / "celerybeat-schedule")
        stack.start("beat", [*celery, "beat", "-s", schedule, "--loglevel=warning"])
        started = time.monotonic()
        while True:
            try:
                if requests.get(base + "/", timeout=2).status_code < 500:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() - started > 60:
                raise CommandError(f"the web server did not answer; see {tmp}/services.log")
            time.sleep(0.5)
        self.base = base
        return stack

    # --- the games --------------------------------------------------------------------

    def create_games(self, count: int, players: int) -> list:
        specs = [
            game_setup.PlayerSpec(name, f"{name.lower()}@drill.invalid")
            for name in ("Ann", "Ben", "Cid", "Dee", "Eve")[:players]
        ]
        timing = {
            "deadline_mode": Game.DeadlineMode.DURATION,
            "market_minutes": 1,
            "market_turn_minutes": 1,
            "load_minutes": 1,
            "inspection_minutes": 1,
            "bargaining_minutes": 0,
            "reminder_minutes": 0,
            "abandon_after": 0,
        }
        return [
            game_setup.create_game(
                name=f"{self.prefix}{i}",
                players=specs,
                config={"edition": 1 + i % 2},
                organizer_email="org@drill.invalid",
                timing=timing,
            ).pk
            for i in range(count)
        ]

    def warp(self, ids: list, seconds: float) -> None:
        """Move each new phase's deadline in to ``seconds`` from now; remember it."""
        now = timezone.now()
        deadline = now + timedelta(seconds=seconds)
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_game SET phase_deadline = %s WHERE id = ANY(%s) "
                "AND status = 'active' AND paused_at IS NULL AND phase_deadline > %s "
                "RETURNING id, phase_since",
                [deadline, ids, deadline + timedelta(seconds=2)],
            )
            for pk, since in cursor.fetchall():
                self.deadlines.setdefault(pk, []).append((since, deadline))

    # --- the players --------------------------------------------------------------------

    def play(self, ids: list, stop: threading.Event, rnd: random.Random, asleep: float) -> None:
        session = requests.Session()
        players = RandomPlayers(rnd)
        try:
            while not stop.is_set():
                try:
                    if rnd.random() < TALK_CHANCE:
                        moved = self.talk_once(session, rnd, rnd.choice(ids))
                    else:
                        moved = self.move_once(session, players, rnd, rnd.choice(ids), asleep)
                except Exception:  # our own database connection was cut: a new one
                    connections.close_all()
                    moved = False
                if not moved:
                    time.sleep(0.2)
        finally:
            connections.close_all()

    def move_once(self, session, players, rnd, game_id: int, asleep: float) -> bool:
        game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
        if game is None:
            return False
        state = game.engine_state()
        since = state.phase.since
        choices = []
        for seat, options in engine.actions(state).items():
            sleeper = (game_id, since, seat)
            with self.lock:
                if sleeper not in self.sleeping:
                    self.sleeping[sleeper] = rnd.random() < asleep
            if options["moves"] and not self.sleeping[sleeper]:
                choices.append((seat, options))
        if not choices:
            return False
        seat, options = rnd.choice(choices)
        moves = options["moves"]
        required = [m for m in moves if m["type"] not in ("make_offer", "revise_offer")]
        if required and rnd.random() > OFFER_CHANCE:
            moves = required
        move = rnd.choice(moves)
        command = getattr(players, move["type"])(state, seat, move)
        token = links.make_token(game.seats.get(index=seat))
        self.post(session, f"{self.base}/play/{token}/", form_fields(command, since))
        return True

    def post(self, session, url: str, fields: dict, to: str = "", line=None) -> None:
        """GET the page at ``url``, then POST ``fields`` with its CSRF token to ``to``
        (the page itself by default) as a browser does; a talk ``line`` keeps the
        answer's status."""
        try:
            page = session.get(url, timeout=30)
            self.count_status(page.status_code)
            found = CSRF.search(page.text)
            if page.status_code >= 400 or not found:
                return
            if line is not None:
                with self.lock:
                    self.lines.append(line)
            answer = session.post(
                to or url,
                data={**fields, "csrfmiddlewaretoken": found.group(1)},
                headers={"Origin": self.base, "Referer": url},
                allow_redirects=False,
                timeout=30,
            )
            self.count_status(answer.status_code)
            with self.lock:
                if line is None:
                    self.http["moves posted"] += 1
                else:
                    line.answers.append(answer.status_code)
        except requests.RequestException:
            with self.lock:
                self.http["connection errors"] += 1
                if line is not None:
                    line.answers.append(drill_talk.NO_ANSWER)

    def talk_once(self, session, rnd, game_id: int) -> bool:
        """A seat of the game says a line, by its page or by a reply to its email."""
        seat = Game.objects.get(pk=game_id).seats.order_by("?").first()
        channel = rnd.choice([drill_talk.PAGE, drill_talk.WEBHOOK])
        with self.lock:
            self.line_count += 1
            line = drill_talk.new_line(channel, self.line_count)
        if channel == drill_talk.PAGE:
            url = f"{self.base}/play/{links.make_token(seat)}/"
            self.post(session, url, {"text": line.text}, to=url + "talk/", line=line)
        else:
            with self.lock:
                self.lines.append(line)
            payload = drill_talk.reply_payload(
                line, seat.name, seat.email, seat.reply_key, REPLY_DOMAIN
            )
            self.reply(payload, line)
        return True

    def reply(self, payload: dict, line) -> None:
        """Post a reply to the inbound webhook as an ESP does: again after a 5xx or no answer."""
        user, _colon, password = self.webhook_secret.partition(":")
        for _try in range(drill_talk.ESP_TRIES):
            try:
                answer = requests.post(
                    f"{self.base}/anymail/postmark/inbound/",
                    json=payload,
                    auth=(user, password),
                    timeout=30,
                )
                status = answer.status_code
                self.count_status(status)
            except requests.RequestException:
                status = drill_talk.NO_ANSWER
                with self.lock:
                    self.http["connection errors"] += 1
            with self.lock:
                line.answers.append(status)
            if drill_talk.NO_ANSWER < status < 500:
                return
            time.sleep(1)

    def count_status(self, status: int) -> None:
        with self.lock:
            self.http["requests"] += 1
            if status >= 500:
                self.http["5xx"] += 1

    # --- the faults ----------------------------------------------------------------------

    def fault(self, kind: str, stack: Stack, rnd: random.Random) -> str:
        if kind == "worker":
            name = rnd.choice(["worker-celery", "worker-deadlines"])
            pid = rnd.choice(stack.pids(name))
            os.kill(pid, signal.SIGKILL)
            return f"kill -9 {name} process {pid}"
        if kind == "web":
            pids = stack.pids("web")
            pid = rnd.choice(pids[1:] or pids)
            os.kill(pid, signal.SIGKILL)
            return f"kill -9 web process {pid}"
        if kind == "beat":
            os.kill(stack.processes["beat"].pid, signal.SIGKILL)
            return "kill -9 beat"
        if kind == "redis":
            import redis

            redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
            return "FLUSHDB"
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return f"terminated {cursor.fetchone()[0]} database connections"

    # --- the counts ----------------------------------------------------------------------

    def invariant_violations(self, ids: list) -> list:
        problems = []
        for game in Game.objects.filter(pk__in=ids):
            events = list(
                GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True)
            )
            state = game.engine_state()
            if engine.replay(events).hash() != state.hash():
                problems.append(f"game {game.pk}: replaying its events does not give its state")
            if [e["seq"] for e in events] != list(range(len(events))):
                problems.append(f"game {game.pk}: a gap or a repeat in its event log")
            problems += [f"game {game.pk}: {p}" for p in check_state(state)]
        return problems

    def email_counts(self, ids: list, log_path: Path) -> dict:
        took = Counter()
        if log_path.exists():
            for line in log_path.read_text().splitlines():
                took[json.loads(line)["key"]] += 1
        counted = hasattr(OutboxEmail, "in_doubt")
        fields = ["key", "status", "in_doubt"] if counted else ["key", "status"]
        rows = list(OutboxEmail.objects.filter(game_id__in=ids).values_list(*fields))
        counts = Counter()
        for row in rows:
            key, status = row[0], row[1]
            in_doubt = row[2] if counted else 0
            copies = took[key]
            counts["owed"] += 1
            if status in ("pending", "sending"):
                counts["still owed"] += 1
            elif status == "failed":
                counts["failed"] += 1
            if copies == 1:
                counts["once"] += 1
            elif copies > 1:
                counts["duplicated"] += 1
                counts["extra copies"] += copies - 1
                counts["extra copies counted"] += min(copies - 1, in_doubt)
            elif status == "sent":
                counts["lost"] += 1  # marked sent, never taken by the ESP
            counts["in doubt"] += in_doubt
        return counts

    def talk_counts(self, ids: list) -> Counter:
        texts = [line.text for line in self.lines]
        kept = Counter(
            TalkMessage.objects.filter(game_id__in=ids, text__in=texts).values_list(
                "text", flat=True
            )
        )
        replied = [line.message_id for line in self.lines if line.message_id]
        outcomes = dict(
            InboundMessage.objects.filter(message_id__in=replied).values_list(
                "message_id", "outcome"
            )
        )
        return drill_talk.tally(self.lines, kept, outcomes)

    def lateness(self, ids: list) -> list:
        late = []
        timed_out = GameEvent.objects.filter(game_id__in=ids, type="timed_out")
        for game_id, seq, at in timed_out.values_list("game_id", "seq", "created_at"):
            warped = [d for since, d in self.deadlines.get(game_id, []) if since <= seq]
            if warped:
                late.append((at - warped[-1]).total_seconds())
        return late

    # --- the drill ---------------------------------------------------------------------------

    def handle(self, *args, **options):
        if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
            raise CommandError(
                "The drill runs on PostgreSQL and Redis: set DATABASE_URL and REDIS_URL."
            )
        faults = [f.strip() for f in options["faults"].split(",") if f.strip()]
        unknown = set(faults) - set(FAULTS)
        if unknown:
            raise CommandError(f"unknown faults: {', '.join(sorted(unknown))}")
        kinds = {k.strip() for k in options["lose_kinds"].split(",") if k.strip()}
        if not kinds or kinds - set(flaky_esp.LOSE_KINDS):
            raise CommandError(f"--lose-kinds: choose among {', '.join(flaky_esp.LOSE_KINDS)}")
        rnd = random.Random(options["seed"])
        tmp = Path(tempfile.mkdtemp(prefix="chaos-"))
        self.prefix = f"drill-{uuid.uuid4().hex[:6]}-"
        self.lock = threading.Lock()
        self.sleeping, self.deadlines = {}, {}
        self.http = Counter()
        self.lines, self.line_count = [], 0
        self.webhook_secret = f"drill:{uuid.uuid4().hex}"
        self.say(f"logs: {tmp}")
        deadlocks_before = deadlocks()
        stack = self.start_stack(tmp, options)
        ids, done = [], Counter()
        try:
            ids = self.create_games(options["games"], options["players"])
            self.say(f"{len(ids)} games, {options['players']} players each, editions 1 and 2")
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=self.play,
                    args=(ids, stop, random.Random(rnd.random()), options["sleep"]),
                    daemon=True,
                )
                for _ in range(options["players_threads"])
            ]
            for thread in threads:
                thread.start()
            started = time.monotonic()
            next_fault = started + options["fault_every"]
            turn = 0
            active = Game.objects.filter(pk__in=ids, status=Game.Status.ACTIVE)
            while time.monotonic() - started < options["minutes"] * 60 and active.exists():
                self.warp(ids, options["deadline_seconds"])
                if faults and time.monotonic() >= next_fault:
                    kind = faults[turn % len(faults)]
                    turn += 1
                    try:
                        what = self.fault(kind, stack, rnd)
                        self.say(f"{time.monotonic() - started:6.0f} s  {what}")
                        done[kind] += 1
                    except Exception as error:  # a fault that could not be made is said
                        self.say(f"{time.monotonic() - started:6.0f} s  {kind}: {error}")
                    connection.close()  # ours may have been cut too
                    next_fault = time.monotonic() + options["fault_every"]
                for name in stack.revive():
                    self.say(f"{time.monotonic() - started:6.0f} s  started {name} again")
                time.sleep(0.5)
            stop.set()
            for thread in threads:
                thread.join(60)
            self.say(f"play over after {time.monotonic() - started:.0f} s; settling")
            settle = time.monotonic()
            owed = OutboxEmail.objects.filter(game_id__in=ids, status__in=("pending", "sending"))
            while time.monotonic() - settle < options["drain"]:
                self.warp(ids, options["deadline_seconds"])
                stack.revive()
                if not active.exists() and not owed.exists():
                    break
                time.sleep(1)
        finally:
            stack.stop()
        self.report(ids, tmp, done, options, deadlocks() - deadlocks_before)
        if not options["keep"]:
            Game.objects.filter(pk__in=ids).delete()

    def report(self, ids: list, tmp: Path, done: Counter, options, deadlocked: int) -> None:
        games = Game.objects.filter(pk__in=ids)
        finished = games.filter(status=Game.Status.FINISHED).count()
        now = timezone.now()
        stuck = games.filter(
            status=Game.Status.ACTIVE, phase_deadline__lt=now - timedelta(seconds=30)
        ).count()
        problems = self.invariant_violations(ids)
        mail = self.email_counts(ids, tmp / "mail.jsonl")
        late = self.lateness(ids)
        talk = self.talk_counts(ids)
        self.say("")
        self.say(
            f"games: {len(ids)}; finished {finished}, still in play {len(ids) - finished}, "
            f"stuck (30 s past their deadline) {stuck}"
        )
        self.say("faults: " + ", ".join(f"{k} {v}" for k, v in done.items()))
        self.say(f"invariant violations: {len(problems)}")
        for problem in problems[:10]:
            self.say(f"  {problem}")
        self.say(
            f"moves posted: {self.http['moves posted']}; HTTP requests {self.http['requests']}, "
            f"connection errors {self.http['connection errors']}"
        )
        self.say(
            f"talk lines sent {len(self.lines)} ({talk['sent by page']} by page, "
            f"{talk['sent by webhook']} by reply): kept {talk['kept']}, refused "
            f"{talk['refused']}, doubled {talk['doubled']}, answered 5xx {talk['5xx answered']}, "
            f"unanswered and not kept {talk['unanswered, not kept']}"
        )
        self.say(f"deadlocks: {deadlocked}")
        self.say(f"5xx: {self.http['5xx']}")
        self.say(f"talk lines lost: {talk['lost']}")
        self.say(
            f"emails owed {mail['owed']}: delivered once {mail['once']}, duplicated "
            f"{mail['duplicated']} ({mail['extra copies']} extra copies, "
            f"{mail['extra copies counted']} counted as in doubt), lost {mail['lost']}, "
            f"still owed {mail['still owed']}, failed {mail['failed']}; "
            f"in doubt {mail['in doubt']}"
        )
        if late:
            self.say(
                f"deadline lateness: p50 {percentile(late, 50):.2f} s, "
                f"p99 {percentile(late, 99):.2f} s, max {max(late):.2f} s ({len(late)} deadlines)"
            )
        self.say(
            f"ESP settings: {options['fail']:.0%} refused, {options['lose']:.0%} answers lost "
            f"({options['lose_kinds']})"
        )
