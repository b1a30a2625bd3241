"""Gathered offer emails (issue 31, 6.2): never a stale, empty "Offers that concern
you" after the round is over, and a demand reaches its merchant while they can
still accept it."""

import pytest

from games.core import moves, timers
from games.mail import outbox
from games.models import OutboxEmail, Seat
from tests.support.clock import T0
from tests.support.fixtures_pages import fresh, start_game
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(settings, clock):
    """A four-player game in its inspection (Ann is the Sheriff), offer emails
    waiting 60 s of quiet; every email owed so far sent."""
    settings.OFFER_EMAIL_QUIET_SECONDS, settings.OFFER_EMAIL_MAX_WAIT_SECONDS = 60, 300
    game = start_game()
    timers.advance(game.pk, force=True)
    timers.advance(game.pk, force=True)
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"
    deliver_pending()
    return game


def submit(game, index: int, command: dict, key: str):
    seat = game.seats.get(index=index)
    outcome = moves.submit(seat, command, version=fresh(game).engine_state().phase.since, key=key)
    assert outcome.accepted, outcome.message
    return outcome


def offer_emails(game, index: int):
    return OutboxEmail.objects.filter(game=game, seat__index=index, kind="offer")


def test_an_offer_email_whose_news_the_round_over_email_told_is_dropped(game, clock, mailoutbox):
    terms = {"gold": 2, "sheriff": [{"bag": 1, "action": "pass"}]}
    submit(game, 1, {"type": "make_offer", "to": 0, "terms": terms}, "offer")
    (waiting,) = offer_emails(game, 0)  # Ann's, gathered: due in 60 s
    clock.at(5)
    submit(game, 0, {"type": "accept_offer", "offer": 1, "revision": 1}, "deal")
    timers.advance(game.pk, force=True)  # the inspection's deadline: the round is over
    assert fresh(game).engine_state().round == 2
    deliver_pending()  # "Round 1 is over" tells the offer and the deal
    mailoutbox.clear()
    clock.at(61)
    outbox.deliver(waiting.pk, now=clock.now)
    assert [m for m in mailoutbox if "Offers that concern you" in m.body] == []
    assert not OutboxEmail.objects.filter(pk=waiting.pk, status="sent").exists()


def test_a_demand_is_emailed_to_its_merchant_at_once(game, clock, mailoutbox):
    terms = {"gold": 2, "sheriff": [{"bag": 1, "action": "pass"}]}
    submit(game, 0, {"type": "make_offer", "to": 1, "terms": terms}, "demand")
    (email,) = offer_emails(game, 1)
    assert email.pk in outbox.due(T0)  # not put off to a quiet time: Ben may answer now
    assert outbox.deliver(email.pk, now=T0) == "sent"
    (sent,) = [m for m in mailoutbox if m.body.startswith("A demand awaits your answer")]
    assert sent.to == ["ben@example.org"]
    assert "Demand #1: Ann demands" in sent.body


def test_a_demand_brings_a_waiting_offer_email_forward(game, clock, mailoutbox):
    Seat.objects.filter(game=game, index=1).update(notify=Seat.Notify.EVERY_EVENT)
    terms = {"gold": 2, "sheriff": [{"bag": 1, "action": "pass"}]}
    submit(game, 2, {"type": "make_offer", "to": 0, "terms": {**terms}}, "cid")  # names Ben's bag
    (email,) = offer_emails(game, 1)  # Ben's, about his bag: gathered
    assert email.pk not in outbox.due(T0)
    clock.at(10)
    submit(game, 0, {"type": "make_offer", "to": 1, "terms": terms}, "demand")
    (email,) = offer_emails(game, 1)
    assert email.pk in outbox.due(clock.now)
