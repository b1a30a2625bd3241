"""Phase 4, inspection: public negotiation, binding deals, pass or inspect.

This module holds what the offers (offers.py) and the decisions (decisions.py)
both read, the phase's start and close, and who may do what in it.

Six players (2nd edition): two Deputies instead of the Sheriff. Each Deputy
*calls* each bag, "pass" or "inspect"; a bag is decided once both have called:
both pass, it passes; both inspect, they inspect it together (an honest merchant
is paid half the penalties by each, a liar's fine goes to the Booty); one
inspects, that Deputy inspects it alone and pays or receives alone. An offer
binds one Deputy (paid to them) or both (to the Booty; every party must accept).

An offer is made by one party to another, merchant to Sheriff or Sheriff to
merchant (a demand); the payer is always the merchant party. Terms the payer
gives: gold, specific stand cards, goods from their bag (type and count,
possibly a bluff), a free-text promise. Terms the Sheriff gives: let named
bags pass or inspect them. A deal's Sheriff actions are carried out the moment
it is accepted, which is how the system enforces them; gold and stand cards
are paid at once, bag goods when the payer's bag is opened.

Bargaining (asynchronous play): the Sheriff may demand and accept at once, but
a bag is *unlocked* for his pass or inspect only once its merchant has made an
offer or said "no offer", or the bargaining time is over (the service sends
``end_bargaining`` when it runs out). The same lock holds for a deal that
would decide the bag of a merchant who is not its payer: nobody's bag is
decided before they could speak. Whether a bag is unlocked depends only on
the set of merchants who spoke, never on the order they spoke in.
"""

from . import checks
from .cards import CARD_TYPES
from .refusals import EngineError
from .state import Inspection
from .table import Run

MAX_PROMISE = 500
MAX_OPEN_OFFERS = 10
# Offers made plus revisions, per seat and inspection: room for any real bargaining,
# and a bound on what one seat can make the others read (each is news to them).
MAX_OFFER_MOVES = 30
OFFER_LIMIT_TEMPLATE = (
    "You have made or changed %(count)s offers this inspection, the most one "
    "may. You can still accept an offer or withdraw one of yours."
)
OFFER_LIMIT = OFFER_LIMIT_TEMPLATE % {"count": MAX_OFFER_MOVES}  # as the refusal reads
ACTIONS = ("pass", "inspect")
# An offer's terms as a command gives them; stand_counts is read into stand_goods.
TERM_KEYS = ("gold", "stand_goods", "stand_counts", "bag_goods", "promise", "sheriff")
# How the Sheriff stacks confiscated goods on the discard pile (1st edition: the next
# merchant may draw them from its top). A list of card type names is a ranking: the
# last listed ends on top. The default, whenever the Sheriff did not say, puts the
# least useful card for the next merchant on top.
LOWEST_ON_TOP = "lowest_on_top"
HIGHEST_ON_TOP = "highest_on_top"
ORDERS = (LOWEST_ON_TOP, HIGHEST_ON_TOP)
DEFAULT_ORDER = LOWEST_ON_TOP
DEPUTIES = "deputies"  # six players: an offer to both Deputies


# --- reading the phase ----------------------------------------------------------


def undecided(state) -> list:
    """Merchants whose bag awaits the Sheriff's decision, clockwise."""
    return [m for m in state.merchants() if state.phase.decided[m] is None]


def call_of(state, bag: int, deputy: int):
    """Six players: a Deputy's call on a bag (None: not yet)."""
    return state.phase.calls[bag][state.deputies.index(deputy)]


def to_decide(state, inspector: int) -> list:
    """The undecided bags this inspector has still to decide (with 6 players: to call)."""
    bags = undecided(state)
    if not state.config.deputies:
        return bags if inspector == state.sheriff else []
    if inspector not in state.deputies:
        return []
    return [b for b in bags if call_of(state, b, inspector) is None]


def acceptors(state, offer: dict) -> list:
    """Who must accept an offer for it to become a deal: its recipient; with 6 players
    every party but its proposer (the payer, and the Deputies it binds)."""
    if "deputies" not in offer:
        return [offer["recipient"]]
    return sorted({offer["payer"], *offer["deputies"]} - {offer["proposer"]})


def unlocked(state, seat: int) -> bool:
    """May the Sheriff decide this merchant's bag yet? (See the module docstring.)"""
    phase: Inspection = state.phase
    return phase.bargaining_over or seat in phase.spoken


def waiting_to_speak(state) -> list:
    """Merchants with an undecided bag who have neither offered nor said "no offer",
    while bargaining time lasts."""
    return [m for m in undecided(state) if not unlocked(state, m)]


def offer_moves_left(state, seat: int) -> int:
    """How many more offers or revisions ``seat`` may make this inspection."""
    made = sum(o["revision"] for o in state.phase.offers.values() if o["proposer"] == seat)
    return max(0, MAX_OFFER_MOVES - made)


def require_unlocked(state, seat: int) -> None:
    if not unlocked(state, seat):
        raise EngineError(
            "bargaining_open",
            "That merchant has not yet made an offer or said “no offer”, and the "
            "bargaining time is not over: their bag cannot be decided yet.",
        )


def is_demand(offer: dict) -> bool:
    """A demand: the Sheriff's (a Deputy's) terms to a merchant, who pays."""
    return offer["proposer"] != offer["payer"]


def discard_pile(state, value) -> int:
    return checks.discard_pile(state, value, "confiscated")


def parse_order(value) -> str | list:
    """The order of confiscated goods: ``"lowest_on_top"`` (the default),
    ``"highest_on_top"``, or a ranking of card type names, the last listed on top."""
    if value is None:
        return DEFAULT_ORDER
    if isinstance(value, str) and value in ORDERS:
        return value
    if (
        isinstance(value, list)
        and all(isinstance(t, str) and t in CARD_TYPES for t in value)
        and len(set(value)) == len(value)
    ):
        return list(value)
    raise EngineError(
        "bad_order",
        "Order confiscated goods lowest value on top, highest value on top, "
        "or as a list of kinds of goods (the last listed on top).",
        detail="confiscated",
    )


def emit_lapsed(run: Run, ids: list, reason: str) -> None:
    """Open offers that lapse, with which of them were demands (told as such)."""
    offers = run.state.phase.offers
    demands = [i for i in ids if is_demand(offers[str(i)])]
    run.emit("offers_lapsed", offers=ids, demands=demands, reason=reason)


def end_if_all_decided(run: Run) -> None:
    if not undecided(run.state):
        run.phase_complete()


def start(run: Run) -> bool:
    """Every bag is in: all declarations are revealed together."""
    run.emit("phase_started", phase="inspection", declarations=list(run.state.phase.declarations))
    end_if_all_decided(run)
    return True


def close(run: Run) -> None:
    """Every bag is decided: remaining offers lapse. (The Black Market step comes
    next: it waits for the merchants who could still claim, if any.)"""
    open_offers = [o["id"] for o in run.state.phase.offers.values() if o["status"] == "open"]
    if open_offers:
        emit_lapsed(run, open_offers, "inspection_over")


def actions(state, result: dict) -> None:
    """Offers for any seat with a bag at stake; pass or inspect for the Sheriff (the
    Deputies) once the bag's merchant has spoken; answers to the offers one received."""
    bags = undecided(state)
    if not bags:
        return
    open_offers = [o for o in state.phase.offers.values() if o["status"] == "open"]
    waiting = waiting_to_speak(state)
    deputies = state.config.deputies
    for seat in range(state.players):
        moves = []
        mine = to_decide(state, seat)
        may_offer = offer_moves_left(state, seat) > 0
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
                    offer["joint"] = all(to_decide(state, d) for d in state.deputies)
                moves.append(offer)
        else:
            to = [d for d in state.inspectors() if to_decide(state, d)]
            if deputies and len(to) == 2:
                to.append(DEPUTIES)
            if to and may_offer:
                moves.append({"type": "make_offer", "to": to})
            if seat in waiting:
                moves.append({"type": "say_no_offer"})
        acceptable = [
            {"offer": o["id"], "revision": o["revision"]}
            for o in open_offers
            if seat in acceptors(state, o) and seat not in o.get("accepted", [])
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
