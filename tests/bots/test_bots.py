"""The bots (games/bots): they decide from what their seat may know and nothing
more, every level plays whole games of every shape without an illegal command or
a stalled phase, and a seed replays the same game."""

import hashlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import LEVELS, bot, seen_by
from games.bots.arena import play
from games.engine import GameConfig, State, actions, apply, new_game, view_for

SHAPES = [  # (edition, players, Black Market)
    (1, 3, False), (1, 4, False), (1, 5, False),
    (2, 3, False), (2, 4, True), (2, 5, False), (2, 6, False), (2, 6, True),
]  # fmt: skip


def _seed(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _config(edition: int, players: int, black_market: bool) -> GameConfig:
    return GameConfig.from_dict(
        {"edition": edition, "players": players, "black_market": black_market}
    )


def _hidden_from(state: State, seat: int) -> list:
    """The zones ``seat`` cannot see into: the deck, other seats' hands and bags."""
    zones = ["deck"]
    for other in range(state.players):
        if other != seat:
            zones += [f"hand:{other}", f"bag:{other}"]
    return [z for z in zones if z in state.zones]


def _other_world(state: State, seat: int, rnd: random.Random) -> State:
    """The same game as ``seat`` knows it, with the hidden cards dealt otherwise:
    the cards of the hidden zones shuffled among them, each zone keeping its size."""
    world = State.from_dict(state.to_dict())
    zones = _hidden_from(world, seat)
    cards = [c for z in zones for c in world.zones[z]]
    rnd.shuffle(cards)
    for zone in zones:
        size = len(world.zones[zone])
        world.zones[zone], cards = cards[:size], cards[size:]
    return world


def _positions(shape, seed: str, steps: int):
    """States along a game played by random bots: (state, events) every few steps."""
    state, events = new_game(_config(*shape), seed)
    rnd = random.Random(seed)
    players = [bot("random", random.Random(f"{seed}{s}")) for s in range(state.players)]
    for step in range(steps):
        if state.is_over():
            return
        if step % 7 == 0:
            yield state, list(events)
        waiting = [s for s, a in actions(state).items() if a["moves"]]
        command = None
        if waiting:
            seat = rnd.choice(waiting)
            command = players[seat].decide(seen_by(state, seat, events))
        try:
            state, new = apply(state, command or {"type": "timeout"})
        except Exception:  # a refused random move: the deadline instead
            state, new = apply(state, {"type": "timeout"})
        events += new


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.sampled_from(SHAPES),
    seed=st.integers(0, 10**6),
    level=st.sampled_from(sorted(LEVELS)),
)
def test_a_bot_decides_the_same_in_two_worlds_that_differ_only_in_what_it_cannot_see(
    shape, seed, level
):
    game_seed = _seed(f"worlds{seed}")
    rnd = random.Random(seed)
    compared = 0
    for state, events in _positions(shape, game_seed, 400):
        seat = rnd.randrange(state.players)
        other = _other_world(state, seat, rnd)
        if other.to_dict() == state.to_dict():
            continue
        assert view_for(other, seat) == view_for(state, seat)  # the premise
        here = bot(level, random.Random(f"{seed}")).decide(seen_by(state, seat, events))
        there = bot(level, random.Random(f"{seed}")).decide(seen_by(other, seat, events))
        assert here == there
        compared += 1
    assert compared


@pytest.mark.parametrize("shape", SHAPES)
def test_every_level_plays_whole_games_with_no_illegal_command_nor_stalled_phase(shape):
    levels = sorted(LEVELS)
    for game in range(3):
        seats = [levels[(game + s) % len(levels)] for s in range(shape[1])]
        result = play(_config(*shape), _seed(f"arena{shape}{game}"), seats, checked=True)
        assert result.winners, result.failures
        assert (result.illegal, result.errors, result.stalled) == (0, 0, 0), result.failures
        assert result.failures == []


def test_the_same_seed_plays_the_same_game():
    config, seed = _config(2, 5, True), _seed("replay")
    seats = ["smuggler", "random", "honest", "smuggler", "random"]
    first, second = play(config, seed, seats), play(config, seed, seats)
    assert (first.winners, first.behaviour) == (second.winners, second.behaviour)


def test_a_bot_is_not_a_fixed_function_of_its_view():
    """Its random source gives variety: the same view, different decisions."""
    state, events = new_game(_config(2, 4, False), _seed("variety"))
    seat = next(s for s, a in actions(state).items() if a["must_act"])
    seen = seen_by(state, seat, events)
    decisions = {str(bot("smuggler", random.Random(n)).decide(seen)) for n in range(20)}
    assert len(decisions) > 1


def test_a_level_that_does_not_exist_is_refused_by_name():
    with pytest.raises(ValueError, match="no bot level 'grandmaster'"):
        bot("grandmaster", random.Random(1))
