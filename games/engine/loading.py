"""Phases 2-3, load the bag and declare: one sealed submission per merchant,
revealed together when every bag is in."""

from . import checks
from .cards import LEGAL_TYPES, card
from .refusals import EngineError
from .table import Run, move_cards


def start_load(run: Run) -> bool:
    run.emit("phase_started", phase="load")
    if not awaited(run.state):  # nobody holds a card to load
        run.phase_complete()
    return True


def awaited(state) -> list:
    """Merchants still to load, clockwise. A merchant with an empty hand (the
    deck ran dry) has nothing to load and is not waited for."""
    return [m for m in state.merchants() if state.phase.declarations[m] is None and state.hand(m)]


def load_bag(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "load")
    seat = checks.require_seat(state, command)
    checks.require_merchant(state, seat)
    if state.phase.declarations[seat] is not None:
        raise EngineError("already_submitted", "Your bag is already closed.", detail="bag")
    cards = checks.card_list(command)
    if not checks.MIN_BAG <= len(cards) <= checks.MAX_BAG:
        raise EngineError("bag_size", "Your bag must hold 1 to 5 cards.")
    checks.require_in_hand(state, seat, cards)
    declared = command.get("declared")
    if declared not in LEGAL_TYPES:
        raise EngineError(
            "declared_not_legal",
            "Declare exactly one kind of legal goods: apples, cheese, bread or chicken.",
        )
    count = command.get("count")
    if not checks.is_int(count) or count != len(cards):
        raise EngineError(
            "count_mismatch",
            "Your declaration must state the exact number of cards in your bag (%(count)s).",
            count=len(cards),
        )

    move_cards(run, cards, f"hand:{seat}", f"bag:{seat}", "load")
    run.emit("bag_loaded", seat=seat, declared=declared, count=count)
    if not awaited(run.state):
        run.phase_complete()


def actions(state, result: dict) -> None:
    """Every merchant still to load closes a bag of 1 to 5 cards."""
    for seat in awaited(state):
        result[seat] = {
            "must_act": True,
            "moves": [{"type": "load_bag", "min_cards": 1, "max_cards": checks.MAX_BAG}],
        }


def default_commands(state) -> list:
    return [default_load(state, m) for m in awaited(state)]


def default_load(state, seat: int) -> dict:
    """Missed deadline: the legal type held most (ties: higher value), up to 5 of
    it, declared truthfully; with no legal card, the single lowest-penalty card
    (ties: lower value, then lower id) declared as apples."""
    hand = state.hand(seat)
    by_type: dict[str, list] = {}
    for card_id in sorted(hand):
        by_type.setdefault(state.type_of(card_id), []).append(card_id)
    legal = [t for t in by_type if card(t).is_legal]
    if legal:
        best = max(legal, key=lambda t: (len(by_type[t]), card(t).value, -LEGAL_TYPES.index(t)))
        cards = by_type[best][:5]
        return {
            "type": "load_bag",
            "seat": seat,
            "cards": cards,
            "declared": best,
            "count": len(cards),
        }
    cheapest = min(
        hand, key=lambda c: (card(state.type_of(c)).penalty, card(state.type_of(c)).value, c)
    )
    return {"type": "load_bag", "seat": seat, "cards": [cheapest], "declared": "apples", "count": 1}
