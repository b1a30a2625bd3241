"""The organizer's own page (games/organizer/page.py): what it shows, in the
organizer's language and zone; its controls, with the same effects and the same
emails to the players as the admin's; and who may reach it: the game's organizer,
signed in, and nobody else, without telling anyone else whether the game exists."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.core import controls, game_setup
from games.models import Game, GameEvent, OutboxEmail, Person, Seat
from tests.organizer.organizer_games import PLAYERS, advance, fresh, load, new_game
from tests.organizer.organizer_page import control_url, html, page_url, post, signed_in
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

STALE = "The game changed meanwhile; nothing was done."
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


@pytest.fixture
def game():
    return new_game(edition=2, market_minutes=60)


@pytest.fixture
def org():
    return signed_in("org@example.org")


def visible(page: str) -> str:
    """The page's text as a person reads it (a name's <bdi> adds no space)."""
    page = re.sub(r"</?bdi>", "", page)
    page = re.sub(r"(?s)<(script|style|datalist)\b.*?</\1>", " ", page)
    return unescape(re.sub(r"\s+", " ", re.sub(r"(?s)<[^>]+>", " ", page)))


def unchanged(game) -> tuple:
    after = fresh(game)
    seats = list(Seat.objects.filter(game=game).order_by("index").values())
    return after.version, after.state, after.status, after.paused_at, after.phase_deadline, seats


# --- who may reach it ----------------------------------------------------------------------


def test_someone_not_signed_in_is_sent_to_sign_in_whatever_the_number(client, game):
    for pk in (game.pk, game.pk + 1000):
        response = client.get(f"/organize/{pk}/")
        assert response.status_code == 302
        assert response["Location"] == f"/sign-in/?next=%2Forganize%2F{pk}%2F"
    before = unchanged(game)
    response = client.post(control_url(game), {"action": "pause", "version": game.version})
    assert response.status_code == 302 and response["Location"].startswith("/sign-in/?next=")
    assert unchanged(game) == before


def test_another_person_gets_the_same_not_found_as_for_no_game(game):
    mallory = signed_in("mallory@example.org")
    missing = Game(pk=game.pk + 1000)
    pages = []
    for target in (game, missing):
        response = mallory.get(page_url(target))
        assert response.status_code == 404
        pages.append(CSRF.sub("", response.content.decode()))
    assert pages[0] == pages[1]
    assert game.name not in pages[0] and "No game of yours here" in pages[0]


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("pause", {}),
        ("extend", {"hours": "5"}),
        ("advance", {}),
        ("cancel", {"confirm": "1"}),
        ("replace", {"name": "Mal", "email": "mal@example.org", "timezone": "UTC"}),
        ("resend", {}),
    ],
)
def test_another_person_can_control_nothing(game, action, fields):
    """A player of the game, signed in, is not its organizer: GET and POST are 404."""
    ben = signed_in("ben@example.org")
    if action in ("replace", "resend"):
        fields = {**fields, "seat": game.seats.get(index=1).pk}
    before = unchanged(game)
    emails = OutboxEmail.objects.count()
    status, notes, _page = post(ben, game, action, **fields)
    assert status == 404 and notes == []
    assert unchanged(game) == before and OutboxEmail.objects.count() == emails
    assert ben.get(page_url(game)).status_code == 404


def test_a_game_with_no_organizer_is_nobodys(game):
    Game.objects.filter(pk=game.pk).update(organizer_email="")
    nobody = Client()
    nobody.force_login(User.objects.create_user("staffer", ""))  # an account with no address
    assert nobody.get(page_url(game)).status_code == 404
    assert signed_in("org@example.org").get(page_url(game)).status_code == 404


def test_the_organizers_address_matches_in_any_case(game):
    Game.objects.filter(pk=game.pk).update(organizer_email="Org@Example.ORG")
    assert signed_in("org@example.org").get(page_url(game)).status_code == 200


def test_a_number_too_big_for_any_column_is_not_found(org):
    assert org.get("/organize/99999999999999999999999/").status_code == 404
    response = org.post("/organize/99999999999999999999999/control/", {"action": "pause"})
    assert response.status_code == 404


def test_get_changes_nothing_and_the_control_address_takes_only_posts(org, game):
    before = unchanged(game)
    for _ in range(3):
        html(org, game)
    assert org.head(page_url(game)).status_code == 200
    response = org.get(control_url(game), {"action": "cancel", "version": game.version})
    assert response.status_code == 405
    assert unchanged(game) == before


def test_a_post_without_the_csrf_token_is_refused(game):
    strict = signed_in("org@example.org", enforce_csrf_checks=True)
    before = unchanged(game)
    response = strict.post(control_url(game), {"action": "pause", "version": game.version})
    assert response.status_code == 403
    assert unchanged(game) == before
    text = visible(response.content.decode())
    assert "Nothing was done." in text and "move" not in text
    assert f'href="{page_url(game)}"' in response.content.decode()


def test_the_pages_own_forms_pass_the_csrf_check(game):
    strict = signed_in("org@example.org", enforce_csrf_checks=True)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html(strict, game))[1]
    data = {"csrfmiddlewaretoken": token, "action": "pause", "version": game.version}
    response = strict.post(control_url(game), data, HTTP_ORIGIN="http://testserver")
    assert response.status_code == 302 and fresh(game).paused_at is not None


# --- what it shows ---------------------------------------------------------------------------


def test_the_page_shows_the_game_its_players_and_the_controls(org, game):
    Seat.objects.filter(game=game, index=2).update(missed_in_a_row=2)
    page = html(org, game)
    text = visible(page)
    assert "Thursday" in text and "2nd edition · 3 players" in text
    assert "Round 1 · Market" in text and "In play" in text
    assert "Waiting for: Ben, Cid" in text  # Ann is the Sheriff
    for seat in game.seats.all():
        assert seat.email in text and f"Seat {seat.index + 1}:" in text
    assert "missed 2 deadlines in a row" in text
    assert f'name="version" value="{game.version}"' in page
    for button in ("Pause the game", "Extend the deadline", "Advance now", "Cancel the game"):
        assert button in text
    assert "Resend Ben’s email" in text and text.count("Replace player") >= 3
    assert "Game log" in text and "Round 1 begins." in text
    assert "/play/" not in page and game.state["seed"] not in page


def test_times_are_in_the_game_zone_or_in_the_organizers_own_seats(game):
    Game.objects.filter(pk=game.pk).update(deadline_timezone="Asia/Tokyo")
    deadline = fresh(game).phase_deadline
    org = signed_in("org@example.org")
    assert "(Asia/Tokyo)" in visible(html(org, game))
    # The organizer plays seat 2, from Lima: the page is in their zone.
    Seat.objects.filter(game=game, index=1).update(email="org@example.org", timezone="America/Lima")
    text = visible(html(org, game))
    assert "(America/Lima)" in text and "(Asia/Tokyo)" not in text
    from zoneinfo import ZoneInfo

    assert deadline.astimezone(ZoneInfo("America/Lima")).strftime("%H:%M") in text
    assert "you" in text  # their own seat, marked


def test_a_paused_game_says_so_and_offers_to_resume(org, game):
    assert post(org, game, "pause")[0] == 302
    text = visible(html(org, game))
    assert "Paused by the organizer since" in text and "Resume the game" in text
    assert "Pause the game" not in text
    assert "moves back by the time paused" in text


def test_a_game_no_longer_in_play_has_no_controls(org, game):
    controls.cancel(game.pk, expected_version=game.version)
    page = html(org, game)
    text = visible(page)
    assert "Cancelled" in text and "nothing to control" in text
    assert 'name="action"' not in page
    assert "The organizer cancelled this game on" in text


def test_delivery_problems_are_shown_per_seat(org, game):
    from django.utils import timezone

    Seat.objects.filter(game=game, index=1).update(
        undeliverable_at=timezone.now(), last_failure="550 no such user", last_failure_at=None
    )
    text = visible(html(org, game))
    assert "Undeliverable since" in text and "550 no such user" in text


def test_the_page_reads_in_spanish_for_a_spanish_browser(game):
    org = signed_in("org@example.org", HTTP_ACCEPT_LANGUAGE="es")
    response = org.get(page_url(game))
    text = visible(response.content.decode())
    assert "Pausar la partida" in text and "Ronda 1 · Mercado" in text
    assert "Pause the game" not in text
    assert response["Vary"] and "Accept-Language" in response["Vary"]
    _status, notes, _page = post(org, game, "extend", hours="3")
    assert notes and notes[0].startswith("El plazo es ahora")


def test_the_page_reads_in_the_organizers_own_language(game):
    """Their seat's language when they play; their own choice across games first."""
    Seat.objects.filter(game=game, index=0).update(email="org@example.org", language="es")
    org = signed_in("org@example.org")
    assert "Pausar la partida" in visible(html(org, game))
    Person.objects.create(email="org@example.org", language="en")
    assert "Pause the game" in visible(html(org, game))


# --- the controls ----------------------------------------------------------------------------


def test_pause_resume_extend_and_advance_redirect_back_with_a_message(org, game):
    response = org.post(control_url(game), {"action": "pause", "version": game.version})
    assert response.status_code == 302 and response["Location"] == page_url(game)
    assert fresh(game).paused_at is not None
    landed = org.get(page_url(game)).content.decode()
    assert "The game is paused: no deadline passes and no reminder goes out until you resume." in (
        visible(landed)
    )
    status, notes, _page = post(org, game, "resume")
    assert status == 302 and fresh(game).paused_at is None
    assert notes == ["The game resumes; the deadline moved by the time spent paused."]
    before = fresh(game).phase_deadline
    status, notes, _page = post(org, game, "extend", hours="5")
    assert fresh(game).phase_deadline == before + timedelta(hours=5)
    assert notes[0].startswith("The deadline is now") and "(Europe/Paris)" in notes[0]
    phase = fresh(game).engine_state().phase.since
    status, notes, _page = post(org, game, "advance")
    assert fresh(game).engine_state().phase.since > phase
    assert notes == ["The game moved on: the missing moves got their defaults."]


def test_an_extension_in_a_utc_game_says_its_deadline_once(org, game):
    Game.objects.filter(pk=game.pk).update(deadline_timezone="UTC")
    _status, notes, _page = post(org, game, "extend", hours="1")
    assert notes[0].startswith("The deadline is now") and notes[0].count("UTC") == 1


def test_cancel_needs_its_box_ticked(org, game):
    before = unchanged(game)
    status, notes, page = post(org, game, "cancel")
    assert status == 400 and unchanged(game) == before
    assert notes == ["Tick the box to confirm cancelling; nothing was done."]
    assert '<details class="sub" open>' in page.content.decode()
    status, notes, _page = post(org, game, "cancel", confirm="1")
    assert status == 302 and fresh(game).status == Game.Status.CANCELLED
    assert notes == ["The game is cancelled."]


def test_replace_and_resend(org, game):
    ben = game.seats.get(index=1)
    status, notes, _page = post(
        org, game, "replace", seat=ben.pk, name="Dora", email="dora@example.org", timezone=""
    )
    assert status == 302
    dora = Seat.objects.get(pk=ben.pk)
    assert (dora.name, dora.email, dora.timezone) == ("Dora", "dora@example.org", "Europe/Paris")
    assert dora.link_version == ben.link_version + 1
    assert notes == [
        "Dora now plays seat 2 instead of Ben; the old links no longer work; "
        "Ben was told so and the new player was emailed."
    ]
    status, notes, _page = post(org, game, "resend", seat=dora.pk)
    assert notes == ["Dora was sent their current email (with their link) again."]
    assert OutboxEmail.objects.filter(seat=dora, kind="resend").count() == 1


def test_a_refused_replacement_keeps_what_was_typed(org, game):
    ben = game.seats.get(index=1)
    before = unchanged(game)
    status, notes, response = post(
        org, game, "replace", seat=ben.pk, name="Dora", email="dora@", timezone="Mars/Base"
    )
    assert status == 400 and unchanged(game) == before
    assert notes and notes[0].startswith("Email: ") and notes[0].endswith("Nothing was done.")
    page = response.content.decode()
    assert 'value="Dora"' in page and 'value="dora@"' in page and 'value="Mars/Base"' in page


def test_a_stale_page_changes_nothing(org, game):
    shown = game.version
    assert post(org, game, "pause", version=shown)[0] == 302
    once = unchanged(game)
    for action, fields in [
        ("resume", {}),
        ("extend", {"hours": "2"}),
        ("advance", {}),
        ("cancel", {"confirm": "1"}),
        ("resend", {"seat": game.seats.get(index=0).pk}),
        ("replace", {"seat": game.seats.get(index=0).pk, "name": "Zed", "email": "z@ex.org"}),
    ]:
        status, notes, response = post(org, game, action, version=shown, **fields)
        assert status == 409, action
        assert notes == [STALE], action
        assert unchanged(game) == once, action
        page = response.content.decode()
        assert f'name="version" value="{once[0]}"' in page  # the page again, up to date


NASTY = [
    "",
    "\x00",
    "5\x00",
    "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
    "٣",
    "９",
    "-1",
    "1e9",
    "9" * 40,
    "x" * 5000,
    "<script>alert(1)</script>",
    "\u202eevil",
    "Ann\r\nBcc: x@example.org",
]


# The fields each control reads; a value that is fine for a field (a name may be "-1").
READ_BY = {
    "action": ["pause"],
    "version": ["pause"],
    "hours": ["extend"],
    "seat": ["resend", "replace"],
    "name": ["replace"],
    "email": ["replace"],
    "timezone": ["replace"],
}
FINE = {("name", v) for v in ("٣", "９", "-1", "1e9", "9" * 40, NASTY[3])} | {("timezone", "")}


@pytest.mark.parametrize(
    ("field", "value"), [(f, v) for f in READ_BY for v in NASTY if (f, v) not in FINE]
)
def test_any_bytes_in_a_field_get_a_clear_message_and_change_nothing(org, game, field, value):
    before = unchanged(game)
    emails = OutboxEmail.objects.count()
    for action in READ_BY[field]:
        data = {
            "action": action,
            "version": str(game.version),
            "hours": "5",
            "seat": str(game.seats.get(index=1).pk),
            "name": "Dora",
            "email": "dora@example.org",
            "timezone": "UTC",
            field: value,
        }
        response = org.post(control_url(game), data)
        assert response.status_code == 400, (field, value, response.status_code)
        page = response.content.decode()
        assert page.count('class="msg msg-error"') == 1
        assert "<script>alert(1)</script>" not in page
        assert unchanged(game) == before and OutboxEmail.objects.count() == emails


def test_raw_bytes_that_are_not_utf8_get_a_clear_answer(org, game):
    before = unchanged(game)
    body = b"action=pause&version=" + str(game.version).encode() + b"\xff\xfe&hours=\xc3"
    response = org.post(control_url(game), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code in (400, 409)
    assert unchanged(game) == before


# --- the same effects and emails as the admin's --------------------------------------------


def what_happened(game, since_seq: int, since_email: int) -> tuple:
    """The events from ``since_seq`` on, the emails after ``since_email``, the seats."""
    events = [
        (e.type, e.data.get("text", "")) if e.type == "noted" else (e.type, "")
        for e in GameEvent.objects.filter(game=game, seq__gte=since_seq).order_by("seq")
    ]
    emails = sorted(
        (m.to, m.kind)
        for m in OutboxEmail.objects.filter(game=game, pk__gt=since_email).order_by("pk")
    )
    after = fresh(game)
    seats = [(s.name, s.email, s.timezone, s.link_version) for s in after.seats.all()]
    return events, emails, after.status, after.paused_at is not None, seats


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("pause", {}),
        ("extend", {"hours": "3"}),
        ("advance", {}),
        ("cancel", {"confirm": "1"}),
        ("replace", {"name": "Dora", "email": "dora@example.org", "timezone": "UTC"}),
        ("resend", {}),
    ],
)
def test_each_control_does_what_the_admins_does(organizer, action, fields):
    """Two games alike, one controlled from the admin, one from the page: the same
    log notes, the same emails owed to the same people, the same seats."""
    outcomes, messages = [], []
    org = signed_in("org@example.org")
    for via in ("admin", "page"):
        game = new_game(edition=2, seed="d4" * 32, market_minutes=60)
        deliver_pending()
        seq, mail = fresh(game).state["seq"], OutboxEmail.objects.order_by("-pk").first().pk
        data = dict(fields)
        if action in ("replace", "resend"):
            data["seat"] = game.seats.get(index=1).pk
        if via == "admin":
            url = f"/admin/games/game/{game.pk}/control/"
            response = organizer.post(url, {"action": action, "version": game.version, **data})
            assert response.status_code == 302
        else:
            status, notes, _page = post(org, game, action, **data)
            assert status == 302, notes
            messages.append(notes)
        outcomes.append(what_happened(game, seq, mail))
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][0], "the control left no note in the log"


def test_an_organizer_who_plays_uses_their_page_like_anyone(game):
    """Ann organizes and plays: her seat's link and her page are separate things."""
    Game.objects.filter(pk=game.pk).update(organizer_email="ann@example.org")
    ann = signed_in("ann@example.org")
    advance(game)
    load(game, 1, 2)
    page = html(ann, game)
    assert "Ben closed their bag." in visible(page)
    status, _notes, _page = post(ann, game, "pause")
    assert status == 302 and fresh(game).paused_at is not None


def test_another_game_of_the_same_organizer_is_theirs_too(org, game):
    other = game_setup.create_game(
        name="Friday", players=PLAYERS, config={"edition": 1}, organizer_email="org@example.org"
    )
    assert "Friday" in visible(html(org, other))
    seat = game.seats.get(index=0)  # a seat of the other game
    status, notes, _page = post(org, other, "resend", seat=seat.pk)
    assert status == 400
    assert notes == ["No such seat in this game; nothing was done."]
