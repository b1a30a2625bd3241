"""Phase 4, inspection: the offers. Made by one party to another, merchant to
Sheriff or Sheriff to merchant (a demand); revised, withdrawn, refused, accepted.
An accepted offer is a deal: its gold and stand goods are paid here, its Sheriff
actions are carried out by decisions.py (the flow joins the two, see flow.py).
See inspection.py for the whole phase."""

from . import checks
from .cards import CARD_TYPES, card
from .events import payee
from .inspection import (
    ACTIONS,
    DEPUTIES,
    MAX_OFFER_MOVES,
    MAX_OPEN_OFFERS,
    MAX_PROMISE,
    OFFER_LIMIT_TEMPLATE,
    TERM_KEYS,
    acceptors,
    call_of,
    discard_pile,
    is_demand,
    offer_moves_left,
    parse_order,
    require_unlocked,
)
from .refusals import EngineError
from .state import Inspection
from .table import Run, move_cards, stand_of, transfer_gold


def _require_offer_moves_left(state, seat: int) -> None:
    if not offer_moves_left(state, seat):
        raise EngineError("offer_limit", OFFER_LIMIT_TEMPLATE, count=MAX_OFFER_MOVES)


def _offer(state, command: dict) -> dict:
    offer = state.phase.offers.get(str(command.get("offer")))
    if offer is None:
        raise EngineError("unknown_offer", "There is no such offer.")
    if offer["status"] != "open":
        status = offer["status"]
        raise EngineError(
            "offer_closed",
            "That offer is no longer open (%(status)s).",
            detail=status,
            status=status,
        )
    return offer


# --- terms --------------------------------------------------------------------------


def _not_on_stand() -> EngineError:
    return EngineError(
        "card_not_on_stand",
        "Only goods on the payer's stand can be offered (face-up "
        "goods, when asking for another's).",
    )


def _kind_counts(terms: dict, key: str, least: int) -> dict:
    """The term ``key`` (bag_goods, stand_counts): {kind of goods: a whole count of at
    least ``least``}."""
    counts = terms.get(key, {})
    if isinstance(counts, dict) and all(
        t in CARD_TYPES and checks.is_int(n) and n >= least for t, n in counts.items()
    ):
        return counts
    if key == "bag_goods":
        raise EngineError(
            "bad_command", "Bag goods must map a kind of goods to a count.", detail="bag_goods"
        )
    raise EngineError(
        "bad_command", "Stand goods must map a kind of goods to a count.", detail="stand_counts"
    )


def _counted_goods(state, payer: int, offerable: set, named: list, terms: dict) -> list:
    """``stand_counts`` ({kind: count}): that many of the payer's offerable stand cards
    of each kind, besides those ``named``, the first in stand order (goods of a
    kind are alike: a form or a bot may give a count, not pick cards)."""
    counts = _kind_counts(terms, "stand_counts", least=0)
    chosen = []
    for kind in sorted(counts):
        free = [
            c
            for c in state.stand(payer)
            if c in offerable and c not in named and state.type_of(c) == kind
        ]
        if counts[kind] > len(free):
            raise _not_on_stand()
        chosen += free[: counts[kind]]
    return chosen


def _parse_terms(state, payer: int, proposer: int, terms, deputies: list) -> dict:
    """``deputies``: the Deputies the offer binds (6 players), else ``[]``."""
    if not isinstance(terms, dict) or set(terms) - set(TERM_KEYS):
        raise EngineError(
            "bad_command",
            "Offer terms may contain only: %(keys)s.",
            detail="term_keys",
            keys=", ".join(TERM_KEYS),
        )
    gold = terms.get("gold", 0)
    if not checks.is_int(gold) or gold < 0:
        raise EngineError("bad_command", "Gold must be a whole number of 0 or more.", detail="gold")
    if gold > state.gold[payer]:
        raise EngineError(
            "insufficient_gold",
            "No one can offer more gold than they hold (%(gold)s gold).",
            detail="offered",
            gold=state.gold[payer],
        )
    stand_goods = checks.card_list(terms, "stand_goods")
    stand = set(state.stand(payer))
    if proposer != payer:  # the Sheriff can only ask for goods he can see: face-up legal ones
        stand = {c for c in stand if card(state.type_of(c)).is_legal}
    stand_goods += _counted_goods(state, payer, stand, stand_goods, terms)
    for card_id in stand_goods:
        if card_id in stand:
            continue
        if proposer == payer and card_id in set(state.hand(payer)):
            raise EngineError("hand_cards_not_offerable", "Cards in hand can never be offered.")
        raise _not_on_stand()
    bag_goods = _kind_counts(terms, "bag_goods", least=1)
    if bag_goods:
        declaration = state.phase.declarations[payer]
        if declaration is None or state.phase.decided[payer] is not None:
            raise EngineError(
                "bag_goods_unavailable",
                "There is no closed bag to promise goods from.",
                detail="no_bag",
            )
        if sum(bag_goods.values()) > declaration["count"]:
            raise EngineError(
                "bag_goods_unavailable",
                "More goods promised than the bag holds.",
                detail="too_many",
            )
    promise = terms.get("promise", "")
    if not isinstance(promise, str):
        raise EngineError("bad_command", "A promise must be text.", detail="promise")
    if len(promise) > MAX_PROMISE:
        raise EngineError(
            "promise_too_long", "Keep promises under %(count)s characters.", count=MAX_PROMISE
        )
    actions = terms.get("sheriff", [])
    if not isinstance(actions, list) or not actions:
        raise EngineError(
            "no_sheriff_action", "An offer must ask the Sheriff to let a bag pass or inspect it."
        )
    seen, merchants = set(), state.merchants()
    for action in actions:
        if not isinstance(action, dict) or action.get("action") not in ACTIONS:
            raise EngineError(
                "bad_command", "Each Sheriff action is 'pass' or 'inspect' a bag.", detail="action"
            )
        chooses = ("pile" in action or "order" in action) and (
            not state.is_inspector(proposer) or action["action"] != "inspect"
        )
        if chooses:
            raise EngineError(
                "bad_command",
                "Only the Sheriff chooses the pile and the order of confiscated goods.",
                detail="pile_choice",
            )
        bag = action.get("bag")
        if not checks.is_int(bag) or bag not in merchants or bag in seen:
            raise EngineError(
                "bad_command", "Each action must name a different merchant's bag.", detail="bags"
            )
        if state.phase.decided[bag] is not None:
            raise EngineError(
                "bag_already_decided", "The Sheriff has already decided that bag.", detail="sheriff"
            )
        if any(call_of(state, bag, d) is not None for d in deputies):
            raise EngineError(
                "bag_already_decided", "That Deputy has already decided that bag.", detail="deputy"
            )
        seen.add(bag)
        if "pile" in action:
            discard_pile(state, action["pile"])
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
        raise EngineError("bad_command", "An offer must be made to another seat.", detail="to")
    if state.is_inspector(seat) == state.is_inspector(to):
        if state.config.deputies:
            raise EngineError(
                "bad_counterparty",
                "Offers are made between a merchant and a Deputy.",
                detail="deputy",
            )
        raise EngineError(
            "bad_counterparty",
            "Offers are made between a merchant and the Sheriff.",
            detail="sheriff",
        )
    payer = to if state.is_inspector(seat) else seat
    if not state.config.deputies:
        return to, payer, None
    joint = command.get("joint", False)
    if not isinstance(joint, bool):
        raise EngineError("bad_command", "'joint' must be true or false.", detail="joint")
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
        raise EngineError(
            "not_offer_proposer", f"Only whoever made an offer can {verb} it.", detail=verb
        )
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


def _offer_to_answer(state, command: dict, verb: str) -> tuple:
    """The seat and the open offer it may accept or refuse (``verb``): one made to it,
    which it has not accepted yet."""
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    offer = _offer(state, command)
    if seat not in acceptors(state, offer):
        raise EngineError(
            "not_offer_recipient", f"Only the seat an offer was made to can {verb} it.", detail=verb
        )
    if seat in offer.get("accepted", []):
        raise EngineError("already_accepted", "You have already accepted this offer.")
    return seat, offer


def accept_offer(run: Run, command: dict) -> tuple | None:
    """Accept an offer. When it becomes a deal, its gold and stand goods are paid and
    ``(offer, chosen)`` is returned: the Sheriff actions to carry out
    (``decisions.carry_out``), with the pile and order the Sheriff chose in accepting
    (``chosen``, or None). None while another party has still to accept."""
    state = run.state
    seat, offer = _offer_to_answer(state, command, "accept")
    if command.get("revision") != offer["revision"]:
        raise EngineError(
            "stale_revision",
            "That offer has changed (it is now revision %(revision)s); "
            "read it again before accepting.",
            revision=offer["revision"],
        )
    terms = offer["terms"]
    payer = offer["payer"]
    if terms["gold"] > state.gold[payer]:
        raise EngineError(
            "insufficient_gold", "The payer no longer holds the gold offered.", detail="payer"
        )
    for action in terms["sheriff"]:
        if state.phase.decided[action["bag"]] is not None:
            raise EngineError(
                "bag_already_decided", "The Sheriff has already decided that bag.", detail="sheriff"
            )
        if any(call_of(state, action["bag"], d) is not None for d in offer.get("deputies", [])):
            raise EngineError(
                "bag_already_decided", "A Deputy has already decided that bag.", detail="a_deputy"
            )
        if action["bag"] != payer:  # the payer spoke for their own bag by dealing
            require_unlocked(state, action["bag"])
    # The Sheriff chooses where and how confiscated goods go: in his acceptance, or in
    # his demand (when a merchant accepts it; unsaid, the defaults).
    chosen = None
    if state.is_inspector(seat):
        chosen = (discard_pile(state, command.get("pile", 0)), parse_order(command.get("order")))
    waiting_for = [s for s in acceptors(state, offer) if s not in offer.get("accepted", [])]
    if waiting_for != [seat]:  # 6 players: another party has still to accept
        run.emit("offer_agreed", offer=offer["id"], revision=offer["revision"], seat=seat)
        return None

    receiver = payee(state, offer)
    deal = {"offer": offer["id"], "revision": offer["revision"], "payer": payer}
    if "deputies" in offer:
        deal.update(deputies=list(offer["deputies"]), payee=receiver)
    run.emit("deal_made", **deal, sheriff=state.sheriff, demand=is_demand(offer))
    transfer_gold(run, payer, receiver, terms["gold"], "bribe")
    # Honor among thieves: stand goods that are gone by now are simply not paid.
    still_there = [c for c in terms["stand_goods"] if c in set(run.state.stand(payer))]
    move_cards(run, still_there, f"stand:{payer}", stand_of(receiver), "bribe", reveal=True)
    return offer, chosen


def say_no_offer(run: Run, command: dict) -> None:
    """A merchant has nothing to offer for now: the Sheriff may decide their bag.
    (They may still offer later, while the bag is undecided.)"""
    state = run.state
    checks.require_phase(state, "inspection")
    seat = checks.require_seat(state, command)
    checks.require_merchant(state, seat)
    if state.phase.decided[seat] is not None:
        raise EngineError(
            "bag_already_decided",
            "Your bag is already decided (or you have none).",
            detail="own_bag",
        )
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
