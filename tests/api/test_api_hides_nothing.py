"""The two-worlds check over the API: what each operation answers a seat is built
from two states that differ only in what that seat cannot see (other hands, bags
before the reveal, the deck's order, the seed), at every step of random games of 3
to 6 seats, both editions, with and without the Black Market, and every seat's
answers are the same in both worlds. The same check catches a leak planted in the
API. Then every operation over HTTP, with every seat's token, in a game played
through the API itself."""

import json
import random
from types import SimpleNamespace
from unittest import mock

import pytest

from games import engine
from games.api import legal_moves, payloads
from games.engine.invariants import hidden_perturbation
from games.models import Game, GameEvent
from games.present.seat_page import SeatView
from tests.api.api_seats import api_game
from tests.api.api_worlds import configs, tables

GAMES = 200
STEPS = 60  # every table of a game's first rounds, then a whole game every tenth
GAME = SimpleNamespace(
    pk=1,
    name="Two worlds",
    status="active",
    paused_at=None,
    phase_deadline=None,
    bargaining_until=None,
)


def answers(state, events: list, seat: int) -> str:
    """Everything the seat operations answer ``seat`` (view, moves, events) for
    ``state``, as the API writes it."""
    names = ["n"] * state.players
    sv = SeatView(SimpleNamespace(index=seat), GAME, state, engine.view_for(state, seat), [], names)
    return json.dumps(
        {
            "seat": payloads.seat_json(sv),
            "moves": legal_moves.listed(state, seat),
            "events": payloads.events_json(state, events, seat),
        },
        sort_keys=True,
        default=str,
    )


def differences(rnd: random.Random, games: int) -> tuple[int, int]:
    """(tables checked, tables whose answers differed between the two worlds)."""
    checked = differ = 0
    for n, config in enumerate(configs(rnd, games)):
        steps = 400 if n % 10 == 0 else STEPS
        for state, events in tables(rnd, config, steps):
            for seat in range(state.players):
                other = hidden_perturbation(state, events, seat, rnd)
                checked += 1
                differ += answers(state, events, seat) != answers(other, events, seat)
    return checked, differ


def test_no_operation_answers_anything_a_seat_may_not_see():
    checked, differ = differences(random.Random(7), GAMES)
    assert differ == 0
    assert checked > 20_000


def test_a_leak_planted_in_the_api_is_caught():
    real = legal_moves.listed

    def leaky(state, seat):  # the next card of the deck, told as a "hint"
        found = real(state, seat)
        found["hint"] = state.type_of(state.zones["deck"][-1]) if state.zones["deck"] else ""
        return found

    with mock.patch.object(legal_moves, "listed", leaky):
        _checked, differ = differences(random.Random(7), 3)
    assert differ > 0


@pytest.mark.django_db
def test_every_operation_over_http_hides_what_its_seat_may_not_see():
    """A game played with the API's own example moves; at each step every seat's
    GET operations answer the same from a state differing in what it cannot see."""
    rnd = random.Random(3)
    game, seats = api_game(players=("Ann", "Ben", "Cid", "Dee", "Eve"), black_market=True)
    for _step in range(40):
        state = Game.objects.get(pk=game.pk).engine_state()
        if state.is_over():
            break
        events = [e.data for e in GameEvent.objects.filter(game=game).order_by("seq")]
        for player in seats:
            other = hidden_perturbation(state, events, player.seat.index, rnd)
            real = [player.get(tail).content for tail in ("", "/moves", "/events", "/talk")]
            with mock.patch.object(Game, "engine_state", lambda self, o=other: o.clone()):
                fake = [player.get(tail).content for tail in ("", "/moves", "/events", "/talk")]
            assert real == fake
        moved = False
        for player in seats:
            listed = player.get("/moves").json()
            chosen = [m for m in listed["moves"] if m["example"] and listed["must_act"]]
            if chosen:
                response = player.command(chosen[0]["example"], listed["version"])
                assert response.status_code in (200, 409), response.content
                moved = True
                break
        assert moved
