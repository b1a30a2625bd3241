"""Bargaining before the Sheriff decides, as players and the clock meet it: the
bargaining time per game, "no offer", bags unlocked one by one, the end of the
bargaining time by the sweep, and a confirmation before any pass or inspect."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import tasks
from games.core import controls, game_setup, moves, timers
from games.mail import emails
from games.models import Game, GameEvent
from tests.support.fixtures_pages import (
    decide_buttons,
    form_for,
    forms_of,
    messages_of,
    path_of,
    post_form,
)
from tests.support.mailplay import mails_by_name as mails
from tests.support.mailplay import preheader

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday
NAMES = ("Ann", "Ben", "Cid", "Dee")
SIX = (*NAMES, "Eve", "Fay")
DAILY_PACE = {
    "deadline_mode": "duration",
    "market_minutes": 60,
    "load_minutes": 60,
    "inspection_minutes": 24 * 60,
}


def new_game(names=NAMES, **timing) -> Game:
    return game_setup.create_game(
        name="Haggle",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in names],
        config={"edition": 2},
        seed="c4" * 32,
        timing={**DAILY_PACE, **timing},
        now=T0,
    )


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def to_inspection(game, now=T0) -> Game:
    """The market and the loading time out (default moves) at ``now``."""
    timers.advance(game.pk, now=now, force=True)
    timers.advance(game.pk, now=now, force=True)
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"
    return game


def submit(game, index: int, command: dict, key: str):
    seat = game.seats.get(index=index)
    since = fresh(game).engine_state().phase.since
    return moves.submit(seat, command, version=since, key=key)


def test_bargaining_time_defaults_to_half_the_inspection_and_is_in_every_email():
    game = new_game()
    start = mails()
    assert "or once half the inspection time has passed" in start["Ann"].body  # the pace
    game = to_inspection(game)
    assert game.bargaining_until == T0 + timedelta(hours=12)
    sent = mails()
    assert sorted(sent) == list(NAMES)
    assert preheader(sent["Ben"]) == (
        "Your move: make the Sheriff an offer or say “no offer” — by Mon 23 Nov, 21:00 your time"
    )
    assert "The Sheriff cannot decide your bag before you have (or until Mon 23 Nov, 21:00" in (
        sent["Ben"].body
    )
    ann = sent["Ann"].body
    assert "you can decide a bag once its merchant has made an offer or said" in ann
    assert "Still to speak: Ben, Cid and Dee." in ann
    assert preheader(sent["Ann"]).startswith("Your move: bargain, then decide the bags — by ")


@pytest.mark.parametrize(("minutes", "until"), [(30, timedelta(minutes=30)), (None, None)])
def test_an_organizers_bargaining_time_or_none_without_deadlines(minutes, until):
    timing = {"bargaining_minutes": minutes}
    if until is None:
        timing["deadline_mode"] = "none"  # half of no deadline: wait for every merchant
    game = to_inspection(new_game(**timing))
    assert game.bargaining_until == (None if until is None else T0 + until)


def test_each_no_offer_unlocks_a_bag_and_the_last_one_tells_the_sheriff():
    game = to_inspection(new_game())
    mails()
    refused = submit(game, 0, {"type": "pass_bag", "bag": 1}, "early")
    assert refused.code == "bargaining_open" and "cannot be decided yet" in refused.message
    assert submit(game, 1, {"type": "say_no_offer"}, "b").accepted
    assert submit(game, 2, {"type": "say_no_offer"}, "c").accepted
    assert mails() == {}  # a bag at a time is on the Sheriff's page, not in her mail
    assert submit(game, 0, {"type": "pass_bag", "bag": 1}, "p1").accepted
    assert submit(game, 3, {"type": "say_no_offer"}, "d").accepted
    sent = mails()
    assert list(sent) == ["Ann"]
    assert sent["Ann"].body.startswith("Every bag can be decided now")
    assert "Dee has no offer to make." in sent["Ann"].body


def test_the_sweep_ends_the_bargaining_time_once_and_tells_the_sheriff():
    game = to_inspection(new_game())
    mails()
    assert submit(game, 1, {"type": "say_no_offer"}, "b").accepted
    assert not timers.end_bargaining(game.pk, now=T0 + timedelta(hours=11, minutes=59))
    assert timers.end_bargaining(game.pk, now=T0 + timedelta(hours=12))
    assert not timers.end_bargaining(game.pk, now=T0 + timedelta(hours=12))  # a duplicate
    game = fresh(game)
    assert game.bargaining_until is None and game.engine_state().phase.bargaining_over
    kinds = list(GameEvent.objects.filter(game=game).values_list("type", flat=True))
    assert kinds.count("bargaining_ended") == 1
    sent = mails()
    assert list(sent) == ["Ann"] and sent["Ann"].body.startswith("Every bag can be decided now")
    assert "Bargaining time is over" in sent["Ann"].body
    for bag in (1, 2, 3):
        assert submit(game, 0, {"type": "pass_bag", "bag": bag}, f"p{bag}").accepted


def test_the_beat_sweep_hands_an_ended_bargaining_time_to_a_worker(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    game = to_inspection(new_game())
    # The sweep reads the real clock: the phase's own deadline is kept in the future.
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        bargaining_until=now - timedelta(seconds=1), phase_deadline=now + timedelta(days=1)
    )
    tasks.sweep_deadlines()
    assert fresh(game).engine_state().phase.bargaining_over


def test_when_every_merchant_has_spoken_the_end_of_bargaining_time_says_nothing():
    game = to_inspection(new_game())
    for merchant in (1, 2, 3):
        assert submit(game, merchant, {"type": "say_no_offer"}, f"n{merchant}").accepted
    mails()
    assert not timers.end_bargaining(game.pk, now=T0 + timedelta(hours=13))
    assert fresh(game).bargaining_until is None and mails() == {}


def test_a_paused_game_keeps_its_bargaining_time_for_after_the_pause():
    game = to_inspection(new_game())
    game = controls.pause(game.pk, expected_version=game.version, now=T0 + timedelta(hours=1))
    assert not timers.end_bargaining(game.pk, now=T0 + timedelta(hours=13))
    game = controls.resume(game.pk, expected_version=game.version, now=T0 + timedelta(hours=3))
    assert game.bargaining_until == T0 + timedelta(hours=14)


def test_no_bargaining_time_unlocks_every_bag_at_once():
    game = to_inspection(new_game(bargaining_minutes=0))
    assert game.bargaining_until is None and game.engine_state().phase.bargaining_over
    sent = mails()
    assert preheader(sent["Ann"]).startswith("Your move: decide the bags — by ")
    assert "The Sheriff may decide a bag as soon as the declarations are revealed." in (
        emails.pace(game, "UTC")
    )
    assert submit(game, 0, {"type": "pass_bag", "bag": 1}, "p").accepted


# --- the pages ---------------------------------------------------------------------------


def test_a_merchant_says_no_offer_and_the_sheriff_sees_the_bag_unlock():
    game = to_inspection(new_game())
    client = Client()
    ann, ben = (path_of(game.seats.get(index=i)) for i in (0, 1))
    page = client.get(ann).content.decode()
    assert not decide_buttons(page)
    assert page.count("to make an offer or say “no offer” (at the latest until Mon 23 Nov") == 3
    assert page.count("to offer or say no offer") == 3  # the table's status column
    ben_page = client.get(ben).content.decode()
    assert "Bargain for your bag" in ben_page and "No offer from me" in ben_page
    response = post_form(client, ben, form_for(ben_page, "say_no_offer"))
    assert messages_of(response) == [
        "The Sheriff now knows you have no offer: your bag can be decided."
    ]
    assert "No offer from me" not in response.content.decode()
    assert "Make an offer" in response.content.decode()  # offers stay possible
    page = client.get(ann).content.decode()
    assert sorted((f.value("decide"), f.value("bag")) for f in decide_buttons(page)) == [
        ("inspect", "1"),
        ("pass", "1"),
    ]
    assert "Ben has no offer to make." in page


def test_a_decision_is_confirmed_before_it_is_final():
    game = to_inspection(new_game(bargaining_minutes=0))
    client = Client()
    ann = path_of(game.seats.get(index=0))
    [pass_ben] = [
        f
        for f in decide_buttons(client.get(ann).content.decode())
        if f.hidden() == {"decide": "pass", "bag": "1"}
    ]
    page = client.get(ann, pass_ben.hidden()).content.decode()
    assert "Let Ben&#39;s bag pass?" in page and "This is final" in page
    assert fresh(game).engine_state().phase.decided[1] is None  # a GET decides nothing
    confirm = form_for(page, "pass_bag")
    assert confirm.hidden()["confirm"] == "yes" and confirm.hidden()["bag"] == "1"
    # The button alone (no confirmation) is refused with a clear message.
    unconfirmed = {k: v for k, v in confirm.hidden().items() if k != "confirm"}
    response = post_form(client, ann, confirm, **{"confirm": ""})
    assert messages_of(response) == [
        "Confirm the decision first: it is final. Nothing was decided."
    ]
    assert unconfirmed and fresh(game).engine_state().phase.decided[1] is None
    response = post_form(client, ann, confirm)
    assert messages_of(response)[0].startswith("The bag passes.")
    assert fresh(game).engine_state().phase.decided[1] == "passed"


@pytest.mark.parametrize(
    "query",
    [
        {"decide": "pass", "bag": "1"},  # still locked for bargaining
        {"decide": "burn", "bag": "2"},
        {"decide": "pass", "bag": "0"},  # the Sheriff's own seat
        {"decide": "inspect", "bag": "\x00<script>"},
        {"decide": ["pass", "inspect"], "bag": "99999999999999999999"},
    ],
)
def test_a_confirmation_asked_for_a_bag_that_cannot_be_decided_shows_none(query):
    game = to_inspection(new_game())
    client = Client()
    response = client.get(path_of(game.seats.get(index=0)), query)
    assert response.status_code == 200
    assert "This is final" not in response.content.decode()
    assert not [f for f in forms_of(response.content.decode()) if f.value("confirm") == "yes"]


@pytest.mark.parametrize("timing", [{}, {"deadline_mode": "none"}, {"bargaining_minutes": 0}])
def test_a_deputies_game_says_the_deputies_decide_in_its_pace_line(timing):
    """Issue 31, 6.5: six players have two Deputies and no Sheriff."""
    new_game(SIX, **timing)
    body = mails()["Ann"].body
    assert "The Sheriff" not in body
    assert "The Deputies" in body
