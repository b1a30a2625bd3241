"""When the bots at a table next look at it: the time every write to a game with bots
sets (``game_writes.moved_on``) and the bots' turn (games.core.bot_turns) keeps.

A bot answers after a human-like delay: the game's ``bot_seconds``, or a few minutes
in a game with deadlines and a few seconds without one (a practice game), give or
take a third so that the bots do not move in step. It never holds the table up: it
answers within half the time left before the phase's deadline. No bot with anything
to do (games.bots.turns): no time is set, and nothing runs until the table changes.
"""

import random
from datetime import timedelta

from games import engine
from games.bots.turns import awaited_and_optional

WITH_DEADLINES = 180  # seconds: "a few minutes"
WITHOUT_DEADLINES = 4  # seconds: a practice game's bots answer at once, as a person would


def bot_seats(game) -> list:
    return sorted(int(seat) for seat in game.bots)


def asked_this_phase(game, state) -> dict:
    """seat -> how often its bot was asked this phase with nothing it had to do."""
    asks = game.bot_asks or {}
    if asks.get("since") != state.phase.since:
        return {}
    return {int(seat): times for seat, times in asks.get("asked", {}).items()}


def has_turn(game, state) -> bool:
    """Does any bot have a move to make or to consider now?"""
    if state.is_over():
        return False
    awaited, optional = awaited_and_optional(
        engine.actions(state), bot_seats(game), asked_this_phase(game, state)
    )
    return bool(awaited or optional)


def delay(game) -> timedelta:
    if game.bot_seconds is not None:
        seconds = game.bot_seconds
    elif game.deadline_mode == "none":
        seconds = WITHOUT_DEADLINES
    else:
        seconds = WITH_DEADLINES
    return timedelta(seconds=seconds * random.uniform(2 / 3, 4 / 3))


def due_at(game, state, now, deadline):
    """When the bots next look at the table (``deadline``: the phase's, or None)."""
    if not has_turn(game, state):
        return None
    at = now + delay(game)
    if deadline is not None:
        at = min(at, now + max(deadline - now, timedelta(0)) / 2)
    return at


def due_fields(game, state, now, deadline) -> dict:
    """The Game field a write to a game moves with its state (none for a game without bots)."""
    if not game.bots:
        return {}
    return {"bots_due_at": due_at(game, state, now, deadline)}
