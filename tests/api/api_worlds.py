"""Random whole games at the engine's level, for the API's property tests: every
table a game passes through, with the events so far."""

import random
from collections.abc import Iterator

from games import engine
from games.engine.self_play import RandomPlayers


def configs(rnd: random.Random, count: int) -> list:
    """``count`` games of 3 to 6 players, both editions, the Black Market on and off."""
    found = []
    for n in range(count):
        edition = 1 + n % 2
        players = rnd.randint(3, 6 if edition == 2 else 5)  # six: the 2nd edition's Deputies
        black_market = edition == 2 and rnd.random() < 0.5
        found.append({"players": players, "edition": edition, "black_market": black_market})
    return found


def tables(rnd: random.Random, config: dict, steps: int) -> Iterator[tuple]:
    """(state, events) at the start and after each command of a random game (a refused
    command, or a table where nobody can act, moves on by the deadline's timeout)."""
    players = RandomPlayers(rnd)
    state, events = engine.new_game(config, rnd.randbytes(32).hex())
    yield state, events
    for _ in range(steps):
        if state.is_over():
            return
        actions = engine.actions(state)
        seats = [s for s, a in actions.items() if a["moves"]]
        command = {"type": "timeout"}
        if seats:
            seat = rnd.choice(seats)
            move = rnd.choice(actions[seat]["moves"])
            command = getattr(players, move["type"])(state, seat, move)
        try:
            state, new = engine.apply(state, command)
        except engine.EngineError:
            state, new = engine.apply(state, {"type": "timeout"})
        events = events + new
        yield state, events
