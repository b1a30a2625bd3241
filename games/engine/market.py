"""Phase 1, market. 2nd edition: simultaneous set-aside, resolved clockwise from
the Sheriff's left with deck draws, then collected into the discard pile.
1st edition: one turn per merchant with ordered draws from either discard pile
before the deck, the set-aside cards then placed in a chosen order on one pile."""

from . import checks
from .refusals import EngineError
from .table import Run, draw_from_deck, move_cards

DECK = "deck"


def start_market(run: Run) -> bool:
    """2nd edition: the market begins, every merchant at once."""
    run.emit("phase_started", phase="market")
    return True


def start_turn(run: Run) -> bool:
    """1st edition: the first merchant's market turn, or the next one's."""
    state = run.state
    merchants = state.merchants()
    if getattr(state.phase, "kind", None) != "market_turn":  # none before round 1
        seat = merchants[0]
    else:
        seat = merchants[merchants.index(state.phase.seat) + 1]
    run.emit("phase_started", phase="market_turn", seat=seat)
    return True


def turns_left(state) -> bool:
    """1st edition: has a merchant still to take their market turn?"""
    merchants = state.merchants()
    return merchants.index(state.phase.seat) + 1 < len(merchants)


# --- 2nd edition --------------------------------------------------------------------


def set_aside(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "market")
    seat = checks.require_seat(state, command)
    checks.require_merchant(state, seat)
    if state.phase.pending[seat] is not None:
        raise EngineError(
            "already_submitted", "You have already made your market choice.", detail="market"
        )
    cards = checks.card_list(command)
    if len(cards) > checks.MAX_SET_ASIDE:
        raise EngineError("too_many_set_aside", "You can set aside at most 5 cards.")
    checks.require_in_hand(state, seat, cards)

    run.emit("set_aside_submitted", seat=seat, cards=cards)
    if all(run.state.phase.pending[m] is not None for m in run.state.merchants()):
        run.phase_complete()


def resolve_market(run: Run) -> None:
    """Every choice is in: exchanges clockwise from the Sheriff's left, then collection."""
    merchants = run.state.merchants()
    for seat in merchants:
        cards = run.state.phase.pending[seat]
        move_cards(run, cards, f"hand:{seat}", f"aside:{seat}", "set_aside")
        draw_from_deck(run, seat, len(cards), "market_draw")
    # Collected only now, so these cards cannot come back in this market's reshuffles.
    for seat in merchants:
        move_cards(run, run.state.zones[f"aside:{seat}"], f"aside:{seat}", "discard:0", "discard")


# --- 1st edition --------------------------------------------------------------------


def _parse_draws(state, command: dict, count: int) -> list:
    draws = command.get("draws")
    if draws is None:
        return [DECK] * count
    piles = [f"discard:{p}" for p in range(state.config.discard_pile_count)]
    if not isinstance(draws, list) or any(d not in (DECK, *piles) for d in draws):
        raise EngineError(
            "bad_command", "Each draw must be 'deck', 'discard:0' or 'discard:1'.", detail="draws"
        )
    if len(draws) != count:
        raise EngineError(
            "draw_count_mismatch",
            "You must take back exactly as many cards as you set aside (%(count)s).",
            count=count,
        )
    if DECK in draws and any(d != DECK for d in draws[draws.index(DECK) :]):
        raise EngineError(
            "discard_after_deck",
            "Draw from the discard piles first: no discard-pile draw after a deck draw.",
        )
    for pile in piles:
        if draws.count(pile) > len(state.zones[pile]):
            raise EngineError("empty_pile", "That discard pile does not have that many cards.")
    return draws


def market_turn(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "market_turn")
    seat = checks.require_seat(state, command)
    if seat != state.phase.seat or state.phase.done:
        raise EngineError("not_your_turn", "It is not your market turn.")
    cards = checks.card_list(command)
    if len(cards) > checks.MAX_SET_ASIDE:
        raise EngineError("too_many_set_aside", "You can set aside at most 5 cards.")
    checks.require_in_hand(state, seat, cards)
    draws = _parse_draws(state, command, len(cards))
    order = checks.card_list(command, "order") if "order" in command else list(cards)
    if sorted(order) != sorted(cards):
        raise EngineError(
            "bad_order",
            "The discard order must list exactly the cards set aside.",
            detail="discard",
        )
    pile = checks.discard_pile(state, command.get("pile", 0 if not cards else None), "set_aside")

    hand, aside = f"hand:{seat}", f"aside:{seat}"
    move_cards(run, cards, hand, aside, "set_aside")
    from_piles = [d for d in draws if d != DECK]
    for source in from_piles:  # one at a time, each from the current top
        move_cards(run, [run.state.zones[source][-1]], source, hand, "discard_draw")
    deck_drawn = draw_from_deck(run, seat, len(draws) - len(from_piles), "market_draw")
    move_cards(run, order, aside, f"discard:{pile}", "discard")  # last listed ends on top
    run.emit(
        "market_turn_taken",
        seat=seat,
        set_aside=len(cards),
        discard_draws=from_piles,
        deck_draws=deck_drawn,
        pile=pile if cards else None,
    )
    run.phase_complete()


# --- who is awaited, with what; the missed-move defaults -------------------------------


def actions(state, result: dict) -> None:
    """2nd edition: every merchant who has not chosen yet sets aside up to 5 cards."""
    for seat in state.merchants():
        if state.phase.pending[seat] is None:
            result[seat] = {
                "must_act": True,
                "moves": [{"type": "set_aside", "max_cards": checks.MAX_SET_ASIDE}],
            }


def default_commands(state) -> list:
    """Missed deadline: nothing set aside."""
    return [
        {"type": "set_aside", "seat": m, "cards": []}
        for m in state.merchants()
        if state.phase.pending[m] is None
    ]


def turn_actions(state, result: dict) -> None:
    """1st edition: the merchant whose turn it is, with the discard piles' sizes."""
    phase = state.phase
    if phase.done:
        return
    piles = {
        f"discard:{p}": len(state.zones[f"discard:{p}"])
        for p in range(state.config.discard_pile_count)
    }
    result[phase.seat] = {
        "must_act": True,
        "moves": [
            {"type": "market_turn", "max_cards": checks.MAX_SET_ASIDE, "discard_piles": piles}
        ],
    }


def turn_default_commands(state) -> list:
    """Missed deadline: the turn passes with nothing set aside."""
    if state.phase.done:
        return []
    return [{"type": "market_turn", "seat": state.phase.seat, "cards": []}]
