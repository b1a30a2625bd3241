"""Benchmark what the reveal and the awards cost a finished game's pages.

In-process (Django's test client, no HTTP), on the configured database::

    DEBUG=1 .venv/bin/python manage.py bench_after_game                 # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench DEBUG=1 \\
        .venv/bin/python manage.py bench_after_game --games 20           # PostgreSQL

Finished five-player games (every phase moved on by its deadline). Prints the p50
of: working out the reveal and the awards from the log (the cache cleared each
time), the final seat page with them (cached, as players see it), the same page
without them (for the ratio), and My history for a person with ``--games``
finished games. The games it makes are removed when done.
"""

import statistics
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.test import Client
from django.test.utils import override_settings

from games.core import after_game, game_setup, links, timers
from games.models import Game, OutboxEmail, Seat
from games.web import views

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve")
PERSON = "bench-history@example.org"


def finished_game(index: int) -> Game:
    players = [
        game_setup.PlayerSpec(name, PERSON if n == 1 else f"{name}{index}@example.org")
        for n, name in enumerate(NAMES)
    ]
    game = game_setup.create_game(
        name=f"Reveal bench {index}", players=players, config={"edition": 2}, seed="ce" * 32
    )
    while Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
        timers.advance(game.pk, force=True)
    return Game.objects.get(pk=game.pk)


def timed(run) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


class Command(BaseCommand):
    help = "What the reveal and the awards cost a finished game's pages (p50, in-process)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10, help="finished games in My history")
        parser.add_argument("--repeat", type=int, default=30, help="samples per figure")

    def handle(self, *args, **options):
        games = []
        try:
            with override_settings(ALLOWED_HOSTS=["testserver"]):
                self.run(options, games)
        finally:
            for game in games:
                OutboxEmail.objects.filter(game=game).delete()
                game.delete()
            get_user_model().objects.filter(username=PERSON).delete()

    def run(self, options, games: list) -> None:
        repeat = options["repeat"]
        games += [finished_game(index) for index in range(options["games"])]
        game = games[0]
        state = game.engine_state()
        page = links.seat_path(Seat.objects.get(game=game, index=0))
        reader = Client()

        def work_out():
            cache.clear()
            after_game.told(game, state)

        figures = {"reveal and awards worked out": [timed(work_out) for _ in range(repeat)]}
        figures["final page"] = [timed(lambda: reader.get(page)) for _ in range(repeat)]
        real = after_game.told
        after_game.told = lambda game, state: None  # the page as it was before
        try:
            figures["final page without them"] = [
                timed(lambda: reader.get(page)) for _ in range(repeat)
            ]
        finally:
            after_game.told = real
        assert views.after_game.told is real
        person = get_user_model().objects.create_user(username=PERSON, email=PERSON)
        mine = Client()
        mine.force_login(person)
        label = f"My history, {options['games']} finished games"
        figures[label] = [timed(lambda: mine.get("/my/history/")) for _ in range(repeat)]
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        events = state.seq
        self.stdout.write(
            f"bench_after_game on {engine}, p50 of {repeat} samples, {events} events a game"
        )
        base = statistics.median(figures["final page without them"])
        for name, samples in figures.items():
            ms = statistics.median(samples)
            ratio = f"  x{ms / base:.2f}" if name.startswith("final page") else ""
            self.stdout.write(f"  {name:<40} {ms:7.1f} ms{ratio}")
