"""Invariants every reachable state satisfies, and the no-leak checks.

Used after every step by the simulator and the property tests. Each check
returns a list of human-readable violations (empty when all is well).
"""

import random

from . import inspection
from .checks import MAX_BAG, MIN_BAG
from .game import STARTING_GOLD
from .state import State
from .views import project_event, view_for, zone_visible


def check_state(state: State) -> list:
    problems = []
    n = state.players
    everywhere = [c for cards in state.zones.values() for c in cards]
    if sorted(everywhere) != list(range(len(state.card_types))):
        problems.append("card conservation: a card is missing or in two places")
    if sum(state.gold) != STARTING_GOLD * n:
        problems.append(f"gold not conserved: total {sum(state.gold)}")
    if any(g < 0 for g in state.gold):
        problems.append(f"negative gold: {state.gold}")
    if not 0 <= state.sheriff < n or sum(state.sheriff_turns) != state.round:
        problems.append("not exactly one Sheriff per round")
    if state.round > state.config.rounds:
        problems.append(f"round {state.round} beyond the game's {state.config.rounds}")
    if any(state.zones[f"aside:{s}"] for s in range(n)):
        problems.append("cards left set aside between commands")
    if state.bag(state.sheriff):
        problems.append("the Sheriff has a bag")
    problems += _check_bags(state)
    if any(len(state.hand(s)) > state.config.hand_size for s in range(n)):
        problems.append("a hand exceeds the hand size")
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
    stand, so public counts stay true), the deck order and the secret seed."""
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
    if not state.is_over():
        other.seed = "ff" * 32
    return other


def _collect_ids(data, ids: set) -> None:
    for cid, _ in _card_faces(data):
        ids.add(cid)


def check_no_leak(state: State, events: list, seat, rnd: random.Random) -> list:
    """Changing only what ``seat`` cannot see leaves its view and log identical."""
    other = hidden_perturbation(state, events, seat, rnd)
    problems = []
    if view_for(state, seat) != view_for(other, seat):
        problems.append(f"seat {seat}'s view depends on hidden information")
    for event in events:
        if project_event(state, event, seat) != project_event(other, event, seat):
            problems.append(f"seat {seat}'s log projection of {event['type']} leaks")
            break
    return problems
