"""Signed links: tampered, expired, revoked, cross-game and cancelled-game links
are refused with a friendly page and never show game data."""

from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import controls, game_setup, links
from games.models import Game

pytestmark = pytest.mark.django_db

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


def new_game(name="Zanzibar Night"):
    return game_setup.create_game(name=name, players=PLAYERS, config={"edition": 2})


def path(token: str) -> str:
    return reverse("games:seat", args=[token])


def get(token: str):
    response = Client().get(path(token))
    return response.status_code, response.content.decode()


def assert_refused(status: int, html: str, expected: int, game: Game) -> None:
    assert status == expected
    assert "Traceback" not in html and game.name not in html
    for seat in game.seats.all():
        assert seat.name not in html


def test_a_valid_link_opens_the_seat():
    game = new_game()
    status, html = get(links.make_token(game.seats.get(index=1)))
    assert status == 200 and "Ben" in html


def test_a_tampered_token_is_refused():
    game = new_game()
    token = links.make_token(game.seats.get(index=1))
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    assert_refused(*get(forged), 403, game)


def test_a_token_signed_for_another_purpose_is_refused():
    game = new_game()
    seat = game.seats.get(index=1)
    token = signing.dumps({"g": game.pk, "s": seat.pk, "v": 1}, salt="something.else")
    assert_refused(*get(token), 403, game)


def test_a_cross_game_token_is_refused():
    game, other = new_game("First"), new_game("Second")
    seat = game.seats.get(index=1)
    token = signing.dumps(
        {"g": other.pk, "s": seat.pk, "v": seat.link_version}, salt=links.SEAT_LINK_SALT
    )
    assert_refused(*get(token), 403, game)


def test_a_revoked_link_is_gone_and_the_new_one_works():
    game = new_game()
    seat = game.seats.get(index=1)
    old = links.make_token(seat)
    seat.link_version += 1
    seat.save()
    status, html = get(old)
    assert_refused(status, html, 410, game)
    assert "replaced the player at this seat" in html  # told plainly, not "a newer link"
    assert get(links.make_token(seat))[0] == 200


def test_links_stop_working_some_days_after_the_game_ends(settings):
    game = new_game()
    token = links.make_token(game.seats.get(index=1))
    ended = timezone.now() - timedelta(days=settings.LINK_VALID_DAYS_AFTER_END, hours=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=ended)
    assert_refused(*get(token), 410, game)
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(days=1))
    assert get(token)[0] == 200  # still readable shortly after the end


def test_a_cancelled_game_stays_readable_with_no_move_to_make():
    game = new_game()
    token = links.make_token(game.seats.get(index=1))
    controls.cancel(game.pk, expected_version=game.version)
    status, html = get(token)
    assert status == 200
    assert "The organizer cancelled this game on" in html
    assert 'name="move"' not in html


def test_a_post_without_csrf_gets_the_friendly_page():
    game = new_game()
    client = Client(enforce_csrf_checks=True)
    response = client.post(path(links.make_token(game.seats.get(index=1))), {"move": "set_aside"})
    assert response.status_code == 403
    assert "did not send this site" in response.content.decode()
