"""docs/api.md's Python client, run as written against the site: three programs, each
with its own seat's token and the API alone, play a whole game to its end."""

import re
from pathlib import Path

import pytest
import requests
from django.conf import settings

from games.models import Game
from tests.api.api_seats import api_game

DOC = Path(settings.BASE_DIR) / "docs" / "api.md"


def docs_client() -> dict:
    """The names the client's code block defines (seat_address, turn, play)."""
    text = DOC.read_text()
    section = text.split("## A client in a few lines of Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    names: dict = {}
    exec(compile(code, str(DOC), "exec"), names)  # our own document's code
    return names


@pytest.mark.django_db(transaction=True)
def test_the_docs_client_plays_a_whole_game_with_the_api_alone(live_server):
    client = docs_client()
    game, seats = api_game(players=("Ann", "Ben", "Cid"))
    sessions = []
    for seat in seats:
        http = requests.Session()
        http.headers["Authorization"] = f"Bearer {seat.token}"
        sessions.append((http, client["seat_address"](http, live_server.url)))
    for _round in range(2000):
        if Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
            break
        made = [client["turn"](http, address) for http, address in sessions]
        assert any(made), "nobody could move: the game is stuck"
    final = Game.objects.get(pk=game.pk)
    assert final.status == Game.Status.FINISHED
    assert final.engine_state().is_over()
    view = sessions[0][0].get(sessions[0][1], timeout=30).json()
    assert view["game"]["status"] == "finished" and view["view"]["scores"]
    assert view["after_game"]["awards"] is not None  # the reveal, now that it is over
