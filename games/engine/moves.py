"""Who must act now, and what each seat may do: one function for the service,
the pages and the simulator."""

from . import black_market, inspection, loading
from .checks import MAX_BAG, MAX_SET_ASIDE
from .state import State


def actions(state: State) -> dict:
    """seat -> {"must_act": bool, "moves": [move descriptions]} for every seat.

    ``must_act`` seats are the ones the phase waits for (a deadline applies the
    defaults to them); other seats may still have optional moves (offers)."""
    result = {seat: {"must_act": False, "moves": []} for seat in range(state.players)}
    if state.is_over():
        return result
    phase = state.phase
    if phase.kind == "market":
        for seat in state.merchants():
            if phase.pending[seat] is None:
                result[seat] = {
                    "must_act": True,
                    "moves": [{"type": "set_aside", "max_cards": MAX_SET_ASIDE}],
                }
    elif phase.kind == "market_turn" and not phase.done:
        piles = {
            f"discard:{p}": len(state.zones[f"discard:{p}"])
            for p in range(state.config.discard_pile_count)
        }
        result[phase.seat] = {
            "must_act": True,
            "moves": [{"type": "market_turn", "max_cards": MAX_SET_ASIDE, "discard_piles": piles}],
        }
    elif phase.kind == "load":
        for seat in loading.awaited(state):
            result[seat] = {
                "must_act": True,
                "moves": [{"type": "load_bag", "min_cards": 1, "max_cards": MAX_BAG}],
            }
    elif phase.kind == "inspection":
        _inspection_actions(state, result)
        _black_market_actions(state, result)
    elif phase.kind == "black_market":
        for seat in black_market.awaited(state):
            result[seat] = {"must_act": True, "moves": _claim_moves(state, seat)}
    return result


def _claim_moves(state: State, seat: int) -> list:
    kinds = black_market.claimable(state, seat)  # from the seat's own stand: only it sees them
    claim = [{"type": "claim_black_market", "kinds": kinds}] if kinds else []
    return [*claim, {"type": "decline_black_market"}]


def _black_market_actions(state: State, result: dict) -> None:
    """During the inspection: claims for merchants whose bag is resolved (optional)."""
    if not state.config.black_market:
        return
    for seat in state.merchants():
        if black_market.may_still_claim(state, seat):
            result[seat]["moves"] += _claim_moves(state, seat)
        elif black_market.may_answer_ahead(state, seat):  # spares the table a wait later
            result[seat]["moves"].append({"type": "decline_black_market", "ahead": True})


def _inspection_actions(state: State, result: dict) -> None:
    bags = inspection.undecided(state)
    if not bags:
        return
    open_offers = [o for o in state.phase.offers.values() if o["status"] == "open"]
    waiting = inspection.waiting_to_speak(state)
    deputies = state.config.deputies
    for seat in range(state.players):
        moves = []
        mine = inspection.to_decide(state, seat)
        may_offer = inspection.offer_moves_left(state, seat) > 0
        if state.is_inspector(seat):
            decidable = [b for b in mine if b not in waiting]
            if decidable:
                moves += [
                    {"type": "pass_bag", "bags": decidable},
                    {"type": "inspect_bag", "bags": decidable},
                ]
            if mine and may_offer:
                offer = {"type": "make_offer", "to": state.merchants()}
                if deputies:  # a demand for themself, or for both Deputies
                    offer["joint"] = all(inspection.to_decide(state, d) for d in state.deputies)
                moves.append(offer)
        else:
            to = [d for d in state.inspectors() if inspection.to_decide(state, d)]
            if deputies and len(to) == 2:
                to.append(inspection.DEPUTIES)
            if to and may_offer:
                moves.append({"type": "make_offer", "to": to})
            if seat in waiting:
                moves.append({"type": "say_no_offer"})
        acceptable = [
            {"offer": o["id"], "revision": o["revision"]}
            for o in open_offers
            if seat in inspection.acceptors(state, o) and seat not in o.get("accepted", [])
        ]
        if acceptable:
            moves.append({"type": "accept_offer", "offers": acceptable})
            moves.append({"type": "refuse_offer", "offers": [a["offer"] for a in acceptable]})
        own = [o["id"] for o in open_offers if o["proposer"] == seat]
        if own and may_offer:
            moves.append({"type": "revise_offer", "offers": own})
        if own:
            moves.append({"type": "withdraw_offer", "offers": own})
        result[seat] = {"must_act": bool(mine), "moves": moves}


def awaiting(state: State) -> list:
    """The seats the current phase waits for."""
    return [seat for seat, a in actions(state).items() if a["must_act"]]
