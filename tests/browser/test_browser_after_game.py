"""After the game on a phone: the final page's awards and the reveal (each round
folded, the last open), in English and Spanish, and the final email telling the
same; each screen checked at 390 px and audited. Screenshots land in
var/screenshots/after-*.png."""

import re

import pytest

from games.core import game_setup, links
from games.models import DevMail, Seat
from tests.browser.chromium import Phone
from tests.support.mailplay import deliver_pending
from tests.support.played_games import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="after-")
    yield tab
    tab.close()


def test_the_awards_and_the_reveal_on_the_final_page_and_in_the_final_email(phone):
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
    play_to_the_end(game)
    deliver_pending()
    page = phone.page
    phone.open(links.seat_path(Seat.objects.get(game=game, index=1)), "final-page-en")
    awards = page.locator("#awards").inner_text()
    assert "Most honest merchant".lower() in awards.lower()
    rounds = page.locator("details.reveal-round")
    assert rounds.count() == 8
    rounds.first.locator("summary").click()
    assert rounds.first.locator(".reveal-bag").count() == 3
    phone.audit("final-page-en")
    page.locator("#reveal").screenshot(path="var/screenshots/after-reveal-en.png")

    phone.open(links.seat_path(Seat.objects.get(game=game, index=2)), "final-page-es")
    assert "premios" in page.locator("#awards").inner_text().lower()
    assert "dentro" not in page.locator("#reveal").inner_text()  # the page shows cards
    assert "declaró" in page.locator("#reveal").inner_text()
    page.locator("#reveal").screenshot(path="var/screenshots/after-reveal-es.png")

    phone.newest_email("ben@example.org", "final-email-en")
    phone.newest_email("cid@example.org", "final-email-es", link=re.compile("Ver la mesa final"))


def test_a_players_history_after_two_games(phone):
    """Ben signs in, goes from My games to his history: two finished games, his
    place and points in each, his awards."""
    players = [
        game_setup.PlayerSpec("Ann", "ann@example.org"),
        game_setup.PlayerSpec("Ben", "ben@example.org"),
        game_setup.PlayerSpec("Cid", "cid@example.org"),
    ]
    for name in ("Monday table", "Friday table"):
        play_to_the_end(game_setup.create_game(name=name, players=players, config={"edition": 2}))
    deliver_pending()
    page = phone.page
    page.goto("/my/")
    page.wait_for_url(re.compile(r"/sign-in/\?next="))
    page.fill("input[name=email]", "ben@example.org")
    page.get_by_role("button", name="Email me a sign-in link").click()
    page.wait_for_url(re.compile(r"/sign-in/code/$"))
    text = DevMail.objects.filter(to="ben@example.org").order_by("-pk").first().text
    page.fill("input[name=code]", re.search(r"\b(\d{6})\b", text)[1])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/my/$"))
    page.get_by_role("link", name=re.compile("My history")).click()
    page.wait_for_url(re.compile(r"/my/history/$"))
    phone.check("history-en")
    phone.audit("history-en")
    listed = page.locator(".history-games li")
    assert listed.count() == 2 and "Place" in listed.first.inner_text()
    assert page.locator(".history-totals dd").first.inner_text() == "2"
