"""What makes ``apply`` fast must not change what it does: its working copy shares
the phase's deeper values (an offer's terms) with the state it was given, which must
stay as it was; ``clone`` still shares nothing; ``json_copy`` gives exactly what the
JSON round trip it replaces gave."""

import enum
import json
import random

import pytest

from games.engine import events
from games.engine.config import GameConfig
from games.engine.game import apply, new_game
from games.engine.refusals import EngineError
from games.engine.self_play import RandomPlayers, play_game
from games.engine.state import json_copy


class Kind(enum.IntEnum):
    ONE = 1


class Text(str):
    pass


@pytest.mark.parametrize(
    "data",
    [
        {"a": (1, [2, (3,)]), "b": {"c": [None, True, 1.5, "x"]}},
        {1: "int key", "s": {2: [3]}},
        {"kind": Kind.ONE, "text": Text("promise")},
        [Text("x"), Kind.ONE, (), {}],
        "plain",
        7,
        None,
    ],
)
def test_json_copy_is_the_json_round_trip(data):
    expected = json.loads(json.dumps(data))
    copied = json_copy(data)
    assert copied == expected
    assert json.dumps(copied) == json.dumps(expected)
    assert repr(copied) == repr(expected)  # same types too: lists, str keys, plain str


def test_json_copy_refuses_what_json_refuses():
    with pytest.raises(TypeError):
        json_copy({"cards": {1, 2}})


def _random_states(seed: int, players: int = 5):
    """Every state of a random game, with the command that left it."""
    rnd = random.Random(seed)
    state, _ = new_game(GameConfig(players=players), f"{seed:064x}")
    agent = RandomPlayers(rnd, every_choice=True)
    while not state.is_over():
        command = agent.command(state)
        try:
            following, _ = apply(state, command)
        except EngineError:
            continue
        yield state, command, following
        state = following


def test_apply_leaves_every_earlier_state_as_it_was():
    kept = []  # every state of the game, with its JSON when it was made
    for state, _, following in _random_states(11):
        kept.append((state, state.to_json()))
        assert following is not state
    assert all(state.to_json() == text for state, text in kept)


def test_a_clone_shares_nothing_with_its_original():
    state = next(
        s for s, _, _ in _random_states(12) if s.phase.kind == "inspection" and s.phase.offers
    )
    before = state.to_json()
    other = state.clone()
    for offer in other.phase.offers.values():
        offer["terms"]["gold"] += 1
        offer["terms"]["sheriff"].append({"bag": 0, "action": "pass"})
    other.zones["deck"].append(-1)
    assert state.to_json() == before


def test_the_simulator_catches_a_handler_that_changes_shared_values(monkeypatch):
    def revised_in_place(state, event):  # the mistake: terms changed where they lie
        offer = state.phase.offers[str(event["offer"])]
        offer["revision"] = event["revision"]
        offer["terms"].update(json_copy(event["terms"]))

    monkeypatch.setitem(events._HANDLERS, "offer_revised", revised_in_place)
    result = play_game(GameConfig(players=5), "ab" * 32, random.Random(3), deep_every=50)
    assert any("changed the state it was given" in f for f in result["failures"])
