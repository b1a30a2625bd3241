"""Play again from where the organizer reads the end of the game: their own seat's
final page and final email lead to their organizer's page's "Play again" form (a
link: nothing starts from a GET, and the link signs nobody in). Other players see
nothing of it, and once the new game has started the old page points to it."""

import pytest
from django.test import Client
from django.urls import reverse

from games.core import game_setup, links, rematch
from games.mail import emails
from games.models import Game, Seat
from games.words import i18n
from tests.organizer.organizer_games import finish
from tests.support.fixtures_pages import link_stem

pytestmark = pytest.mark.django_db

ORGANIZER = "Ann@Example.org"  # as typed: the seat's address matches in any case


def finished_game() -> Game:
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
    game = game_setup.create_game(
        name="Friday", players=players, config={"edition": 2}, organizer_email=ORGANIZER
    )
    return finish(game)


def final_email(game: Game, index: int) -> dict:
    seat = Seat.objects.select_related("game").get(game=game, index=index)
    with i18n.as_seat(seat):
        return emails.render(game, seat, game.engine_state(), "game_over", f"g{game.pk}:end")


def form_path(game: Game) -> str:
    return reverse("games:organize", args=[game.pk]) + "#play-again"


def test_the_organizers_final_page_leads_to_the_play_again_form():
    game = finished_game()
    client = Client()
    ann, ben = (Seat.objects.get(game=game, index=i) for i in (0, 1))
    page = client.get(links.seat_path(ann)).content.decode()
    assert f'href="{form_path(game)}"' in page and "New game with the same players" in page
    other = client.get(links.seat_path(ben)).content.decode()
    assert form_path(game) not in other and "New game with the same players" not in other
    assert Game.objects.count() == 1  # reading the page started nothing


def test_the_organizers_final_email_leads_to_the_play_again_form():
    game = finished_game()
    url = "http://testserver" + form_path(game)
    ann = final_email(game, 0)
    assert url in ann["text"] and f'href="{url}"' in ann["html"]
    ben = final_email(game, 1)
    assert url not in ben["text"] + ben["html"]
    assert "New game with the same players" not in ben["text"] + ben["html"]


def test_once_the_new_game_started_the_old_page_leads_to_the_new_seat():
    game = finished_game()
    seats = list(game.seats.order_by("index").values_list("pk", flat=True))
    new = rematch.play_again(game.pk, name="Friday 2", seat_ids=seats).game
    ann = Seat.objects.get(game=game, index=0)
    assert rematch.play_again_path(ann) == ""
    page = Client().get(links.seat_path(ann)).content.decode()
    assert form_path(game) not in page
    assert link_stem(new.seats.get(email="ann@example.org")) in page
    assert (
        "http://testserver" + form_path(game)
        not in final_email(Game.objects.get(pk=game.pk), 0)["text"]
    )


def test_no_way_to_play_again_from_a_game_still_in_play():
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
    game = game_setup.create_game(
        name="Friday", players=players, config={"edition": 2}, organizer_email=ORGANIZER
    )
    assert rematch.play_again_path(Seat.objects.get(game=game, index=0)) == ""
