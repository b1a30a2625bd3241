"""Benchmark what the table talk costs a seat page, a message and My games.

In-process (Django's test client, no HTTP), on the configured database::

    DEBUG=1 .venv/bin/python manage.py bench_talk                 # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench DEBUG=1 \\
        .venv/bin/python manage.py bench_talk --messages 2000      # PostgreSQL

One five-player game in its inspection, private messages on. Prints the p50 of:
a seat page GET with no talk, with ``--messages`` messages (a fifth of them
private) and the game's lines among them, and with those lines hidden; a talk
POST (every other seat reads every event, so each message owes four gathered
emails); and My games for a person with ``--seats`` seats, each with unread talk.
Each with its SQL statements, and the pages' ratios to the page with no talk.
The games it makes are removed when done.
"""

import statistics
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from games.core import game_setup, links, talk, timers
from games.devtools.bench.inprocess import statements
from games.models import Game, OutboxEmail, Seat, TalkMessage

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve")
PERSON = "bench-talk@example.org"


def new_game(index: int, email: str = "") -> Game:
    players = [
        game_setup.PlayerSpec(name, email if n == 0 and email else f"{name}{index}@example.org")
        for n, name in enumerate(NAMES)
    ]
    game = game_setup.create_game(
        name=f"Talk bench {index}", players=players, config={"edition": 2}, seed="cd" * 32
    )
    Game.objects.filter(pk=game.pk).update(talk_private=True)
    Seat.objects.filter(game=game).exclude(index=0).update(notify=Seat.Notify.EVERY_EVENT)
    for _ in range(2):  # the market, then the bags, by their deadlines
        timers.advance(game.pk, force=True)
    return Game.objects.get(pk=game.pk)


def timed(client: Client, method: str, path: str, data=None) -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = getattr(client, method)(path, data or {})
        ms = (time.perf_counter() - start) * 1000
    assert response.status_code in (200, 302), (path, response.status_code)
    return ms, len(statements(queries))


def p50(samples: list) -> tuple[float, int]:
    return statistics.median(s[0] for s in samples), int(statistics.median(s[1] for s in samples))


class Command(BaseCommand):
    help = "What the table talk costs a seat page, a message and My games (p50, in-process)."

    def add_arguments(self, parser):
        parser.add_argument("--messages", type=int, default=500)
        parser.add_argument("--seats", type=int, default=10, help="a person's seats in My games")
        parser.add_argument("--repeat", type=int, default=30, help="requests per figure")

    def handle(self, *args, **options):
        games = []
        try:
            with override_settings(TALK_BURST=10**6, ALLOWED_HOSTS=["testserver"]):
                games = self.run(options, games)
        finally:
            for game in games:
                OutboxEmail.objects.filter(game=game).delete()
                game.delete()
            get_user_model().objects.filter(username=PERSON).delete()

    def run(self, options, games: list) -> list:
        repeat = options["repeat"]
        game = new_game(0)
        games.append(game)
        seats = list(Seat.objects.filter(game=game).order_by("index"))
        reader = Client()
        page = links.seat_path(seats[0])
        figures = {"page, no talk": p50([timed(reader, "get", page) for _ in range(repeat)])}

        now = timezone.now()
        written = [
            TalkMessage(
                game=game,
                seat=seats[1 + n % 4],
                to_seat=seats[0] if n % 5 == 0 else None,
                text=f"Message {n}: open that bag and I pay you {n % 9} gold.",
                round=1,
                phase_kind="inspection",
                after_seq=n * game.engine_state().seq // max(1, options["messages"]),
                created_at=now,
            )
            for n in range(options["messages"])
        ]
        TalkMessage.objects.bulk_create(written, batch_size=500)
        label = f"page, {options['messages']} messages"
        figures[label] = p50([timed(reader, "get", page) for _ in range(repeat)])
        talk.show_system_lines(seats[0], False)
        figures[label + ", game's lines hidden"] = p50(
            [timed(reader, "get", page) for _ in range(repeat)]
        )

        writer = Client()
        say = links.seat_path(seats[1]) + "talk/"
        figures["talk POST (4 gathered emails)"] = p50(
            [timed(writer, "post", say, {"text": f"Line {n}"}) for n in range(repeat)]
        )

        for index in range(1, options["seats"] + 1):
            other = new_game(index, PERSON)
            games.append(other)
            talk.post(Seat.objects.get(game=other, index=1), "hello", timezone.now())
        person = get_user_model().objects.create_user(username=PERSON, email=PERSON)
        mine = Client()
        mine.force_login(person)
        figures[f"My games, {options['seats']} seats with unread talk"] = p50(
            [timed(mine, "get", "/my/") for _ in range(repeat)]
        )
        self.report(figures, repeat)
        return games

    def report(self, figures: dict, repeat: int) -> None:
        base = figures["page, no talk"][0]
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        self.stdout.write(f"bench_talk on {engine}, p50 of {repeat} requests each (in-process)")
        for label, (ms, count) in figures.items():
            ratio = f"  x{ms / base:.2f} the page with no talk" if label.startswith("page") else ""
            self.stdout.write(f"  {label:<48} {ms:7.1f} ms  {count:3d} statements{ratio}")
