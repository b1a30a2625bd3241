"""The organizer's admin as an organizer reads it: words instead of codes, seats
numbered from 1, times with their zone, help text as written; nothing deleted
that must stay (a game in play, the event log, what was sent and played); a
narrated game log that tells the organizer, who may be playing too, no more
than a spectator knows; the alert emails lead to the game's page."""

import random
import re
from datetime import UTC, datetime, timedelta
from html import unescape
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.core import controls, game_setup, timers
from games.engine.invariants import hidden_perturbation
from games.mail import outbox
from games.models import Game, GameEvent, OutboxEmail, Seat, Submission
from tests.organizer.organizer_games import (
    PLAYERS,
    advance,
    finish,
    fresh,
    load,
    new_game,
    settings_form,
)
from tests.support.email_players import VOLATILE
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
RAW_CODES = ("market_turn", "game_started", "cards_moved", "first_sheriff", "Version ", "(seat 0)")
SIX_PLAYERS = "\n".join(
    f"{n} <{n.lower()}@example.org>" for n in ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")
)
NEW_GAME = {
    "name": "Friday",
    "organizer_email": "org@example.org",
    "players": "Ann <ann@example.org>\nBen <ben@example.org>\nCid <cid@example.org>",
    "edition": "2",
    "first_sheriff": "1",
    "seed": "",
}


def change_url(game) -> str:
    return reverse("admin:games_game_change", args=[game.pk])


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def visible(html: str) -> str:
    """The page's text as a person reads it (attributes, field names and URLs aside)."""
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    return unescape(re.sub(r"\s+", " ", re.sub(r"(?s)<[^>]+>", " ", html)))


def log_section(html: str) -> str:
    return html[html.index('id="game-log"') :]


# --- words, seat numbers, zones ---------------------------------------------------------


def test_the_add_form_shows_its_help_text_as_written(organizer):
    html = page(organizer, reverse("admin:games_game_add"))
    assert "&quot;Name &lt;email&gt;&quot;" in html
    assert "Alice &lt;alice@example.org&gt; Europe/Paris" in html
    assert "<email>" not in html and "clockwise from seat 1" in html
    assert "seat 0" not in html and '"duration" mode' not in html


def test_the_first_sheriff_is_a_seat_number_from_1(organizer):
    response = organizer.post(reverse("admin:games_game_add"), {**NEW_GAME, "first_sheriff": "3"})
    assert response.status_code == 302
    assert Game.objects.get().engine_state().sheriff == 2  # Cid, the third player listed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"first_sheriff": "0"}, "greater than or equal to 1"),
        ({"first_sheriff": "4"}, "There are only 3 seats."),
        ({"seed": "not hex"}, "The seed must be at least 16 bytes of hex."),
        ({"players": "Ann <ann@example.org>\nBen <ben@example.org>"}, "3 to 6 players"),
        ({"players": SIX_PLAYERS, "edition": "1"}, "Six players need the 2nd edition"),
        ({"black_market": "on", "edition": "1"}, "The Black Market is a 2nd edition option."),
        ({"black_market_pepper": "40, 35"}, "Tick Black Market to play with these pile values."),
        ({"black_market": "on", "black_market_mead": "32"}, "The Mead pile holds two cards"),
        ({"black_market": "on", "black_market_silk": "0, 31"}, "two whole numbers from 1 to 999"),
        ({"black_market": "on", "black_market_silk": "3\x00, 4"}, "The Silk pile holds two"),
    ],
)
def test_a_game_the_rules_refuse_gets_a_message_not_an_error_page(organizer, change, message):
    response = organizer.post(reverse("admin:games_game_add"), {**NEW_GAME, **change})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Game.objects.exists()


def test_the_admin_creates_a_six_player_game_and_its_page_says_deputies(organizer):
    response = organizer.post(reverse("admin:games_game_add"), {**NEW_GAME, "players": SIX_PLAYERS})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.engine_config.deputies and game.seats.count() == 6
    html = visible(page(organizer, change_url(game)))
    assert "2nd edition · 6 players (Deputies) · Royal Goods: no" in html
    assert "first Sheriff" not in html and "Black Market: off" in html


def test_the_add_form_shows_the_provisional_black_market_values(organizer):
    html = visible(page(organizer, reverse("admin:games_game_add")))
    assert "provisional values (Pepper 30/27, Mead 32/29, Silk 34/31)" in html
    assert "Two values; blank: 30, 27 (provisional)." in html
    assert "One player per line (3 to 6)" in html


def test_a_black_market_game_with_blank_piles_says_its_values_are_provisional(organizer):
    response = organizer.post(reverse("admin:games_game_add"), {**NEW_GAME, "black_market": "on"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.engine_config.black_market_provisional
    html = visible(page(organizer, change_url(game)))
    assert "Black Market: on (provisional values Pepper 30/27, Mead 32/29, Silk 34/31)" in html


def test_a_black_market_game_with_the_organizers_values_shows_them(organizer):
    piles = {"black_market_pepper": "35, 40", "black_market_silk": " 50/45 "}
    form = {**NEW_GAME, "players": SIX_PLAYERS, "black_market": "on", **piles}
    assert organizer.post(reverse("admin:games_game_add"), form).status_code == 302
    game = Game.objects.get()
    assert game.engine_config.black_market_values == {
        "pepper": [40, 35],
        "mead": [32, 29],  # left blank: its provisional values
        "silk": [50, 45],
    }
    html = visible(page(organizer, change_url(game)))
    assert "6 players (Deputies)" in html
    assert "Black Market: on (Pepper 40/35, Mead 32/29, Silk 50/45)" in html
    assert "provisional" not in html


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "Friday\nBcc: x@example.org"}, "one line of plain text"),
        ({"name": "Friday\u202e"}, "one line of plain text"),
        ({"organizer_email": "org@example"}, "Enter a valid email address."),
        ({"players": NEW_GAME["players"] + "\n" + "D" * 61 + " <d@example.org>"}, "60 characters"),
        ({"players": NEW_GAME["players"] + "\nYOU <d@example.org>"}, "called &quot;You&quot;"),
        ({"players": NEW_GAME["players"] + "\nDee <dee@example>"}, "not an email address"),
    ],
)
def test_a_name_or_address_mail_cannot_carry_is_refused_with_a_message(organizer, change, message):
    response = organizer.post(reverse("admin:games_game_add"), {**NEW_GAME, **change})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Game.objects.exists()


def test_a_game_cannot_be_renamed_to_a_name_mail_cannot_carry(organizer):
    game = new_game()
    form = {"name": "Friday\r\nBcc: x@example.org", "organizer_email": "org@example.org"}
    response = organizer.post(change_url(game), {**form, "deadline_mode": "none"})
    assert response.status_code == 200 and "one line of plain text" in response.content.decode()
    assert Game.objects.get().name == "Thursday"


def test_the_change_page_reads_as_words_with_seats_from_1_and_zones(organizer):
    game = new_game(edition=1, market_turn_minutes=60)
    advance(game)  # Ben's market turn is over; Cid's begins
    html = page(organizer, change_url(game))
    for code in RAW_CODES:
        assert code not in visible(html), code
    assert '"players":' not in html and '"black_market":' not in html  # no JSON config
    assert "Round 1 · Market (1st edition turn): Cid" in html
    assert "1st edition · 3 players · first Sheriff: seat 1 (Ann) · Royal Goods: yes" in html
    assert re.search(r"<th scope=\"row\">Waiting for</th><td>Cid</td>", html)
    deadline = fresh(game).phase_deadline
    assert f"{deadline.astimezone(PARIS):%H:%M} (Europe/Paris)" in html
    assert f"{deadline.astimezone(UTC):%H:%M} UTC" in html
    for number, name in enumerate(("Ann", "Ben", "Cid"), start=1):
        assert f"{name} (seat {number})" in html
    # No seat link: an organizer who plays must not open another player's table.
    assert "/play/" not in html
    # The version is in the controls' forms for compare-and-set, never shown as text.
    assert f'name="version" value="{fresh(game).version}"' in html


def test_the_game_list_reads_as_words_with_zones(organizer):
    game = new_game(edition=2, market_minutes=60)
    html = page(organizer, reverse("admin:games_game_changelist"))
    for code in RAW_CODES:
        assert code not in visible(html), code
    assert "Round 1 · Market" in html and "(Europe/Paris)" in html
    local = fresh(game).phase_deadline.astimezone(PARIS)
    assert f"{local:%H:%M} (Europe/Paris)" in html


def test_a_paused_game_says_since_when_in_its_zone(organizer):
    game = new_game(edition=2, market_minutes=60)
    controls.pause(game.pk, expected_version=game.version)
    paused_at = fresh(game).paused_at.astimezone(PARIS)
    html = page(organizer, change_url(game))
    assert f"since {paused_at:%a} {paused_at.day} {paused_at:%b %Y, %H:%M} (Europe/Paris)" in html


def test_the_record_pages_read_as_words_with_zones(organizer):
    game = new_game(edition=2, market_minutes=60)
    advance(game)  # to loading
    load(game, 1, 2)
    event = GameEvent.objects.get(game=game, seq=0)
    for url in (
        reverse("admin:games_gameevent_changelist"),
        reverse("admin:games_gameevent_change", args=[event.pk]),
        reverse("admin:games_outboxemail_changelist"),
        reverse("admin:games_submission_changelist"),
    ):
        html = page(organizer, url)
        for code in (*RAW_CODES, "set_aside", "load_bag", "your_move", ":s1:"):
            assert code not in visible(html), (url, code)
        assert "(Europe/Paris)" in html, url
    events = page(organizer, reverse("admin:games_gameevent_changelist"))
    assert "Game started" in events and "Bag loaded" in events
    emails = page(organizer, reverse("admin:games_outboxemail_changelist"))
    assert "Ben (seat 2) &lt;ben@example.org&gt;" in emails and "The game begins" in emails
    moves = page(organizer, reverse("admin:games_submission_changelist"))
    assert "Load and declare" in moves


def test_the_history_page_gives_times_with_their_zone(organizer):
    game = new_game(edition=2)
    assert organizer.post(change_url(game), settings_form(game)).status_code == 302
    html = page(organizer, reverse("admin:games_game_history", args=[game.pk]))
    assert re.search(r"\w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC", html)
    assert "a.m." not in html and "p.m." not in html


def test_a_seats_time_zone_is_checked(organizer):
    game = new_game(edition=2)
    data = settings_form(game)
    data["seats-1-timezone"] = "Mars/Base"
    response = organizer.post(change_url(game), data)
    assert response.status_code == 200 and "Unknown time zone" in response.content.decode()
    assert Seat.objects.get(game=game, index=1).timezone == "Europe/Paris"
    data["seats-1-timezone"] = "America/Denver"
    assert organizer.post(change_url(game), data).status_code == 302
    assert Seat.objects.get(game=game, index=1).timezone == "America/Denver"


def test_an_emails_body_stays_out_of_the_admin(organizer):
    """A player's email is that player's view of the game (their hand): the
    organizer sees who it went to and how, never what it says."""
    game = new_game(edition=2)
    deliver_pending()
    email = OutboxEmail.objects.filter(game=game, seat__index=1).first()
    assert email.status == OutboxEmail.Status.SENT and "Hand: " in email.text
    html = page(organizer, reverse("admin:games_outboxemail_change", args=[email.pk]))
    assert "Sent" in html and "The game begins" in html
    assert "Hand: " not in html and "/play/" not in html


# --- nothing deleted that must stay ---------------------------------------------------------


def test_a_game_in_play_cannot_be_deleted(organizer):
    game = new_game()
    delete_url = reverse("admin:games_game_delete", args=[game.pk])
    assert delete_url not in page(organizer, change_url(game))
    response = organizer.get(delete_url, follow=True)
    assert response.redirect_chain == [(change_url(game), 302)]
    notes = [str(m) for m in get_messages(response.wsgi_request)]
    assert notes == ["A game in play cannot be deleted. Cancel it first if it must stop."]
    organizer.post(delete_url, {"post": "yes"})
    assert Game.objects.filter(pk=game.pk).exists()
    # Nor in bulk: the list offers no "delete selected".
    assert "delete_selected" not in page(organizer, reverse("admin:games_game_changelist"))
    response = organizer.post(
        reverse("admin:games_game_changelist"),
        {"action": "delete_selected", "_selected_action": [game.pk], "post": "yes"},
    )
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_cancelled_game_can_be_deleted_with_its_records(organizer):
    game = new_game()
    controls.cancel(game.pk, expected_version=game.version)
    delete_url = reverse("admin:games_game_delete", args=[game.pk])
    assert delete_url in page(organizer, change_url(game))
    confirm = page(organizer, delete_url)
    assert "Are you sure" in confirm and "game_started" not in confirm
    response = organizer.post(delete_url, {"post": "yes"})
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not GameEvent.objects.exists() and not OutboxEmail.objects.exists()


def test_events_emails_and_moves_are_never_added_changed_or_deleted(organizer):
    game = new_game(edition=2)
    advance(game)
    load(game, 1, 1)
    records = {
        "gameevent": GameEvent.objects.filter(game=game).first(),
        "outboxemail": OutboxEmail.objects.filter(game=game).first(),
        "submission": Submission.objects.get(game=game),
    }
    for model, record in records.items():
        count = type(record).objects.count()
        assert organizer.get(reverse(f"admin:games_{model}_add")).status_code == 403
        assert (
            organizer.get(reverse(f"admin:games_{model}_delete", args=[record.pk])).status_code
            == 403
        )
        organizer.post(reverse(f"admin:games_{model}_delete", args=[record.pk]), {"post": "yes"})
        organizer.post(reverse(f"admin:games_{model}_change", args=[record.pk]), {})
        listing = page(organizer, reverse(f"admin:games_{model}_changelist"))
        assert "delete_selected" not in listing and "Delete selected" not in listing
        assert type(record).objects.count() == count
        assert type(record).objects.get(pk=record.pk).created_at == record.created_at


# --- the narrated game log --------------------------------------------------------------------


def test_the_game_log_tells_the_game_by_round_newest_first(organizer):
    game = advance(new_game(edition=2), 4)  # round 1, then the market of round 2
    html = log_section(page(organizer, change_url(game)))
    titles = re.findall(r"<summary>(.*?)</summary>", html)
    assert titles == ["Round 2 of 9", "Round 1 of 9", "Setting up"]
    assert "<details open>" in html  # the newest round is open
    assert "Round 1 begins. Ann is the Sheriff." in html
    assert "Ann was dealt 6 cards." in html and "Bags are on the table." in html
    round_1 = html[html.index("Round 1 of 9") : html.index("Setting up")]
    assert round_1.index("Round 1 is over.") < round_1.index("Round 1 begins.")  # newest first


def test_the_game_log_shows_no_bag_size_before_the_reveal(organizer):
    """Two games alike but for the size of Ben's closed bag: their logs read the same."""
    logs = []
    for count in (1, 3):
        GameEvent.objects.all().delete()
        Game.objects.all().delete()
        game = advance(new_game(edition=2), 1)  # to loading
        load(game, 1, count)  # Cid has not loaded: the bags stay closed
        logs.append(log_section(page(organizer, change_url(game))))
    assert "Ben closed their bag." in logs[0]
    assert logs[0] == logs[1]


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 5])
def test_the_organizer_page_depends_on_nothing_hidden(organizer, steps):
    """During the game, the page rendered from a state differing only in what a
    spectator cannot see (hands, closed bags, face-down goods, deck order, seed)
    is identical: no hand, bag or seed reaches the organizer who plays."""
    game = advance(new_game(edition=1), steps)
    if fresh(game).engine_state().phase.kind == "load":
        load(game, 1, 2)
    state = fresh(game).engine_state()
    events = list(GameEvent.objects.filter(game=game).values_list("data", flat=True))
    other = hidden_perturbation(state, events, None, random.Random(steps))
    real = VOLATILE.sub("", page(organizer, change_url(game)))
    with mock.patch.object(Game, "engine_state", lambda self: other.clone()):
        fake = VOLATILE.sub("", page(organizer, change_url(game)))
    assert real == fake
    assert state.seed not in real


def test_the_seed_is_in_the_log_once_the_game_is_over(organizer):
    game = finish(new_game(edition=2, seed="c1" * 32))
    html = log_section(page(organizer, change_url(game)))
    assert re.findall(r"<summary>(.*?)</summary>", html)[0] == "The end"
    assert "Secret seed revealed: " + "c1" * 32 in html


# --- the organizer's alert email ----------------------------------------------------------------


def test_the_missed_deadline_alert_links_to_the_organizers_page(settings):
    settings.SITE_URL = "https://sheriff.example.org"
    game = game_setup.create_game(
        name="Clockwork",
        players=PLAYERS,
        config={"edition": 2},
        seed="d1" * 32,
        organizer_email="org@example.org",
        timing={"deadline_mode": "duration", "market_minutes": 60, "miss_alert_after": 1},
        now=datetime(2026, 11, 23, 9, 0, tzinfo=UTC),
    )
    timers.advance(game.pk, now=fresh(game).phase_deadline + timedelta(seconds=1))
    alert = OutboxEmail.objects.filter(to="org@example.org").first()
    outbox.deliver(alert.pk)  # an alert is written when it is sent
    alert.refresh_from_db()
    link = f"https://sheriff.example.org/organize/{game.pk}/"
    assert link in alert.text and f'href="{link}"' in alert.html
    assert "/admin/" not in alert.text + alert.html
    assert re.search(
        r"(Ben|Cid) <\w+@example.org>, seat [23], has missed 1 deadline in a row", alert.text
    )


def test_the_organizer_picks_a_seats_language(organizer):
    game = new_game(edition=2)
    data = settings_form(game)
    data["seats-1-language"] = "es"
    assert organizer.post(change_url(game), data).status_code == 302
    assert [seat.language for seat in game.seats.all()][:2] == ["en", "es"]


def test_operators_read_lobbies_without_their_links_secrets(admin_client):
    from games.core import lobbies
    from games.models import Lobby

    lobby = lobbies.open_lobby(
        organizer_email="ann@example.org",
        organizer_name="Ann",
        organizer_language="en",
        name="Gathering",
        players=3,
        config={"edition": 2},
        timing={},
        invitees=[game_setup.PlayerSpec("Bob", "bob@example.org")],
    )
    page = admin_client.get(f"/admin/games/lobby/{lobby.pk}/change/").content.decode()
    assert "Gathering" in page and "bob@example.org" in page
    invitation = lobby.invitations.get(email="bob@example.org")
    assert lobby.join_token not in page and invitation.token not in page
    probe = admin_client.get(f"/admin/games/lobby/?join_token__startswith={lobby.join_token[:2]}")
    assert probe.status_code in (302, 400) or "Gathering" not in probe.content.decode()
    assert Lobby.objects.count() == 1
