"""Events are facts, past tense. ``evolve`` applies one event to a state.

Every change of state is an event, automatic steps included (shuffles, deals,
refills, Sheriff rotation, scoring), so replaying the stored events rebuilds
the exact state without running any rule code. ``evolve`` mutates the state it
is given; callers work on a clone.

``apply`` works on a copy that shares the phase's deeper values (an offer's terms,
a deal's) with the state it was given (``state.copy_phase``): handlers change the
phase's lists and dicts, and the offers and calls directly inside them, but only
ever replace anything deeper. What they store from an event is a JSON copy, shared
with nothing.
"""

from .config import GameConfig
from .state import (
    BOOTY,
    GOLD_OUT,
    OUT,
    BlackMarketStep,
    GameOver,
    Inspection,
    Load,
    Market,
    MarketTurn,
    State,
    json_copy,
)


def new_state(event: dict) -> State:
    """The state a ``game_started`` event creates: every card in the deck."""
    config = GameConfig.from_dict(event["config"])
    n = config.players
    zones = {"deck": list(range(len(event["card_types"]))), "box": []}
    for pile in range(config.discard_pile_count):
        zones[f"discard:{pile}"] = []
    for seat in range(n):
        for kind in ("hand", "bag", "stand", "aside"):
            zones[f"{kind}:{seat}"] = []
    if config.deputies:
        zones[BOOTY] = []
    if config.black_market:
        zones[OUT] = []
    state = State(
        config=config,
        seed=event["seed"],
        seed_sha256=event["seed_sha256"],
        card_types=list(event["card_types"]),
        zones=zones,
        gold=[event["starting_gold"]] * n,
        sheriff=None if config.deputies else config.first_sheriff,
        sheriff_turns=[0] * n,
        seq=1,
    )
    if config.black_market:  # each pile top last: the higher value on top
        state.black_market = {kind: v[::-1] for kind, v in config.black_market_piles.items()}
        state.claims = [[] for _ in range(n)]
    return state


def evolve(state: State | None, event: dict) -> State:
    kind = event["type"]
    if kind == "game_started":
        if state is not None or event["seq"] != 0:
            raise ValueError("game_started must be the first event")
        return new_state(event)
    if state is None:
        raise ValueError("the first event must be game_started")
    if event["seq"] != state.seq:
        raise ValueError(f"event seq {event['seq']} out of order (expected {state.seq})")
    _HANDLERS[kind](state, event)
    state.seq += 1
    return state


# --- handlers -----------------------------------------------------------------


def _deck_shuffled(state: State, event: dict) -> None:
    order = event["order"]
    if sorted(order) != sorted(state.zones["deck"]):
        raise ValueError("a shuffle must reorder exactly the cards of the deck")
    state.zones["deck"] = list(order)
    state.shuffles += 1


def _cards_moved(state: State, event: dict) -> None:
    source = state.zones[event["from"]]
    target = state.zones[event["to"]]
    for card_id in event["cards"]:
        source.remove(card_id)  # ValueError if the card is not there: never silently
        target.append(card_id)


def _gold_transferred(state: State, event: dict) -> None:
    """Between seats; with 6 players also into and out of the Booty, and out of the
    game (the Booty's odd coin)."""
    amount, payer, payee = event["amount"], event["from"], event["to"]
    if amount <= 0 or _purse(state, payer) < amount or payer == GOLD_OUT:
        raise ValueError("a gold transfer must be positive and covered")
    _add_gold(state, payer, -amount)
    _add_gold(state, payee, amount)


def _purse(state: State, holder) -> int:
    if holder == BOOTY:
        return state.booty_gold
    if holder == GOLD_OUT:
        return state.gold_out
    return state.gold[holder]


def _add_gold(state: State, holder, amount: int) -> None:
    if holder == BOOTY:
        state.booty_gold += amount
    elif holder == GOLD_OUT:
        state.gold_out += amount
    else:
        state.gold[holder] += amount


def _round_started(state: State, event: dict) -> None:
    state.round = event["round"]
    state.sheriff = event["sheriff"]
    if state.config.deputies:  # the top two Deputy cards, the first drawn first
        deputies = list(event["deputies"])
        if state.deputy_deck[::-1][:2] != deputies:
            raise ValueError("the Deputies must be the top two cards of the Deputy deck")
        del state.deputy_deck[-2:]
        state.deputies = deputies
    for seat in state.inspectors():
        state.sheriff_turns[seat] += 1


def _deputy_deck_shuffled(state: State, event: dict) -> None:
    if state.deputy_deck or sorted(event["order"]) != list(range(state.players)):
        raise ValueError("the Deputy deck is shuffled whole, once it has run out")
    state.deputy_deck = list(event["order"])
    state.deputy_shuffles += 1


def _phase_started(state: State, event: dict) -> None:
    n = state.players
    phase = event["phase"]
    if phase == "market":
        state.phase = Market(pending=[None] * n)
    elif phase == "market_turn":
        state.phase = MarketTurn(seat=event["seat"])
    elif phase == "load":
        state.phase = Load(declarations=[None] * n)
    elif phase == "inspection":
        declarations = event["declarations"]
        decided = [None if declarations[seat] is not None else "none" for seat in range(n)]
        state.phase = Inspection(declarations=json_copy(declarations), decided=decided)
        if state.config.deputies:
            state.phase.calls = [
                None if declarations[seat] is None else [None] * len(state.deputies)
                for seat in range(n)
            ]
    elif phase == "black_market":
        state.phase = BlackMarketStep(seats=json_copy(event["seats"]), choices=[None] * n)
    else:
        raise ValueError(f"unknown phase {phase!r}")
    state.phase.since = event["seq"]


def _set_aside_submitted(state: State, event: dict) -> None:
    state.phase.pending[event["seat"]] = json_copy(event["cards"])


def _market_turn_taken(state: State, event: dict) -> None:
    state.phase.done = True


def _bag_loaded(state: State, event: dict) -> None:
    state.phase.declarations[event["seat"]] = json_copy(
        {"declared": event["declared"], "count": event["count"]}
    )


def _offer_made(state: State, event: dict) -> None:
    offer = json_copy(event["offer"])
    state.phase.offers[str(offer["id"])] = offer
    state.phase.next_offer = offer["id"] + 1
    if not state.is_inspector(offer["proposer"]):  # a merchant who offers has had their say
        _spoke(state.phase, offer["proposer"])


def _spoke(phase: Inspection, seat: int) -> None:
    phase.spoken = sorted({*phase.spoken, seat})


def _no_offer_said(state: State, event: dict) -> None:
    _spoke(state.phase, event["seat"])


def _bargaining_ended(state: State, event: dict) -> None:
    state.phase.bargaining_over = True


def _offer_revised(state: State, event: dict) -> None:
    offer = state.phase.offers[str(event["offer"])]
    offer["revision"] = event["revision"]
    offer["terms"] = json_copy(event["terms"])
    if "accepted" in offer:  # new terms: the acceptances of the old ones lapse
        offer["accepted"] = []


def _offer_agreed(state: State, event: dict) -> None:
    """Six players: one of the parties a joint offer needs accepted it."""
    offer = state.phase.offers[str(event["offer"])]
    offer["accepted"] = sorted({*offer["accepted"], event["seat"]})


def _offer_closed(status: str):
    def handler(state: State, event: dict) -> None:
        for offer_id in event["offers"]:
            state.phase.offers[str(offer_id)]["status"] = status

    return handler


def _deal_made(state: State, event: dict) -> None:
    phase: Inspection = state.phase
    offer = phase.offers[str(event["offer"])]
    offer["status"] = "accepted"
    phase.deals.append(
        {
            "offer": offer["id"],
            "revision": offer["revision"],
            "payer": offer["payer"],
            "terms": offer["terms"],
        }
    )
    if offer["terms"].get("bag_goods"):
        phase.owed_bag_goods.append(
            {
                "payer": offer["payer"],
                "to": payee(state, offer),
                "goods": dict(offer["terms"]["bag_goods"]),
                "deal": offer["id"],
            }
        )


def payee(state: State, offer: dict):
    """Who receives what the payer gives: the Sheriff; with 6 players the one Deputy
    of the offer, or the Booty when it binds both."""
    deputies = offer.get("deputies")
    if deputies is None:
        return state.sheriff
    return deputies[0] if len(deputies) == 1 else BOOTY


def _deputy_decided(state: State, event: dict) -> None:
    calls = state.phase.calls[event["bag"]]
    position = state.deputies.index(event["deputy"])
    if calls[position] is not None:
        raise ValueError("a Deputy decides a bag once")
    calls[position] = event["decision"]


def _black_market_claimed(state: State, event: dict) -> None:
    """The top card of a Black Market pile goes to the claimant's contraband pile."""
    pile = state.black_market[event["kind"]]
    if not pile or pile[-1] != event["value"] or state.claimed_this_round(event["seat"]):
        raise ValueError("a claim takes the top card of its pile, once a round")
    pile.pop()
    state.claims[event["seat"]].append(
        {"type": event["kind"], "value": event["value"], "round": state.round}
    )


def _black_market_declined(state: State, event: dict) -> None:
    state.phase.declined = sorted({*state.phase.declined, event["seat"]})


def _black_market_standing_set(state: State, event: dict) -> None:
    standing = {*state.black_market_standing} - {event["seat"]}
    state.black_market_standing = sorted(
        standing | ({event["seat"]} if event["standing"] else set())
    )


def _black_market_submitted(state: State, event: dict) -> None:
    state.phase.choices[event["seat"]] = json_copy(event["choice"])


def _bag_passed(state: State, event: dict) -> None:
    state.phase.decided[event["seat"]] = "passed"


def _bag_inspected(state: State, event: dict) -> None:
    state.phase.decided[event["seat"]] = "inspected"
    state.phase.revealed[str(event["seat"])] = json_copy(event["contents"])


def _bag_goods_shown(state: State, event: dict) -> None:
    state.phase.shown[str(event["payer"])] = {
        "to": json_copy(event["to"]),
        "cards": json_copy(event["cards"]),
    }


def _bag_goods_settled(state: State, event: dict) -> None:
    phase: Inspection = state.phase
    phase.owed_bag_goods = [o for o in phase.owed_bag_goods if o["payer"] != event["payer"]]


def _game_ended(state: State, event: dict) -> None:
    state.phase = GameOver(scores=json_copy(event["scores"]), since=event["seq"])


def _log_only(state: State, event: dict) -> None:
    """Events that tell the story but change nothing beyond the sequence number."""


_HANDLERS = {
    "deck_shuffled": _deck_shuffled,
    "deputy_deck_shuffled": _deputy_deck_shuffled,
    "cards_moved": _cards_moved,
    "gold_transferred": _gold_transferred,
    "round_started": _round_started,
    "phase_started": _phase_started,
    "set_aside_submitted": _set_aside_submitted,
    "market_turn_taken": _market_turn_taken,
    "bag_loaded": _bag_loaded,
    "offer_made": _offer_made,
    "offer_revised": _offer_revised,
    "offer_agreed": _offer_agreed,
    "deputy_decided": _deputy_decided,
    "booty_shared": _log_only,
    "black_market_claimed": _black_market_claimed,
    "black_market_declined": _black_market_declined,
    "black_market_submitted": _black_market_submitted,
    "black_market_standing_set": _black_market_standing_set,
    "black_market_missed": _log_only,
    "no_offer_said": _no_offer_said,
    "bargaining_ended": _bargaining_ended,
    "offer_withdrawn": _offer_closed("withdrawn"),
    "offers_lapsed": _offer_closed("lapsed"),
    "offer_refused": _offer_closed("refused"),
    "deal_made": _deal_made,
    "bag_passed": _bag_passed,
    "bag_inspected": _bag_inspected,
    "bag_goods_shown": _bag_goods_shown,
    "bag_goods_settled": _bag_goods_settled,
    "debt_settled": _log_only,
    "timed_out": _log_only,
    "noted": _log_only,
    "round_ended": _log_only,
    "game_ended": _game_ended,
}

EVENT_TYPES = ("game_started", *_HANDLERS)
# Re-exported for type hints in rule modules.
__all__ = ["EVENT_TYPES", "Inspection", "Load", "Market", "MarketTurn", "evolve", "new_state"]
