"""Play again on a phone: the organizer of a finished game reads the "Play again"
section (in Spanish too), presses "New game with the same players" and lands on the
new game's page; a player's first email of the new game links to their new seat;
and a player's old final page (in Spanish for Cid) says a new game has started and
leads to their own seat in it. Every screen is checked at 390 px and audited
(tests/browser/chromium.py); screenshots land in var/screenshots/play-again-*.png."""

import re

import pytest

from games.core import game_setup, links
from games.models import Game, Seat
from tests.browser.chromium import SCREENSHOTS, Phone
from tests.organizer.organizer_games import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ORGANIZER = "org@example.org"


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="play-again-")
    yield tab
    tab.close()


def finished_game() -> Game:
    game = game_setup.create_game(
        name="Friday table",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org", "Europe/Madrid"),
            game_setup.PlayerSpec("Benedetta Vanderbilt-Okonkwo", "benedetta@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org", "America/Bogota", "es"),
            game_setup.PlayerSpec("Dee", "dee.with.a.long.address@example.org"),
        ],
        config={"edition": 2, "first_sheriff": 1},
        organizer_email=ORGANIZER,
        timing={"deadline_mode": "duration", "market_minutes": 1440},
    )
    return finish(game)


def in_spanish(phone: Phone, spanish: bool) -> None:
    language = "es-ES,es;q=0.9" if spanish else "en-GB,en;q=0.9"
    phone.page.set_extra_http_headers({"Accept-Language": language})


def shoot_section(phone: Phone, name: str) -> None:
    section = phone.page.locator("#play-again, #rematch").first
    section.scroll_into_view_if_needed()
    section.screenshot(path=SCREENSHOTS / f"play-again-{name}.png")


def test_the_organizer_plays_again_and_a_player_follows_the_old_page_to_their_new_seat(phone):
    old = finished_game()
    page = phone.page
    phone.sign_in_as(ORGANIZER)

    in_spanish(phone, True)
    phone.open(f"/organize/{old.pk}/", "form-es")
    section = page.inner_text("#play-again")
    assert "Volver a jugar" in section and "Rotar el primer sheriff" in section
    assert "Benedetta Vanderbilt-Okonkwo fue el primer sheriff" in section
    assert page.input_value("#field-rematch-name") == "Friday table 2"
    shoot_section(phone, "form-es-section")

    in_spanish(phone, False)
    phone.open(f"/organize/{old.pk}/", "form")
    section = page.locator("#play-again")
    assert section.locator("input[name=keep]:checked").count() == 4
    assert section.get_by_label("Rotate the first Sheriff").is_checked()
    shoot_section(phone, "form-section")
    page.get_by_role("button", name="New game with the same players").click()
    page.wait_for_load_state()
    new = Game.objects.get(pk=old.pk).rematch
    assert new is not None and page.url.endswith(f"/organize/{new.pk}/"), page.url
    assert page.locator(".msg-error").count() == 0
    message = page.locator(".msg-success").inner_text()
    assert "“Friday table 2” has started: every player was emailed their new link." in message
    phone.check("started")
    assert "Friday table 2" in page.inner_text("h1")
    seats = Seat.objects.filter(game=new).order_by("index")
    assert [s.name for s in seats][new.config["first_sheriff"]] == "Cid"  # rotated

    # The old organizer's page now leads to the new game's.
    phone.open(f"/organize/{old.pk}/", "old-page")
    assert "A new game with the same players has started: Friday table 2." in page.inner_text(
        "#play-again"
    )
    shoot_section(phone, "old-page-section")
    in_spanish(phone, True)
    phone.open(f"/organize/{old.pk}/", "old-page-es")
    assert "Ha empezado una nueva partida con los mismos jugadores" in page.inner_text(
        "#play-again"
    )
    in_spanish(phone, False)

    # Ann's first email of the new game links to her new seat.
    ann = seats.get(name="Ann")
    href = phone.newest_email(ann.email, "ann-start")
    assert links.read(href.rstrip("/").rsplit("/", 1)[-1]).seat == ann.pk

    # Ann's old final page, in English: the note, and her own new seat behind it.
    old_ann = Seat.objects.get(game=old, name="Ann")
    phone.open(links.seat_path(old_ann), "ann-old-final")
    assert "A new game with the same players has started: Friday table 2." in page.inner_text(
        "#rematch"
    )
    shoot_section(phone, "ann-old-final-note")

    # Cid's old final page reads in Spanish; its button opens Cid's seat, not another's.
    old_cid = Seat.objects.get(game=old, name="Cid")
    phone.open(links.seat_path(old_cid), "cid-old-final-es")
    note = page.locator("#rematch")
    assert "Ha empezado una nueva partida con los mismos jugadores" in note.inner_text()
    shoot_section(phone, "cid-old-final-note-es")
    note.get_by_role("link", name="Tu asiento en la nueva partida").click()
    page.wait_for_load_state()
    phone.check("cid-new-seat-es")
    token = re.search(r"/play/([^/]+)/", page.url)[1]
    assert links.read(token).seat == seats.get(name="Cid").pk
    assert page.inner_text("h1").startswith("Cid")
    assert "Friday table 2" in page.inner_text("header")


def test_the_organizer_who_played_finds_play_again_on_their_final_page(phone):
    """The organizer played at Ann's seat (same address, another case): her final
    page, in Spanish and in English, leads to her page's "Play again" form; another
    player's final page says nothing of it."""
    old = finished_game()
    Seat.objects.filter(game=old, name="Ann").update(email="Org@Example.org")
    page = phone.page
    phone.sign_in_as(ORGANIZER)
    ann = Seat.objects.get(game=old, name="Ann")

    Seat.objects.filter(pk=ann.pk).update(language="es")  # a seat's page reads in its own
    phone.open(links.seat_path(ann), "organizer-final-es")
    assert "Nueva partida con los mismos jugadores" in page.inner_text("#rematch")
    shoot_section(phone, "organizer-final-es")

    Seat.objects.filter(pk=ann.pk).update(language="en")
    phone.open(links.seat_path(ann), "organizer-final")
    panel = page.locator("#rematch")
    assert "You organized this game" in panel.inner_text()
    shoot_section(phone, "organizer-final")
    panel.get_by_role("link", name="New game with the same players").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/organize/{old.pk}/#play-again"), page.url
    assert page.locator("#play-again form").count() == 1
    assert Game.objects.get(pk=old.pk).rematch is None  # following the link started nothing

    ben = Seat.objects.get(game=old, name="Benedetta Vanderbilt-Okonkwo")
    phone.open(links.seat_path(ben), "player-final")
    assert page.locator("#rematch").count() == 0
    assert "New game with the same players" not in page.inner_text("body")
