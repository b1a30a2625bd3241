"""The site's bots as outside programs (scripts/play_seat.py): each seat of a game
played by a bot level that knows only what the API tells its seat, to the end."""

import importlib.util
import random
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Game
from tests.api.api_seats import api_game

LEVELS = ["smuggler", "honest", "random", "smuggler"]
SCRIPT = Path(settings.BASE_DIR) / "scripts" / "play_seat.py"


def script():
    spec = importlib.util.spec_from_file_location("play_seat", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db(transaction=True)
def test_bots_play_a_whole_game_over_the_api_alone(live_server):
    play_seat = script()
    game, seats = api_game(players=("Ann", "Ben", "Cid", "Dee"))
    said: list = []
    players = [
        play_seat.SeatPlayer(live_server.url, seat.token, level, random.Random(n), said.append)
        for n, (seat, level) in enumerate(zip(seats, LEVELS, strict=True))
    ]
    for _look in range(400):
        if Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
            break
        for player in players:
            player.turn()
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert not [line for line in said if line.startswith("refused")], said
    assert len(said) > 40  # every move a success message
