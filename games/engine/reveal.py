"""The great reveal, read from a finished game's event log: every bag as it really
was (declared, inside, passed or inspected, who paid whom) and every deal, in the
order they happened.

Everything here was hidden while the game lasted; callers show it only once the
game is over (``State.is_over``). Pure: the log is replayed event by event, so a
bag's contents are read the moment it is decided, as the table would have seen
them had it been opened. ``round_ends`` replays it the same way for the table as
each round left it, every card face up (the archive's replay).
"""

from .cards import CARD_TYPES, card
from .events import evolve
from .state import BOOTY, State

PENALTIES = ("fine", "honest_penalty")
_CARD_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}  # card-table order


def story(events: list) -> dict:
    """{"bags": [...], "deals": [...]} of the whole game, each in the order it happened.

    A bag: round, seat, declared, count, contents (card types, as loaded), truthful
    (only the declared goods, as many as declared), smuggled (its contraband and
    royal goods) and their value, outcome ("passed" / "inspected"), inspectors (6
    players: the Deputies who called "inspect"), calls ({deputy: call}), deal (the
    offer id that decided it, or None), penalties ([{from, to, gold, goods}]).

    A deal: round, offer, revision, payer, payee (a seat, or "booty"), demand (the
    Sheriff's own terms), gold paid, goods given (card types), bags ([{bag, action}])
    and the promise."""
    state = None
    bags: list = []
    deals: list = []
    calls: dict = {}  # (round, bag) -> {deputy: call}, 6 players
    bag = deal = None  # the bag or deal the next payments belong to
    for event in events:
        kind = event["type"]
        if kind == "deputy_decided":
            calls.setdefault((state.round, event["bag"]), {})[event["deputy"]] = event["decision"]
        elif kind in ("bag_passed", "bag_inspected"):
            bag = _bag(state, event, calls.get((state.round, event["seat"]), {}))
            bags.append(bag)
        elif kind == "deal_made":
            deal = _deal(state, event)
            deals.append(deal)
        elif kind == "gold_transferred":
            if event["reason"] == "bribe" and deal is not None:
                deal["gold"] += event["amount"]
                deal["payee"] = event["to"]
            elif event["reason"] in PENALTIES and bag is not None:
                _penalty(bag, event["from"], event["to"])["gold"] += event["amount"]
        elif kind == "cards_moved":
            _cards_moved(state, event, bag, deals)
        elif kind in ("round_ended", "phase_started"):
            bag = deal = None
        state = evolve(state, event)
    return {"bags": bags, "deals": deals}


def _bag(state, event: dict, calls: dict) -> dict:
    seat = event["seat"]
    contents = [state.type_of(c) for c in state.bag(seat)]
    declaration = state.phase.declarations[seat]
    smuggled = [kind for kind in contents if not card(kind).is_legal]
    inspected = event["type"] == "bag_inspected"
    inspectors = list(event.get("by") or [state.sheriff]) if inspected else []
    return {
        "round": state.round,
        "seat": seat,
        "declared": declaration["declared"],
        "count": declaration["count"],
        "contents": contents,
        "truthful": len(contents) == declaration["count"]
        and all(kind == declaration["declared"] for kind in contents),
        "smuggled": smuggled,
        "smuggled_value": sum(card(kind).value for kind in smuggled),
        "outcome": "inspected" if inspected else "passed",
        "sheriff": state.sheriff,
        "inspectors": inspectors,
        "calls": dict(calls),
        "deal": event.get("deal"),
        "penalties": [],
    }


def _deal(state, event: dict) -> dict:
    offer = state.phase.offers[str(event["offer"])]
    return {
        "round": state.round,
        "offer": event["offer"],
        "revision": event["revision"],
        "payer": event["payer"],
        "payee": event.get("payee", state.sheriff),
        "demand": event.get("demand", False),
        "deputies": list(event.get("deputies", [])),
        "gold": 0,
        "goods": [],
        "bags": [{"bag": a["bag"], "action": a["action"]} for a in offer["terms"]["sheriff"]],
        "promise": offer["terms"].get("promise", ""),
    }


def _penalty(bag: dict, payer, payee) -> dict:
    for entry in bag["penalties"]:
        if (entry["from"], entry["to"]) == (payer, payee):
            return entry
    entry = {"from": payer, "to": payee, "gold": 0, "goods": []}
    bag["penalties"].append(entry)
    return entry


def _holder(zone: str):
    """ "stand:2" -> 2; the Booty keeps its own name."""
    return int(zone.split(":")[1]) if zone.startswith("stand:") else BOOTY


def _cards_moved(state, event: dict, bag, deals: list) -> None:
    """Goods given in a deal (at once from a stand, or later from the bag that reached
    it) and goods taken for a penalty the payer's gold did not cover."""
    kinds = [state.type_of(c) for c in event["cards"]]
    if event["reason"] == "bribe":
        payer, payee = _holder(event["from"]), _holder(event["to"])
        for deal in reversed(deals):  # the latest deal of the round between the two
            if (deal["round"], deal["payer"], deal["payee"]) == (state.round, payer, payee):
                deal["goods"] += kinds
                return
    elif event["reason"] in PENALTIES and bag is not None:
        _penalty(bag, _holder(event["from"]), _holder(event["to"]))["goods"] += kinds


def round_ends(events: list) -> list:
    """The table as each round left it, every card face up, in round order: after
    its last event (the hands refilled for the next round; the game's end for the
    last). [{round, sheriff (None with Deputies), deputies, seats}]. A seat: seat,
    gold, gold_before (as the round started), hand, stand (legal goods), contraband
    (face-down goods), black_market ([{type, value}] claimed), each list of card
    types in card-table order. (The Booty is shared out before a round ends.)"""
    state = None
    tables = []
    started: list = []  # each seat's gold as the round started
    for event in events:
        if event["type"] == "round_started" and state.round:
            tables.append(_table(state, started))
        state = evolve(state, event)
        if event["type"] == "round_started":
            started = list(state.gold)
    if state is not None and state.round:
        tables.append(_table(state, started))
    return tables


def _table(state: State, started: list) -> dict:
    def kinds(cards) -> list:
        return sorted((state.type_of(c) for c in cards), key=_CARD_ORDER.get)

    seats = []
    for seat in range(state.players):
        stand = state.stand(seat)
        seats.append(
            {
                "seat": seat,
                "gold": state.gold[seat],
                "gold_before": started[seat],
                "hand": kinds(state.hand(seat)),
                "stand": kinds(c for c in stand if card(state.type_of(c)).is_legal),
                "contraband": kinds(c for c in stand if not card(state.type_of(c)).is_legal),
                "black_market": [
                    {"type": c["type"], "value": c["value"]}
                    for c in (state.claims[seat] if state.claims else [])
                ],
            }
        )
    deputies = state.config.deputies
    return {
        "round": state.round,
        "sheriff": None if deputies else state.sheriff,
        "deputies": list(state.deputies) if deputies else [],
        "seats": seats,
    }
