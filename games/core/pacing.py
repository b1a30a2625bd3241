"""How fast one seat may move: a token bucket per seat.

A seat holds up to ``MOVES_BURST`` moves and earns one back every
``MOVES_REFILL_SECONDS``: any real turn, bargaining included, fits, while a
seat posting in a loop is refused with the time to wait. Every move that
reaches the game counts, a refused one too (each costs the table a lock and a
page); a repeated form does not (it is answered from its first outcome).
"""

import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils.translation import ngettext


@dataclass(frozen=True)
class Allowance:
    moves: float  # moves the seat may make now (fractions are earned time)
    at: datetime | None  # when ``moves`` was counted (None: never moved, a full bucket)


@dataclass(frozen=True)
class Bucket:
    """How many at once (``burst``), and the seconds that earn one back."""

    burst: int
    refill_seconds: float


def moves_bucket() -> Bucket:
    return Bucket(settings.MOVES_BURST, settings.MOVES_REFILL_SECONDS)


def available(allowance: Allowance, now: datetime, bucket: Bucket | None = None) -> float:
    bucket = bucket or moves_bucket()
    if allowance.at is None:
        return float(bucket.burst)
    earned = max(0.0, (now - allowance.at).total_seconds()) / bucket.refill_seconds
    return min(float(bucket.burst), allowance.moves + earned)


def take(
    allowance: Allowance, now: datetime, bucket: Bucket | None = None
) -> tuple[Allowance | None, int]:
    """(the allowance after one move, 0), or (None, seconds to wait) when none is left.
    ``bucket``: the moves' unless said (table talk has its own)."""
    bucket = bucket or moves_bucket()
    moves = available(allowance, now, bucket)
    if moves >= 1:
        return Allowance(moves - 1, now), 0
    return None, math.ceil((1 - moves) * bucket.refill_seconds)


def of_seat(allowances: dict, seat: int) -> Allowance:
    """A seat's allowance as the game's row keeps it (``Game.move_allowances``)."""
    moves, at = allowances.get(str(seat), (0.0, None))
    return Allowance(moves, datetime.fromisoformat(at) if at else None)


def with_seat(allowances: dict, seat: int, allowance: Allowance) -> dict:
    """The game's allowances with this seat's replaced (a new dict)."""
    return {**allowances, str(seat): [allowance.moves, allowance.at.isoformat()]}


def too_fast_message(wait: int) -> str:
    return ngettext(
        "Too many moves in a short time: nothing was done. Try again in %(count)s second.",
        "Too many moves in a short time: nothing was done. Try again in %(count)s seconds.",
        wait,
    ) % {"count": wait}
