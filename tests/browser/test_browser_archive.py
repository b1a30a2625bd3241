"""A finished game's archive on a phone: opened from the final page, stepped through
round by round (the bags as they were, the table the round left, its log), made
public, opened at its public address in a fresh browser with nothing of the
players' own, then made private again; in English and in Spanish, each screen
checked at 390 px and audited. Screenshots land in var/screenshots/archive-*.png."""

import re

import pytest

from games.core import game_setup, links
from games.models import Game, Seat
from tests.browser.chromium import Phone
from tests.support.played_games import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_game():
    game = game_setup.create_game(
        name="Last orders",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org", language="es"),
            game_setup.PlayerSpec("Dee", "dee@example.org"),
        ],
        config={"edition": 2},
    )
    return play_to_the_end(game)


def seat_path(game, index: int) -> str:
    return links.seat_path(Seat.objects.get(game=game, index=index))


def test_the_archive_stepped_through_made_public_and_read_by_anyone(chromium, site, finished_game):
    phone = Phone(chromium, site, prefix="archive-")
    page = phone.page
    phone.open(seat_path(finished_game, 1), "final-page-en")
    page.get_by_role("link", name="The game’s archive: replay, reveal and awards").click()
    page.wait_for_url(re.compile(r"/archive/$"))
    phone.check("overview-en")
    assert "Private:" in page.locator("#sharing").inner_text()
    assert page.locator("#awards").is_visible() and page.locator(".score").count() == 4

    page.get_by_role("link", name="Start with round 1").click()
    phone.check("round-1-en")
    assert page.locator("h1").inner_text() == "Round 1 of 8"
    assert page.locator("#step .reveal-bag").count() == 3
    assert page.locator("#step-table .player").count() == 4
    assert "before the first round" in page.locator("#step-log").inner_text().lower()
    for number in range(2, 9):  # Next, round after round, to the last
        page.locator(".step-links").first.get_by_role("link", name=f"Round {number} →").click()
        assert page.locator("h1").inner_text() == f"Round {number} of 8"
        phone.check(f"round-{number}-en" if number in (3, 8) else None)
    page.locator("#step-table").screenshot(path="var/screenshots/archive-round-8-table-en.png")
    page.locator(".step-links").first.get_by_role("link", name="← Round 7").click()
    assert "?round=7" in page.url
    page.locator(".round-chips").first.get_by_role("link", name="Round 3").click()
    assert page.locator("h1").inner_text() == "Round 3 of 8"
    page.get_by_role("link", name="The game’s archive: scores, awards and the whole reveal").click()

    page.get_by_role("button", name="Make it public by link").click()
    page.wait_for_load_state()
    assert "The archive is public" in page.locator(".msg-success").inner_text()
    phone.check("public-en")
    public_url = page.locator(".public-link a").get_attribute("href")
    assert re.search(r"/archive/public/[A-Za-z0-9_-]{32}/$", public_url)

    # Anyone given the address: a fresh browser in Spanish, with no link of the players'.
    stranger = Phone(chromium, site, prefix="archive-", locale="es-ES")
    stranger.open(public_url, "public-overview-es")
    seen = stranger.page.locator("main").inner_text()
    assert "Puntuación final" in seen and "Premios" in seen and "La revelación" in seen
    assert "Quién puede leerlo" not in seen
    assert stranger.page.locator("a[href*='/play/']").count() == 0
    stranger.page.get_by_role("link", name="Empezar por la ronda 1").click()
    stranger.check("public-round-1-es")
    assert stranger.page.locator("h1").inner_text() == "Ronda 1 de 8"
    stranger.page.locator(".step-links").first.get_by_role("link", name="Ronda 2 →").click()
    assert "La mesa al final de la ronda 2" in stranger.page.locator("main").inner_text()

    # The Spanish player reads the archive in Spanish, and makes it private again.
    phone.open(seat_path(finished_game, 2) + "archive/", "overview-es")
    assert "Público:" in page.locator("#sharing").inner_text()
    page.get_by_role("link", name="Empezar por la ronda 1").click()
    phone.check("round-1-es")
    phone.open(seat_path(finished_game, 2) + "archive/")
    page.get_by_role("button", name="Hacerlo privado").click()
    page.wait_for_load_state()
    assert "vuelve a ser privado" in page.locator(".msg-success").inner_text()
    assert Game.objects.get(pk=finished_game.pk).archive_token is None
    stranger.expect_refusal(public_url, "public-gone-es", 404)
    assert "Aquí no hay ningún archivo" in stranger.page.locator("h1").inner_text()
    stranger.close()
    phone.close()
