"""The table talk on a phone: during an inspection a merchant threatens, the
Sheriff answers and a third merchant offers to pay for a rival's inspection; a
player reports a message, the organizer sees the report on their page and hides
it; a Spanish reader sees the panel in Spanish and the messages as written.
Every screen is checked at 390 px and audited; screenshots land in
var/screenshots/talk-*.png."""

import re

import pytest
from django.utils import timezone

from games.core import game_setup, links, talk
from games.models import Game, Seat, TalkMessage
from tests.browser.chromium import Phone
from tests.support.builders import to_inspection

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ORGANIZER = "org@example.org"
THREAT = "Let my bag pass, Ann, or everyone hears what you did last round."
ANSWER = "Threats, Ben? Now I open your bag for sure."
BRIBE = "Ann, open Ben's bag and I pay you 4 gold. Https://not-a-link.example stays text."


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="talk-")
    yield tab
    tab.close()


def inspection_game() -> Game:
    game = game_setup.create_game(
        name="Saturday table",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org", "Europe/Madrid"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org", language="es"),
        ],
        config={"edition": 2},
        organizer_email=ORGANIZER,
        timing={"deadline_mode": "duration"},
    )
    state = to_inspection(game.engine_state(), {})
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    return Game.objects.get(pk=game.pk)


def link(game, index: int) -> str:
    return links.seat_path(Seat.objects.get(game=game, index=index))


def say(phone: Phone, game, index: int, text: str, screen: str, expect: str) -> None:
    page = phone.page
    phone.open(link(game, index))
    page.fill("#talk-text", text)
    page.get_by_role("button", name=expect).click()
    phone.talk_said(screen)


def test_the_table_talks_during_an_inspection_and_the_organizer_moderates(phone, chromium, site):
    game = inspection_game()
    page = phone.page

    say(phone, game, 1, THREAT, "ben-threatens", "Say it")
    page.screenshot(path="var/screenshots/talk-ben-lands-on-the-talk.png")  # what Ben sees
    say(phone, game, 0, ANSWER, "sheriff-answers", "Say it")
    say(phone, game, 2, BRIBE, "cid-offers-es", "Dilo")  # Cid reads in Spanish

    # Ben reads the whole exchange, newest first, and reports Cid's message.
    phone.open(link(game, 1))
    panel = page.locator("#talk")
    panel.scroll_into_view_if_needed()
    phone.check("ben-reads")
    texts = panel.locator(".talk-text").all_inner_texts()
    assert texts == [BRIBE, ANSWER, THREAT], texts
    assert panel.locator("a").count() == 0  # the address stays text
    assert "Round 1 · Inspection" in panel.inner_text()
    bribe = TalkMessage.objects.get(text=BRIBE)
    # Each Report button names its message (author, time, first words), all distinct.
    buttons = panel.get_by_role("button", name=re.compile("^Report"))
    names = [b.get_attribute("aria-label") for b in buttons.all()]
    assert len(names) == 2, names  # Cid's and Ann's, not Ben's own
    for name in names:  # each accessible name is one button's alone
        assert panel.get_by_role("button", name=name, exact=True).count() == 1, name
    assert names[0].startswith("Report Cid’s message of ") and "“Ann, open Ben" in names[0]
    panel.get_by_role("button", name=re.compile("^Report Cid’s message")).click()
    phone.talk_said("ben-reported", expect="the organizer will look at this message")

    # The organizer sees the report with its thread, and hides the message.
    phone.sign_in_as(ORGANIZER)
    phone.open(f"/organize/{game.pk}/", "organizer-report")
    section = page.locator("#talk")
    assert "reported once" in section.inner_text().lower()
    assert THREAT in section.inner_text() and ANSWER in section.inner_text()
    section.locator(f"#field-reason-{bribe.ref}").fill("Bribes belong in offers")
    section.get_by_role("button", name="Hide this message").click()
    page.wait_for_load_state()
    assert "The message is hidden" in page.locator(".msg-success").inner_text()
    phone.check("organizer-hidden")
    assert "Hidden by org@example.org (reason: Bribes belong in offers)." in page.inner_text(
        "#talk"
    )
    page.locator("#talk").screenshot(path="var/screenshots/talk-organizer-section.png")

    # The players see that a message was hidden, not what it said.
    phone.open(link(game, 1), "ben-sees-hidden")
    assert "A message hidden by the organizer" in page.inner_text("#talk")
    assert "4 gold" not in page.inner_text("main")

    # A Spanish reader: the panel in Spanish, the messages as written.
    phone.open(link(game, 2), "cid-reads-es")
    spanish = page.inner_text("#talk")
    assert "Charla de la mesa" in spanish and "Ronda 1 · Registro" in spanish
    assert THREAT in spanish and ANSWER in spanish
    assert "Un mensaje ocultado por el organizador" in spanish
    page.locator("#talk").screenshot(path="var/screenshots/talk-panel-es.png")
    phone.open(link(game, 1))
    page.locator("#talk").screenshot(path="var/screenshots/talk-panel-en.png")

    # The organizer's moderation view on a Spanish phone.
    spanish = Phone(chromium, site, prefix="talk-es-", locale="es-ES")
    try:
        spanish.sign_in_as(ORGANIZER)
        spanish.open(f"/organize/{game.pk}/", "organizer-moderation")
        section = spanish.page.inner_text("#talk")
        assert "mensajes denunciados y ocultos" in section.lower(), section[:300]
        assert BRIBE in section  # the organizer reads what was hidden, as written
        spanish.page.locator("#talk").screenshot(
            path="var/screenshots/talk-organizer-section-es.png"
        )
    finally:
        spanish.close()


def test_new_messages_are_marked_until_the_panel_has_been_seen(phone):
    """Unread talk: counted at the top of the page, marked in the panel, and read
    once the panel has been on screen (the page's script posts it); reloading
    shows nothing new. The game's own lines can be hidden and shown again."""
    game = inspection_game()
    page = phone.page
    ben = Seat.objects.get(game=game, index=1)
    talk.post(ben, THREAT, timezone.now())
    talk.post(Seat.objects.get(game=game, index=2), BRIBE, timezone.now())

    phone.open(link(game, 0), "ann-unread")
    jump = page.locator("header a.talk-jump")
    assert jump.inner_text() == "2 new messages in the table talk"
    assert page.locator("#talk .talk-message.new").count() == 2
    page.locator("#talk").screenshot(path="var/screenshots/talk-panel-unread-en.png")
    assert Seat.objects.get(game=game, index=0).talk_read_id == 0  # opening marked nothing
    with page.expect_response(lambda r: r.url.endswith("/talk/read/")) as answer:
        jump.click()
    assert answer.value.status == 204
    phone.check("ann-read")
    newest = TalkMessage.objects.order_by("-id").first()
    assert Seat.objects.get(game=game, index=0).talk_read_id == newest.pk
    phone.open(link(game, 0))
    assert page.locator("header a.talk-jump").count() == 0
    assert page.locator("#talk .talk-message.new").count() == 0

    # Ben's own message is never new to him; Cid's is.
    phone.open(link(game, 1))
    assert page.locator("header a.talk-jump").inner_text() == "1 new message in the table talk"

    # The game's own lines among the talk, hidden and shown again by the reader.
    page.get_by_role("button", name="Hide the game's lines").click()
    page.wait_for_load_state()
    phone.check("lines-hidden")
    page.get_by_role("button", name="Show the game's lines among the talk").click()
    page.wait_for_load_state()
    assert Seat.objects.get(game=game, index=1).talk_system_lines
