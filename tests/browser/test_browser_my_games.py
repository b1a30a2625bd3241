"""My games in a real browser, at a phone's size: Pat, in two games at once, signs
in from My games, sees both "Your move" badges, moves in one and is led on to the
next; chooses one email a day across all games and reads it in the dev mailbox,
in Spanish too; and, signed out, has their links sent again from the home page.
Screenshots land in var/screenshots/ (my-games-*)."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from games.core import daily_emails
from games.models import DevMail, Person
from tests.browser.chromium import Phone
from tests.support.person_games import PAT, new_game, played_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MERCHANT = 1  # seat 0 is the first Sheriff, who has no market move


@pytest.fixture
def phone(chromium, site):
    """A phone in Madrid (its zone is the one Pat's seats have)."""
    tab = Phone(chromium, site, prefix="my-games-", zone="Europe/Madrid")
    yield tab
    tab.close()


def newest_mail_to(address: str) -> DevMail:
    return DevMail.objects.filter(to__icontains=address).first()


def read_newest_email(phone: Phone, address: str, screen: str) -> str:
    """Open the address's newest email as a phone's mail app shows it (its HTML alone,
    at 390 px; checked and audited); returns its first link to a table."""
    page = phone.page
    page.goto(f"/dev/mail/?to={address}")
    page.locator("ul.mails li a").first.click()
    page.wait_for_load_state()
    page.goto(page.locator("iframe").get_attribute("src"))
    phone.check(f"email-{screen}")
    found = page.locator("a[href*='/play/']")
    return found.first.get_attribute("href") if found.count() else ""


def sign_in_from_my_games(phone: Phone) -> None:
    page = phone.page
    page.goto("/my/")
    page.wait_for_url(re.compile(r"/sign-in/\?next="))
    phone.check("sign-in")
    page.fill("input[name=email]", PAT)
    page.get_by_role("button", name="Email me a sign-in link").click()
    page.wait_for_url(re.compile(r"/sign-in/code/$"))
    code = re.search(r"\b(\d{6})\b", newest_mail_to(PAT).text)[1]
    page.fill("input[name=code]", code)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/my/$"))


def badges(phone: Phone) -> dict:
    """Game name -> its badge, as the page lists them."""
    rows = phone.page.locator("li.game-row")
    found = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        found[row.locator("h3").inner_text()] = row.locator(".badge").inner_text()
    return found


def test_a_player_in_two_games_moves_and_is_led_on_to_the_next(phone):
    new_game("Alpha", seat=MERCHANT, deadline_mode="duration", market_minutes=60)
    new_game(
        "Bravo, a table with a rather long name",
        seat=MERCHANT,
        deadline_mode="duration",
        market_minutes=600,
    )
    new_game("Charlie", seat=None, organizer=PAT)
    played_out(new_game("Delta", seat=MERCHANT))
    page = phone.page
    sign_in_from_my_games(phone)
    phone.check("list")
    assert page.locator(".badge-to-play").count() == 2
    assert list(badges(phone))[:2] == ["Alpha", "Bravo, a table with a rather long name"]
    assert "Choose the cards to set aside" in page.inner_text("li.game-row >> nth=0")
    page.locator("details.game-section summary").click()  # the games over, folded
    phone.check("list-over-open")
    assert "The game is over." in page.inner_text("details.game-section")

    page.locator("li.game-row", has_text="Alpha").get_by_role(
        "link", name="Open your table"
    ).click()
    page.wait_for_url(re.compile(r"/play/"))
    phone.move_form("set_aside").get_by_role("button", name="Set aside the ticked cards").click()
    phone.submitted("moved", expect="market choice is recorded")
    following = page.get_by_role("link", name=re.compile("Next game waiting for you"))
    assert "Bravo, a table with a rather long name" in following.inner_text()
    following.click()
    page.wait_for_url(re.compile(r"/play/"))
    phone.check("next-table")
    assert "Bravo, a table with a rather long name" in page.inner_text("header")

    page.goto("/my/")
    phone.check("list-after")
    assert badges(phone)["Alpha"].lower() == "waiting"
    assert page.locator(".badge-to-play").count() == 1


def test_one_email_a_day_across_all_games_in_english_then_in_spanish(phone):
    new_game("Alpha", seat=MERCHANT, deadline_mode="duration", market_minutes=60)
    new_game("Bravo", seat=0)
    page = phone.page
    sign_in_from_my_games(phone)
    form = page.locator("form#daily")
    form.locator("select[name=daily_hour]").select_option("0")
    # The zone of Pat's seats, offered already (the device's is the same: no button).
    assert form.locator("input[name=timezone]").input_value() == "Europe/Madrid"
    form.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/my/$"))
    phone.check("daily-saved")
    assert "one email a day across all your games, at 00:00" in page.inner_text(".messages")
    assert daily_emails.record_daily(datetime.now(UTC))  # beat's task, at the hour
    read_newest_email(phone, PAT, "daily")
    assert "Your games today" in newest_mail_to(PAT).subject

    # In Spanish: the page as the browser asks, the email as the person chose.
    page.set_extra_http_headers({"Accept-Language": "es"})
    page.goto("/")
    phone.check("home-es-signed-in")
    page.get_by_role("link", name="Mis partidas").click()
    page.wait_for_url(re.compile(r"/my/$"))
    form = page.locator("form#daily")
    form.locator("select[name=daily_hour]").select_option("0")
    form.get_by_role("button", name="Guardar").click()
    page.wait_for_url(re.compile(r"/my/$"))
    phone.check("list-es")
    shown = page.inner_text("main").lower()  # (badges are in capitals)
    assert "te toca" in shown and "plazo:" in shown
    assert Person.objects.get(email=PAT).language == "es"
    assert daily_emails.record_daily(datetime.now(UTC) + timedelta(days=1))  # the next day's
    read_newest_email(phone, PAT, "daily-es")
    assert newest_mail_to(PAT).subject.startswith("Tus partidas hoy")


def test_a_player_who_lost_their_links_has_them_sent_again(phone):
    new_game("Alpha", seat=MERCHANT)
    new_game("Bravo", seat=0)
    page = phone.page
    phone.open("/", "home")
    lost = page.locator("#lost-links")
    lost.locator("input[name=email]").fill("not an address")
    lost.get_by_role("button", name="Email me my links").click()
    page.wait_for_load_state()
    phone.console_errors = [e for e in phone.console_errors if "400" not in e]
    phone.check("links-refused")
    assert "Enter an email address" in page.inner_text("#lost-links")
    page.locator("#lost-links input[name=email]").fill(PAT)
    page.locator("#lost-links").get_by_role("button", name="Email me my links").click()
    page.wait_for_url(re.compile(r"/$"))
    phone.check("links-asked")
    assert "an email with your links is on its way" in page.inner_text(".messages")
    table = read_newest_email(phone, PAT, "links")
    assert newest_mail_to(PAT).text.count("/play/") == 2
    phone.open(table, "links-table")
    assert "Pat" in page.inner_text("header")

    page.set_extra_http_headers({"Accept-Language": "es"})
    phone.open("/", "home-es")
    assert "¿Has perdido tus enlaces?" in page.inner_text("main")
    page.locator("#lost-links input[name=email]").fill(PAT)
    page.locator("#lost-links").get_by_role("button", name="Envíame mis enlaces").click()
    page.wait_for_url(re.compile(r"/$"))
    phone.check("links-asked-es")
    assert "te llegará un correo con tus enlaces" in page.inner_text(".messages")
    read_newest_email(phone, PAT, "links-es")
    assert newest_mail_to(PAT).subject == "Tus enlaces a tus partidas"
