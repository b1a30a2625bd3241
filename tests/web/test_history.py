"""A player's history (My games → My history): their finished games with place,
points and awards, and the totals (played, won, average score, awards) across
them; found by address in any letter case; only for the person signed in."""

import pytest
from django.test import Client

from games.core import after_game
from games.engine import view_for
from games.models import Game, Seat
from games.present import history
from tests.support.fixtures_pages import start_game
from tests.support.person_games import signed_in
from tests.support.played_games import play_to_the_end

pytestmark = pytest.mark.django_db


def test_the_history_sums_up_finished_games_only(client):
    finished = play_to_the_end(start_game())
    start_game()  # in play: not in the history
    ben = Seat.objects.get(game=finished, index=1)
    state = finished.engine_state()
    sheet = next(s for s in view_for(state, None)["scores"] if s["seat"] == 1)
    earned = [a for a in after_game.told(finished, state)["awards"] if 1 in a["seats"]]
    found = history.history(ben.email.upper())
    assert (found.played, found.won, found.average) == (1, int(sheet["winner"]), sheet["total"])
    assert sum(found.awards.values()) == len(earned)
    signed_in(client, ben.email)
    html = client.get("/my/history/").content.decode()
    assert "My history" in html and finished.name in html
    assert f"Place {sheet['rank']} of 4 · {sheet['total']} points" in html
    assert "/my/history/" in client.get("/my/").content.decode()


def test_signed_out_it_asks_to_sign_in_and_a_stranger_sees_nothing(client):
    play_to_the_end(start_game())
    response = Client().get("/my/history/")
    assert response.status_code == 302 and "next=/my/history/" in response["Location"]
    signed_in(client, "stranger@example.org")
    html = client.get("/my/history/").content.decode()
    assert "No finished game at this address yet" in html


def test_in_spanish(client):
    finished = play_to_the_end(start_game())
    ben = Seat.objects.get(game=finished, index=1)
    signed_in(client, ben.email)
    html = client.get("/my/history/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Mi historial" in html and "Jugadas" in html
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 1
