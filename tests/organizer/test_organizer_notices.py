"""The organizer's actions reach the players: pause, resume, extend and cancel
are emailed to everyone; a paused game refuses moves and its page says why,
with no countdown; "advance now" is not counted as the players' miss."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client

from games.core import controls, game_setup, game_writes, moves
from games.engine import CARD_TYPES
from games.models import Game, OutboxEmail
from tests.support.fixtures_pages import form_for, fresh, messages_of, path_of, post_form
from tests.support.mailplay import LINK, deliver_pending, html_of

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cid"]


@pytest.fixture
def game():
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org", "Europe/Madrid") for n in NAMES]
    game = game_setup.create_game(
        name="Notices",
        players=players,
        config={"edition": 2},
        seed="ce" * 32,
        timing={"deadline_mode": "duration", "market_minutes": 60},
    )
    deliver_pending()
    mail.outbox.clear()
    return game


def told() -> dict:
    deliver_pending()
    bodies = {m.to[0].split("@")[0].capitalize(): m.body for m in mail.outbox}
    mail.outbox.clear()
    return bodies


def test_a_pause_is_emailed_refuses_moves_and_shows_on_the_page(game):
    ben = Client()
    path = path_of(game.seats.get(index=1))
    form = form_for(ben.get(path).content.decode(), "set_aside")  # a page opened before
    controls.pause(game.pk, expected_version=game.version)
    bodies = told()
    assert sorted(bodies) == NAMES
    assert all(b.startswith("The organizer paused the game") for b in bodies.values())
    assert "Paused by the organizer since" in bodies["Ann"] and "(Europe/Madrid)" in bodies["Ann"]
    assert "Deadline:" not in bodies["Ben"]

    version = fresh(game).version
    response = post_form(ben, path, form, cards=[])
    assert fresh(game).version == version  # nothing moved
    assert "paused the game" in messages_of(response)[0]
    html = ben.get(path).content.decode()
    assert "Paused by the organizer since" in html
    assert "Deadline:" not in html and 'name="move"' not in html


def test_resume_and_extend_are_emailed_with_the_new_deadline(game):
    paused = controls.pause(game.pk, expected_version=game.version)
    told()
    resumed = controls.resume(game.pk, expected_version=paused.version)
    bodies = told()
    assert all(b.startswith("The game resumes") for b in bodies.values())
    assert "Deadline:" in bodies["Cid"] and "(Europe/Madrid)" in bodies["Cid"]
    controls.extend(game.pk, expected_version=resumed.version, by=timedelta(hours=5))
    bodies = told()
    assert all(b.startswith("The deadline is extended") for b in bodies.values())
    local = fresh(game).phase_deadline.astimezone(ZoneInfo("Europe/Madrid"))
    assert f"{local:%H:%M} (Europe/Madrid)" in bodies["Ben"]


def test_a_cancel_is_emailed(game):
    controls.cancel(game.pk, expected_version=game.version)
    bodies = told()
    assert sorted(bodies) == NAMES
    assert all("The organizer cancelled this game on" in b for b in bodies.values())


def test_a_cancelled_or_paused_table_gives_no_phase_instruction(game):
    """Ben was to choose his market cards: once the game stops, his table says why
    and no longer tells him what to do."""
    path = path_of(game.seats.get(index=1))
    instruction = "Choose up to 5 cards to set aside."
    assert instruction in Client().get(path).content.decode()
    controls.pause(game.pk, expected_version=game.version)
    html = Client().get(path).content.decode()
    assert "Paused by the organizer since" in html and instruction not in html
    assert "<h2 data-live-say>Game paused</h2>" in html  # not the phase's title, "Market"
    controls.resume(game.pk, expected_version=fresh(game).version)
    controls.cancel(game.pk, expected_version=fresh(game).version)
    html = Client().get(path).content.decode()
    assert "The organizer cancelled this game on" in html and instruction not in html
    assert "<h2 data-live-say>Game cancelled</h2>" in html
    assert "Round 1 of 9 · Game cancelled" in told()["Ben"]  # the last email's too


def test_advance_now_is_not_the_players_miss(game):
    controls.advance_now(game.pk, expected_version=game.version)
    assert fresh(game).engine_state().phase.kind == "load"
    assert set(Game.objects.get(pk=game.pk).seats.values_list("missed_in_a_row", flat=True)) == {0}


def test_advance_now_reads_as_the_organizers_action_in_the_log_and_the_emails(game):
    controls.advance_now(game.pk, expected_version=game.version)  # the market: Ben, Cid
    bodies = told()
    assert "The organizer moved the game on: Cid and you set nothing aside" in bodies["Ben"]
    assert "The organizer moved the game on: Ben and you set nothing aside" in bodies["Cid"]
    controls.advance_now(game.pk, expected_version=fresh(game).version)  # the load
    bodies = told()
    moved = "The organizer moved the game on: "
    assert moved + "Ben's and Cid's bags were loaded with the default move." in bodies["Ann"]
    assert "Ben's and your bags were loaded with the default move." in bodies["Cid"]
    assert not any("Time ran out" in body or "timed out" in body for body in bodies.values())
    page = Client().get(path_of(game.seats.get(index=1))).content.decode()
    assert "The organizer moved the game on: Cid and you set nothing aside" in page
    assert "Cid&#39;s and your bags were loaded with the default move." in page
    assert "Time ran out" not in page
    controls.advance_now(game.pk, expected_version=fresh(game).version)  # the inspection
    bodies = told()
    assert moved + "the bags Ann had not decided pass unopened (the default move)." in bodies["Ben"]
    assert moved + "the bags you had not decided pass unopened" in bodies["Ann"]


def test_advance_now_on_a_complete_phase_held_to_its_deadline_is_logged(game):
    Game.objects.filter(pk=game.pk).update(advance_early=False)
    since = game.engine_state().phase.since
    for index in (1, 2):
        seat = game.seats.get(index=index)
        moves.submit(seat, {"type": "set_aside", "cards": []}, version=since, key=f"k{index}")
    told()
    controls.advance_now(game.pk, expected_version=fresh(game).version)
    assert fresh(game).engine_state().phase.kind == "load"
    assert "The organizer moved the game on." in told()["Ben"]


def replace_ben(game, email="bea@example.org", version=None):
    ben = game.seats.get(index=1)
    version = fresh(game).version if version is None else version
    return controls.replace_player(ben.pk, expected_version=version, name="Bea", email=email)


def test_a_replaced_player_is_emailed_plainly_with_no_link_and_nothing_of_the_game(game):
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    replace_ben(game)
    deliver_pending()
    [told] = [m for m in mail.outbox if m.to == ["ben@example.org"]]
    # With the news Ben had of the round.
    assert told.subject == "News — you were replaced: Notices, round 1"
    for text in (told.body, html_of(told)):
        assert "gave your seat to someone else" in text and "Ben" in text
        assert "old links to the game no longer work" in text
        assert "org@example.org" in text
        assert not LINK.search(text) and "/play/" not in text
        assert "Hand" not in text and "gold" not in text and "Bea" not in text
        assert not any(card.label in text for card in CARD_TYPES.values())
    assert not told.attachments
    assert told.extra_headers["In-Reply-To"].startswith(f"<{game.thread_token}.s1.r1.news@")


def test_without_an_organizer_address_the_replaced_player_is_told_to_ask_the_organizer(game):
    replace_ben(game)
    deliver_pending()
    [told] = [m for m in mail.outbox if m.to == ["ben@example.org"]]
    assert "ask the organizer of the game" in told.body


def test_the_replaced_players_email_is_owed_only_with_the_replacement(game):
    with pytest.raises(game_writes.ServiceError):
        replace_ben(game, version=game.version - 1)  # a stale page: nothing is done
    assert not OutboxEmail.objects.filter(to="ben@example.org", kind="replaced").exists()
    replace_ben(game)
    assert OutboxEmail.objects.filter(to="ben@example.org", kind="replaced").count() == 1


def test_a_seat_given_again_to_the_same_address_sends_no_farewell(game):
    replace_ben(game, email="BEN@example.org")
    assert not OutboxEmail.objects.filter(kind="replaced").exists()


def subjects() -> dict:
    deliver_pending()
    found = {m.to[0].split("@")[0].capitalize(): m.subject for m in mail.outbox}
    mail.outbox.clear()
    return found


def test_a_halted_game_asks_no_move_in_its_subjects(game):
    """Ben's market choice is awaited, but a paused game takes no move: its emails
    are news; a cancelled game's last email says so first."""
    controls.pause(game.pk, expected_version=game.version)
    assert subjects()["Ben"] == "News — game paused: Notices, round 1"
    controls.resume(game.pk, expected_version=fresh(game).version)
    assert subjects()["Ben"] == "Your move — game resumed: Notices, round 1"
    controls.cancel(game.pk, expected_version=fresh(game).version)
    assert set(subjects().values()) == {"Cancelled: Notices"}
