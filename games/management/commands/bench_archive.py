"""Benchmark what a finished game's archive page costs (games/web/archive.py).

In-process (Django's test client, no HTTP), on the configured database::

    DEBUG=1 .venv/bin/python manage.py bench_archive

One game of ``--players`` played to its end by its deadlines (each seat's missed-move
defaults), its archive made public. Prints the p50 of ``--repeat`` requests each, with
their SQL statements: the overview and a round's step, cold (what a finished game
tells, its replay's steps and the narrated lines forgotten before each request: the
first reader's cost) and warm (kept, as every later reader finds them); the last
round's step (the longest replay); and the public address. The game is removed when
done.
"""

import statistics
import time

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from games.core import archive, game_setup, links, timers
from games.devtools.bench.inprocess import statements
from games.models import Game, GameEvent, OutboxEmail, Seat
from games.present import game_log

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")


def finished_game(players: int) -> Game:
    specs = [game_setup.PlayerSpec(n, f"{n.lower()}.archive@example.org") for n in NAMES]
    game = game_setup.create_game(
        name="Archive bench", players=specs[:players], config={"edition": 2}, seed="ce" * 32
    )
    for _ in range(500):  # every phase by its deadline, to the end
        if Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
            break
        timers.advance(game.pk, force=True)
    return archive.share(game.pk, True)


def forget(game: Game) -> None:
    """What a first reader finds: nothing worked out yet."""
    seq = game.engine_state().seq
    token = game.thread_token
    cache.delete_many([f"after-game:{token}:{seq}", f"archive-rounds:{token}:{seq}"])
    game_log.NARRATED.lines.clear()


def timed(client: Client, path: str, data: dict, cold: Game | None = None) -> tuple:
    if cold is not None:
        forget(cold)
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(path, data)
        ms = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (path, data, response.status_code)
    return ms, len(statements(queries))


def p50(samples: list) -> tuple:
    return statistics.median(s[0] for s in samples), int(statistics.median(s[1] for s in samples))


class Command(BaseCommand):
    help = "What a finished game's archive page costs (p50, in-process)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=5, choices=range(3, 7))
        parser.add_argument("--repeat", type=int, default=30, help="requests per figure")

    def handle(self, *args, **options):
        game = None
        try:
            with override_settings(ALLOWED_HOSTS=["testserver"]):
                game = finished_game(options["players"])
                self.run(game, options["repeat"])
        finally:
            if game is not None:
                OutboxEmail.objects.filter(game=game).delete()
                game.delete()

    def run(self, game: Game, repeat: int) -> None:
        seat = Seat.objects.get(game=game, index=0)
        page = links.archive_path(seat)
        rounds = game.engine_state().config.rounds
        middle = {"round": rounds // 2}
        client = Client()
        figures = {
            "overview, cold": p50([timed(client, page, {}, game) for _ in range(repeat)]),
            "overview, warm": p50([timed(client, page, {}) for _ in range(repeat)]),
            f"round {rounds // 2}, cold": p50(
                [timed(client, page, middle, game) for _ in range(repeat)]
            ),
            f"round {rounds // 2}, warm": p50([timed(client, page, middle) for _ in range(repeat)]),
            f"round {rounds} (the last), warm": p50(
                [timed(client, page, {"round": rounds}) for _ in range(repeat)]
            ),
        }
        public = reverse("games:public-archive", args=[Game.objects.get(pk=game.pk).archive_token])
        figures["public address, warm"] = p50([timed(Client(), public, {}) for _ in range(repeat)])
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        events = GameEvent.objects.filter(game=game).count()
        self.stdout.write(
            f"bench_archive on {engine}: {game.seats.count()} players, "
            f"{rounds} rounds, {events} events; p50 of {repeat} requests each (in-process)"
        )
        for label, (ms, count) in figures.items():
            self.stdout.write(f"  {label:<32} {ms:7.1f} ms  {count:3d} statements")
