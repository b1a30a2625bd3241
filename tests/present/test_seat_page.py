"""The seat's view that the page, the emails, a reply's move and the API read
(games.present.seat_page), and the log read a batch at a time beneath them
(selectors.events_in_batches)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.core import controls, selectors, timers
from games.models import Game, GameEvent
from games.present.seat_page import seat_view
from games.words import user_text
from tests.support.fixtures_pages import NAMES, fresh, start_game

pytestmark = pytest.mark.django_db


def test_a_seat_sees_its_own_view_of_the_table_with_the_names_in_seat_order():
    game = start_game()
    seat = game.seats.get(index=1)
    seen = seat_view(seat)
    assert seen.view == engine.view_for(game.engine_state(), 1)
    assert seen.names == user_text.names(NAMES)
    assert [s.index for s in seen.seats] == list(range(len(NAMES)))
    assert seen.version == seen.view["phase"]["since"]
    assert not seen.halted


def test_a_running_game_has_its_deadline_and_a_paused_one_none():
    game = start_game()
    when = timezone.now() + timedelta(days=1)
    Game.objects.filter(pk=game.pk).update(phase_deadline=when, bargaining_until=when)
    game = fresh(game)
    seen = seat_view(game.seats.get(index=0), game=game)
    assert not seen.halted and seen.deadline == when == seen.bargaining_until
    paused = controls.pause(game.pk, expected_version=game.version)
    seen = seat_view(paused.seats.get(index=0), game=fresh(game))
    assert seen.halted and seen.deadline is None and seen.bargaining_until is None


def test_what_the_caller_read_already_is_not_read_again(django_assert_num_queries):
    game = start_game()
    seats = selectors.seats_of(game)
    state = game.engine_state()
    with django_assert_num_queries(0):
        seen = seat_view(seats[2], seats=seats, state=state)
    assert seen.view == engine.view_for(state, 2) and seen.seats is seats


@pytest.mark.parametrize("newest_first", [False, True])
def test_the_log_read_in_batches_is_every_event_in_order(monkeypatch, newest_first):
    game = start_game()
    for _ in range(3):
        timers.advance(game.pk, force=True)
    monkeypatch.setattr(selectors, "EVENTS_BATCH", 3)
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert len(seqs) > 2 * 3 + 1, seqs  # several batches, the last one short or empty
    every = seqs[::-1] if newest_first else seqs
    read = selectors.events_in_batches(game.pk, newest_first=newest_first)
    assert [e["seq"] for e in read] == every
    middle = seqs[len(seqs) // 2]  # after it: newer (oldest first), or older (newest first)
    past = [s for s in every if (s < middle if newest_first else s > middle)]
    read = selectors.events_in_batches(game.pk, newest_first=newest_first, after=middle)
    assert [e["seq"] for e in read] == past
    # The API's "events since N": everything after N, oldest first.
    since = selectors.events_in_batches(game.pk, newest_first=False, after=seqs[-2])
    assert [e["seq"] for e in since] == seqs[-1:]


def test_the_round_an_event_falls_in():
    game = start_game()
    for _ in range(4):  # into the second round
        timers.advance(game.pk, force=True)
    events = GameEvent.objects.filter(game=game).order_by("seq")
    started = {e.data["round"]: e.seq for e in events if e.type == "round_started"}
    first = events.first().seq
    assert selectors.round_at(game.pk, first) == (1 if started[1] == first else 0)
    assert selectors.round_at(game.pk, started[2] - 1) == 1
    assert selectors.round_at(game.pk, started[2]) == 2
