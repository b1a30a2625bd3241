"""When the bots at a table next look at it: the time every write to a game with bots
sets (``game_writes.moved_on``) and the bots' turn (games.core.bot_turns) keeps.

A bot answers after a human-like delay: the game's ``bot_seconds``, or a few minutes
in a game with deadlines and a few seconds without one (a practice game), give or
take a third so that the bots do not move in step. It never holds the table up: it
answers within half the time left before the phase's deadline. No bot with anything
to do (games.bots.turns): no time is set, and nothing runs until the table changes.
"""

import random
from dataclasses import dataclass, field
from datetime import timedelta

from games import engine
from games.bots.turns import awaited_and_optional

WITH_DEADLINES = 180  # seconds: "a few minutes"
WITHOUT_DEADLINES = 4  # seconds: a practice game's bots answer at once, as a person would


def bot_seats(game) -> list:
    return sorted(int(seat) for seat in game.bots)


@dataclass
class Asks:
    """What the bots were asked this phase with nothing they had to do: how many
    optional moves each made (at most OPTIONAL_MOVES a phase), and the table's
    version when each last chose to wait (not asked again until the table changes:
    an offer made to it, say). Kept on the game's row (``Game.bot_asks``)."""

    since: int
    acted: dict = field(default_factory=dict)  # seat -> optional moves made
    waited: dict = field(default_factory=dict)  # seat -> the version it waited at

    @classmethod
    def of(cls, game, state) -> "Asks":
        kept = game.bot_asks or {}
        if kept.get("since") != state.phase.since:
            return cls(state.phase.since)
        acted, waited = kept.get("acted", {}), kept.get("waited", {})
        return cls(
            state.phase.since,
            {int(seat): n for seat, n in acted.items()},
            {int(seat): version for seat, version in waited.items()},
        )

    def stored(self) -> dict:
        """As JSON keeps it (seat numbers as text)."""
        return {
            "since": self.since,
            "acted": {str(seat): n for seat, n in self.acted.items()},
            "waited": {str(seat): version for seat, version in self.waited.items()},
        }


def to_ask(game, state) -> tuple[list, list]:
    """The bot seats to ask now: those the phase waits for, and those with an optional
    move left this phase that did not choose to wait at this very table."""
    asks = Asks.of(game, state)
    awaited, optional = awaited_and_optional(engine.actions(state), bot_seats(game), asks.acted)
    return awaited, [seat for seat in optional if asks.waited.get(seat) != state.seq]


def has_turn(game, state) -> bool:
    """Does any bot have a move to make or to consider now?"""
    return not state.is_over() and any(to_ask(game, state))


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
    if game.status != "active":  # cancelled with this write: no more turns
        return {"bots_due_at": None}
    return {"bots_due_at": due_at(game, state, now, deadline)}
