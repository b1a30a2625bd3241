"""Open pages keep themselves current (static/games/live.js): two seats side by side,
where one seat's move shows on the other's page without a reload; a form half filled
in (a card ticked, a line being typed) survives the updates, and says so in words
once the game has moved past it; a screen reader hears the news from a polite live
region; My games and the organizer's page follow a move too. At 390 px, audited;
screenshots in var/screenshots/live-*.png."""

import pytest
from django.utils import timezone

from games.core import controls, links, moves, talk
from games.engine import default_commands
from games.models import Game, Seat
from tests.browser.chromium import Phone, until
from tests.browser.playing import set_aside
from tests.support.fixtures_pages import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UPDATE = 12_000  # ms: a poll every 5 s, then the page read again


@pytest.fixture
def two_phones(chromium, site):
    left, right = Phone(chromium, site, prefix="live-"), Phone(chromium, site, prefix="live-")
    yield left, right
    left.close()
    right.close()


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def stay_marker(phone: Phone) -> None:
    """A mark a reload would wipe: the page must still carry it after an update."""
    phone.page.evaluate("window.__stayed = true")


def stayed(phone: Phone) -> bool:
    return phone.page.evaluate("window.__stayed === true")


def default_move(game: Game, index: int) -> None:
    """Seat ``index``'s default move (what its deadline would do), made."""
    game = Game.objects.get(pk=game.pk)
    state = game.engine_state()
    command = next(c for c in default_commands(state) if c["seat"] == index)
    outcome = moves.submit(
        seat(game, index), command, version=state.phase.since, key=f"t{index}{game.version}"
    )
    assert outcome.accepted, outcome.message


def test_a_move_on_one_seats_page_shows_on_anothers_without_a_reload(two_phones):
    ben, cid = two_phones
    game = start_game()
    ben.open(links.seat_path(seat(game, 1)), "ben-before")
    cid.open(links.seat_path(seat(game, 2)))
    stay_marker(ben)
    assert "Cid" in ben.page.inner_text("#now .waiting")
    set_aside(cid, 1)  # Cid, on his own page
    until(lambda: "Cid" not in ben.page.inner_text("#now .waiting"))
    assert stayed(ben)  # no reload: the page put the news in place
    assert until(lambda: ben.page.text_content("#live-news").strip())  # heard once
    assert ben.page.evaluate("document.activeElement === document.body")
    ben.check("ben-after-cid-moved")


def test_a_half_filled_form_survives_updates_and_is_told_when_stale(two_phones):
    ben, _ = two_phones
    game = start_game()
    ben.open(links.seat_path(seat(game, 1)))
    stay_marker(ben)
    form = ben.move_form("set_aside")
    ben.tick(form, [0])
    ben.page.fill("#talk-text", "Half a thought")
    ben.page.focus("#talk-text")
    talk.post(seat(game, 2), "Cid says hello", timezone.now())
    default_move(game, 3)  # Dee sets aside: the same phase, Ben's form still good
    ben.page.wait_for_selector("#talk :text('Cid says hello')", timeout=UPDATE)
    assert stayed(ben)
    assert ben.page.input_value("#talk-text") == "Half a thought"
    assert ben.page.evaluate("document.activeElement.id") == "talk-text"
    assert form.locator("label.tile input[type=checkbox]").nth(0).is_checked()
    assert not ben.page.locator(".live-stale").count()
    # The organizer moves the game on: Ben's market choice is made for him.
    controls.advance_now(game.pk, expected_version=Game.objects.get(pk=game.pk).version)
    stale = ben.page.wait_for_selector(".live-stale", timeout=UPDATE)
    assert "moved on" in stale.inner_text()
    assert ben.move_form("load_bag").is_visible()  # the new phase's form, after the kept one
    assert form.locator("label.tile input[type=checkbox]").nth(0).is_checked()
    assert ben.page.input_value("#talk-text") == "Half a thought"
    assert stayed(ben)
    ben.check("ben-stale-form")


def test_my_games_and_the_organizers_page_follow_a_move(two_phones, settings):
    person, organizer = two_phones
    game = start_game()
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    person.sign_in_as("ben@example.org")
    organizer.sign_in_as("org@example.org")
    person.open("/my/", "my-games-before")
    organizer.open(f"/organize/{game.pk}/")
    stay_marker(person)
    stay_marker(organizer)
    before_person = person.page.inner_text("main")
    before_organizer = organizer.page.inner_text("main")
    for index in (1, 2, 3):
        default_move(game, index)  # the market is over: a new phase
    until(lambda: person.page.inner_text("main") != before_person)
    until(lambda: organizer.page.inner_text("main") != before_organizer)
    assert stayed(person) and stayed(organizer)
    person.check("my-games-after")
    organizer.check("organizer-after")
