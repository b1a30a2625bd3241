"""Replies from any address, on the organizer's page on a phone: Ben's reply from
his work address was held; the organizer reads so next to Ben's seat, presses "Take
Ben's replies from any address", and Ben's next reply from work reaches the table;
then, reading the page in Spanish, takes them from Ben's own address only again.
Screenshots land in var/screenshots/organize-replies-*.png."""

import pytest

from games.core import game_setup, replies
from games.models import Game, InboundMessage, Seat, TalkMessage
from tests.browser.chromium import SCREENSHOTS, Phone
from tests.browser.test_browser_organize import ORGANIZER, result, sign_in_from_the_mailbox

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOMAIN = "reply.localhost"


@pytest.fixture
def phone(chromium, site, settings):
    settings.INBOUND_DOMAIN = DOMAIN
    tab = Phone(chromium, site, prefix="organize-replies-")
    yield tab
    tab.close()


def from_work(seat: Seat, message_id: str) -> replies.Received:
    return replies.Received(
        esp="postmark",
        message_id=message_id,
        recipients=(f"play+{seat.reply_key}@{DOMAIN}",),
        from_header="Ben at work <ben.okonkwo@work.example>",
        headers=(("From", "ben.okonkwo@work.example"),),
        envelope_sender="ben.okonkwo@work.example",
        text="Cid, I will pay 2 gold.\n\nOn Mon, 23 Nov 2026, Sheriff wrote:\n> Your move",
    )


def test_the_organizer_takes_bens_replies_from_any_address_from_a_phone(phone):
    game = game_setup.create_game(
        name="Friday table",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org", "Europe/Madrid"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org"),
        ],
        config={"edition": 2},
        organizer_email=ORGANIZER,
    )
    ben = Seat.objects.get(game=game, index=1)
    outcome = replies.handle(from_work(ben, "<w1@work.example>"))
    assert outcome == InboundMessage.Outcome.HELD_SENDER

    page = phone.page
    phone.open(f"/organize/{game.pk}/")
    sign_in_from_the_mailbox(phone)
    page.wait_for_url(f"**/organize/{game.pk}/")
    block = page.locator(f"#replies-{ben.pk}")
    block.scroll_into_view_if_needed()
    phone.check("held")
    text = block.inner_text()
    assert "Replies by email: taken only from this address." in text
    assert "A reply from ben.okonkwo@work.example was held on" in text
    page.locator(f"li:has(#replies-{ben.pk})").screenshot(
        path=SCREENSHOTS / "organize-replies-ben-held.png"
    )

    page.get_by_role("button", name="Take Ben’s replies from any address").click()
    said = result(phone, "taken-from-anyone")
    assert said.startswith("Ben’s replies by email are now taken from any address.")
    assert "Ben can send it again" in said
    assert Seat.objects.get(pk=ben.pk).reply_from_anyone
    block.scroll_into_view_if_needed()
    assert "taken from any address" in block.inner_text() and "was held" not in block.inner_text()
    page.locator(f"li:has(#replies-{ben.pk})").screenshot(
        path=SCREENSHOTS / "organize-replies-ben-anyone.png"
    )

    outcome = replies.handle(from_work(Seat.objects.get(pk=ben.pk), "<w2@work.example>"))
    assert outcome == InboundMessage.Outcome.TALK_POSTED
    assert TalkMessage.objects.get().text == "Cid, I will pay 2 gold."

    # In Spanish, back to Ben's own address only.
    page.set_extra_http_headers({"Accept-Language": "es-ES,es;q=0.9"})
    phone.open(f"/organize/{game.pk}/")
    block.scroll_into_view_if_needed()
    phone.check("anyone-es")
    assert "Respuestas por correo: desde cualquier dirección." in block.inner_text()
    page.locator(f"li:has(#replies-{ben.pk})").screenshot(
        path=SCREENSHOTS / "organize-replies-ben-es.png"
    )
    page.get_by_role(
        "button", name="Aceptar las respuestas de Ben solo desde ben@example.org"
    ).click()
    said = result(phone, "own-only-es")
    assert said == "Las respuestas por correo de Ben se aceptan ahora solo desde ben@example.org."
    assert not Seat.objects.get(pk=ben.pk).reply_from_anyone
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
