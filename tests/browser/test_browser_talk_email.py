"""Table talk by email, on a phone: during an inspection a merchant threatens the
Sheriff about his own declaration, another whispers to the Sheriff, and each
reader's email gathers the lines they have not read, once, after a quiet time,
as their notification setting says (every event / my turn and results, in
Spanish). The emails are read at 390 px in the dev mailbox; screenshots land in
var/screenshots/talk-mail-*.png."""

import time

import pytest

from games.core import game_setup, links, timers
from games.mail import outbox
from games.models import Game, OutboxEmail, Seat
from tests.browser.chromium import Phone
from tests.support.person_games import played_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUIET = 2  # seconds of quiet before a talk email goes
THREAT = "Ann, let my bag pass or I tell the table what you did last round."
WHISPER = "Ann, open Ben's bag and I pay you 3 gold."
TO_CID = "Cid, your bag is the next one Ann opens."


@pytest.fixture
def phone(chromium, site, settings):
    settings.TALK_EMAIL_QUIET_SECONDS, settings.TALK_EMAIL_MAX_WAIT_SECONDS = QUIET, 60
    tab = Phone(chromium, site, prefix="talk-mail-")
    yield tab
    tab.close()


def inspection_game() -> Game:
    """Ann is the Sheriff and reads every event; Cid reads in Spanish, his turn and
    results; Dee her turn only. Private messages are on."""
    game = game_setup.create_game(
        name="Talk by mail",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org", language="es"),
            game_setup.PlayerSpec("Dee", "dee@example.org"),
        ],
        config={"edition": 2},
        timing={"deadline_mode": "duration"},
    )
    Game.objects.filter(pk=game.pk).update(talk_private=True)
    Seat.objects.filter(game=game, index=0).update(notify=Seat.Notify.EVERY_EVENT)
    Seat.objects.filter(game=game, index=3).update(notify=Seat.Notify.TURN_ONLY)
    for _ in range(2):  # the market, then the bags loaded by the deadline
        timers.advance(game.pk, force=True)
    game = Game.objects.get(pk=game.pk)
    assert game.engine_state().phase.kind == "inspection"
    return game


def link(game, index: int) -> str:
    return links.seat_path(Seat.objects.get(game=game, index=index))


def say(phone: Phone, game, index: int, text: str, screen: str, to="", about=""):
    page = phone.page
    phone.open(link(game, index))
    page.fill("#talk-text", text)
    if to:
        page.select_option("#talk-to", label=to)
    if about:
        option = page.locator("#talk-about option").filter(has_text=about).first
        page.select_option("#talk-about", value=option.get_attribute("value"))
    page.locator("form.talk-form button[type=submit]").click()
    phone.talk_said(screen)


def quiet_time_passes() -> None:
    """The quiet time runs out and the outbox sweep sends what is due."""
    time.sleep(QUIET + 0.5)
    for pk in OutboxEmail.objects.filter(status="pending").values_list("pk", flat=True):
        outbox.deliver(pk)


def talk_emails(address: str) -> list:
    return list(OutboxEmail.objects.filter(seat__email=address, kind="talk", status="sent"))


def read_email(phone: Phone, address: str, screen: str) -> str:
    """The address's newest email as a phone's mail app shows it: its text."""
    page = phone.page
    page.goto(f"/dev/mail/?to={address}")
    page.locator("ul.mails li a").first.click()
    page.wait_for_load_state()
    page.goto(page.locator("iframe").get_attribute("src"))
    phone.check(screen)
    return page.inner_text("body")


def unisolated(text: str) -> str:
    return text.replace("\u2068", "").replace("\u2069", "")


def test_each_readers_email_gathers_the_lines_they_have_not_read(phone):
    game = inspection_game()
    say(phone, game, 1, THREAT, "ben-threatens", about="Ben’s declaration", to="")
    say(phone, game, 3, WHISPER, "dee-whispers", to="Only Ann (private)")
    assert talk_emails("ann@example.org") == []  # nothing before the quiet time
    quiet_time_passes()

    # Ann reads every event: one email for both lines, the whisper marked private.
    assert len(talk_emails("ann@example.org")) == 1
    ann = read_email(phone, "ann@example.org", "ann-gathered")
    assert "New table talk" in ann and THREAT in ann and WHISPER in ann
    assert "privately to you" in ann and "re: Ben’s declaration" in unisolated(ann)
    phone.page.screenshot(path="var/screenshots/talk-mail-gathered-en.png", full_page=True)
    # Nobody else reads Dee's whisper; Ben reads every event only if he asked: he did not.
    assert talk_emails("ben@example.org") == [] and talk_emails("cid@example.org") == []

    # A line that names Cid concerns him: his email, in Spanish, tells what he has not read.
    say(phone, game, 1, TO_CID, "ben-to-cid")
    quiet_time_passes()
    assert len(talk_emails("cid@example.org")) == 1
    cid = read_email(phone, "cid@example.org", "cid-gathered-es")
    assert "Charla que te afecta" in cid and TO_CID in cid and THREAT in cid
    assert WHISPER not in cid  # another pair's private line
    phone.page.screenshot(path="var/screenshots/talk-mail-gathered-es.png", full_page=True)

    # Ann's next email tells only the line since her last one.
    assert len(talk_emails("ann@example.org")) == 2
    again = read_email(phone, "ann@example.org", "ann-again")
    assert TO_CID in again and THREAT not in again and WHISPER not in again

    # Dee reads her turn only: no talk email at all.
    assert talk_emails("dee@example.org") == []

    # After the game the final page reveals the whisper to the whole table.
    played_out(game)
    phone.open(link(game, 1), "ben-final-page")
    final = unisolated(phone.page.inner_text("#talk"))
    assert "every private message is revealed" in final
    assert WHISPER in final and "privately from dee to ann" in final.lower()
    phone.page.locator("#talk").screenshot(path="var/screenshots/talk-mail-revealed-en.png")
