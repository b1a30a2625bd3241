"""Standing instructions on a phone: a merchant ticks "say no offer for me" on their
settings page, the inspection starts, and the table shows it said — to them on their
own page (with their instructions), to the Sheriff in the log; in English and Spanish.
Screenshots land in var/screenshots/standing-*.png."""

import pytest

from games.core import game_setup, links, timers
from games.models import Seat
from tests.browser.chromium import Phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "save": "Save my standing instructions",
        "saved": "Your standing instructions are saved.",
        "panel": "As a merchant: say “no offer” as soon as the inspection starts.",
        "said": "You have no offer to make.",
        "sheriff_reads": "{name} has no offer to make.",
    },
    "es": {
        "save": "Guardar mis instrucciones permanentes",
        "saved": "Tus instrucciones permanentes se han guardado.",
        "panel": "Como mercader: decir «sin oferta» en cuanto empiece el Registro.",
        "said": "No tienes ninguna oferta que hacer.",
        "sheriff_reads": "{name} no tiene ninguna oferta que hacer.",
    },
}


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="standing-")
    yield tab
    tab.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_offer_by_standing_instruction(phone, language):
    words = WORDS[language]
    game = game_setup.create_game(
        name="Slow play",
        players=[
            game_setup.PlayerSpec(n, f"{n.lower()}@example.org", language=language)
            for n in ("Ann", "Ben", "Cid", "Dee")
        ],
        config={"edition": 2},
    )
    ben = Seat.objects.get(game=game, index=1)
    page = phone.page
    phone.open(links.seat_path(ben) + "settings/", f"settings-{language}")
    form = page.locator("form#standing")
    form.locator("#field-no_offer").check()
    phone.check(f"settings-ticked-{language}")
    form.get_by_role("button", name=words["save"]).click()
    phone.submitted(f"table-with-instructions-{language}", expect=words["saved"])
    assert words["panel"] in page.locator("#standing-instructions").inner_text()

    timers.advance(game.pk, force=True)  # the market's deadline
    timers.advance(game.pk, force=True)  # the loading's: the inspection starts
    phone.open(links.seat_path(ben), f"inspection-merchant-{language}")
    assert words["said"] in page.locator("main").inner_text()
    page.locator("#standing-instructions").screenshot(
        path=f"var/screenshots/standing-panel-{language}.png"
    )

    ann = Seat.objects.get(game=game, index=0)
    phone.open(links.seat_path(ann), f"inspection-sheriff-{language}")
    text = page.locator("main").inner_text()
    assert words["sheriff_reads"].format(name="Ben") in text
    assert page.locator("#standing-instructions").count() == 0  # Ben's, not Ann's
