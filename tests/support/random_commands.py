"""Commands the fault drill's random players make over whole random games, and the
POST a browser would send for a form's fields: the tests that read every kind of
command's page form back (the drill's and the move registry's) share them."""

import random
from collections.abc import Iterator

from django.http import QueryDict

from games import engine
from games.engine.self_play import RandomPlayers
from tests.support.builders import start


def random_commands(rnd: random.Random, games: list[dict], steps: int) -> Iterator[tuple]:
    """(state, command) for each command random players choose, ``steps`` at most a
    game, one game for each set of ``start`` options in ``games``. A refused command
    (or a phase nobody can act in) moves on by the deadline's ``timeout``."""
    players = RandomPlayers(rnd)
    for options in games:
        state = start(**options)
        for _ in range(steps):
            if state.is_over():
                break
            actions = engine.actions(state)
            seats = [s for s, a in actions.items() if a["moves"]]
            if not seats:
                state, _ = engine.apply(state, {"type": "timeout"})
                continue
            seat = rnd.choice(seats)
            move = rnd.choice(actions[seat]["moves"])
            command = getattr(players, move["type"])(state, seat, move)
            yield state, command
            try:
                state, _ = engine.apply(state, command)
            except engine.EngineError:
                state, _ = engine.apply(state, {"type": "timeout"})


def as_post(fields: dict) -> QueryDict:
    post = QueryDict(mutable=True)
    for name, value in fields.items():
        post.setlist(name, value if isinstance(value, list) else [value])
    return post
