"""Honor among thieves in a real browser, at a phone's size: Ben promised the
Sheriff a Silk his bag did not hold; Ann, the Sheriff, accepts his offer on her
phone and reads the cards his bag held — his page says he showed them; Cid's
says only that he did. Screenshots land in var/screenshots/."""

import os
import re

import pytest

from games.core import game_setup, moves, timers
from games.models import Game
from sheriff_pbem.celery import app as celery_app
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, Phone, require_browser
from tests.support.builders import rig
from tests.support.fixtures_pages import fresh, path_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN, BEN, CID = 0, 1, 2


@pytest.fixture
def phone(live_server, settings):
    require_browser()
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    settings.SITE_URL = live_server.url
    eager = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tab = Phone(browser, live_server.url, prefix="honor-")
        yield tab
        tab.close()
        browser.close()
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = eager


def ben_offers_a_silk_he_does_not_carry() -> Game:
    game = game_setup.create_game(
        name="Honor",
        players=[
            game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")
        ],
        config={"edition": 2},
        seed="5e" * 32,
    )
    timers.advance(game.pk, force=True)
    game = fresh(game)
    state = rig(game.engine_state(), f"hand:{BEN}", ["cheese", "cheese", "pepper", "apples"])
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    bag = [c for c in state.hand(BEN) if state.type_of(c) != "apples"]
    ben = game.seats.get(index=BEN)
    since = fresh(game).engine_state().phase.since
    load = {"type": "load_bag", "cards": bag, "declared": "cheese", "count": 3}
    assert moves.submit(ben, load, version=since, key="load").accepted
    timers.advance(game.pk, force=True)
    since = fresh(game).engine_state().phase.since
    terms = {"gold": 1, "bag_goods": {"silk": 1}, "sheriff": [{"bag": BEN, "action": "pass"}]}
    offer = {"type": "make_offer", "to": ANN, "terms": terms}
    assert moves.submit(ben, offer, version=since, key="offer").accepted
    return fresh(game)


def test_the_sheriff_reads_the_bag_shown_to_her_alone(phone):
    game = ben_offers_a_silk_he_does_not_carry()
    phone.open(path_of(game.seats.get(index=ANN)), "sheriff-offer")
    offer = phone.page.locator("article.offer", has_text="Ben")
    offer.get_by_role("button", name=re.compile("Accept this offer")).click()
    phone.submitted("sheriff-bag-shown", expect="Deal!")
    shown = phone.page.locator("h3", has_text="Bags shown to you alone")
    shown.scroll_into_view_if_needed()
    listed = shown.locator("xpath=following-sibling::ul[1]").inner_text()
    assert "Ben" in listed and "Pepper" in listed
    phone.page.screenshot(path=SCREENSHOTS / "honor-sheriff-bag-shown-viewport.png")
    line = phone.page.get_by_text("Ben shows you the cards of their bag").first
    line.scroll_into_view_if_needed()
    assert "2 Cheese, 1 Pepper" in line.inner_text()
    phone.page.screenshot(path=SCREENSHOTS / "honor-sheriff-log-viewport.png")

    phone.open(path_of(game.seats.get(index=CID)), "other-merchant")
    text = phone.page.locator("body").inner_text()
    assert "Bags shown to you alone" not in text
    line = phone.page.get_by_text("Ben shows the Sheriff the cards of their bag").first
    line.scroll_into_view_if_needed()
    assert "Pepper" not in line.inner_text()
    phone.page.screenshot(path=SCREENSHOTS / "honor-other-merchant-log-viewport.png")
