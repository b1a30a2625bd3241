"""Moves by reply (games.mail.reply_moves through games.core.replies): a reply's
first line, answering one of the seat's emails, is made the page's way and judged
by that email's phase; a stale, wrong or unanchored one is refused with why and
changes nothing; anything else is talk. And a whole four-player game played by
replies alone, each seat replying with a command its email listed."""

import collections
import itertools
import random
import re

import pytest

from games import engine
from games.core import replies, standing, timers
from games.mail import reply_moves
from games.models import Game, InboundMessage, OutboxEmail, Seat, TalkMessage
from tests.support.fixtures_pages import fresh, start_game
from tests.support.mailplay import deliver_pending
from tests.support.reply_players import next_reply

pytestmark = pytest.mark.django_db

Outcome = InboundMessage.Outcome
IDS = itertools.count(1)


@pytest.fixture
def game(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game()
    deliver_pending()  # each seat's first emails are sent
    return game


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def latest_email(to: Seat) -> OutboxEmail:
    return OutboxEmail.objects.filter(seat=to, status="sent").order_by("-pk").first()


def reply(to: Seat, text: str, answering: OutboxEmail | None = None) -> str:
    """``to``'s reply to ``answering`` (its latest email, by default), quoting it."""
    answering = answering or latest_email(to)
    headers = [("From", to.email)]
    if answering is not None:
        ours = answering.headers["Message-ID"]
        headers += [
            ("In-Reply-To", ours),
            ("References", f"{answering.headers['References']} {ours}"),
        ]
    quoted = "\n".join(f"> {line}" for line in (answering.text if answering else "").splitlines())
    received = replies.Received(
        esp="postmark",
        message_id=f"<reply{next(IDS)}@mail.example>",
        recipients=(f"play+{to.reply_key}@in.example.org",),
        from_header=to.email,
        headers=tuple(headers),
        envelope_sender=to.email,
        text=f"{text}\n\nOn Mon, 23 Nov 2026 at 18:00, Sheriff wrote:\n{quoted}",
    )
    return replies.handle(received, read_move=reply_moves.read_move)


def answer_to(to: Seat) -> OutboxEmail:
    return OutboxEmail.objects.filter(seat=to, kind__startswith="reply_").order_by("-pk").first()


def test_a_reply_makes_the_move_its_first_line_asks_and_says_so(game):
    ben = seat(game, 1)
    hand = engine.view_for(fresh(game).engine_state(), 1)["me"]["hand"]
    assert reply(ben, "set aside 1 2\nthanks!") == Outcome.MOVE_MADE
    pending = fresh(game).engine_state().phase.pending[1]
    assert set(pending) == {hand[0]["id"], hand[1]["id"]}
    told = answer_to(ben)
    assert told.kind == "reply_moved" and told.params["reason"] == "Your market choice is recorded."
    assert not TalkMessage.objects.exists()  # a command is not talk


def to_inspection(game) -> None:
    while fresh(game).engine_state().phase.kind != "inspection":
        timers.advance(game.pk, force=True)
    deliver_pending()


def test_an_inspection_by_reply_is_answered_with_what_it_found(game):
    """The answer says what the page says after the same move: who was honest or lying,
    with what, and who paid whom."""
    to_inspection(game)
    assert reply(seat(game, 2), "no offer") == Outcome.MOVE_MADE
    deliver_pending()
    assert reply(seat(game, 0), "inspect Cid") == Outcome.MOVE_MADE
    told = answer_to(seat(game, 0)).params["reason"]
    assert told.startswith("The bag is inspected. ")
    assert re.search(r"Cid was (honest \(.+\)|lying \(declared .+, carried .+\))", told), told
    assert re.search(r"(Cid paid you|You paid Cid) \d+ gold", told), told


def test_an_offer_by_reply_accepted_at_once_is_answered_as_the_deal_it_became(game):
    """The Sheriff's standing instruction accepts the offer as it arrives: the answer
    tells the deal, not an offer "on the table"."""
    to_inspection(game)
    standing.change(seat(game, 0), no_offer=False, pass_gold=3)
    assert reply(seat(game, 1), "offer 3 gold") == Outcome.MOVE_MADE
    told = answer_to(seat(game, 1)).params["reason"]
    assert told.startswith("Deal! Offer #1 (revision 1) was accepted. "), told
    assert "The Sheriff lets your bag pass (deal #1)." in told


def test_a_reply_to_an_email_of_an_earlier_phase_is_stale(game):
    ben = seat(game, 1)
    old = latest_email(ben)
    timers.advance(game.pk, force=True)  # the market ends without Ben's reply
    version = fresh(game).version
    assert reply(ben, "keep", answering=old) == Outcome.REFUSED
    assert fresh(game).version == version
    assert "The game moved on since the email you answered" in answer_to(ben).params["reason"]


def test_a_move_needs_the_email_it_answers(game):
    ben = seat(game, 1)
    received = replies.Received(
        esp="postmark",
        message_id="<fresh@mail.example>",
        recipients=(f"play+{ben.reply_key}@in.example.org",),
        from_header=ben.email,
        headers=(("From", ben.email),),
        envelope_sender=ben.email,
        text="keep",
    )
    assert replies.handle(received, read_move=reply_moves.read_move) == Outcome.REFUSED
    assert "must answer one of this game's emails" in answer_to(ben).params["reason"]


def test_a_wrong_command_says_why_and_changes_nothing(game):
    ben = seat(game, 1)
    version = fresh(game).version
    assert reply(ben, "set aside 1 99") == Outcome.REFUSED
    assert fresh(game).version == version
    assert "there is no card 99" in answer_to(ben).params["reason"]


def test_in_spanish_the_reason_is_in_spanish(game):
    Seat.objects.filter(game=game, index=1).update(language="es")
    assert reply(seat(game, 1), "aparta 1 99") == Outcome.REFUSED
    assert "no hay carta 99" in answer_to(seat(game, 1)).params["reason"]


def test_say_and_plain_words_are_talk(game):
    assert reply(seat(game, 1), "say: keep calm, Ann") == Outcome.TALK_POSTED
    assert reply(seat(game, 2), "Ann, your bag looks heavy.") == Outcome.TALK_POSTED
    assert list(TalkMessage.objects.values_list("text", flat=True).order_by("id")) == [
        "keep calm, Ann",
        "Ann, your bag looks heavy.",
    ]


def test_the_same_reply_twice_moves_once(game):
    ben = seat(game, 1)
    email = latest_email(ben)
    headers = (("From", ben.email), ("In-Reply-To", email.headers["Message-ID"]))
    received = replies.Received(
        esp="postmark",
        message_id="<twice@mail.example>",
        recipients=(f"play+{ben.reply_key}@in.example.org",),
        from_header=ben.email,
        headers=headers,
        envelope_sender=ben.email,
        text="keep",
    )
    assert replies.handle(received, read_move=reply_moves.read_move) == Outcome.MOVE_MADE
    version = fresh(game).version
    assert replies.handle(received, read_move=reply_moves.read_move) == Outcome.DUPLICATE
    assert fresh(game).version == version


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"edition": 1},
        {"black_market": True},
        {"players": ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]},
    ],
    ids=["2nd", "1st", "black-market", "deputies"],
)
def test_a_whole_game_played_by_replies_alone(settings, config):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game(**config)
    deliver_pending()
    rnd = random.Random(7)
    names = [s.name for s in Seat.objects.filter(game=game).order_by("index")]
    made = collections.Counter()
    timeouts = 0
    for _step in range(900):
        deliver_pending()
        current = fresh(game)
        if current.status != Game.Status.ACTIVE:
            break
        state = current.engine_state()
        chosen = next_reply(state, names, rnd)
        if chosen is None:  # the bargaining time ends
            timers.advance(game.pk, force=True)
            timeouts += 1
            continue
        index, text = chosen
        outcome = reply(seat(game, index), text)
        assert outcome == Outcome.MOVE_MADE, (text, answer_to(seat(game, index)).params)
        made[InboundMessage.objects.latest("pk").detail] += 1
    assert fresh(game).status == Game.Status.FINISHED
    assert sum(made.values()) > 50 and not TalkMessage.objects.exists()
    assert made["make_offer"] and made["accept_offer"], made
    assert timeouts <= 2, timeouts
