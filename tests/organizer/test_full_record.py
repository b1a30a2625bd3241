"""A game's full record (games.organizer.records): hidden while the game runs, open once it
is over, and opened before that only by a superuser, for a reason, in a POST that
is recorded, logged and told to every player."""

import logging
import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from games.core import controls, links
from games.models import Game, GameEvent, OutboxEmail, RecordOpening, Seat, Submission
from games.organizer import records
from games.present import clock
from tests.organizer.organizer_games import advance, finish, fresh, load, new_game
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

REASON = "Ben disputes the inspection of round 1"
RAW_EVENT = '"to": "hand:'  # a card dealt to a hand, as the events store it
RAW_MOVE = '"cards": ['  # a bag's cards, as the move was sent


@pytest.fixture
def staff():
    """A staff user who is not a superuser, with every view permission and the
    game's change permission."""
    user = User.objects.create_user("helper", "helper@example.org", "pw", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(codename__startswith="view_"),
        Permission.objects.get(codename="change_game"),
    )
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def superuser():
    client = Client()
    client.force_login(User.objects.create_superuser("org", "org@example.org", "pw"))
    return client


@pytest.fixture
def game() -> Game:
    """Ben has loaded his bag; every email so far was sent."""
    game = advance(new_game(edition=2), 1)
    load(game, 1, 2)
    deliver_pending()
    return fresh(game)


def open_url(game) -> str:
    return reverse("admin:games_game_open_record", args=[game.pk])


def text(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return unescape(response.content.decode())


def record_pages(client, game) -> dict:
    """The game's page and one stored event, email and move, as ``client`` reads them."""
    email = OutboxEmail.objects.filter(game=game, seat__index=1).exclude(text="").first()
    return {
        "game": text(client, reverse("admin:games_game_change", args=[game.pk])),
        "event": text(
            client,
            reverse("admin:games_gameevent_change", args=[GameEvent.objects.get(seq=2).pk]),
        ),
        "email": text(client, reverse("admin:games_outboxemail_change", args=[email.pk])),
        "move": text(
            client,
            reverse("admin:games_submission_change", args=[Submission.objects.get().pk]),
        ),
    }


def hand_line(game) -> str:
    email = OutboxEmail.objects.filter(game=game, seat__index=1).exclude(text="").first()
    return next(line for line in email.text.splitlines() if line.startswith("Hand: "))


def shows_the_record(pages: dict, game) -> dict:
    return {
        "game": fresh(game).state["seed"] in pages["game"],
        "event": RAW_EVENT in pages["event"],
        "email": hand_line(game) in pages["email"],
        "move": RAW_MOVE in pages["move"],
    }


ALL = {"game": True, "event": True, "email": True, "move": True}
NONE = {"game": False, "event": False, "email": False, "move": False}


# --- hidden while the game runs, open once it is over -----------------------------------


@pytest.mark.parametrize("who", ["staff", "superuser"])
def test_the_full_record_is_hidden_while_the_game_runs(request, who, game):
    client = request.getfixturevalue(who)
    assert shows_the_record(record_pages(client, game), game) == NONE
    page = record_pages(client, game)["game"]
    assert "Hidden while the game is in play" in page


@pytest.mark.parametrize("who", ["staff", "superuser"])
@pytest.mark.parametrize("end", ["finished", "cancelled"])
def test_the_full_record_is_open_once_the_game_is_over(request, who, end, game):
    client = request.getfixturevalue(who)
    if end == "cancelled":
        controls.cancel(game.pk, expected_version=game.version)
    else:
        finish(game)
    assert fresh(game).status == end
    pages = record_pages(client, game)
    assert shows_the_record(pages, game) == ALL
    assert "The game is over: its full record" in pages["game"]
    # The events as stored, as indented JSON; the email's text without its seat link.
    assert re.search(r'\{\n  "cards": \[\n    \d+', pages["event"])
    assert "/play/<redacted>/" in pages["email"]
    for seat in Seat.objects.filter(game=game):
        assert links.make_token(seat) not in pages["email"]
    assert f"?game__id__exact={game.pk}" in pages["game"]  # the way to its records


# --- opening it while the game runs ------------------------------------------------------


def test_staff_who_are_not_superusers_cannot_open_it(staff, game):
    assert open_url(game) not in record_pages(staff, game)["game"]
    assert staff.get(open_url(game)).status_code == 403
    assert staff.post(open_url(game), {"reason": REASON}).status_code == 403
    assert not RecordOpening.objects.exists()
    assert shows_the_record(record_pages(staff, game), game) == NONE


def test_a_superuser_is_asked_for_a_reason_and_a_get_opens_nothing(superuser, game):
    assert open_url(game) in record_pages(superuser, game)["game"]
    form = text(superuser, open_url(game))
    assert 'name="reason"' in form and "every player's page says" in form
    assert fresh(game).state["seed"] not in form
    assert not RecordOpening.objects.exists()
    assert shows_the_record(record_pages(superuser, game), game) == NONE


@pytest.mark.parametrize(
    ("reason", "message"),
    [
        ("", "This field is required."),
        ("   ", "This field is required."),
        ("Ben\nasked", "one line of plain text"),
        ("Ben\x00asked", "Null characters are not allowed."),
        ("Ben\x07asked", "one line of plain text"),
        ("Ben \u202easked", "one line of plain text"),
        ("x" * (records.MAX_REASON + 1), f"at most {records.MAX_REASON} characters"),
    ],
)
def test_the_reason_is_required_and_one_line_of_plain_text(superuser, game, reason, message):
    response = superuser.post(open_url(game), {"reason": reason})
    assert response.status_code == 200
    assert message in unescape(response.content.decode())
    assert not RecordOpening.objects.exists() and not LogEntry.objects.exists()


def test_without_the_csrf_token_nothing_is_opened(game):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(User.objects.create_superuser("org", "org@example.org", "pw"))
    assert strict.post(open_url(game), {"reason": REASON}).status_code == 403
    assert not RecordOpening.objects.exists()


def test_opening_is_recorded_logged_and_opens_the_record_to_that_superuser_only(
    superuser, staff, game, caplog
):
    with caplog.at_level(logging.INFO, logger="games.organizer.records"):
        response = superuser.post(open_url(game), {"reason": f"  {REASON} "})
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:games_game_change", args=[game.pk])
    opening = RecordOpening.objects.get()
    assert (opening.game, opening.user.username, opening.username) == (game, "org", "org")
    assert opening.reason == REASON
    # The admin history says it, and so does the log, with no secret in either.
    entry = LogEntry.objects.get()
    assert entry.user == opening.user and entry.object_id == str(game.pk)
    assert REASON in entry.get_change_message()
    history = text(superuser, reverse("admin:games_game_history", args=[game.pk]))
    assert REASON in history
    logged = [r.getMessage() for r in caplog.records if r.name == "games.organizer.records"]
    assert len(logged) == 1 and f"game {game.pk}" in logged[0] and "org" in logged[0]
    seed = fresh(game).state["seed"]
    assert seed not in logged[0] and seed not in entry.change_message
    # Open to that superuser...
    pages = record_pages(superuser, game)
    assert shows_the_record(pages, game) == ALL
    assert "Open to you until" in pages["game"] and REASON in pages["game"]
    # ...not to other staff, nor to another superuser, who would have to open it themselves.
    assert shows_the_record(record_pages(staff, game), game) == NONE
    other = Client()
    other.force_login(User.objects.create_superuser("org2", "org2@example.org", "pw"))
    assert shows_the_record(record_pages(other, game), game) == NONE


def test_the_record_closes_again_after_an_hour(superuser, game):
    superuser.post(open_url(game), {"reason": REASON})
    opening = RecordOpening.objects.get()
    user, closes = opening.user, opening.opened_at + records.OPEN_FOR
    assert records.is_open(game, user, now=closes - timedelta(seconds=1))
    assert not records.is_open(game, user, now=closes)
    RecordOpening.objects.update(opened_at=opening.opened_at - records.OPEN_FOR)
    assert shows_the_record(record_pages(superuser, game), game) == NONE
    # The players are still told: it was opened.
    assert RecordOpening.objects.filter(game=game).exists()


def test_a_finished_game_has_nothing_to_open(superuser, game):
    finish(game)
    response = superuser.post(open_url(game), {"reason": REASON})
    assert response.status_code == 302
    assert not RecordOpening.objects.exists()
    assert open_url(game) not in record_pages(superuser, game)["game"]


# --- the players are told ----------------------------------------------------------------


def seat_page(seat) -> str:
    response = Client().get(reverse("games:seat", args=[links.make_token(seat)]))
    assert response.status_code == 200
    return response.content.decode()


def test_every_player_page_tells_that_the_record_was_opened_when_and_why(superuser, game):
    for seat in Seat.objects.filter(game=game):
        assert "full record" not in seat_page(seat)
    reason = "Ben <b>disputes</b> \u05e9\u05dc\u05d5\u05dd round 1"
    assert superuser.post(open_url(game), {"reason": reason}).status_code == 302
    opened = RecordOpening.objects.get().opened_at
    for seat in Seat.objects.filter(game=game):
        page = seat_page(seat)
        when = clock.deadline(opened, seat.timezone)["local"]
        assert f"The organizer opened this game's full record on {when} " in page
        # The organizer's words, escaped and isolated in their own <bdi>.
        assert (
            "(reason: <bdi>Ben &lt;b&gt;disputes&lt;/b&gt; \u05e9\u05dc\u05d5\u05dd round 1</bdi>)"
            in page
        )
        assert "<b>disputes" not in page


def test_the_next_emails_tell_it_too(superuser, game):
    superuser.post(open_url(game), {"reason": REASON})
    OutboxEmail.objects.all().delete()
    seat = Seat.objects.get(game=game, index=0)
    controls.resend_email(seat.pk, expected_version=fresh(game).version)
    deliver_pending()
    email = OutboxEmail.objects.get(seat=seat)
    assert "full record on " in email.text and f"(reason: {REASON})." in email.text
    assert f"(reason: <bdi>{REASON}</bdi>)." in email.html
