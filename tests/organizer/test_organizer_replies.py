"""Whose replies by email a seat takes, on the organizer's page
(games/organizer/reply_senders.py): each seat says it and has a button to switch it
while the site reads replies; a reply held lately from another address is said next
to it; a switch is kept in the game's admin history; once switched, a reply from
another address is taken; refusals change nothing; nobody else may."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from games.core import controls, replies
from games.models import Game, InboundMessage, Seat, TalkMessage
from tests.organizer.organizer_games import advance, fresh, new_game
from tests.organizer.organizer_page import control_url, html, post, signed_in

pytestmark = pytest.mark.django_db

Outcome = InboundMessage.Outcome
DOMAIN = "in.example.org"


@pytest.fixture
def game(settings):
    settings.INBOUND_DOMAIN = DOMAIN
    return new_game(edition=2)


@pytest.fixture
def org():
    return signed_in("org@example.org")


def ben(game) -> Seat:
    return Seat.objects.get(game=game, index=1)


def visible(page: str) -> str:
    """The page's text as a person reads it."""
    page = re.sub(r"</?bdi>", "", page)
    page = re.sub(r"(?s)<(script|style|datalist)\b.*?</\1>", " ", page)
    return unescape(re.sub(r"\s+", " ", re.sub(r"(?s)<[^>]+>", " ", page)))


def seat_block(page: str, seat: Seat) -> str:
    """What the page says of ``seat``'s replies ("" when it says nothing)."""
    start = page.find(f'id="replies-{seat.pk}"')
    return visible(page[start : page.index("</div>", start)]) if start >= 0 else ""


def from_work(seat: Seat, message_id: str = "<w1@work.example>") -> replies.Received:
    """Ben's reply from his work address, as tests/core/test_replies.py builds one."""
    return replies.Received(
        esp="postmark",
        message_id=message_id,
        recipients=(f"Sheriff <play+{seat.reply_key}@{DOMAIN}>",),
        from_header="Ben at work <ben@work.example>",
        headers=(("From", "ben@work.example"),),
        envelope_sender="ben@work.example",
        text="Cid, I will pay 2 gold.\n\nOn Mon, 23 Nov 2026, Sheriff wrote:\n> Your move",
    )


def record(game) -> tuple:
    seats = list(Seat.objects.filter(game=game).order_by("index").values())
    return fresh(game).version, seats, LogEntry.objects.count()


# --- what the page shows ----------------------------------------------------------------


def test_each_seat_says_whose_replies_it_takes_and_offers_the_switch(game, org):
    page = html(org, game)
    text = visible(page)
    assert "For a player who writes from a second address" in text
    for seat in game.seats.all():
        block = seat_block(page, seat)
        assert "Replies by email: taken only from this address." in block
        assert f"Take {seat.name}’s replies from any address" in block
    assert page.count('value="replies_anyone"') == 3 and 'value="replies_own"' not in page


def test_nothing_is_said_of_replies_when_the_site_reads_none(game, org, settings):
    settings.INBOUND_DOMAIN = ""
    page = html(org, game)
    assert "Replies by email" not in page and "replies_anyone" not in page
    assert seat_block(page, ben(game)) == ""
    before = record(game)
    status, messages, _ = post(org, game, "replies_anyone", seat=ben(game).pk)
    assert status == 409
    assert messages == ["This site does not read replies by email; nothing was done."]
    assert record(game) == before


# --- switching ---------------------------------------------------------------------------


def test_the_organizer_takes_a_seats_replies_from_any_address_and_back(game, org):
    seat = ben(game)
    status, messages, page = post(org, game, "replies_anyone", seat=seat.pk)
    assert status == 302
    assert messages == ["Ben’s replies by email are now taken from any address."]
    assert ben(game).reply_from_anyone
    block = seat_block(page.content.decode(), seat)
    assert "Replies by email: taken from any address." in block
    assert "Take Ben’s replies only from ben@example.org" in block
    [entry] = LogEntry.objects.all()
    assert entry.object_id == str(game.pk) and entry.user.email == "org@example.org"
    assert "Ben (seat 2)'s replies by email taken from any address" in entry.change_message

    status, messages, page = post(org, game, "replies_own", seat=seat.pk)
    assert status == 302
    assert messages == ["Ben’s replies by email are now taken only from ben@example.org."]
    assert not ben(game).reply_from_anyone
    assert "taken only from this address" in seat_block(page.content.decode(), seat)
    assert LogEntry.objects.count() == 2
    assert "taken only from ben@example.org" in LogEntry.objects.latest("pk").change_message
    # The other seats are untouched.
    assert not Seat.objects.filter(game=game, reply_from_anyone=True).exists()


def test_a_switch_sent_twice_does_no_more(game, org):
    seat = ben(game)
    post(org, game, "replies_anyone", seat=seat.pk)
    status, messages, _ = post(org, game, "replies_anyone", seat=seat.pk)
    assert status == 302 and messages == ["Ben’s replies by email are now taken from any address."]
    assert ben(game).reply_from_anyone and LogEntry.objects.count() == 1


def test_a_page_a_move_has_overtaken_still_switches(game, org):
    """The switch touches no game state: it does not wait for a quiet table."""
    old_version = fresh(game).version
    moved_on = advance(game).version
    status, _, _ = post(org, game, "replies_anyone", version=old_version, seat=ben(game).pk)
    assert status == 302 and ben(game).reply_from_anyone
    assert fresh(game).version == moved_on  # nor does it move the game on


def test_the_page_reads_in_spanish(game):
    org = signed_in("org@example.org", HTTP_ACCEPT_LANGUAGE="es")
    block = seat_block(html(org, game), ben(game))
    assert "Respuestas por correo: solo desde esta dirección." in block
    assert "Aceptar las respuestas de Ben desde cualquier dirección" in block
    status, messages, _ = post(org, game, "replies_anyone", seat=ben(game).pk)
    assert status == 302
    assert messages == [
        "Las respuestas por correo de Ben se aceptan ahora desde cualquier dirección."
    ]


# --- a reply held, then taken ------------------------------------------------------------


def test_a_held_reply_is_said_next_to_its_seat_and_taken_once_switched(game, org):
    seat = ben(game)
    assert replies.handle(from_work(seat)) == Outcome.HELD_SENDER
    assert not TalkMessage.objects.exists()
    page = html(org, game)
    block = seat_block(page, seat)
    assert re.search(r"A reply from ben@work\.example was held on .+: it was not used\.", block)
    assert "was held" not in seat_block(page, Seat.objects.get(game=game, index=0))

    status, messages, page = post(org, game, "replies_anyone", seat=seat.pk)
    assert status == 302
    assert messages == [
        "Ben’s replies by email are now taken from any address. The reply held before "
        "was not used: Ben can send it again."
    ]
    assert "was held" not in seat_block(page.content.decode(), seat)  # no longer the question

    again = from_work(ben(game), message_id="<w2@work.example>")
    assert replies.handle(again) == Outcome.TALK_POSTED
    [message] = TalkMessage.objects.all()
    assert message.seat == seat and message.text == "Cid, I will pay 2 gold."


def test_a_reply_held_long_ago_is_not_said(game, org):
    seat = ben(game)
    replies.handle(from_work(seat))
    Seat.objects.filter(pk=seat.pk).update(reply_held_at=timezone.now() - timedelta(days=15))
    assert "was held" not in seat_block(html(org, game), seat)


def test_a_held_reply_without_its_row_is_still_said(game, org):
    Seat.objects.filter(pk=ben(game).pk).update(reply_held_at=timezone.now())
    block = seat_block(html(org, game), ben(game))
    assert re.search(r"A reply from another address was held on .+: it was not used\.", block)


def test_a_held_address_is_shown_as_text(game, org):
    seat = ben(game)
    InboundMessage.objects.create(
        message_id="<x@y>",
        seat=seat,
        from_address="<b>evil</b>@x.example",
        outcome=Outcome.HELD_SENDER,
    )
    Seat.objects.filter(pk=seat.pk).update(reply_held_at=timezone.now())
    page = html(org, game)
    assert "<b>evil</b>" not in page and "&lt;b&gt;evil&lt;/b&gt;@x.example" in page


# --- who may, and when -------------------------------------------------------------------


def test_nobody_else_may_switch(game, client):
    before = record(game)
    data = {"action": "replies_anyone", "version": fresh(game).version, "seat": ben(game).pk}
    response = client.post(control_url(game), data)  # not signed in
    assert response.status_code == 302 and response["Location"].startswith("/sign-in/?next=")
    for address in ("ben@example.org", "ann@example.org", "someone@example.org"):
        status, _, _ = post(signed_in(address), game, "replies_anyone", seat=ben(game).pk)
        assert status == 404
    assert record(game) == before


def test_another_games_seat_is_not_this_organizers(game, org):
    other = new_game(edition=2)
    Game.objects.filter(pk=other.pk).update(organizer_email="someone@example.org")
    theirs = Seat.objects.get(game=other, index=1)
    status, messages, _ = post(org, game, "replies_anyone", seat=theirs.pk)
    assert status == 400 and messages == ["No such seat in this game; nothing was done."]
    assert not Seat.objects.get(pk=theirs.pk).reply_from_anyone


def test_a_game_no_longer_in_play_shows_no_switch_and_refuses_one(game, org):
    controls.cancel(game.pk, expected_version=fresh(game).version)
    page = html(org, game)
    assert "replies_anyone" not in page and seat_block(page, ben(game)) == ""
    before = record(game)
    status, messages, _ = post(org, game, "replies_anyone", seat=ben(game).pk)
    assert status == 409
    assert messages == ["This game is no longer in play; nothing was done."]
    assert record(game) == before


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"seat": ""},
        {"seat": "999999"},
        {"seat": "9" * 5000},
        {"seat": "2\x00"},
        {"seat": "\x00"},
        {"seat": "\u0661"},
        {"seat": "-1"},
        {"seat": "BEN"},
    ],
)
def test_a_forged_seat_gets_a_clear_message_and_changes_nothing(game, org, fields):
    before = record(game)
    status, messages, _ = post(org, game, "replies_anyone", **fields)
    assert status == 400 and messages == ["No such seat in this game; nothing was done."]
    assert record(game) == before


@pytest.mark.parametrize("version", ["", "\x00", "v1", "9" * 50])
def test_a_form_without_a_whole_version_changes_nothing(game, org, version):
    before = record(game)
    status, messages, _ = post(org, game, "replies_own", version=version, seat=ben(game).pk)
    assert status == 400 and messages == ["The form was incomplete; nothing was done."]
    assert record(game) == before
