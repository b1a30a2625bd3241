"""Invariants every reachable state satisfies, and the no-leak checks.

Used after every step by the simulator and the property tests. Each check
returns a list of human-readable violations (empty when all is well).
"""

import random

from . import black_market, inspection
from .cards import BLACK_MARKET_TYPES, LEGAL_TYPES
from .checks import MAX_BAG, MIN_BAG
from .game import STARTING_GOLD, apply
from .seat_views import project_event, view_for, zone_visible
from .state import State


def check_state(state: State) -> list:
    problems = []
    n = state.players
    everywhere = [c for cards in state.zones.values() for c in cards]
    if sorted(everywhere) != list(range(len(state.card_types))):
        problems.append("card conservation: a card is missing or in two places")
    # Gold leaves a seat only for another seat, the Booty, or (its odd coin) the game.
    total = sum(state.gold) + state.booty_gold + state.gold_out
    if total != STARTING_GOLD * n:
        problems.append(f"gold not conserved: total {total}")
    if any(g < 0 for g in [*state.gold, state.booty_gold, state.gold_out]):
        problems.append(f"negative gold: {state.gold}")
    problems += _check_roles(state)
    problems += _check_black_market(state)
    if state.round > state.config.rounds:
        problems.append(f"round {state.round} beyond the game's {state.config.rounds}")
    if any(state.zones[f"aside:{s}"] for s in range(n)):
        problems.append("cards left set aside between commands")
    if any(state.bag(seat) for seat in state.inspectors()):
        problems.append("the Sheriff (a Deputy) has a bag")
    problems += _check_bags(state)
    if any(len(state.hand(s)) > state.config.hand_size for s in range(n)):
        problems.append("a hand exceeds the hand size")
    return problems


def _check_roles(state: State) -> list:
    """One Sheriff a round; with 6 players two Deputies a round from the Deputy deck,
    the Booty empty outside the inspection, at most one coin out of the game a round."""
    n = state.players
    if not state.config.deputies:
        if state.sheriff is None or not 0 <= state.sheriff < n:
            return ["no Sheriff"]
        if sum(state.sheriff_turns) != state.round:
            return ["not exactly one Sheriff per round"]
        return []
    problems = []
    deputies, deck = state.deputies, state.deputy_deck
    if state.sheriff is not None or len(set(deputies)) != 2:
        problems.append(f"not two Deputies: {deputies}, Sheriff {state.sheriff}")
    if sum(state.sheriff_turns) != 2 * state.round or max(state.sheriff_turns) > 3:
        problems.append(f"Deputy turns {state.sheriff_turns} after round {state.round}")
    drawn_this_cycle = 2 * ((state.round - 1) % 3 + 1)
    if len(set(deck) | set(deputies)) != len(deck) + 2 or len(deck) != n - drawn_this_cycle:
        problems.append(f"Deputy deck {deck} with Deputies {deputies} in round {state.round}")
    kind = state.phase.kind if state.phase else None
    if kind not in ("inspection", "black_market") and (state.booty_gold or state.zones["booty"]):
        problems.append("the Booty is not empty outside the inspection")
    if state.gold_out > state.round:
        problems.append(f"{state.gold_out} gold out of the game after {state.round} rounds")
    return problems


def _check_black_market(state: State) -> list:
    """Black Market cards: each in its pile or with one claimant (conservation), at most
    one claim per seat a round, none by that round's Sheriff or Deputies; exactly 3
    cards of the claimed kind out of the game per claim; no standing answer left
    unanswered when it could claim (it claims the moment it can)."""
    if not state.config.black_market:
        return []
    problems = []
    dealt = sorted(v for values in state.config.black_market_piles.values() for v in values)
    piles = [v for values in state.black_market.values() for v in values]
    claimed = [c for seat in state.claims for c in seat]
    if sorted(piles + [c["value"] for c in claimed]) != dealt:
        problems.append("Black Market cards not conserved")
    for kind, values in state.black_market.items():
        if values != sorted(values):
            problems.append(f"the {kind} pile is not the higher value on top")
    for seat, seat_claims in enumerate(state.claims):
        rounds = [c["round"] for c in seat_claims]
        if len(rounds) != len(set(rounds)):
            problems.append(f"seat {seat} claimed twice in a round")
        if state.round in rounds and state.is_inspector(seat):
            problems.append(f"seat {seat} claimed in a round it inspects")
    out = [state.type_of(c) for c in state.zones["out"]]
    for kind in {c["type"] for c in claimed} | set(out):
        if out.count(kind) != 3 * sum(1 for c in claimed if c["type"] == kind):
            problems.append(f"the {kind} cards out of the game do not match the claims")
    if state.phase is not None and state.phase.kind == "inspection":
        for seat in state.black_market_standing:
            if black_market.standing_claim_due(state, seat):
                problems.append(f"seat {seat}'s standing answer could claim and has not")
    return problems


def check_bargaining(before: State, events: list) -> list:
    """No bag was decided by a command while its merchant could still speak:
    every bag passed or inspected without a deadline had spoken or was unlocked."""
    phase = before.phase
    if phase is None or phase.kind != "inspection":
        return []
    if any(e["type"] == "timed_out" for e in events):  # the deadline decides every bag
        return []
    open_bags = set(inspection.waiting_to_speak(before))
    spoke_now = {e["seat"] for e in events if e["type"] == "no_offer_said"}
    spoke_now |= {e["offer"]["proposer"] for e in events if e["type"] == "offer_made"}
    payers = {e["payer"] for e in events if e["type"] == "deal_made"}
    decided = {e["seat"] for e in events if e["type"] in ("bag_passed", "bag_inspected")}
    decided |= {e["bag"] for e in events if e["type"] == "deputy_decided"}
    early = decided & open_bags - spoke_now - payers
    return [f"bag of seat {s} decided before its merchant could speak" for s in sorted(early)]


def _check_bags(state: State) -> list:
    phase = state.phase
    kind = phase.kind if phase else None
    problems = []
    for seat in range(state.players):
        bag = state.bag(seat)
        if kind not in ("load", "inspection"):
            if bag:
                problems.append(f"seat {seat} has a bag outside loading/inspection")
            continue
        declaration = phase.declarations[seat]
        decided = kind == "inspection" and phase.decided[seat] is not None
        if declaration is None or decided:
            if bag:
                problems.append(f"seat {seat} has cards in a bag that is not in play")
        elif not MIN_BAG <= len(bag) <= MAX_BAG or declaration["count"] != len(bag):
            problems.append(f"seat {seat}: bag of {len(bag)} declared as {declaration['count']}")
    return problems


# --- no hidden information in views ----------------------------------------------


def _visible_cards(state: State, seat) -> set:
    """Card ids whose faces ``seat`` may see right now."""
    edition = state.config.edition
    over = state.is_over()
    visible = set()
    for zone, cards in state.zones.items():
        if over and zone.startswith("stand:"):
            visible.update(cards)
        elif zone.startswith("stand:"):  # the only zone where visibility depends on the card
            visible.update(c for c in cards if zone_visible(zone, state.type_of(c), seat, edition))
        elif cards and zone_visible(zone, state.type_of(cards[0]), seat, edition):
            visible.update(cards)
    phase = state.phase
    if phase is not None and phase.kind == "inspection":  # stand cards named in offers
        for offer in phase.offers.values():
            visible.update(offer["terms"]["stand_goods"])
        for shown in phase.shown.values():  # honor among thieves: a bag shown to its parties
            if seat in shown["to"]:
                visible.update(shown["cards"])
    return visible


def _card_faces(data) -> list:
    """Every {"id", "type"} card face anywhere inside a view or projected event."""
    found, stack = [], [data]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            if len(item) == 2 and "id" in item and "type" in item:
                found.append((item["id"], item["type"]))
            else:
                stack.extend(v for v in item.values() if type(v) in (dict, list))
        elif type(item) is list:
            stack.extend(v for v in item if type(v) in (dict, list))
    return found


def check_view(state: State, seat) -> list:
    """Every card face in the seat's view is one the seat may see, shown truly;
    the seed stays out until the game ends."""
    view = view_for(state, seat)
    visible = _visible_cards(state, seat)
    problems = [
        f"seat {seat} sees card {cid} it may not see"
        for cid, kind in _card_faces(view)
        if cid not in visible or state.type_of(cid) != kind
    ]
    if not state.is_over() and state.seed in repr(view):
        problems.append(f"seat {seat} can see the seed")
    return problems


def hidden_perturbation(state: State, events: list, seat, rnd: random.Random) -> State:
    """A copy of ``state`` differing only in what ``seat`` has never seen: the
    types of cards never shown to it (face-down contraband only within its own
    stand, so public counts stay true), the deck order, the secret seed, and the
    size and declaration of every other merchant's bag closed before the reveal."""
    seen = _visible_cards(state, seat)
    for event in events:
        _collect_ids(project_event(state, event, seat), seen)
    free, by_stand = [], {}
    for zone, cards in state.zones.items():
        for c in cards:
            if c in seen:
                continue
            if zone.startswith("stand:"):
                by_stand.setdefault(zone, []).append(c)
            else:
                free.append(c)
    types = list(state.card_types)
    for group in [free, *by_stand.values()]:
        kinds = [types[c] for c in group]
        rnd.shuffle(kinds)
        for c, kind in zip(group, kinds, strict=True):
            types[c] = kind
    other = state.clone()
    other.card_types = types
    rnd.shuffle(other.zones["deck"])
    rnd.shuffle(other.deputy_deck)  # which seats are left in it is public, not their order
    if not state.is_over():
        other.seed = "ff" * 32
    _reseal_bags(other, seat, rnd)
    _reseal_claims(other, seat, rnd)
    return other


def _reseal_claims(state: State, seat, rnd: random.Random) -> None:
    """Black Market step: another sealed choice for every merchant but ``seat`` who has
    chosen (who has chosen is public)."""
    if state.phase is None or state.phase.kind != "black_market":
        return
    for merchant in state.phase.seats:
        if merchant != seat and state.phase.choices[merchant] is not None:
            state.phase.choices[merchant] = rnd.choice([*BLACK_MARKET_TYPES, "none"])


def _reseal_bags(state: State, seat, rnd: random.Random) -> None:
    """Load phase: refill every closed bag but ``seat``'s from its owner's hand and
    bag together, to another size with another declaration. Who has loaded is public."""
    if state.phase is None or state.phase.kind != "load":
        return
    for merchant in _loaded_others(state, seat):
        _open_bag(state, merchant)
        hand = state.zones[f"hand:{merchant}"]
        bag = rnd.sample(hand, rnd.randint(MIN_BAG, min(MAX_BAG, len(hand))))
        state.zones[f"hand:{merchant}"] = [c for c in hand if c not in bag]
        state.zones[f"bag:{merchant}"] = bag
        state.phase.declarations[merchant] = {
            "declared": rnd.choice(LEGAL_TYPES),
            "count": len(bag),
        }


def _loaded_others(state: State, seat) -> list:
    declarations = state.phase.declarations
    return [m for m in state.merchants() if m != seat and declarations[m] is not None]


def _open_bag(state: State, merchant: int) -> None:
    """Put a closed bag back in its owner's hand, as if never loaded."""
    state.zones[f"hand:{merchant}"] += state.zones[f"bag:{merchant}"]
    state.zones[f"bag:{merchant}"] = []
    state.phase.declarations[merchant] = None


def _collect_ids(data, ids: set) -> None:
    for cid, _ in _card_faces(data):
        ids.add(cid)


def check_no_leak(state: State, events: list, seat, rnd: random.Random) -> list:
    """Changing only what ``seat`` cannot see leaves its view and log identical;
    in the load phase, so does changing who else has loaded and how much."""
    other = hidden_perturbation(state, events, seat, rnd)
    problems = []
    if view_for(state, seat) != view_for(other, seat):
        problems.append(f"seat {seat}'s view depends on hidden information")
    for event in events:
        if project_event(state, event, seat) != project_event(other, event, seat):
            problems.append(f"seat {seat}'s log projection of {event['type']} leaks")
            break
    return problems + check_sealed_loading(state, events, seat, rnd)


# --- sealed bags: the timing of loads tells nothing of their size -------------------


def loading_perturbation(state: State, seat, rnd: random.Random) -> tuple | None:
    """Another course of the current load phase for every merchant but ``seat``:
    each of them has loaded, or not yet, a bag of a random size and declaration.
    Returns (state, {merchant: its load events}), or None outside the load phase."""
    if state.phase is None or state.phase.kind != "load":
        return None
    other = state.clone()
    for merchant in _loaded_others(other, seat):
        _open_bag(other, merchant)
    loads = {}
    for merchant in other.merchants():
        hand = other.hand(merchant)
        if merchant == seat or not hand or rnd.random() < 1 / 3:
            continue
        bag = rnd.sample(hand, rnd.randint(MIN_BAG, min(MAX_BAG, len(hand))))
        command = {
            "type": "load_bag",
            "seat": merchant,
            "cards": bag,
            "declared": rnd.choice(LEGAL_TYPES),
            "count": len(bag),
        }
        # Without auto_advance the phase stays open, as before the reveal.
        other, loads[merchant] = apply(other, command, auto_advance=False)
    return other, loads


def check_sealed_loading(state: State, events: list, seat, rnd: random.Random) -> list:
    """Before the reveal, ``seat`` learns who else has closed their bag (public at
    the table) but nothing of its size or declaration: not from its view, nor from
    its log of a load, nor from how either changes when a bag is loaded."""
    world = loading_perturbation(state, seat, rnd)
    if world is None:
        return []
    other, other_loads = world
    problems = []
    if _sealed_view(view_for(state, seat)) != _sealed_view(view_for(other, seat)):
        problems.append(f"seat {seat}'s view tells whether or how much another merchant loaded")
    real_loads = _loads(state, events)
    for merchant in sorted(real_loads.keys() & other_loads.keys()):
        real = _sealed_log(state, real_loads[merchant], seat)
        if real != _sealed_log(other, other_loads[merchant], seat):
            problems.append(f"seat {seat}'s log of seat {merchant}'s load tells the bag")
    return problems


def _sealed_view(view: dict) -> dict:
    """A view without what says who has loaded: the version, the seats awaited and
    each seat's "acted"."""
    view = dict(view, version=None, phase=dict(view["phase"], awaiting=None))
    view["players"] = [{k: v for k, v in p.items() if k != "acted"} for p in view["players"]]
    return view


def _loads(state: State, events: list) -> dict:
    """The events of each load in the current load phase, by merchant."""
    loads: dict = {}
    for event in events:
        if event["seq"] < state.phase.since:
            continue
        if event["type"] == "bag_loaded":
            loads.setdefault(event["seat"], []).append(event)
        elif event["type"] == "cards_moved" and event["reason"] == "load":
            loads.setdefault(int(event["from"].partition(":")[2]), []).append(event)
    return loads


def _sealed_log(state: State, events: list, seat) -> list:
    """The projections of one load, without their place in the log."""
    return [dict(project_event(state, e, seat), seq=None) for e in events]
