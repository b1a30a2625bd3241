"""Replies on a phone, through the dev mailbox as a newcomer tries them with
``make run``: a merchant's "Your move" email lists what a reply may say; he
answers "keep" in the mailbox's Reply form, the move is made and the site's
answer arrives; a reply in words goes to the table talk. Screenshots land in
var/screenshots/replies-*.png."""

import pytest

from games import engine
from games.core import game_setup
from games.models import Game, TalkMessage
from tests.browser.chromium import Phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium, site, settings):
    settings.INBOUND_DOMAIN = "reply.localhost"
    tab = Phone(chromium, site, prefix="replies-")
    yield tab
    tab.close()


def open_newest(phone: Phone, address: str, screen: str | None) -> str:
    page = phone.page
    page.goto(f"/dev/mail/?to={address}")
    page.locator("ul.mails li a").first.click()
    page.wait_for_load_state()
    phone.check(screen)
    return page.inner_text("main")


def reply(phone: Phone, text: str) -> None:
    page = phone.page
    page.fill("#reply-text", text)
    page.get_by_role("button", name="Reply").click()
    page.wait_for_load_state()


def test_a_move_and_a_word_by_reply_from_the_dev_mailbox(phone):
    game = game_setup.create_game(
        name="Replies",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org", language="es"),
        ],
        config={"edition": 2},
    )
    email = open_newest(phone, "ben@example.org", "ben-your-move")
    assert "Or reply to this email with one of these, on its first line:" in email
    assert "set aside 1 2" in email and "Reply-To: play+" in email

    reply(phone, "keep")
    answer = open_newest(phone, "ben@example.org", "ben-answer")
    assert "Your move by reply is made" in answer and "Your market choice is recorded." in answer
    assert Game.objects.get(pk=game.pk).engine_state().phase.pending[1] == []

    reply(phone, "Ann, I kept my hand: guess why.")
    assert "Your message is on the table" in open_newest(phone, "ben@example.org", "ben-said")
    assert TalkMessage.objects.get().text == "Ann, I kept my hand: guess why."

    # Cid reads Spanish: his email lists the Spanish words; a wrong one is explained.
    email = open_newest(phone, "cid@example.org", "cid-your-move-es")
    assert "O responde a este correo con una de estas, en su primera línea:" in email
    assert "aparta 1 2" in email and "me quedo" in email
    reply(phone, "aparta 1 9")
    refused = open_newest(phone, "cid@example.org", "cid-refused-es")
    assert "Tu mano tiene las cartas 1 a" in refused and "no hay carta 9" in refused


def test_a_first_edition_market_turn_and_an_offer_by_reply(phone):
    """The 1st edition's market by reply names the pile and what is taken; an offer
    with goods and a promise by reply; a Spanish Sheriff's list of demands."""
    game = game_setup.create_game(
        name="Replies 1st",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org", language="es"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org"),
        ],
        config={"edition": 1},
    )
    email = open_newest(phone, "ben@example.org", "first-ben-market-turn")
    assert "set aside 1 2 to pile 1 take 1 from pile 1" in email
    reply(phone, "set aside 2 1 to pile 2 take 1 from pile 1")
    answer = open_newest(phone, "ben@example.org", "first-ben-answer")
    assert "Your move by reply is made" in answer
    state = Game.objects.get(pk=game.pk).engine_state()
    assert state.phase.kind == "market_turn" and state.phase.seat == 2  # Cid's turn now

    # Cid keeps his hand, both load a card: the bargaining, where Ben offers by reply.
    for address, text in (
        ("cid@example.org", "keep"),
        ("ben@example.org", "load 1 declare 1 apples"),
        ("cid@example.org", "load 1 declare 1 bread"),
    ):
        open_newest(phone, address, None)
        reply(phone, text)
    email = open_newest(phone, "ben@example.org", "first-ben-bargaining")
    state = Game.objects.get(pk=game.pk).engine_state()
    assert state.phase.kind == "inspection"
    bag = engine.view_for(state, 1)["me"]["bag"][0]["type"]
    assert "offer 4 gold" in email and "no offer" in email
    reply(phone, f"offer 3 gold and 1 {bag} from my bag promise: I'll Owe You one")
    assert "Your move by reply is made" in open_newest(
        phone, "ben@example.org", "first-ben-offered"
    )
    offer = Game.objects.get(pk=game.pk).engine_state().phase.offers["1"]
    assert offer["terms"]["gold"] == 3 and offer["terms"]["promise"] == "I'll Owe You one"

    # Ann, the Sheriff, reads Spanish: what she may reply, among it the offer to accept.
    email = open_newest(phone, "ann@example.org", "first-ann-sheriff-es")
    assert "acepto 1" in email and "exijo 2 de oro a Ben" in email
