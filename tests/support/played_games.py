"""Whole games played to the end through the site's own move path, by players who
write what their emails list (tests/support/reply_players.py): offers, deals,
lies and inspections, so that a finished game has something to reveal."""

import itertools
import random

from games import engine
from games.core import moves, timers
from games.models import Game, Seat
from games.present import reply_commands
from tests.support.fixtures_pages import fresh
from tests.support.reply_players import next_reply

KEYS = itertools.count(1)


def play_to_the_end(
    game: Game, rnd: random.Random | None = None, limit: int = 1500, before_each=None
) -> Game:
    """``before_each(seats, rnd)``: called before each move (a test's table talk)."""
    rnd = rnd or random.Random(5)
    seats = {s.index: s for s in Seat.objects.filter(game=game)}
    names = [seats[i].name for i in sorted(seats)]
    for _step in range(limit):
        current = fresh(game)
        if current.status != Game.Status.ACTIVE:
            return current
        state = current.engine_state()
        if before_each is not None:
            before_each(seats, rnd)
        chosen = next_reply(state, names, rnd)
        if chosen is None:  # the bargaining time ends
            timers.advance(game.pk, force=True)
            continue
        index, text = chosen
        view = engine.view_for(state, index)
        command = reply_commands.read(text, view, names)
        outcome = moves.submit(
            seats[index], command, version=view["phase"]["since"], key=f"played{next(KEYS)}"
        )
        assert outcome.accepted, (text, outcome.code)
    raise AssertionError("the game did not end")
