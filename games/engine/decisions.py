"""Phase 4, inspection: the Sheriff's (the Deputies') decisions. Pass or inspect a
bag, by a decision of theirs or by a deal (offers.py); the bag goods a deal promised
are paid when the bag is opened; a missed deadline lets undecided bags pass.
See inspection.py for the whole phase."""

from . import checks
from .cards import CARD_TYPES, card
from .config import FIRST_EDITION
from .inspection import (
    DEFAULT_ORDER,
    HIGHEST_ON_TOP,
    LOWEST_ON_TOP,
    call_of,
    discard_pile,
    emit_lapsed,
    end_if_all_decided,
    parse_order,
    require_unlocked,
    to_decide,
    undecided,
)
from .refusals import EngineError
from .state import BOOTY
from .table import Run, move_cards, pay_debt, stand_of

_TABLE_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}


def _require_undecided_bag(state, command: dict, seat: int) -> int:
    bag = command.get("bag")
    if not checks.is_int(bag) or bag not in state.merchants():
        raise EngineError("bad_command", "Name a merchant's bag.", detail="bag")
    if state.phase.decided[bag] is not None:
        if state.phase.decided[bag] == "none":
            raise EngineError(
                "bag_already_decided", "That merchant's bag has no bag.", detail="no_bag"
            )
        raise EngineError(
            "bag_already_decided", "That merchant's bag is already decided.", detail="decided"
        )
    if state.config.deputies and call_of(state, bag, seat) is not None:
        raise EngineError(
            "bag_already_decided", "You have already decided about that bag.", detail="my_call"
        )
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
    require_unlocked(state, bag)
    if decision == "inspect":
        pile = discard_pile(state, command.get("pile", 0))
        order = parse_order(command.get("order"))
    if state.config.deputies:
        _call(run, seat, bag, decision, deal=None)
    elif decision == "pass":
        _pass(run, bag, deal=None)
    else:
        _inspect(run, bag, pile, order, deal=None)
    end_if_all_decided(run)


def _lapse(run: Run, which) -> None:
    lapsed = [
        o["id"] for o in run.state.phase.offers.values() if o["status"] == "open" and which(o)
    ]
    if lapsed:
        emit_lapsed(run, lapsed, "bag_decided")


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


def time_out(run: Run, who: dict) -> bool:
    """Missed deadline: open offers lapse; undecided bags pass with no bribe (with 6
    players: every Deputy who has not called a bag counts as "let pass").
    ``who`` is ``{"by": "organizer"}`` when the organizer moved the game on.
    False, and nothing done, if every bag was decided already (held until the
    deadline): the flow then moves on."""
    state = run.state
    bags = undecided(state)
    if not bags:
        return False
    late = [s for s in state.inspectors() if to_decide(state, s)]
    run.emit("timed_out", phase="inspection", seats=late, **who)
    open_offers = [o["id"] for o in run.state.phase.offers.values() if o["status"] == "open"]
    if open_offers:
        emit_lapsed(run, open_offers, "deadline")
    for seat in bags:
        if state.config.deputies:
            for deputy in state.deputies:
                if call_of(run.state, seat, deputy) is None:
                    _call(run, deputy, seat, "pass", deal=None)
        else:
            _pass(run, seat, deal=None)
    end_if_all_decided(run)
    return True


def carry_out(run: Run, offer: dict, chosen) -> None:
    """A deal's Sheriff actions, carried out the moment it is made (offers.accept_offer):
    which is how the system enforces them."""
    for action in offer["terms"]["sheriff"]:
        if "deputies" in offer:
            for deputy in offer["deputies"]:
                _call(run, deputy, action["bag"], action["action"], deal=offer["id"])
        elif action["action"] == "pass":
            _pass(run, action["bag"], deal=offer["id"])
        else:
            pile, order = chosen or (action.get("pile", 0), action.get("order", DEFAULT_ORDER))
            _inspect(run, action["bag"], pile, order, deal=offer["id"])
    end_if_all_decided(run)
