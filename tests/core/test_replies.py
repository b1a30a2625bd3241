"""Replies by email, decided without anymail (games.core.replies): a seat's reply
posts its new text to the table talk; unknown keys, duplicates and automated mail do
nothing more than leave a row; another sender is held and told once an hour; every
"not used" answer is paced; a revoked seat's old key is unknown."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.core import controls, notifications, replies
from games.models import Game, InboundMessage, OutboxEmail, Seat, TalkMessage
from games.words import reply_text
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db

Outcome = InboundMessage.Outcome


@pytest.fixture
def game(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    return start_game()


def seat(game, index: int = 1) -> Seat:
    return Seat.objects.get(game=game, index=index)


def reply(
    to: Seat,
    text: str = "You are bluffing.",
    sender: str = "",
    message_id: str = "<m1@mail.example>",
    headers=(),
    **extra,
) -> replies.Received:
    fields = {
        "esp": "postmark",
        "message_id": message_id,
        "recipients": (f"Sheriff <play+{to.reply_key}@in.example.org>",),
        "from_header": sender or f"{to.name} <{to.email}>",
        "headers": (("From", sender or to.email), *headers),
        "envelope_sender": to.email,
        "text": text,
    }
    return replies.Received(**{**fields, **extra})


def answers(kind: str | None = None):
    rows = OutboxEmail.objects.filter(kind__startswith="reply_")
    return rows.filter(kind=kind) if kind else rows


def test_a_reply_posts_its_new_text_to_the_table_and_the_seat_is_told(game):
    bob = seat(game)
    quoted = "Carol, I'll pay 3 gold.\n\nOn Mon, 23 Nov 2026, Sheriff wrote:\n> Your move\n> ..."
    assert replies.handle(reply(bob, quoted)) == Outcome.TALK_POSTED
    [message] = TalkMessage.objects.filter(game=game)
    assert message.seat == bob and message.text == "Carol, I'll pay 3 gold."
    [answer] = answers()
    assert answer.kind == notifications.REPLY_DONE and answer.seat == bob and answer.to == bob.email
    row = InboundMessage.objects.get()
    assert (row.seat, row.outcome, row.text) == (bob, Outcome.TALK_POSTED, message.text)


@pytest.mark.parametrize(
    "text, new",
    [
        ("say: hello\n> quoted", "hello"),
        ("di: hola\n\nEl lun, 23 nov 2026, Sheriff escribió:\n> Tu turno", "hola"),
        ("First line\nsecond\n\n-----Original Message-----\nFrom: x", "First line\nsecond"),
        ("Above\n\nWrite your reply above this line\nthe email", "Above"),
        ("  \n> all quoted\n> here", ""),
    ],
)
def test_the_new_text_is_what_is_above_the_quote(text, new):
    assert replies.talk_text(reply_text.new_text(text)) == new


def test_the_reply_key_is_found_among_any_recipient_whatever_its_case(game):
    bob = seat(game)
    upper = f"PLAY+{bob.reply_key.upper()}@IN.EXAMPLE.ORG"
    assert replies.reply_keys(["ann@example.org", upper]) == [bob.reply_key]
    received = reply(bob, recipients=("someone@example.org", upper))
    assert replies.handle(received) == Outcome.TALK_POSTED


def test_reply_keys_are_long_random_lowercase_and_distinct(game):
    keys = [s.reply_key for s in game.seats.all()]
    assert len(set(keys)) == len(keys)
    assert all(len(k) == 20 and k.isalnum() and k == k.lower() for k in keys)


def test_an_unknown_key_is_recorded_and_nothing_else(game):
    bob = seat(game)
    received = reply(bob, recipients=("play+zzzzzzzzzzzzzzzzzzzz@in.example.org",))
    assert replies.handle(received) == Outcome.UNKNOWN_KEY
    assert not TalkMessage.objects.exists() and not answers().exists()
    assert InboundMessage.objects.get().seat is None


def test_the_same_message_id_is_handled_once(game):
    bob = seat(game)
    assert replies.handle(reply(bob)) == Outcome.TALK_POSTED
    assert replies.handle(reply(bob)) == Outcome.DUPLICATE
    assert TalkMessage.objects.count() == 1 and InboundMessage.objects.count() == 1


def test_without_a_message_id_the_sender_date_and_body_make_it_the_same(game):
    bob = seat(game)
    assert replies.handle(reply(bob, message_id="", date="Mon, 23 Nov")) == Outcome.TALK_POSTED
    assert replies.handle(reply(bob, message_id="", date="Mon, 23 Nov")) == Outcome.DUPLICATE
    assert replies.handle(reply(bob, message_id="", date="Tue, 24 Nov")) == Outcome.TALK_POSTED


AUTOMATED = [
    {"headers": (("Auto-Submitted", "auto-replied"),)},
    {"headers": (("auto-submitted", "Auto-Generated; reason=x"),)},
    {"headers": (("X-Autoreply", "yes"),)},
    {"headers": (("X-Autorespond", "Out of office"),)},
    {"headers": (("Precedence", "bulk"),)},
    {"headers": (("Precedence", "junk"),)},
    {"headers": (("Precedence", "List"),)},
    {"headers": (("List-Id", "<players.example.org>"),)},
    {"headers": (("List-Unsubscribe", "<mailto:x@example.org>"),)},
    {"headers": (("Return-Path", "<>"),)},
    {"envelope_sender": ""},
    {"envelope_sender": "<>"},
]


@pytest.mark.parametrize("automated", AUTOMATED)
def test_automated_mail_is_ignored_and_never_answered(game, automated):
    bob = seat(game)
    assert replies.handle(reply(bob, **automated)) == Outcome.IGNORED_AUTOMATED
    stranger = reply(bob, sender="robot@example.net", message_id="<m2@x>", **automated)
    assert replies.handle(stranger) == Outcome.IGNORED_AUTOMATED
    assert not TalkMessage.objects.exists() and not answers().exists()


@pytest.mark.parametrize("sender", ["play+abc@in.example.org", "sheriff@localhost"])
def test_mail_from_our_own_addresses_is_never_answered(game, settings, sender):
    settings.DEFAULT_FROM_EMAIL = "Sheriff <sheriff@localhost>"
    bob = seat(game)
    Seat.objects.filter(pk=bob.pk).update(reply_from_anyone=True)
    assert replies.handle(reply(bob, sender=sender)) == Outcome.IGNORED_AUTOMATED
    assert not TalkMessage.objects.exists() and not answers().exists()


def test_auto_submitted_no_is_a_person(game):
    bob = seat(game)
    received = reply(bob, headers=(("Auto-Submitted", "no"), ("Precedence", "normal")))
    assert replies.handle(received) == Outcome.TALK_POSTED


def test_another_sender_is_held_and_told_once_an_hour(game):
    bob = seat(game)
    now = timezone.now()
    first = reply(bob, sender="Ben at work <ben@work.example>")
    assert replies.handle(first, now) == Outcome.HELD_SENDER
    second = reply(bob, sender="ben@work.example", message_id="<m2@x>")
    assert replies.handle(second, now + timedelta(minutes=30)) == Outcome.HELD_SENDER
    assert not TalkMessage.objects.exists()
    [told] = answers(notifications.REPLY_HELD)
    assert told.to == "ben@work.example" and told.seat is None
    third = reply(bob, sender="ben@work.example", message_id="<m3@x>")
    assert replies.handle(third, now + timedelta(minutes=61)) == Outcome.HELD_SENDER
    assert answers(notifications.REPLY_HELD).count() == 2


def test_a_stranger_does_not_silence_the_seats_own_answers(game):
    Game.objects.filter(pk=game.pk).update(talk=Game.Talk.OFF)
    bob = seat(game)
    assert replies.handle(reply(bob, sender="eve@evil.example")) == Outcome.HELD_SENDER
    assert replies.handle(reply(bob, message_id="<m2@x>")) == Outcome.REFUSED
    assert answers(notifications.REPLY_REFUSED).count() == 1


def test_the_organizer_may_allow_replies_from_anyone_for_a_seat(game):
    bob = seat(game)
    Seat.objects.filter(pk=bob.pk).update(reply_from_anyone=True)
    assert replies.handle(reply(bob, sender="ben@work.example")) == Outcome.TALK_POSTED
    [answer] = answers()
    assert answer.to == bob.email  # the seat's view goes to the seat's own address


def test_the_senders_address_is_compared_without_case(game):
    bob = seat(game)
    shouted = f"{bob.name} <{bob.email.upper()}>"
    assert replies.handle(reply(bob, sender=shouted)) == Outcome.TALK_POSTED


def test_a_refused_reply_is_answered_with_why_paced_an_hour(game):
    Game.objects.filter(pk=game.pk).update(talk=Game.Talk.OFF)
    bob = seat(game)
    now = timezone.now()
    assert replies.handle(reply(bob), now) == Outcome.REFUSED
    [answer] = answers(notifications.REPLY_REFUSED)
    assert "turned the table's talk off" in answer.params["reason"]
    again = reply(bob, message_id="<m2@x>")
    assert replies.handle(again, now + timedelta(minutes=5)) == Outcome.REFUSED
    assert answers().count() == 1
    assert not TalkMessage.objects.exists()


def test_an_empty_reply_is_refused_as_nothing_to_read(game):
    bob = seat(game)
    assert replies.handle(reply(bob, "> only the quote")) == Outcome.REFUSED
    assert "nothing to read" in InboundMessage.objects.get().detail


def test_a_too_long_reply_is_refused_by_the_talks_rules(game):
    bob = seat(game)
    assert replies.handle(reply(bob, "x" * 1001)) == Outcome.REFUSED
    assert InboundMessage.objects.get().detail.startswith("too_long")


def test_replacing_a_player_rotates_the_reply_key(game):
    bob = seat(game)
    old_key = bob.reply_key
    controls.replace_player(
        bob.pk, expected_version=game.version, name="Dora", email="dora@example.org"
    )
    new = seat(game)
    assert new.reply_key != old_key and len(new.reply_key) == 20
    stale = reply(bob, sender="dora@example.org")  # to the old address
    assert replies.handle(stale) == Outcome.UNKNOWN_KEY
    assert replies.handle(reply(new, message_id="<m2@x>")) == Outcome.TALK_POSTED


def test_bad_characters_are_stored_without_failing(game):
    bob = seat(game)
    received = reply(bob, "a\x00b\ud800c", sender="x\x00 <y\x00@z>", message_id="<\x00>")
    assert replies.handle(received) in (Outcome.HELD_SENDER, Outcome.REFUSED)
    assert not TalkMessage.objects.exists()


def test_a_reply_whose_transaction_was_a_deadlocks_victim_is_handled_once(game, monkeypatch):
    """Rolled back whole by the database, the reply is handled again from the start:
    one row, one line of talk, one answer."""
    from tests.support.database_errors import deadlock, failing_once

    answer = failing_once(notifications.record_reply_answer, deadlock())
    monkeypatch.setattr(notifications, "record_reply_answer", answer)
    assert replies.handle(reply(seat(game))) == Outcome.TALK_POSTED
    assert answer.calls == 2
    assert [m.text for m in TalkMessage.objects.filter(game=game)] == ["You are bluffing."]
    assert InboundMessage.objects.count() == 1 and answers().count() == 1
