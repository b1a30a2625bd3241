"""The benchmark's games: created through the service as an organizer would,
and, to measure with many live games in the database, copied row for row from
one of them (creating 10,000 games one by one would take most of an hour)."""

import secrets

from django.db import transaction

from games.core import game_setup
from games.models import Game, GameEvent, OutboxEmail, Seat, new_reply_key

PREFIX = "bench "  # every game the benchmark makes; removed at its end
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")


def new_games(count: int, players: int, edition: int, label: str) -> list:
    specs = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES[:players]]
    return [
        game_setup.create_game(
            name=f"{PREFIX}{label} {i}", players=specs, config={"edition": edition}
        )
        for i in range(count)
    ]


def copy_live_games(template: Game, count: int, batch: int = 1000) -> None:
    """``count`` more live games, each a copy of ``template`` with its seats and events."""
    game_row = Game.objects.filter(pk=template.pk).values().get()
    seats = list(Seat.objects.filter(game=template).values())
    events = list(GameEvent.objects.filter(game=template).values())
    for start in range(0, count, batch):
        with transaction.atomic():
            games = Game.objects.bulk_create(
                Game(**{**game_row, "id": None, "thread_token": secrets.token_hex(),
                        "name": f"{PREFIX}copy {start + i}"})
                for i in range(min(batch, count - start))
            )  # fmt: skip
            Seat.objects.bulk_create(
                Seat(**{**seat, "id": None, "game_id": game.pk, "reply_key": new_reply_key()})
                for game in games
                for seat in seats
            )
            GameEvent.objects.bulk_create(
                GameEvent(**{**event, "id": None, "game_id": game.pk})
                for game in games
                for event in events
            )


def live_games() -> int:
    return Game.objects.filter(status=Game.Status.ACTIVE).count()


def emails_owed() -> int:
    """The benchmark's games' emails not sent yet (a new game owes one a player)."""
    unsent = (OutboxEmail.Status.PENDING, OutboxEmail.Status.SENDING)
    return OutboxEmail.objects.filter(game__name__startswith=PREFIX, status__in=unsent).count()


def remove_bench_games() -> int:
    removed, _ = Game.objects.filter(name__startswith=PREFIX).delete()
    return removed
