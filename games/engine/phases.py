"""Moving from one phase to the next.

A phase is *complete* when no seat is awaited any more. By default the engine
then advances at once, in the same command. A game whose organizer wants every
phase to last until its deadline applies commands with ``auto_advance=False``:
the complete phase then waits, and the ``timeout`` command at the deadline
advances it (after applying the missed-move defaults, if any seat is awaited).
"""

from . import black_market, inspection, loading, market
from .table import Run


def complete(run: Run) -> None:
    """Called by the rules when the last awaited move of a phase is in."""
    if run.auto_advance:
        advance(run)


def advance(run: Run) -> None:
    """Leave the current, complete phase for the next one."""
    kind = run.state.phase.kind
    if kind == "market":
        market.resolve_market(run)
    elif kind == "market_turn":
        market.next_market_turn(run)
    elif kind == "load":
        loading.reveal(run)
    elif kind == "inspection":
        inspection.close(run)
    elif kind == "black_market":
        black_market.resolve(run)
    else:
        raise ValueError(f"no phase follows {kind!r}")
