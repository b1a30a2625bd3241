"""Phase 4, inspection: public negotiation, binding deals, pass or inspect.

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

from . import black_market, checks, phases, round_end
from .cards import CARD_TYPES, card
from .config import FIRST_EDITION
from .errors import EngineError
from .events import payee
from .state import BOOTY, GOLD_OUT, Inspection
from .table import Run, move_cards, pay_debt, stand_of, transfer_gold

MAX_PROMISE = 500
MAX_OPEN_OFFERS = 10
# Offers made plus revisions, per seat and inspection: room for any real bargaining,
# and a bound on what one seat can make the others read (each is news to them).
MAX_OFFER_MOVES = 30
OFFER_LIMIT = (
    f"You have made or changed {MAX_OFFER_MOVES} offers this inspection, the most one "
    "may. You can still accept an offer or withdraw one of yours."
)
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


def _require_offer_moves_left(state, seat: int) -> None:
    if not offer_moves_left(state, seat):
        raise EngineError("offer_limit", OFFER_LIMIT)


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


def _parse_terms(state, payer: int, proposer: int, terms, deputies: list) -> dict:
    """``deputies``: the Deputies the offer binds (6 players), else ``[]``."""
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
    seen, merchants = set(), state.merchants()
    for action in actions:
        if not isinstance(action, dict) or action.get("action") not in ACTIONS:
            raise EngineError("bad_command", "Each Sheriff action is 'pass' or 'inspect' a bag.")
        chooses = ("pile" in action or "order" in action) and (
            not state.is_inspector(proposer) or action["action"] != "inspect"
        )
        if chooses:
            raise EngineError(
                "bad_command",
                "Only the Sheriff chooses the pile and the order of confiscated goods.",
            )
        bag = action.get("bag")
        if not checks.is_int(bag) or bag not in merchants or bag in seen:
            raise EngineError("bad_command", "Each action must name a different merchant's bag.")
        if state.phase.decided[bag] is not None:
            raise EngineError("bag_already_decided", "The Sheriff has already decided that bag.")
        if any(call_of(state, bag, d) is not None for d in deputies):
            raise EngineError("bag_already_decided", "That Deputy has already decided that bag.")
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


def _parties(state, seat: int, command: dict) -> tuple:
    """(recipient, payer, Deputies bound or None) of a new offer. 3-5 players: the
    Sheriff and a merchant. 6 players: a merchant offers to one Deputy or to
    ``"deputies"`` (both); a Deputy demands from a merchant for themself, or with
    ``"joint": true`` for both Deputies."""
    to = command.get("to")
    if state.config.deputies and to == DEPUTIES and not state.is_inspector(seat):
        return to, seat, list(state.deputies)
    if not checks.is_int(to) or not 0 <= to < state.players or to == seat:
        raise EngineError("bad_command", "An offer must be made to another seat.")
    if state.is_inspector(seat) == state.is_inspector(to):
        who = "a merchant and a Deputy" if state.config.deputies else "a merchant and the Sheriff"
        raise EngineError("bad_counterparty", f"Offers are made between {who}.")
    payer = to if state.is_inspector(seat) else seat
    if not state.config.deputies:
        return to, payer, None
    joint = command.get("joint", False)
    if not isinstance(joint, bool):
        raise EngineError("bad_command", "'joint' must be true or false.")
    if not state.is_inspector(seat):
        return to, payer, [to]
    return to, payer, list(state.deputies) if joint else [seat]


def make_offer(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    to, payer, deputies = _parties(state, seat, command)
    phase: Inspection = state.phase
    open_offers = [
        o for o in phase.offers.values() if o["proposer"] == seat and o["status"] == "open"
    ]
    if len(open_offers) >= MAX_OPEN_OFFERS:
        raise EngineError("too_many_offers", "Withdraw an offer before making another.")
    _require_offer_moves_left(state, seat)
    terms = _parse_terms(state, payer, seat, command.get("terms"), deputies or [])
    offer = {
        "id": phase.next_offer,
        "revision": 1,
        "proposer": seat,
        "recipient": to,
        "payer": payer,
        "terms": terms,
        "status": "open",
    }
    if deputies is not None:
        offer.update(deputies=deputies, accepted=[])
    run.emit("offer_made", offer=offer)


def _own_open_offer(state, command: dict, verb: str) -> tuple[int, dict]:
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    offer = _offer(state, command)
    if offer["proposer"] != seat:
        raise EngineError("not_offer_proposer", f"Only whoever made an offer can {verb} it.")
    return seat, offer


def revise_offer(run: Run, command: dict) -> None:
    seat, offer = _own_open_offer(run.state, command, "change")
    _require_offer_moves_left(run.state, seat)
    deputies = offer.get("deputies", [])
    terms = _parse_terms(run.state, offer["payer"], seat, command.get("terms"), deputies)
    run.emit(
        "offer_revised",
        offer=offer["id"],
        revision=offer["revision"] + 1,
        terms=terms,
        demand=is_demand(offer),
    )


def withdraw_offer(run: Run, command: dict) -> None:
    _, offer = _own_open_offer(run.state, command, "withdraw")
    run.emit("offer_withdrawn", offers=[offer["id"]], demand=is_demand(offer))


def refuse_offer(run: Run, command: dict) -> None:
    """Whom an offer waits for may turn it down (a merchant facing a demand cannot
    otherwise say no): it closes, as a withdrawn offer does, and the table hears it."""
    seat, offer = _offer_to_answer(run.state, command, "refuse")
    run.emit("offer_refused", offers=[offer["id"]], seat=seat, demand=is_demand(offer))


def is_demand(offer: dict) -> bool:
    """A demand: the Sheriff's (a Deputy's) terms to a merchant, who pays."""
    return offer["proposer"] != offer["payer"]


def _offer_to_answer(state, command: dict, verb: str) -> tuple:
    """The seat and the open offer it may accept or refuse (``verb``): one made to it,
    which it has not accepted yet."""
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    offer = _offer(state, command)
    if seat not in acceptors(state, offer):
        raise EngineError(
            "not_offer_recipient", f"Only the seat an offer was made to can {verb} it."
        )
    if seat in offer.get("accepted", []):
        raise EngineError("already_accepted", "You have already accepted this offer.")
    return seat, offer


def accept_offer(run: Run, command: dict) -> None:
    state = run.state
    seat, offer = _offer_to_answer(state, command, "accept")
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
        if any(call_of(state, action["bag"], d) is not None for d in offer.get("deputies", [])):
            raise EngineError("bag_already_decided", "A Deputy has already decided that bag.")
        if action["bag"] != payer:  # the payer spoke for their own bag by dealing
            _require_unlocked(state, action["bag"])
    # The Sheriff chooses where and how confiscated goods go: in his acceptance, or in
    # his demand (when a merchant accepts it; unsaid, the defaults).
    chosen = None
    if state.is_inspector(seat):
        chosen = (_discard_pile(state, command.get("pile", 0)), parse_order(command.get("order")))
    waiting_for = [s for s in acceptors(state, offer) if s not in offer.get("accepted", [])]
    if waiting_for != [seat]:  # 6 players: another party has still to accept
        run.emit("offer_agreed", offer=offer["id"], revision=offer["revision"], seat=seat)
        return

    receiver = payee(state, offer)
    deal = {"offer": offer["id"], "revision": offer["revision"], "payer": payer}
    if "deputies" in offer:
        deal.update(deputies=list(offer["deputies"]), payee=receiver)
    run.emit("deal_made", **deal, sheriff=state.sheriff, demand=is_demand(offer))
    transfer_gold(run, payer, receiver, terms["gold"], "bribe")
    # Honor among thieves: stand goods that are gone by now are simply not paid.
    still_there = [c for c in terms["stand_goods"] if c in set(run.state.stand(payer))]
    move_cards(run, still_there, f"stand:{payer}", stand_of(receiver), "bribe", reveal=True)
    for action in terms["sheriff"]:
        if "deputies" in offer:
            for deputy in offer["deputies"]:
                _call(run, deputy, action["bag"], action["action"], deal=offer["id"])
        elif action["action"] == "pass":
            _pass(run, action["bag"], deal=offer["id"])
        else:
            pile, order = chosen or (action.get("pile", 0), action.get("order", DEFAULT_ORDER))
            _inspect(run, action["bag"], pile, order, deal=offer["id"])
    end_if_all_decided(run)


# --- the Sheriff's (Deputies') decisions ----------------------------------------------


def _discard_pile(state, value) -> int:
    return checks.discard_pile(state, value, "confiscated goods")


def _require_undecided_bag(state, command: dict, seat: int) -> int:
    bag = command.get("bag")
    if not checks.is_int(bag) or bag not in state.merchants():
        raise EngineError("bad_command", "Name a merchant's bag.")
    if state.phase.decided[bag] is not None:
        what = "has no bag" if state.phase.decided[bag] == "none" else "is already decided"
        raise EngineError("bag_already_decided", f"That merchant's bag {what}.")
    if state.config.deputies and call_of(state, bag, seat) is not None:
        raise EngineError("bag_already_decided", "You have already decided about that bag.")
    return bag


def pass_bag(run: Run, command: dict) -> None:
    _decide(run, command, "pass")


def inspect_bag(run: Run, command: dict) -> None:
    _decide(run, command, "inspect")


def _decide(run: Run, command: dict, decision: str) -> None:
    """The Sheriff passes or inspects a bag; with 6 players a Deputy calls it."""
    state = run.state
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    checks.require_sheriff(state, seat)
    bag = _require_undecided_bag(state, command, seat)
    _require_unlocked(state, bag)
    if decision == "inspect":
        pile = _discard_pile(state, command.get("pile", 0))
        order = parse_order(command.get("order"))
    if state.config.deputies:
        _call(run, seat, bag, decision, deal=None)
    elif decision == "pass":
        _pass(run, bag, deal=None)
    else:
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


def _lapse(run: Run, which) -> None:
    lapsed = [
        o["id"] for o in run.state.phase.offers.values() if o["status"] == "open" and which(o)
    ]
    if lapsed:
        _emit_lapsed(run, lapsed, "bag_decided")


def _emit_lapsed(run: Run, ids: list, reason: str) -> None:
    """Open offers that lapse, with which of them were demands (told as such)."""
    offers = run.state.phase.offers
    demands = [i for i in ids if is_demand(offers[str(i)])]
    run.emit("offers_lapsed", offers=ids, demands=demands, reason=reason)


def _names_bag(offer: dict, seat: int) -> bool:
    return any(a["bag"] == seat for a in offer["terms"]["sheriff"])


def _lapse_offers_on(run: Run, seat: int) -> None:
    """Negotiations over a bag end when it is decided."""
    _lapse(
        run,
        lambda o: _names_bag(o, seat) or (o["payer"] == seat and o["terms"]["bag_goods"]),
    )


def _call(run: Run, deputy: int, bag: int, decision: str, deal) -> None:
    """Six players: a Deputy's call on a bag, final. Offers binding that Deputy on the
    bag lapse; once both Deputies have called, the bag is decided."""
    run.emit("deputy_decided", deputy=deputy, bag=bag, decision=decision, deal=deal)
    _lapse(run, lambda o: deputy in o.get("deputies", []) and _names_bag(o, bag))
    calls = run.state.phase.calls[bag]
    if None in calls:
        return
    inspecting = [d for d, c in zip(run.state.deputies, calls, strict=True) if c == "inspect"]
    if inspecting:
        _inspect(run, bag, 0, DEFAULT_ORDER, deal, by=inspecting)
    else:
        _pass(run, bag, deal)


def _pass(run: Run, seat: int, deal) -> None:
    _lapse_offers_on(run, seat)
    cards = list(run.state.bag(seat))
    run.emit("bag_passed", seat=seat, deal=deal, count=len(cards))
    # Legal goods go face up; contraband face down (only its count is public).
    move_cards(run, cards, f"bag:{seat}", f"stand:{seat}", "passed")
    _settle_bag_goods(run, seat, cards, unopened=cards)


def _inspect(run: Run, seat: int, pile: int, order, deal, by: list | None = None) -> None:
    """``by``: the Deputies inspecting (6 players); else the Sheriff."""
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
        **({"by": list(by)} if by else {}),
    )
    inspectors = by or [state.sheriff]
    # The rulebooks' order: truthful goods to the stand, confiscation, then the fine,
    # so a fine may be paid with the goods just placed.
    move_cards(run, truthful, f"bag:{seat}", f"stand:{seat}", "inspected", reveal=True)
    if confiscated:
        target = f"discard:{pile if state.config.edition == FIRST_EDITION else 0}"
        stacked = stacking(state, confiscated, order)
        move_cards(run, stacked, f"bag:{seat}", target, "confiscated", reveal=True)
        fine = sum(card(state.type_of(c)).penalty for c in confiscated)
        # Both Deputies inspecting: the fine goes to the Booty.
        creditor = inspectors[0] if len(inspectors) == 1 else BOOTY
        pay_debt(run, seat, creditor, fine, "fine")
    else:
        # Both Deputies inspecting an honest bag: each pays half (honest penalties,
        # 2 per legal card, are always even; the first-drawn would pay an odd coin).
        penalty = sum(card(state.type_of(c)).penalty for c in cards)
        share, odd = divmod(penalty, len(inspectors))
        for k, inspector in enumerate(inspectors):
            pay_debt(run, inspector, seat, share + (odd if k == 0 else 0), "honest_penalty")
    _settle_bag_goods(run, seat, truthful)


def _settle_bag_goods(run: Run, seat: int, reached_stand: list, unopened=None) -> None:
    """Pay the bag goods this merchant promised, from the bag cards that reached
    their stand. Promised goods that do not exist are not paid, but the merchant
    proves it: the books' "showing the cards in your bag ... to the Sheriff". A
    passed bag's cards (``unopened``) are then shown to whoever was short-changed
    (the Sheriff; with 6 players the Deputy or Deputies of the deal) and to nobody
    else; an inspected bag was opened before the whole table already."""
    owed = [o for o in run.state.phase.owed_bag_goods if o["payer"] == seat]
    if not owed:
        return
    available = [c for c in reached_stand if c in set(run.state.stand(seat))]
    short = []
    for entry in owed:
        paying = []
        for kind, count in entry["goods"].items():
            matching = [c for c in available if run.state.type_of(c) == kind][:count]
            paying.extend(matching)
            available = [c for c in available if c not in matching]
        if len(paying) < sum(entry["goods"].values()):
            short.append(entry)
        move_cards(run, paying, f"stand:{seat}", stand_of(entry["to"]), "bribe", reveal=True)
    if short and unopened:
        run.emit(
            "bag_goods_shown",
            payer=seat,
            to=sorted({s for e in short for s in _promisees(run.state, e["to"])}),
            deals=[e["deal"] for e in short],
            cards=sorted(unopened),
        )
    run.emit("bag_goods_settled", payer=seat)


def _promisees(state, payee_) -> list:
    """The seats goods paid to ``payee_`` go to: the Booty's are both Deputies'."""
    return list(state.deputies) if payee_ == BOOTY else [payee_]


def end_if_all_decided(run: Run) -> None:
    if not undecided(run.state):
        phases.complete(run)


def close(run: Run) -> None:
    """Every bag is decided: remaining offers lapse; the Black Market step waits for the
    merchants who could still claim, if any; then the inspection ends."""
    open_offers = [o["id"] for o in run.state.phase.offers.values() if o["status"] == "open"]
    if open_offers:
        _emit_lapsed(run, open_offers, "inspection_over")
    seats = black_market.eligible(run.state)
    if seats:
        black_market.start_step(run, seats)
        return
    finish(run)


def finish(run: Run) -> None:
    """The end of the inspection: the Booty is shared, the round ends."""
    share_booty(run)
    round_end.end_round(run)


def share_booty(run: Run) -> None:
    """Six players, end of Inspection: the Deputies share the Booty evenly. Gold: half
    each, an odd coin leaves the game. Goods: dealt alternately from the highest value
    (ties: card-table order, then id), the first-drawn Deputy first; an odd last card
    goes to the discard pile."""
    state = run.state
    if not state.config.deputies:
        return
    gold, goods = state.booty_gold, list(state.zones[BOOTY])
    if not gold and not goods:
        return
    first, second = state.deputies
    goods.sort(key=lambda c: (-card(state.type_of(c)).value, _TABLE_ORDER[state.type_of(c)], c))
    even = len(goods) - len(goods) % 2
    shares = [goods[0:even:2], goods[1:even:2]]
    each, odd_coin = divmod(gold, 2)
    run.emit(
        "booty_shared",
        deputies=[first, second],
        gold=each,
        gold_out=odd_coin,
        goods=shares,
        discarded=goods[even:],
    )
    for deputy, share in zip((first, second), shares, strict=True):
        transfer_gold(run, BOOTY, deputy, each, "booty")
        move_cards(run, share, BOOTY, f"stand:{deputy}", "booty", reveal=True)
    transfer_gold(run, BOOTY, GOLD_OUT, odd_coin, "booty")
    move_cards(run, goods[even:], BOOTY, "discard:0", "booty", reveal=True)


def time_out(run: Run, who: dict) -> None:
    """Missed deadline: open offers lapse; undecided bags pass with no bribe (with 6
    players: every Deputy who has not called a bag counts as "let pass").
    ``who`` is ``{"by": "organizer"}`` when the organizer moved the game on."""
    state = run.state
    bags = undecided(state)
    if not bags:  # decided already, held until the deadline
        phases.advance(run)
        return
    late = [s for s in state.inspectors() if to_decide(state, s)]
    run.emit("timed_out", phase="inspection", seats=late, **who)
    open_offers = [o["id"] for o in run.state.phase.offers.values() if o["status"] == "open"]
    if open_offers:
        _emit_lapsed(run, open_offers, "deadline")
    for seat in bags:
        if state.config.deputies:
            for deputy in state.deputies:
                if call_of(run.state, seat, deputy) is None:
                    _call(run, deputy, seat, "pass", deal=None)
        else:
            _pass(run, seat, deal=None)
    end_if_all_decided(run)
