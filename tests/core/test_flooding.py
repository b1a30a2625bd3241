"""No flooding: a seat posting in a loop is paced, its offers are capped, the
emails they make are gathered into one, refused moves leave no rows, and the
whole log is read a page at a time."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest

from games import engine
from games.core import moves, timers
from games.engine.inspection import MAX_OFFER_MOVES, OFFER_LIMIT
from games.mail import outbox
from games.models import OutboxEmail, Submission
from games.present import game_log
from tests.support import builders
from tests.support.fixtures_pages import fresh, messages_of, path_of, start_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
NOTHING_ASIDE = {"type": "set_aside", "cards": []}


def submit(game, index: int, command: dict, key: str, now=None):
    seat = game.seats.get(index=index)
    since = fresh(game).engine_state().phase.since
    return moves.submit(seat, command, version=since, key=key, now=now)


# --- pacing ------------------------------------------------------------------------------


def test_a_seat_moving_too_fast_is_told_when_to_try_again_and_nothing_changes(settings):
    settings.MOVES_BURST, settings.MOVES_REFILL_SECONDS = 3, 5
    game = start_game()
    # One move that counted and two refused ones (already chosen): three spent.
    outcomes = [submit(game, 1, NOTHING_ASIDE, f"k{i}", now=T0) for i in range(3)]
    assert [o.code for o in outcomes] == ["", "already_submitted", "already_submitted"]
    assert submit(game, 2, NOTHING_ASIDE, "other seat", now=T0).accepted  # its own allowance
    before = fresh(game)
    too_fast = submit(game, 1, NOTHING_ASIDE, "k3", now=T0)
    assert (too_fast.accepted, too_fast.code, too_fast.retry_after) == (False, "too_fast", 5)
    assert "Try again in 5 seconds" in too_fast.message
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)
    # One move is earned back every 5 seconds, and counts again.
    later = submit(game, 1, NOTHING_ASIDE, "k4", now=T0 + timedelta(seconds=5))
    assert later.code == "already_submitted"
    again = submit(game, 1, NOTHING_ASIDE, "k5", now=T0 + timedelta(seconds=6))
    assert (again.code, again.retry_after) == ("too_fast", 4)


def test_the_page_answers_too_fast_with_429_and_retry_after(client, settings):
    settings.MOVES_BURST, settings.MOVES_REFILL_SECONDS = 1, 30
    game = start_game()
    path = path_of(game.seats.get(index=1))
    since = game.engine_state().phase.since
    form = {"move": "set_aside", "version": since, "cards": []}
    assert client.post(path, {**form, "key": "a"}).status_code == 302
    response = client.post(path, {**form, "key": "b"})
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert any("Try again in 30 seconds" in m for m in messages_of(response))


def test_a_repeated_form_is_answered_from_its_first_outcome_without_spending_a_move(settings):
    settings.MOVES_BURST = 1
    game = start_game()
    first = submit(game, 1, NOTHING_ASIDE, "same", now=T0)
    again = submit(game, 1, NOTHING_ASIDE, "same", now=T0)
    assert first.accepted and again.accepted and again.repeated


# --- refused moves leave no rows -----------------------------------------------------------


def test_refused_moves_leave_no_rows_and_a_refused_form_is_judged_again():
    game = start_game()
    for i in range(50):  # the Sheriff has nothing to set aside
        assert not submit(game, 0, NOTHING_ASIDE, f"bad{i}").accepted
    assert not Submission.objects.exists()
    hand = game.engine_state().hand(1)
    bad = {"type": "set_aside", "cards": [hand[0], hand[0]]}  # the same card twice
    assert not submit(game, 1, bad, "once").accepted
    assert submit(game, 1, NOTHING_ASIDE, "once").accepted
    assert Submission.objects.count() == 1


# --- the offer cap -------------------------------------------------------------------------


def test_a_seat_makes_or_changes_at_most_the_cap_of_offers_per_inspection():
    state = builders.to_inspection(builders.start(), {}, bargaining=True)
    merchant, other = 1, 2
    for _ in range(MAX_OFFER_MOVES // 2):  # make, revise, withdraw: two of the cap each
        state, offer_id = builders.offer(state, merchant, 0, gold=1, passes=[merchant])
        revised = builders.terms(gold=2, passes=[merchant])
        state = builders.do(state, "revise_offer", seat=merchant, offer=offer_id, terms=revised)
        state = builders.do(state, "withdraw_offer", seat=merchant, offer=offer_id)
    moves = {m["type"] for m in engine.actions(state)[merchant]["moves"]}
    assert "make_offer" not in moves  # (having offered, the merchant has spoken)
    command = {"type": "make_offer", "seat": merchant, "to": 0, "terms": revised}
    builders.refused(state, command, "offer_limit")
    with pytest.raises(engine.EngineError) as refused:
        engine.apply(state, command)
    assert f"{MAX_OFFER_MOVES} offers" in refused.value.message
    # Another seat has its own, and the merchant can still accept the Sheriff's demand.
    state, demand = builders.offer(state, 0, merchant, gold=1, passes=[merchant])
    state, _ = builders.offer(state, other, 0, gold=1, passes=[other])
    state = builders.accept(state, merchant, demand)
    assert builders.offer_status(state, demand) == "accepted"


# --- offer emails gathered ---------------------------------------------------------------


class Clock:
    """timezone.now() for the code under test, moved by hand."""

    def __init__(self, start):
        self.now = start

    def at(self, seconds: float):
        self.now = T0 + timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock():
    clock = Clock(T0)
    with mock.patch("django.utils.timezone.now", lambda: clock.now):
        yield clock


@pytest.fixture
def bargaining(settings, clock):
    """A game in its inspection, offer emails waiting 60 s of quiet, 300 s at most."""
    settings.OFFER_EMAIL_QUIET_SECONDS, settings.OFFER_EMAIL_MAX_WAIT_SECONDS = 60, 300
    game = start_game()
    timers.advance(game.pk, force=True)  # the market: nothing set aside
    timers.advance(game.pk, force=True)  # loading: the default bags
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"
    return game


def offer_to_sheriff(game, seat: int, key: str, gold: int = 1):
    terms = {"gold": gold, "sheriff": [{"bag": seat, "action": "pass"}]}
    outcome = submit(game, seat, {"type": "make_offer", "to": 0, "terms": terms}, key)
    assert outcome.accepted, outcome.message
    return fresh(game).engine_state().phase.next_offer - 1


def offer_emails(game, seat: int = 0):
    return OutboxEmail.objects.filter(game=game, seat__index=seat, kind="offer")


def test_offers_in_a_loop_make_one_email_that_tells_them_all(bargaining, clock, mailoutbox):
    game = bargaining
    for i in range(10):  # Ben makes and withdraws an offer, over and over
        clock.at(i * 10)
        offer_id = offer_to_sheriff(game, 1, f"make{i}")
        withdraw = {"type": "withdraw_offer", "offer": offer_id}
        assert submit(game, 1, withdraw, f"withdraw{i}").accepted
    clock.at(95)
    offer_to_sheriff(game, 2, "cid", gold=3)  # and Cid makes one
    (email,) = offer_emails(game)  # one email waits for Ann, the Sheriff
    assert email.next_attempt_at == T0 + timedelta(seconds=95 + 60)  # quiet since the last
    assert email.pk not in outbox.due(T0 + timedelta(seconds=154))
    assert email.pk in outbox.due(T0 + timedelta(seconds=155))
    assert outbox.deliver(email.pk, now=clock.at(155)) == "sent"
    (sent,) = [m for m in mailoutbox if m.to == ["ann@example.org"]]
    assert sent.body.count("withdrawn.") == 10  # every offer since, in one email
    assert "Offer #11: Cid offers — 3 gold" in sent.body
    assert "Offers that concern you" in sent.body
    # Once it is sent, the next offer makes the next email.
    clock.at(200)
    offer_to_sheriff(game, 3, "dee")
    assert offer_emails(game).filter(status=OutboxEmail.Status.PENDING).count() == 1


def test_an_offer_email_never_waits_longer_than_the_longest_wait(bargaining, clock):
    game = bargaining
    for i in range(8):  # an offer every 50 s: never 60 s of quiet
        clock.at(i * 50)
        offer_id = offer_to_sheriff(game, 1, f"make{i}")
        assert submit(game, 1, {"type": "withdraw_offer", "offer": offer_id}, f"w{i}").accepted
    (email,) = offer_emails(game)
    assert email.next_attempt_at == T0 + timedelta(seconds=300)


def test_an_offer_email_being_sent_is_not_put_off_a_new_one_is_owed(bargaining, clock):
    game = bargaining
    offer_to_sheriff(game, 1, "first")
    OutboxEmail.objects.filter(kind="offer").update(status=OutboxEmail.Status.SENDING)
    clock.at(10)
    offer_to_sheriff(game, 2, "second")
    assert offer_emails(game).count() == 2


# --- the whole log, a page at a time ------------------------------------------------------


def log_of(response) -> list:
    return [line for group in response.context["log"] for line in group["lines"]]


def test_the_whole_log_is_read_a_page_at_a_time_in_order_of_play(client):
    game = start_game()
    for _ in range(24):  # deadlines pass: the defaults play the game to its end
        timers.advance(game.pk, force=True)
    path = path_of(game.seats.get(index=1))
    state = fresh(game).engine_state()
    events = fresh(game).events.order_by("-seq").values_list("data", flat=True)
    names = ["Ann", "Ben", "Cid", "Dee"]
    every, _ = game_log.log_lines(state, events, names, 1, None)
    assert len(every) > game_log.LOG_PAGE_LINES  # two pages at least
    read, titles, url = [], [], path + "?log=all"
    while url:
        response = client.get(url)
        assert response.status_code == 200
        lines = log_of(response)
        assert 0 < len(lines) <= game_log.LOG_PAGE_LINES
        read += lines
        titles += [g["title"] for g in response.context["log"]]
        after = response.context["log_next"]
        url = None if after is None else f"{path}?log=all&after={after}"
        if url:
            assert f"?log=all&amp;after={after}" in response.content.decode()
    assert [line["seq"] for line in read] == sorted(line["seq"] for line in every)
    assert [(line["text"], line["round"]) for line in read] == [
        (line["text"], line["round"]) for line in reversed(every)
    ]
    assert titles[0] == "Before the first round" and "Round 2" in titles


@pytest.mark.parametrize("after", ["", "x", "-1", "١٢", "²", "9" * 5000, "1e3", "\x00"])
def test_any_page_cursor_is_answered_with_a_page(client, after):
    game = start_game()
    response = client.get(path_of(game.seats.get(index=1)), {"log": "all", "after": after})
    assert response.status_code == 200
    assert log_of(response)[0]["text"].startswith("The game begins")


def test_the_page_says_when_a_seat_nears_and_reaches_the_offer_cap(client, bargaining):
    game = bargaining
    path = path_of(game.seats.get(index=1))
    for i in range(MAX_OFFER_MOVES):
        offer_id = offer_to_sheriff(game, 1, f"make{i}")
        assert submit(game, 1, {"type": "withdraw_offer", "offer": offer_id}, f"w{i}").accepted
        if i == MAX_OFFER_MOVES - 3:
            assert "You may make or change 2 more offers" in client.get(path).content.decode()
    html = client.get(path).content.decode()
    assert OFFER_LIMIT in html and 'value="make_offer"' not in html
