"""The screens a person meets when something is wrong, on a phone, each audited with
axe-core (no WCAG 2.2 A/AA violation) and checked at 390 px: the refused forms of
sign-in, code entry, a new game, an invitation and standing instructions; the talk
posted too fast (429); and the four "not found" pages: a lobby that is not yours, an
invitation link that is not ours, the archive of a game still in play, and a round
the archive does not have. Screenshots land in var/screenshots/errors-*.png."""

import re

import pytest

from games.core import game_setup, links, lobbies
from games.models import Seat
from tests.browser.chromium import Phone
from tests.support.played_games import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ORGANIZER = "org@example.org"


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="errors-")
    yield tab
    tab.close()


def submit(phone: Phone, button: str, status: int, screen: str) -> str:
    """Press ``button`` and check the refusal it gets (the forms leave every check to
    the server: novalidate)."""
    page = phone.page
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name=button, exact=True).click()
    assert answer.value.status == status, (page.url, answer.value.status)
    page.wait_for_load_state()
    phone.console_errors = [e for e in phone.console_errors if str(status) not in e]
    phone.check(screen)
    return page.inner_text("main")


def new_game(name="Rainy table", **kwargs):
    return game_setup.create_game(
        name=name,
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES],
        config={"edition": 2},
        **kwargs,
    )


NAMES = ("Ann", "Ben", "Cid", "Dee")


def seat_path(game, index: int) -> str:
    return links.seat_path(Seat.objects.get(game=game, index=index))


def test_refused_sign_in_and_code(phone):
    page = phone.page
    phone.open("/sign-in/", "sign-in")
    page.fill("input[name=email]", "not an address")
    text = submit(phone, "Email me a sign-in link", 400, "sign-in-refused")
    assert page.locator("#field-email").get_attribute("aria-invalid") == "true"
    assert text
    page.fill("input[name=email]", "newcomer@example.org")
    page.get_by_role("button", name="Email me a sign-in link").click()
    page.wait_for_url(re.compile(r"/sign-in/code/$"))
    page.fill("input[name=code]", "000000")
    text = submit(phone, "Sign in", 400, "code-refused")
    assert "That code does not work" in text


def test_a_refused_new_game(phone):
    phone.sign_in_as(ORGANIZER)
    phone.open("/new/", "new-game")
    phone.page.fill("#field-name", "")
    text = submit(phone, "Set up the game", 400, "new-game-refused")
    assert phone.page.locator("[aria-invalid=true]").count() >= 1, text


def test_a_refused_invitation_and_one_that_is_not_ours(phone):
    lobby = lobbies.open_lobby(
        organizer_email=ORGANIZER,
        organizer_name="Org",
        organizer_language="en",
        name="Friday smugglers",
        players=4,
        config={"edition": 2},
        timing={"deadline_mode": "daily", "daily_time": "18:00"},
        invitees=[game_setup.PlayerSpec("Bob", "bob@example.org")],
    )
    invitation = lobby.invitations.get(email="bob@example.org")
    page = phone.page
    phone.open(f"/invitation/{invitation.token}/", "invitation")
    page.fill("input[name=name]", "")
    submit(phone, "Accept", 400, "invitation-refused")
    text = phone.expect_refusal("/invitation/not-one-of-ours/", "invitation-not-found", 404)
    assert "This invitation link is not one of ours." in text

    # Someone else's lobby, signed in: no such game.
    phone.sign_in_as("someone@example.org")
    text = phone.expect_refusal(f"/new/{lobby.pk}/", "lobby-not-found", 404)
    assert "No such game" in text


def test_refused_standing_instructions_and_talk_too_fast(phone, settings):
    game = new_game()
    ben = seat_path(game, 1)
    page = phone.page
    phone.open(ben + "settings/", "settings")
    form = page.locator("form#standing")
    form.locator("#field-pass_on").check()
    form.locator("#field-pass_gold").evaluate("e => { e.min = ''; e.max = ''; }")
    form.locator("#field-pass_gold").fill("500")
    text = submit(phone, "Save my standing instructions", 200, "standing-refused")
    assert "Your standing instructions are not saved." in text

    settings.TALK_BURST = 1
    phone.open(ben)
    for words, status in (("First words", 302), ("Second words", 429)):
        page.fill("#talk-text", words)
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.get_by_role("button", name="Say it").click()
        assert answer.value.status == status
        page.wait_for_load_state()
    phone.console_errors = [e for e in phone.console_errors if "429" not in e]
    phone.check("talk-too-fast")
    assert page.input_value("#talk-text") == "Second words"  # kept, to send later


def test_the_archive_of_a_game_in_play_and_a_round_it_does_not_have(phone):
    playing = new_game("Still playing")
    text = phone.expect_refusal(seat_path(playing, 1) + "archive/", "archive-in-play", 404)
    assert "Still playing" not in text
    finished = play_to_the_end(new_game("Last orders"))
    archive = seat_path(finished, 1) + "archive/"
    phone.expect_refusal(archive + "?round=99", "archive-no-such-round", 404)
