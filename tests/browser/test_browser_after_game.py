"""After the game on a phone: the final page's awards and the reveal (each round
folded, the last open), in English and Spanish, and the final email telling the
same; each screen checked at 390 px and audited. Screenshots land in
var/screenshots/after-*.png."""

import re

import pytest

from games.core import game_setup, links
from games.models import Seat
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
