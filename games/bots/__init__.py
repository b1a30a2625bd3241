"""Bots that play a seat: pure Python beside the engine, no Django.

    bot(level, rnd).decide(seen_by(state, seat, events)) -> command | None

A bot decides from what its seat may know (games/bots/seen.py) and its own seeded
random source; the levels are in games/bots/levels.py, the arena that plays them
against each other in games/bots/arena.py. See docs/bots.md.
"""

from .levels import LEVELS, bot
from .seen import Seen, seen_by

__all__ = ["LEVELS", "Seen", "bot", "seen_by"]
