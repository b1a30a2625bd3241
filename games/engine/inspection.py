"""Phase 4, inspection: public negotiation, binding deals, pass or inspect.

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

from . import checks, phases, round_end
from .cards import CARD_TYPES, card
from .config import FIRST_EDITION
from .errors import EngineError
from .state import Inspection
from .table import Run, move_cards, pay_debt, transfer_gold

MAX_PROMISE = 500
MAX_OPEN_OFFERS = 10
ACTIONS = ("pass", "inspect")
TERM_KEYS = ("gold", "stand_goods", "bag_goods", "promise", "sheriff")
# How the Sheriff stacks confiscated goods on the discard pile (1st edition: the next
# merchant may draw them from its top). A list of card type names is a ranking: the
# last listed ends on top. The default, whenever the Sheriff did not say, puts the
# least useful card for the next merchant on top.
LOWEST_ON_TOP = "lowest_on_top"
HIGHEST_ON_TOP = "highest_on_top"
ORDERS = (LOWEST_ON_TOP, HIGHEST_ON_TOP)
DEFAULT_ORDER = LOWEST_ON_TOP
_TABLE_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}


# --- reading the phase ----------------------------------------------------------


def undecided(state) -> list:
    """Merchants whose bag awaits the Sheriff's decision, clockwise."""
    return [m for m in state.merchants() if state.phase.decided[m] is None]


def unlocked(state, seat: int) -> bool:
    """May the Sheriff decide this merchant's bag yet? (See the module docstring.)"""
    phase: Inspection = state.phase
    return phase.bargaining_over or seat in phase.spoken


def waiting_to_speak(state) -> list:
    """Merchants with an undecided bag who have neither offered nor said "no offer",
    while bargaining time lasts."""
    return [m for m in undecided(state) if not unlocked(state, m)]


def _require_unlocked(state, seat: int) -> None:
    if not unlocked(state, seat):
        raise EngineError(
            "bargaining_open",
            "That merchant has not yet made an offer or said “no offer”, and the "
            "bargaining time is not over: their bag cannot be decided yet.",
        )


def _offer(state, command: dict) -> dict:
    offer = state.phase.offers.get(str(command.get("offer")))
    if offer is None:
        raise EngineError("unknown_offer", "There is no such offer.")
    if offer["status"] != "open":
        raise EngineError("offer_closed", f"That offer is no longer open ({offer['status']}).")
    return offer


# --- terms --------------------------------------------------------------------------


def _parse_terms(state, payer: int, proposer: int, terms) -> dict:
    if not isinstance(terms, dict) or set(terms) - set(TERM_KEYS):
        raise EngineError("bad_command", f"Offer terms may contain only: {', '.join(TERM_KEYS)}.")
    gold = terms.get("gold", 0)
    if not checks.is_int(gold) or gold < 0:
        raise EngineError("bad_command", "Gold must be a whole number of 0 or more.")
    if gold > state.gold[payer]:
        raise EngineError(
            "insufficient_gold",
            f"No one can offer more gold than they hold ({state.gold[payer]} gold).",
        )
    stand_goods = checks.card_list(terms, "stand_goods")
    stand = set(state.stand(payer))
    if proposer != payer:  # the Sheriff can only ask for goods he can see: face-up legal ones
        stand = {c for c in stand if card(state.type_of(c)).is_legal}
    for card_id in stand_goods:
        if card_id in stand:
            continue
        if proposer == payer and card_id in set(state.hand(payer)):
            raise EngineError("hand_cards_not_offerable", "Cards in hand can never be offered.")
        raise EngineError(
            "card_not_on_stand",
            "Only goods on the payer's stand can be offered (face-up "
            "goods, when asking for another's).",
        )
    bag_goods = terms.get("bag_goods", {})
    if not isinstance(bag_goods, dict) or any(
        t not in CARD_TYPES or not checks.is_int(n) or n <= 0 for t, n in bag_goods.items()
    ):
        raise EngineError("bad_command", "Bag goods must map a kind of goods to a count.")
    if bag_goods:
        declaration = state.phase.declarations[payer]
        if declaration is None or state.phase.decided[payer] is not None:
            raise EngineError(
                "bag_goods_unavailable", "There is no closed bag to promise goods from."
            )
        if sum(bag_goods.values()) > declaration["count"]:
            raise EngineError("bag_goods_unavailable", "More goods promised than the bag holds.")
    promise = terms.get("promise", "")
    if not isinstance(promise, str):
        raise EngineError("bad_command", "A promise must be text.")
    if len(promise) > MAX_PROMISE:
        raise EngineError("promise_too_long", f"Keep promises under {MAX_PROMISE} characters.")
    actions = terms.get("sheriff", [])
    if not isinstance(actions, list) or not actions:
        raise EngineError(
            "no_sheriff_action", "An offer must ask the Sheriff to let a bag pass or inspect it."
        )
    seen = set()
    for action in actions:
        if not isinstance(action, dict) or action.get("action") not in ACTIONS:
            raise EngineError("bad_command", "Each Sheriff action is 'pass' or 'inspect' a bag.")
        chooses = ("pile" in action or "order" in action) and (
            proposer != state.sheriff or action["action"] != "inspect"
        )
        if chooses:
            raise EngineError(
                "bad_command",
                "Only the Sheriff chooses the pile and the order of confiscated goods.",
            )
        bag = action.get("bag")
        if not checks.is_int(bag) or bag not in state.merchants() or bag in seen:
            raise EngineError("bad_command", "Each action must name a different merchant's bag.")
        if state.phase.decided[bag] is not None:
            raise EngineError("bag_already_decided", "The Sheriff has already decided that bag.")
        seen.add(bag)
        if "pile" in action:
            _discard_pile(state, action["pile"])
        if "order" in action:
            parse_order(action["order"])
    return {
        "gold": gold,
        "stand_goods": stand_goods,
        "bag_goods": {t: bag_goods[t] for t in sorted(bag_goods)},
        "promise": promise,
        "sheriff": [
            {
                "bag": a["bag"],
                "action": a["action"],
                **{
                    key: parse_order(a[key]) if key == "order" else a[key]
                    for key in _CHOICES
                    if key in a
                },
            }
            for a in actions
        ],
    }


_CHOICES = ("pile", "order")  # what the Sheriff may add to an inspect action of his demand


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
    )


def stacking(state, cards: list, order) -> list:
    """``cards`` in the order they go onto the pile (the last ends on top).
    By value: ties by card-table order, then id. A ranking places the kinds it
    lists above the others (which keep the default order), the last listed on top."""

    def by_value(c):
        kind = state.type_of(c)
        return (card(kind).value, _TABLE_ORDER[kind], c)

    rising = sorted(cards, key=by_value)  # lowest value first
    if order == HIGHEST_ON_TOP:
        return rising
    falling = rising[::-1]
    if order == LOWEST_ON_TOP:
        return falling
    rank = {kind: i for i, kind in enumerate(order)}
    unlisted = [c for c in falling if state.type_of(c) not in rank]
    listed = sorted(
        (c for c in cards if state.type_of(c) in rank), key=lambda c: (rank[state.type_of(c)], c)
    )
    return unlisted + listed


# --- negotiation commands ------------------------------------------------------------


def make_offer(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    to = command.get("to")
    if not checks.is_int(to) or not 0 <= to < state.players or to == seat:
        raise EngineError("bad_command", "An offer must be made to another seat.")
    if state.sheriff not in (seat, to):
        raise EngineError("bad_counterparty", "Offers are made between a merchant and the Sheriff.")
    phase: Inspection = state.phase
    open_offers = [
        o for o in phase.offers.values() if o["proposer"] == seat and o["status"] == "open"
    ]
    if len(open_offers) >= MAX_OPEN_OFFERS:
        raise EngineError("too_many_offers", "Withdraw an offer before making another.")
    payer = to if seat == state.sheriff else seat
    terms = _parse_terms(state, payer, seat, command.get("terms"))
    run.emit(
        "offer_made",
        offer={
            "id": phase.next_offer,
            "revision": 1,
            "proposer": seat,
            "recipient": to,
            "payer": payer,
            "terms": terms,
            "status": "open",
        },
    )


def _own_open_offer(state, command: dict, verb: str) -> tuple[int, dict]:
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    offer = _offer(state, command)
    if offer["proposer"] != seat:
        raise EngineError("not_offer_proposer", f"Only whoever made an offer can {verb} it.")
    return seat, offer


def revise_offer(run: Run, command: dict) -> None:
    seat, offer = _own_open_offer(run.state, command, "change")
    terms = _parse_terms(run.state, offer["payer"], seat, command.get("terms"))
    run.emit("offer_revised", offer=offer["id"], revision=offer["revision"] + 1, terms=terms)


def withdraw_offer(run: Run, command: dict) -> None:
    _, offer = _own_open_offer(run.state, command, "withdraw")
    run.emit("offer_withdrawn", offers=[offer["id"]])


def accept_offer(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    offer = _offer(state, command)
    if offer["recipient"] != seat:
        raise EngineError(
            "not_offer_recipient", "Only the seat an offer was made to can accept it."
        )
    if command.get("revision") != offer["revision"]:
        raise EngineError(
            "stale_revision",
            f"That offer has changed (it is now revision {offer['revision']}); "
            "read it again before accepting.",
        )
    terms = offer["terms"]
    payer = offer["payer"]
    if terms["gold"] > state.gold[payer]:
        raise EngineError("insufficient_gold", "The payer no longer holds the gold offered.")
    for action in terms["sheriff"]:
        if state.phase.decided[action["bag"]] is not None:
            raise EngineError("bag_already_decided", "The Sheriff has already decided that bag.")
        if action["bag"] != payer:  # the payer spoke for their own bag by dealing
            _require_unlocked(state, action["bag"])
    # The Sheriff chooses where and how confiscated goods go: in his acceptance, or in
    # his demand (when a merchant accepts it; unsaid, the defaults).
    chosen = None
    if seat == state.sheriff:
        chosen = (_discard_pile(state, command.get("pile", 0)), parse_order(command.get("order")))

    run.emit(
        "deal_made",
        offer=offer["id"],
        revision=offer["revision"],
        payer=payer,
        sheriff=state.sheriff,
    )
    transfer_gold(run, payer, state.sheriff, terms["gold"], "bribe")
    # Honor among thieves: stand goods that are gone by now are simply not paid.
    still_there = [c for c in terms["stand_goods"] if c in set(run.state.stand(payer))]
    move_cards(run, still_there, f"stand:{payer}", f"stand:{state.sheriff}", "bribe", reveal=True)
    for action in terms["sheriff"]:
        if action["action"] == "pass":
            _pass(run, action["bag"], deal=offer["id"])
        else:
            pile, order = chosen or (action.get("pile", 0), action.get("order", DEFAULT_ORDER))
            _inspect(run, action["bag"], pile, order, deal=offer["id"])
    end_if_all_decided(run)


# --- the Sheriff's decisions ---------------------------------------------------------


def _discard_pile(state, value) -> int:
    return checks.discard_pile(state, value, "confiscated goods")


def _require_undecided_bag(state, command: dict) -> int:
    bag = command.get("bag")
    if not checks.is_int(bag) or bag not in state.merchants():
        raise EngineError("bad_command", "Name a merchant's bag.")
    if state.phase.decided[bag] is not None:
        what = "has no bag" if state.phase.decided[bag] == "none" else "is already decided"
        raise EngineError("bag_already_decided", f"That merchant's bag {what}.")
    return bag


def pass_bag(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "inspection")
    checks.require_sheriff(state, checks.require_seat(state, command))
    bag = _require_undecided_bag(state, command)
    _require_unlocked(state, bag)
    _pass(run, bag, deal=None)
    end_if_all_decided(run)


def inspect_bag(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "inspection")
    checks.require_sheriff(state, checks.require_seat(state, command))
    bag = _require_undecided_bag(state, command)
    _require_unlocked(state, bag)
    pile = _discard_pile(state, command.get("pile", 0))
    order = parse_order(command.get("order"))
    _inspect(run, bag, pile, order, deal=None)
    end_if_all_decided(run)


def say_no_offer(run: Run, command: dict) -> None:
    """A merchant has nothing to offer for now: the Sheriff may decide their bag.
    (They may still offer later, while the bag is undecided.)"""
    state = run.state
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    checks.require_merchant(state, seat)
    if state.phase.decided[seat] is not None:
        raise EngineError("bag_already_decided", "Your bag is already decided (or you have none).")
    if seat in state.phase.spoken:
        raise EngineError("already_spoken", "You have already had your say about your bag.")
    run.emit("no_offer_said", seat=seat)


def end_bargaining(run: Run) -> None:
    """The bargaining time ran out: every undecided bag is unlocked."""
    state = run.state
    checks.require_phase(state, "inspection")
    if state.phase.bargaining_over:
        raise EngineError("bargaining_over", "The bargaining time is already over.")
    run.emit("bargaining_ended")


def _lapse_offers_on(run: Run, seat: int) -> None:
    """Negotiations over a bag end when it is decided."""
    lapsed = [
        o["id"]
        for o in run.state.phase.offers.values()
        if o["status"] == "open"
        and (
            any(a["bag"] == seat for a in o["terms"]["sheriff"])
            or (o["payer"] == seat and o["terms"]["bag_goods"])
        )
    ]
    if lapsed:
        run.emit("offers_lapsed", offers=lapsed, reason="bag_decided")


def _pass(run: Run, seat: int, deal) -> None:
    _lapse_offers_on(run, seat)
    cards = list(run.state.bag(seat))
    run.emit("bag_passed", seat=seat, deal=deal, count=len(cards))
    # Legal goods go face up; contraband face down (only its count is public).
    move_cards(run, cards, f"bag:{seat}", f"stand:{seat}", "passed")
    _settle_bag_goods(run, seat, cards)


def _inspect(run: Run, seat: int, pile: int, order, deal) -> None:
    _lapse_offers_on(run, seat)
    state = run.state
    cards = list(state.bag(seat))
    declared = state.phase.declarations[seat]["declared"]
    truthful = [c for c in cards if state.type_of(c) == declared]
    confiscated = [c for c in cards if state.type_of(c) != declared]
    run.emit(
        "bag_inspected",
        seat=seat,
        deal=deal,
        declared=declared,
        honest=not confiscated,
        contents=sorted(state.type_of(c) for c in cards),
    )
    # The rulebooks' order: truthful goods to the stand, confiscation, then the fine,
    # so a fine may be paid with the goods just placed.
    move_cards(run, truthful, f"bag:{seat}", f"stand:{seat}", "inspected", reveal=True)
    if confiscated:
        target = f"discard:{pile if state.config.edition == FIRST_EDITION else 0}"
        stacked = stacking(state, confiscated, order)
        move_cards(run, stacked, f"bag:{seat}", target, "confiscated", reveal=True)
        fine = sum(card(state.type_of(c)).penalty for c in confiscated)
        pay_debt(run, seat, state.sheriff, fine, "fine")
    else:
        penalty = sum(card(state.type_of(c)).penalty for c in cards)
        pay_debt(run, state.sheriff, seat, penalty, "honest_penalty")
    _settle_bag_goods(run, seat, truthful)


def _settle_bag_goods(run: Run, seat: int, reached_stand: list) -> None:
    """Pay the bag goods this merchant promised, from the bag cards that reached
    their stand. Promised goods that do not exist are not paid."""
    owed = [o for o in run.state.phase.owed_bag_goods if o["payer"] == seat]
    if not owed:
        return
    available = [c for c in reached_stand if c in set(run.state.stand(seat))]
    for entry in owed:
        paying = []
        for kind, count in entry["goods"].items():
            matching = [c for c in available if run.state.type_of(c) == kind][:count]
            paying.extend(matching)
            available = [c for c in available if c not in matching]
        move_cards(run, paying, f"stand:{seat}", f"stand:{entry['to']}", "bribe", reveal=True)
    run.emit("bag_goods_settled", payer=seat)


def end_if_all_decided(run: Run) -> None:
    if not undecided(run.state):
        phases.complete(run)


def close(run: Run) -> None:
    """Every bag is decided: remaining offers lapse and the round ends."""
    open_offers = [o["id"] for o in run.state.phase.offers.values() if o["status"] == "open"]
    if open_offers:
        run.emit("offers_lapsed", offers=open_offers, reason="inspection_over")
    round_end.end_round(run)


def time_out(run: Run, who: dict) -> None:
    """Missed deadline: open offers lapse; undecided bags pass with no bribe.
    ``who`` is ``{"by": "organizer"}`` when the organizer moved the game on."""
    bags = undecided(run.state)
    if not bags:  # decided already, held until the deadline
        phases.advance(run)
        return
    run.emit("timed_out", phase="inspection", seats=[run.state.sheriff], **who)
    open_offers = [o["id"] for o in run.state.phase.offers.values() if o["status"] == "open"]
    if open_offers:
        run.emit("offers_lapsed", offers=open_offers, reason="deadline")
    for seat in bags:
        _pass(run, seat, deal=None)
    end_if_all_decided(run)
