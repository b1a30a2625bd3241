"""The organizer's controls on the admin's Game change page: each small form
posts to the control view with the version the page showed, calls the service,
and reports back with a message. A form posted twice changes nothing the second
time; only staff with the change permission get in; GET changes nothing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.core import controls, game_setup, links
from games.models import Game, GameEvent, OutboxEmail, Seat
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

STALE = "The game changed meanwhile; nothing was done."
PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


@pytest.fixture
def game():
    return game_setup.create_game(
        name="Controlled",
        players=PLAYERS,
        config={"edition": 2},
        seed="c0" * 32,
        organizer_email="org@example.org",
        timing={"deadline_mode": "duration", "market_minutes": 60},
    )


def control_url(game) -> str:
    return reverse("admin:games_game_control", args=[game.pk])


def change_url(game) -> str:
    return reverse("admin:games_game_change", args=[game.pk])


def post(client, game, action, version=None, **fields):
    """POST one control as the page would, following the redirect back."""
    data = {"action": action, "version": game.version if version is None else version, **fields}
    response = client.post(control_url(game), data, follow=True)
    assert response.redirect_chain == [(change_url(game), 302)], response.content[:500]
    return response, [str(m) for m in get_messages(response.wsgi_request)]


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_the_change_page_shows_the_controls_and_the_state(organizer, game):
    page = organizer.get(change_url(game)).content.decode()
    assert 'id="game-controls"' in page and control_url(game) in page
    assert f'name="version" value="{game.version}"' in page
    assert "Pause the game" in page and "Resume the game" not in page
    assert "Missed in a row" in page and "Round 1 · Market" in page
    assert game.phase_deadline.strftime("%H:%M UTC") in page


def test_pause_then_resume(organizer, game):
    _, notes = post(organizer, game, "pause")
    paused = fresh(game)
    assert paused.paused_at is not None and paused.version > game.version
    assert any("paused" in n for n in notes)
    assert "Resume the game" in organizer.get(change_url(game)).content.decode()

    _, notes = post(organizer, paused, "resume")
    resumed = fresh(game)
    assert resumed.paused_at is None and resumed.version > paused.version
    assert resumed.phase_deadline >= game.phase_deadline


def test_extend_moves_the_deadline_by_n_hours(organizer, game):
    _, notes = post(organizer, game, "extend", hours="5")
    assert fresh(game).phase_deadline == game.phase_deadline + timedelta(hours=5)
    assert any("deadline is now" in n for n in notes)


@pytest.mark.parametrize("hours", ["0", "-3", "169", "soon", "9" * 30, "\uff15", "5\x00"])
def test_an_extension_out_of_bounds_changes_nothing(organizer, game, hours):
    _, notes = post(organizer, game, "extend", hours=hours)
    after = fresh(game)
    assert after.phase_deadline == game.phase_deadline and after.version == game.version
    assert len(notes) == 1 and "deadline is now" not in notes[0]


def test_advance_now_moves_to_the_next_phase(organizer, game):
    before = game.engine_state().phase
    _, notes = post(organizer, game, "advance")
    after = fresh(game).engine_state().phase
    assert after.since > before.since
    assert any("moved on" in n for n in notes)


def test_cancel_needs_the_confirmation_box(organizer, game):
    _, notes = post(organizer, game, "cancel")
    assert fresh(game).status == Game.Status.ACTIVE and fresh(game).version == game.version
    assert any("confirm" in n for n in notes)

    _, notes = post(organizer, game, "cancel", confirm="1")
    cancelled = fresh(game)
    assert cancelled.status == Game.Status.CANCELLED and cancelled.phase_deadline is None
    page = organizer.get(change_url(game)).content.decode()
    assert "no longer in play" in page and "Pause the game" not in page


def test_replace_player_takes_over_the_seat_and_revokes_its_links(organizer, game):
    seat = game.seats.get(index=1)
    _, notes = post(
        organizer,
        game,
        "replace",
        seat=seat.pk,
        name="Dora",
        email="dora@example.org",
        timezone="Europe/Paris",
    )
    new = Seat.objects.get(pk=seat.pk)
    assert (new.name, new.email, new.timezone) == ("Dora", "dora@example.org", "Europe/Paris")
    assert new.link_version == seat.link_version + 1
    assert any("Dora now plays seat 2" in n and "Ben was told so" in n for n in notes)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "Dora", "email": "not-an-email", "timezone": "UTC"}, "Email"),
        ({"name": "Dora", "email": "dora@example.org", "timezone": "Mars/Base"}, "time zone"),
        ({"name": "", "email": "dora@example.org", "timezone": "UTC"}, "Name"),
    ],
)
def test_replace_player_refuses_bad_input(organizer, game, fields, message):
    seat = game.seats.get(index=1)
    _, notes = post(organizer, game, "replace", seat=seat.pk, **fields)
    assert Seat.objects.get(pk=seat.pk).link_version == seat.link_version
    assert fresh(game).version == game.version
    assert len(notes) == 1 and message in notes[0]


def test_replace_player_refuses_a_seat_of_another_game(organizer, game):
    other = game_setup.create_game(name="Other", players=PLAYERS, config={"edition": 2})
    seat = other.seats.get(index=0)
    _, notes = post(
        organizer,
        game,
        "replace",
        seat=seat.pk,
        name="Eve",
        email="eve@example.org",
        timezone="UTC",
    )
    assert Seat.objects.get(pk=seat.pk).name == "Ann"
    assert any("No such seat" in n for n in notes)


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("pause", {}),
        ("extend", {"hours": "2"}),
        ("advance", {}),
        ("cancel", {"confirm": "1"}),
        ("replace", {"name": "Dora", "email": "dora@example.org", "timezone": "UTC"}),
        ("resend", {}),
    ],
)
def test_the_same_form_posted_twice_acts_once(organizer, game, action, fields):
    if action in ("replace", "resend"):
        fields = {**fields, "seat": game.seats.get(index=2).pk}
    shown = game.version
    post(organizer, game, action, version=shown, **fields)
    once = fresh(game)
    seats_once = list(Seat.objects.filter(game=game).values())
    assert once.version > shown

    _, notes = post(organizer, game, action, version=shown, **fields)
    twice = fresh(game)
    assert notes == [STALE]
    assert (twice.version, twice.state, twice.status) == (once.version, once.state, once.status)
    assert (twice.phase_deadline, twice.paused_at) == (once.phase_deadline, once.paused_at)
    assert list(Seat.objects.filter(game=game).values()) == seats_once


def test_get_on_the_control_url_changes_nothing(organizer, game):
    response = organizer.get(control_url(game), {"action": "cancel", "version": game.version})
    assert response.status_code == 405
    after = fresh(game)
    assert after.status == Game.Status.ACTIVE and after.version == game.version


def test_a_non_staff_user_is_refused(client, game):
    User.objects.create_user("mallory", "m@example.org", "pw")
    client.force_login(User.objects.get(username="mallory"))
    response = client.post(
        control_url(game), {"action": "cancel", "version": game.version, "confirm": "1"}
    )
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert fresh(game).status == Game.Status.ACTIVE


def test_staff_without_the_change_permission_is_refused(client, game):
    user = User.objects.create_user("viewer", "v@example.org", "pw", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_game"))
    client.force_login(User.objects.get(username="viewer"))
    response = client.post(control_url(game), {"action": "pause", "version": game.version})
    assert response.status_code == 403
    assert fresh(game).paused_at is None
    page = client.get(change_url(game)).content.decode()
    assert 'id="game-controls"' not in page


def test_a_post_without_the_csrf_token_is_refused(game):
    from django.test import Client

    User.objects.create_superuser("org", "org@example.org", "pw")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(User.objects.get(username="org"))
    response = strict.post(control_url(game), {"action": "pause", "version": game.version})
    assert response.status_code == 403
    assert fresh(game).paused_at is None


def test_editing_the_deadline_settings_leaves_state_and_version_alone(organizer, game):
    data = {
        "name": "Renamed",
        "organizer_email": "org@example.org",
        "deadline_mode": "daily",
        "market_minutes": "90",
        "market_turn_minutes": "720",
        "load_minutes": "1440",
        "inspection_minutes": "1440",
        "daily_time": "18:00",
        "deadline_timezone": "Europe/Paris",
        "reminder_minutes": "60",
        "advance_early": "on",
        "miss_alert_after": "3",
        "abandon_after": "0",
        "seats-TOTAL_FORMS": "3",
        "seats-INITIAL_FORMS": "3",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for i, seat in enumerate(game.seats.all()):
        data.update(
            {
                f"seats-{i}-id": seat.pk,
                f"seats-{i}-game": game.pk,
                f"seats-{i}-name": seat.name,
                f"seats-{i}-email": seat.email,
                f"seats-{i}-timezone": seat.timezone,
                f"seats-{i}-language": seat.language,
            }
        )
    response = organizer.post(change_url(game), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    after = fresh(game)
    assert (after.name, after.deadline_mode, after.market_minutes) == ("Renamed", "daily", 90)
    assert after.daily_time.strftime("%H:%M") == "18:00" and after.miss_alert_after == 3
    assert after.abandon_after == 0
    assert after.deadline_timezone == "Europe/Paris" and not after.skip_weekends
    assert (after.version, after.state, after.phase_deadline) == (
        game.version,
        game.state,
        game.phase_deadline,
    )

    data["deadline_timezone"] = "Mars/Base"
    response = organizer.post(change_url(game), data)
    assert response.status_code == 200 and "Unknown time zone" in response.content.decode()
    assert fresh(game).deadline_timezone == "Europe/Paris"


@pytest.mark.parametrize("seat", ["ben", "9" * 30, "\u0661", ""])
def test_resend_to_a_seat_that_is_not_one_changes_nothing(organizer, game, seat):
    emails = OutboxEmail.objects.count()
    _, notes = post(organizer, game, "resend", version=game.version, seat=seat)
    assert notes == ["No such seat in this game; nothing was done."]
    assert OutboxEmail.objects.count() == emails and fresh(game).version == game.version


def test_resend_sends_a_player_their_current_email_once(organizer, game):
    ben = game.seats.get(index=1)
    before = OutboxEmail.objects.filter(seat=ben).count()
    _, notes = post(organizer, game, "resend", version=game.version, seat=ben.pk)
    assert notes == [f"{ben.name} was sent their current email (with their link) again."]
    resent = OutboxEmail.objects.filter(seat=ben).exclude(kind="start")
    assert OutboxEmail.objects.filter(seat=ben).count() == before + 1
    assert resent.get().kind == "resend"
    note = GameEvent.objects.filter(game=game, type="noted").order_by("seq").last()
    assert note.data["text"] == "The organizer sent Ben their link again."


def test_a_replacement_keeps_the_seats_zone_and_the_others_read_of_it(organizer, game):
    """The replace form starts from the seat's own zone (not UTC); the others read
    who took over in their language, on their table and in their next email."""
    Seat.objects.filter(game=game, index=1).update(timezone="America/Lima")
    Seat.objects.filter(game=game, index=2).update(language="es")
    ben = game.seats.get(index=1)
    deliver_pending()  # the game's first emails
    page = organizer.get(change_url(game)).content.decode()
    assert 'name="timezone" value="America/Lima"' in page
    post(organizer, game, "replace", seat=ben.pk, name="Dora", email="dora@example.org")
    assert Seat.objects.get(pk=ben.pk).timezone == "America/Lima"  # none sent: the seat's
    deliver_pending()
    mail.outbox.clear()
    controls.advance_now(game.pk, expected_version=fresh(game).version)  # on to the load
    deliver_pending()
    told = {m.to[0]: m.body for m in mail.outbox}
    spanish = "Nota del organizador: Dora ocupa el asiento 2 en lugar de Ben."
    assert spanish in told["cid@example.org"]
    page = Client().get(links.seat_path(game.seats.get(index=0))).content.decode()
    assert "Organizer: Dora takes over seat 2 from Ben." in page  # Ann's table
