"""Six-seat games of the 2nd edition (two Deputies a round) as their seat pages show
them: started, moved on to the inspection, and a seat's page opened in a browser of
its own. The new rules' page tests and the pages' language tests share them."""

from django.test import Client

from games.core import game_setup, timers
from games.models import Game
from tests.support.fixtures_pages import fresh, path_of

SIX = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")


def start(players=SIX, **config) -> Game:
    return game_setup.create_game(
        name="New rules",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in players],
        config={"edition": 2, **config},
        seed="de" * 32,
    )


def to_inspection(game: Game) -> Game:
    """The market and the loading time out: every merchant loads the default bag."""
    timers.advance(game.pk, force=True)
    timers.advance(game.pk, force=True)
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"
    return game


def page(game: Game, index: int) -> tuple:
    seat = game.seats.get(index=index)
    client = Client()
    response = client.get(path_of(seat))
    assert response.status_code == 200
    return client, path_of(seat), response.content.decode()
