"""The legal-moves operation against the engine, over random games: it never lists a
command the engine refuses (every example is accepted as it is), and never leaves
out a kind the engine accepts from that seat now."""

import random

from games import engine
from games.api import legal_moves
from games.engine.self_play import RandomPlayers
from tests.api.api_worlds import configs, tables

GAMES = 60


def accepted(state, command: dict) -> bool:
    try:
        engine.apply(state, command)
    except engine.EngineError:
        return False
    return True


def test_the_moves_listed_are_exactly_those_the_engine_accepts():
    rnd = random.Random(41)
    players = RandomPlayers(random.Random(42), every_choice=True)
    checked = {"examples": 0, "tries": 0}
    kinds_seen = set()
    for config in configs(rnd, GAMES):
        for state, _events in tables(rnd, config, steps=400):
            if state.is_over():
                break
            actions = engine.actions(state)
            for seat in range(state.players):
                listed = legal_moves.listed(state, seat)
                kinds = {move["type"] for move in listed["moves"]}
                assert kinds >= {m["type"] for m in actions[seat]["moves"]}
                assert listed["must_act"] == actions[seat]["must_act"]
                for move in listed["moves"]:
                    if move["example"] is not None:
                        command = {**move["example"], "seat": seat}
                        assert accepted(state, command), (move, state.phase.kind)
                        checked["examples"] += 1
                        kinds_seen.add(move["type"])
                # Commands random players choose: any the engine accepts is of a listed kind.
                for move in actions[seat]["moves"]:
                    command = getattr(players, move["type"])(state, seat, move)
                    checked["tries"] += 1
                    if accepted(state, command):
                        assert command["type"] in kinds
                # A kind of command this seat may not make now is refused whatever it says.
                for kind in set(engine.COMMANDS) - kinds - {"timeout", "note"}:
                    assert not accepted(state, {"type": kind, "seat": seat}), kind
    assert checked["examples"] > 5000 and checked["tries"] > 5000
    assert kinds_seen >= {"set_aside", "load_bag", "pass_bag", "inspect_bag", "say_no_offer"}
