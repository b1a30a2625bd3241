"""The organizer's own page on a phone: the organizer opens their game's page, is
sent to sign in, signs in from the dev mailbox's email and lands back on it; pauses,
resumes and extends the deadline, reading each result; then reads the page in
Spanish. Every screen is checked at 390 px and audited (tests/browser/chromium.py);
screenshots land in var/screenshots/organize-*.png."""

import re

import pytest

from games.core import game_setup
from games.models import Game
from tests.browser.chromium import SCREENSHOTS, Phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ORGANIZER = "org@example.org"


@pytest.fixture
def phone(chromium, site):
    """A phone against the live server as the dev stack runs it (tests/browser/conftest.py)."""
    tab = Phone(chromium, site, prefix="organize-")
    yield tab
    tab.close()


def friday_game() -> Game:
    return game_setup.create_game(
        name="Friday table",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org", "Europe/Madrid"),
            game_setup.PlayerSpec("Benedetta Vanderbilt-Okonkwo", "benedetta@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org"),
        ],
        config={"edition": 2},
        organizer_email=ORGANIZER,
        timing={"deadline_mode": "duration", "market_minutes": 1440},
    )


def sign_in_from_the_mailbox(phone: Phone) -> None:
    """On the sign-in page: ask for a link, open it from the dev mailbox, press its button."""
    page = phone.page
    page.fill("input[name=email]", ORGANIZER)
    page.get_by_role("button", name="Email me a sign-in link").click()
    page.wait_for_url(re.compile(r"/sign-in/code/$"))
    page.goto(f"/dev/mail/?to={ORGANIZER}")
    page.locator("ul.mails li a").first.click()
    page.wait_for_load_state()
    page.goto(page.locator("iframe").get_attribute("src"))
    page.goto(page.get_by_role("link", name="Sign me in").get_attribute("href"))
    page.get_by_role("button", name="Sign me in").click()


def result(phone: Phone, screen: str) -> str:
    """After a control: back on the organizer's page, its result first (in the title
    and focused, as after a move)."""
    page = phone.page
    page.wait_for_load_state()
    assert re.search(r"/organize/\d+/$", page.url), page.url
    assert not page.locator(".msg-error").count(), page.locator(".msg-error").all_inner_texts()
    text = page.locator(".msg-success").inner_text()
    assert page.title().startswith(" ".join(text.split())), (page.title(), text)
    assert page.evaluate("document.activeElement.id") == "messages"
    phone.check(screen)
    return text


def test_the_organizer_signs_in_and_pauses_resumes_and_extends_from_a_phone(phone):
    game = friday_game()
    page = phone.page
    phone.open(f"/organize/{game.pk}/", "sign-in-first")
    assert re.search(r"/sign-in/\?next=%2Forganize%2F\d+%2F$", page.url), page.url
    sign_in_from_the_mailbox(phone)
    page.wait_for_url(re.compile(rf"/organize/{game.pk}/$"))
    phone.check("page")
    main = page.inner_text("main")
    assert "You are signed in." in main and "Friday table" in main
    assert "Waiting for: Benedetta Vanderbilt-Okonkwo, Cid" in main
    assert "(Europe/Paris)" not in main and "UTC" in main  # the game's zone: UTC

    page.get_by_role("button", name="Pause the game").click()
    assert "The game is paused" in result(phone, "paused")
    assert "Paused by the organizer since" in page.inner_text("#state")
    assert Game.objects.get(pk=game.pk).paused_at is not None

    page.get_by_role("button", name="Resume the game").click()
    assert "The game resumes" in result(phone, "resumed")
    deadline = Game.objects.get(pk=game.pk).phase_deadline

    page.fill("input[name=hours]", "6")
    page.get_by_role("button", name="Extend the deadline").click()
    assert "The deadline is now" in result(phone, "extended")
    assert (Game.objects.get(pk=game.pk).phase_deadline - deadline).total_seconds() == 6 * 3600

    # The forms kept folded: replacing a player, cancelling.
    page.locator("summary", has_text="Replace player").nth(1).click()
    page.locator("summary", has_text="Cancel the game").click()
    phone.check("forms-open")
    page.locator(f"#field-name-{game.seats.get(index=1).pk}").scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS / "organize-replace-form.png")

    # The same page in Spanish, for a Spanish browser.
    page.set_extra_http_headers({"Accept-Language": "es-ES,es;q=0.9"})
    phone.open(f"/organize/{game.pk}/", "page-es")
    main = page.inner_text("main")
    assert "Página del organizador" in main and "Falta por jugar" in main
    page.get_by_role("button", name="Pausar la partida").click()
    assert "La partida está en pausa" in result(phone, "paused-es")


def test_someone_else_signed_in_is_told_there_is_no_game_of_theirs(phone):
    game = friday_game()
    Game.objects.filter(pk=game.pk).update(organizer_email="someone.else@example.org")
    phone.open(f"/organize/{game.pk}/")
    sign_in_from_the_mailbox(phone)
    page = phone.page
    page.wait_for_load_state()
    phone.console_errors = [e for e in phone.console_errors if "404" not in e]
    phone.check("not-yours")
    assert "No game of yours here" in page.inner_text("main")
    assert "Friday table" not in page.content()
