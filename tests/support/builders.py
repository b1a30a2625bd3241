"""Shared builders for the rule catalogue: start a game, rig zones, drive phases.

Only these builders mutate a State directly, and only on a clone, for test
setup: ``rig`` and ``move_top`` move card identities between zones (every card
stays in exactly one zone, asserted each time), ``set_gold`` sets a purse.
Everything else goes through the engine's public ``apply``.
"""

from itertools import chain

import pytest

from games.engine import EngineError, State, apply, default_commands, new_game

SEED = "5e" * 32  # 64 hex chars: every catalogue game is the same deal
SOURCES = ("deck", "box", "discard:0", "discard:1")  # zones whose cards are not "in use"


# --- starting and reading ---------------------------------------------------------


def start(players: int = 4, edition: int = 2, **options) -> State:
    """A new game with a fixed seed; seat 0 is the first Sheriff."""
    state, _ = new_game({"players": players, "edition": edition, **options}, SEED)
    return state


def types_in(state: State, zone: str) -> list:
    """The card types in a zone, sorted (order-free comparisons)."""
    return sorted(state.type_of(c) for c in state.zones[zone])


def ids_of(state: State, zone: str, types) -> list:
    """Card ids in ``zone`` matching ``types`` (a multiset), in the order of ``types``."""
    pool = list(state.zones[zone])
    found = []
    for kind in types:
        card_id = next((c for c in pool if state.type_of(c) == kind), None)
        assert card_id is not None, f"no {kind} left in {zone}: {types_in(state, zone)}"
        pool.remove(card_id)
        found.append(card_id)
    return found


def assert_conserved(state: State) -> None:
    """Every card id sits in exactly one zone."""
    every = sorted(chain.from_iterable(state.zones.values()))
    assert every == list(range(len(state.card_types))), "card conservation broken"


# --- test setup by direct mutation (builders only) ------------------------------------


def rig(state: State, zone: str, types, top: bool = False) -> State:
    """A clone whose ``zone`` holds exactly ``types`` (last = top). With ``top``,
    only the top ``len(types)`` cards of the pile are replaced. Cards come from
    the deck first (then box, discard piles) and the zone's displaced cards take
    their places; surplus displaced cards go to the bottom of the deck."""
    state = state.clone()
    zones = state.zones
    cut = len(zones[zone]) - len(types) if top else 0
    assert cut >= 0, f"{zone} has fewer than {len(types)} cards"
    kept, old = list(zones[zone][:cut]), list(zones[zone][cut:])
    zones[zone] = kept  # while picking, the rest of the zone is an eligible source
    chosen, taken = [], []  # taken: (source zone, index) slots to refill
    for kind in types:
        reuse = next((c for c in old if state.type_of(c) == kind and c not in chosen), None)
        if reuse is not None:
            chosen.append(reuse)
            continue
        slot = next(
            (
                (name, i)
                for name in SOURCES
                if name in zones
                for i, c in enumerate(zones[name])
                if state.type_of(c) == kind and (name, i) not in taken
            ),
            None,
        )
        assert slot is not None, f"no spare {kind} card to rig into {zone}"
        taken.append(slot)
        chosen.append(zones[slot[0]][slot[1]])
    displaced = [c for c in old if c not in chosen]
    for name, i in taken:  # swap: a displaced card takes the chosen card's place
        zones[name][i] = displaced.pop() if displaced else None
    for name in {name for name, _ in taken}:
        zones[name] = [c for c in zones[name] if c is not None]
    zones[zone] = zones[zone] + chosen
    zones["deck"][:0] = displaced
    assert_conserved(state)
    return state


def move_top(state: State, source: str, target: str, count: int | None = None) -> State:
    """A clone with the top ``count`` cards (all if None) of ``source`` put on ``target``."""
    state = state.clone()
    pile = state.zones[source]
    count = len(pile) if count is None else count
    moving = pile[len(pile) - count :]
    state.zones[source] = pile[: len(pile) - count]
    state.zones[target] = state.zones[target] + moving
    assert_conserved(state)
    return state


def with_deputies(state: State, first: int, second: int) -> State:
    """A clone of a 6-player game at the start of a round whose Deputies are ``first``
    (drawn first) and ``second``; the seats they replace go back into the Deputy deck."""
    assert state.phase.kind == "market" and not any(state.phase.pending)
    state = state.clone()
    old = list(state.deputies)
    for seat in old:
        state.sheriff_turns[seat] -= 1
    for seat in (first, second):
        state.sheriff_turns[seat] += 1
    pool = [s for s in state.deputy_deck if s not in (first, second)] + old
    state.deputy_deck = [s for s in pool if s not in (first, second)]
    state.deputies = [first, second]
    return state


def set_gold(state: State, purses: dict) -> State:
    """A clone with gold set per seat: ``set_gold(state, {1: 3, 0: 0})``."""
    state = state.clone()
    for seat, amount in purses.items():
        state.gold[seat] = amount
    return state


# --- commands -------------------------------------------------------------------------


def do(state: State, kind: str, **fields) -> State:
    """Apply one command; the new state."""
    return apply(state, {"type": kind, **fields})[0]


def do_events(state: State, kind: str, **fields) -> tuple:
    """Apply one command; the new state and its events."""
    return apply(state, {"type": kind, **fields})


def refused(state: State, command: dict, code: str) -> None:
    """The command is refused with ``code`` and the state is untouched."""
    before = state.hash()
    with pytest.raises(EngineError) as error:
        apply(state, command)
    assert error.value.code == code
    assert state.hash() == before


def to_load_phase(state: State) -> State:
    """Every merchant sets nothing aside (2nd ed) / takes an empty market turn (1st ed)."""
    while state.phase.kind in ("market", "market_turn"):
        state = do(state, "timeout")
    assert state.phase.kind == "load"
    return state


def load(state: State, seat: int, types, declared: str, count: int | None = None) -> State:
    """``seat`` loads the hand cards of ``types`` and declares ``count`` (default: all)."""
    cards = ids_of(state, f"hand:{seat}", types)
    count = len(cards) if count is None else count
    return do(state, "load_bag", seat=seat, cards=cards, declared=declared, count=count)


def to_inspection(state: State, bags: dict, *, bargaining: bool = False) -> State:
    """From the market or load phase: ``bags = {seat: (types, declared)}``; each
    listed merchant's hand is rigged to exactly those cards and loaded; unlisted
    merchants load their missed-move default. The bargaining time is over at once
    (face to face, as the books' examples are played, everyone could speak) unless
    ``bargaining``."""
    if state.phase.kind != "load":
        state = to_load_phase(state)
    for seat, (types, declared) in bags.items():
        state = rig(state, f"hand:{seat}", types)
        state = load(state, seat, types, declared)
    for command in default_commands(state):
        state = apply(state, command)[0]
    assert state.phase.kind == "inspection"
    return state if bargaining else do(state, "end_bargaining")


def terms(gold=0, stand_goods=(), bag_goods=None, passes=(), inspects=()) -> dict:
    """Offer terms: what the payer gives, and which bags the Sheriff passes/inspects."""
    actions = [{"bag": b, "action": "pass"} for b in passes]
    actions += [{"bag": b, "action": "inspect"} for b in inspects]
    return {
        "gold": gold,
        "stand_goods": list(stand_goods),
        "bag_goods": dict(bag_goods or {}),
        "sheriff": actions,
    }


def offer(state: State, seat: int, to: int, **offer_terms) -> tuple:
    """``seat`` makes an offer to ``to``; returns (state, offer id)."""
    offer_id = state.phase.next_offer
    state = do(state, "make_offer", seat=seat, to=to, terms=terms(**offer_terms))
    return state, offer_id


def accept(state: State, seat: int, offer_id: int, revision: int | None = None) -> State:
    """``seat`` accepts an offer, naming its current revision unless told otherwise."""
    if revision is None:
        revision = state.phase.offers[str(offer_id)]["revision"]
    return do(state, "accept_offer", seat=seat, offer=offer_id, revision=revision)


def offer_status(state: State, offer_id: int) -> str:
    return state.phase.offers[str(offer_id)]["status"]


def play_out(state: State, limit: int = 200) -> tuple:
    """Time out every phase until the game ends; returns (state, all events)."""
    events = []
    while not state.is_over():
        limit -= 1
        assert limit > 0, "the game did not end"
        state, new = apply(state, {"type": "timeout"})
        events += new
    return state, events


def events_of(events: list, kind: str) -> list:
    return [e for e in events if e["type"] == kind]
