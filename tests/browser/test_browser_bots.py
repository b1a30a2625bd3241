"""Bots at the table, on a phone at 390 px: a newcomer presses "Play now" on the home
page and plays a practice game against bots to its final page; an organizer adds a
bot in the lobby; an organizer hands a seat to a bot from their page and gives it to
a person again. The bots' turns run here as the deadlines worker runs them once
their time comes (games.core.bot_turns). Screenshots land in var/screenshots/bots-*.png."""

import re

import pytest

from games.core import bot_turns, game_setup, lobbies
from games.models import Game, Invitation, OutboxEmail, Seat
from tests.browser.chromium import Phone, until
from tests.browser.playing import play_whatever_is_asked

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEWCOMER = "newcomer@example.org"
ORGANIZER = "org@example.org"


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="bots-")
    yield tab
    tab.close()


def bots_play(game_id: int) -> int:
    """The bots' turns until they wait for the person (their time forced to come)."""
    made = 0
    for _ in range(200):
        due = Game.objects.values_list("bots_due_at", flat=True).get(pk=game_id)
        if due is None:
            return made
        made += bot_turns.play(game_id, now=due)
    raise AssertionError("the bots never stopped")


def result(phone: Phone, path: str, screen: str) -> str:
    page = phone.page
    page.wait_for_load_state()
    assert re.search(path, page.url), page.url
    assert not page.locator(".msg-error").count(), page.locator(".msg-error").all_inner_texts()
    text = page.locator(".msg-success").inner_text()
    phone.check(screen)
    return text


def test_a_newcomer_plays_now_against_bots_to_the_final_page(phone):
    page = phone.page
    phone.sign_in_as(NEWCOMER)
    phone.open("/", "home")
    page.get_by_role("link", name="Play now, against bots").click()
    page.wait_for_url(re.compile(r"/play-now/$"))
    phone.check("play-now")
    assert "New to the game?" in page.inner_text("main")
    page.fill("input[name=my_name]", "Newcomer")
    page.select_option("select[name=level]", "smuggler")
    page.get_by_role("button", name="Start the practice game").click()
    page.wait_for_url(re.compile(r"/play/[^/]+/$"))
    table = page.url
    phone.check("table-first")
    game = Game.objects.get(practice=True, organizer_email=NEWCOMER)
    assert game.deadline_mode == Game.DeadlineMode.NONE and len(game.bots) == 3
    main = page.inner_text("main")
    assert main.count("(bot)") >= 3, main[:600]

    # Its first move made, the newcomer waits: the bots' moves show by themselves,
    # put in place without a reload (static/games/live.js).
    play_whatever_is_asked(phone, table, 1, "practice-")
    assert "The bots are playing" in page.inner_text("#bots-playing")
    page.evaluate("window.__stayed = true")
    bots_play(game.pk)  # meanwhile, the worker's turn for the bots
    until(lambda: not page.locator("#bots-playing").count())
    assert page.evaluate("window.__stayed === true")
    phone.check("bots-moved")

    for turn in range(200):
        bots_play(game.pk)
        if Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
            break
        moved = play_whatever_is_asked(phone, table, turn, "practice-")
        assert moved or Game.objects.get(pk=game.pk).bots_due_at, "nobody can move"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    phone.open(table, "final")
    final = page.inner_text("main")
    assert "(bot)" in final and "Newcomer" in final
    # Played at the table: nobody was mailed, the bots no more than the newcomer.
    assert not OutboxEmail.objects.filter(game=game).exists()


def test_an_organizer_adds_bots_in_the_lobby_and_starts(phone):
    lobby = lobbies.open_lobby(
        organizer_email=ORGANIZER,
        organizer_name="Org",
        organizer_language="en",
        name="Three of us",
        players=4,
        config={"edition": 2},
        timing={"deadline_mode": "duration"},
        invitees=[game_setup.PlayerSpec("Ann", "ann@example.org")],
    )
    Invitation.objects.filter(lobby=lobby, email="ann@example.org").update(status="accepted")
    page = phone.page
    phone.sign_in_as(ORGANIZER)
    phone.open(f"/new/{lobby.pk}/", "lobby")
    page.select_option("#field-bot-level", "honest")
    page.get_by_role("button", name="Add a bot").click()
    assert "takes a seat" in result(phone, r"/new/\d+/$", "lobby-bot-added")
    assert "honest trader bot" in page.inner_text("main")
    page.get_by_role("button", name="Add a bot").click()  # the smuggler, first in the list
    assert "takes a seat" in result(phone, r"/new/\d+/$", "lobby-full")
    assert not page.locator("#add-bot").count()  # no seat left for one
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/organize/\d+/$"))
    phone.check("organize-with-bot")
    game = Game.objects.get(lobby=lobby)
    assert sorted(game.bots.values()) == ["honest", "smuggler"]
    for index in game.bots:
        bot_seat = Seat.objects.get(game=game, index=int(index))
        assert bot_seat.name.endswith("(bot)") and bot_seat.email == ""
    assert "bot" in page.inner_text("#players").lower()


def test_the_organizer_hands_a_seat_to_a_bot_and_a_person_takes_it_back(phone):
    game = game_setup.create_game(
        name="Friday table",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org"),
        ],
        config={"edition": 2},
        organizer_email=ORGANIZER,
        timing={"deadline_mode": "duration", "market_minutes": 1440},
    )
    ben = game.seats.get(index=1)
    page = phone.page
    phone.sign_in_as(ORGANIZER)
    phone.open(f"/organize/{game.pk}/", "organize")
    page.locator("summary", has_text="Hand this seat to a bot").nth(1).click()
    page.select_option(f"#field-level-{ben.pk}", "smuggler")
    phone.check("hand-to-bot-form")
    page.locator(f"form:has(#field-level-{ben.pk})").get_by_role("button").click()
    text = result(phone, r"/organize/\d+/$", "handed-to-bot")
    assert "instead of Ben" in text and "(bot)" in text
    game.refresh_from_db()
    assert game.bots == {"1": "smuggler"} and game.bots_due_at is not None
    assert OutboxEmail.objects.filter(to="ben@example.org", kind="replaced").exists()
    assert re.search(r"\w+ \(bot\) takes over seat 2 from Ben", page.inner_text("#log"))

    # A person takes the seat back with the same form as any replacement.
    page.locator("summary", has_text="A person takes this seat").click()
    page.fill(f"#field-name-{ben.pk}", "Dee")
    page.fill(f"#field-email-{ben.pk}", "dee@example.org")
    page.locator(f"form:has(#field-name-{ben.pk})").get_by_role("button").click()
    assert "Dee now plays seat 2" in result(phone, r"/organize/\d+/$", "taken-back")
    game.refresh_from_db()
    assert game.bots == {}
