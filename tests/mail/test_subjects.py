"""Subjects a player tells apart in the inbox list: after "Your move" or "News",
each kind of email says what it is (a reminder, an offer, a demand, a reply not
used, a pause, an extension, a replacement...), in English and in Spanish, while
the threading headers stay those of the round's conversation."""

import itertools

import pytest
from django.utils import translation

from games.core import moves, timers
from games.mail import emails, threads
from games.models import Seat
from games.words import i18n
from tests.support.fixtures_pages import fresh, start_game

pytestmark = pytest.mark.django_db

# The kinds of the finding, each rendered for the same seat in the same phase.
TOLD_APART = (
    "reminder",
    "offer",
    "reply_refused",
    "paused",
    "extended",
    "welcome",
    "resend",
    "digest",
    "talk",
    "reply_done",
    "reply_moved",
)


def rendered(game, index: int, kind: str, key: str) -> dict:
    seat = Seat.objects.get(game=game, index=index)
    with i18n.as_seat(seat):
        return emails.render(fresh(game), seat, fresh(game).engine_state(), kind, key)


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_kind_has_words_of_its_own(language):
    with translation.override(language):
        words = [threads.subject_words(kind) for kind in threads.SUBJECT_WORDS]
    assert all(words) and len(set(words)) == len(words)


def test_each_kind_of_email_has_its_own_subject_and_the_same_threading():
    game = start_game()
    subjects, roots = {}, {}
    for number, kind in enumerate(TOLD_APART):
        email = rendered(game, 1, kind, f"g{game.pk}:s1:cause{number}")
        subjects[kind] = email["subject"]
        roots[kind] = (email["headers"]["In-Reply-To"], email["headers"]["References"])
    for one, other in itertools.combinations(TOLD_APART, 2):
        assert subjects[one] != subjects[other], (one, other)
    assert subjects["reminder"] == "Your move — reminder: Pages test, round 1"
    assert subjects["paused"].startswith("Your move — game paused: ")
    # Ben is awaited in round 1: each is in his "your move" conversation of the round,
    # but the talk, which asks nothing, in the round's news (as before).
    move = f"<{game.thread_token}.s1.r1.move@{threads.domain()}>"
    news = f"<{game.thread_token}.s1.r1.news@{threads.domain()}>"
    assert roots == {kind: (news, news) if kind == "talk" else (move, move) for kind in TOLD_APART}


def test_a_replaced_player_is_told_so_in_the_subject():
    game = start_game()
    seat = Seat.objects.get(game=game, index=2)
    email = emails.render_replaced(game, seat, f"g{game.pk}:replaced:s2:v1")
    assert email["subject"] == "News — you were replaced: Pages test, round 1"
    root = f"<{game.thread_token}.s2.r1.news@{threads.domain()}>"
    assert email["headers"]["In-Reply-To"] == email["headers"]["References"] == root


def test_two_moves_asked_one_after_the_other_do_not_look_alike():
    """The market's email and, a moment later, the loading's: same seat, same round."""
    game = start_game()
    market = rendered(game, 1, "your_move", f"g{game.pk}:s1:phase1")["subject"]
    timers.advance(game.pk, force=True)  # the market's deadline: the loading starts
    assert fresh(game).engine_state().phase.kind == "load"
    load = rendered(game, 1, "your_move", f"g{game.pk}:s1:phase9")["subject"]
    assert market == "Your move — the market: Pages test, round 1"
    assert load == "Your move — the loading: Pages test, round 1"


def test_a_black_market_claim_is_named_as_such():
    assert threads.subject_words("your_move", "inspection", "claim12") == "a Black Market claim"
    assert threads.subject_words("your_move", "inspection", "phase12") == "the inspection"


def test_subjects_in_spanish():
    game = start_game()
    Seat.objects.filter(game=game, index=1).update(language="es")
    email = rendered(game, 1, "reminder", f"g{game.pk}:s1:remind1")
    assert email["subject"] == "Te toca — recordatorio: Pages test, ronda 1"


def test_a_demand_is_titled_as_a_demand_and_its_terms_come_before_the_hand():
    game = start_game()
    timers.advance(game.pk, force=True)
    timers.advance(game.pk, force=True)
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"  # Ann is the Sheriff
    terms = {"gold": 2, "sheriff": [{"bag": 1, "action": "pass"}]}
    ann = game.seats.get(index=0)
    since = game.engine_state().phase.since
    command = {"type": "make_offer", "to": 1, "terms": terms}
    assert moves.submit(ann, command, version=since, key="demand").accepted
    email = rendered(game, 1, "offer", f"g{game.pk}:s1:demand9")
    assert email["subject"] == "Your move — a demand: Pages test, round 1"
    assert email["text"].startswith("A demand awaits your answer")
    html = email["html"]
    assert "Offers that concern you" not in html
    assert html.index("Demand #1: Ann demands") < html.index("Hand:")
