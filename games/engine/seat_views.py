"""What each seat may see, built by allow-list from scratch.

A seat sees its own hand, bag and contraband; everyone's gold, legal stand
goods and contraband counts; the discard piles; the deck size; declarations
once revealed; offers and deals; opened bags. Never another seat's hand or
closed bag, others' contraband types, the deck order, the identity of a card
it cannot see, or the seed (until the game ends). ``viewer=None`` is a
spectator, who sees only what is public.
"""

from . import flow, inspection
from .cards import CARD_TYPES, card
from .config import FIRST_EDITION
from .state import BOOTY, OUT, State

_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}

# Events whose every field is public table talk or public outcome.
PUBLIC_EVENTS = {
    "round_started",
    "phase_started",
    "market_turn_taken",
    "gold_transferred",
    "offer_made",
    "offer_revised",
    "offer_agreed",
    "deputy_decided",
    "booty_shared",
    "black_market_claimed",
    "black_market_declined",
    "black_market_missed",
    "black_market_standing_set",
    "offer_withdrawn",
    "offers_lapsed",
    "offer_refused",
    "no_offer_said",
    "bargaining_ended",
    "deal_made",
    "bag_passed",
    "bag_inspected",
    "bag_goods_settled",
    "debt_settled",
    "timed_out",
    "round_ended",
    "game_ended",
    "noted",
}


def zone_visible(zone: str, card_type: str, viewer, edition: int) -> bool:
    """Can ``viewer`` see the face of a card of ``card_type`` lying in ``zone``?"""
    kind, _, owner = zone.partition(":")
    if kind in ("discard", BOOTY, OUT):  # face up: the Booty, cards out of the game
        return True
    if kind in ("deck", "box"):
        return False
    is_owner = viewer is not None and str(viewer) == owner
    if kind in ("hand", "bag"):
        return is_owner
    if kind == "aside":  # 2nd edition sets aside face up; 1st edition face down
        return edition != FIRST_EDITION or is_owner
    if kind == "stand":  # legal goods face up, contraband face down
        return card(card_type).is_legal or is_owner
    raise ValueError(f"unknown zone {zone!r}")


def _faces(state: State, cards: list) -> list:
    ordered = sorted(cards, key=lambda c: (_ORDER[state.type_of(c)], c))
    return [{"id": c, "type": state.type_of(c)} for c in ordered]


def view_for(state: State, viewer: int | None) -> dict:
    if viewer is not None and viewer not in range(state.players):
        raise ValueError(f"no seat {viewer!r} in this game")
    over = state.is_over()
    phase = state.phase
    players = [_player_view(state, seat, viewer, over) for seat in range(state.players)]
    view = {
        "schema": state.schema,
        "viewer": viewer,
        "version": state.seq,
        "config": state.config.to_dict(),
        "round": state.round,
        "rounds": state.config.rounds,
        "sheriff": state.sheriff,
        "phase": _phase_view(state),
        "deck_size": len(state.zones["deck"]),
        "removed_count": len(state.zones["box"]),
        "discard_piles": [
            _faces_in_order(state, state.zones[f"discard:{p}"])
            for p in range(state.config.discard_pile_count)
        ],
        "players": players,
        "seed_sha256": state.seed_sha256,
    }
    if state.config.deputies:
        view["deputies"] = list(state.deputies)
        view["deputy_deck_size"] = len(state.deputy_deck)  # its order is secret
        view["booty"] = {"gold": state.booty_gold, "goods": _faces(state, state.zones[BOOTY])}
        view["gold_out"] = state.gold_out
    if state.config.black_market:
        view["black_market"] = {
            "provisional": state.config.black_market_provisional,
            "piles": {kind: list(values) for kind, values in state.black_market.items()},
        }
        view["black_market_standing"] = list(state.black_market_standing)  # public
        view["out_of_game"] = _faces(state, state.zones[OUT])
    if phase is not None and phase.kind == "inspection":
        view["offers"] = [_offer_view(state, o) for o in phase.offers.values()]
        view["deals"] = [dict(d, terms=_terms_view(state, d["terms"])) for d in phase.deals]
        view["opened_bags"] = {int(seat): list(types) for seat, types in phase.revealed.items()}
        view["bargaining_over"] = phase.bargaining_over
        shown = _bags_shown_to(state, viewer)
        if shown:
            view["shown_bags"] = shown
        if viewer is not None:
            view["offer_moves_left"] = inspection.offer_moves_left(state, viewer)
    if over:
        view["seed"] = state.seed
        view["scores"] = phase.scores
    if viewer is not None:
        view["me"] = _own_view(state, viewer)
        view["my_moves"] = flow.actions(state)[viewer]
    return view


def _faces_in_order(state: State, cards: list) -> list:
    """A pile keeps its order (top last): 1st edition players draw from its top."""
    return [{"id": c, "type": state.type_of(c)} for c in cards]


def _player_view(state: State, seat: int, viewer, over: bool) -> dict:
    stand = state.stand(seat)
    legal = [c for c in stand if card(state.type_of(c)).is_legal]
    contraband = [c for c in stand if not card(state.type_of(c)).is_legal]
    player = {
        "seat": seat,
        "gold": state.gold[seat],
        "hand_size": _hand_size(state, seat, viewer),
        "stand": _faces(state, legal),
        "contraband_count": len(contraband),
        "is_sheriff": seat == state.sheriff,
        "times_sheriff": 0 if state.config.deputies else state.sheriff_turns[seat],
    }
    if state.config.deputies:
        player["is_deputy"] = seat in state.deputies
        player["times_deputy"] = state.sheriff_turns[seat]
    if over or seat == viewer:
        player["contraband"] = _faces(state, contraband)
    if state.config.black_market:  # claimed cards: public, counted apart from goods
        player["black_market"] = [
            {"type": c["type"], "value": c["value"]} for c in state.claims[seat]
        ]
    phase = state.phase
    if phase is None or over:
        return player
    if phase.kind == "market":
        player["acted"] = phase.pending[seat] is not None
    elif phase.kind == "load":
        player["acted"] = phase.declarations[seat] is not None
    elif phase.kind == "black_market":
        player["acted"] = phase.choices[seat] is not None  # the choice itself is sealed
    if phase.kind in ("inspection", "black_market") and state.config.black_market:
        player["claimed_this_round"] = state.claimed_this_round(seat)
    if phase.kind == "inspection" and state.config.black_market:
        player["declined_black_market"] = seat in phase.declined
    if phase.kind == "inspection" and phase.declarations[seat] is not None:
        player["declaration"] = dict(phase.declarations[seat])
        player["bag_status"] = phase.decided[seat] or "waiting"
        # Public: the table hears who offered or said "no offer" (their bag is decidable).
        player["spoken"] = seat in phase.spoken
        if state.config.deputies:  # each Deputy's call, in the order of "deputies"
            player["calls"] = list(phase.calls[seat])
    return player


def _hand_size(state: State, seat: int, viewer) -> int:
    """While bags are loaded, others see a merchant's hand as it was before: a
    closed bag's size stays sealed until the declarations are revealed."""
    hand = len(state.hand(seat))
    if seat != viewer and state.phase is not None and state.phase.kind == "load":
        return hand + len(state.bag(seat))
    return hand


def _phase_view(state: State) -> dict:
    phase = state.phase
    # "since" names this phase: a page rendered for an older one is stale.
    view = {"kind": phase.kind, "since": phase.since, "awaiting": flow.awaiting(state)}
    if phase.kind == "market_turn":
        view["seat"] = phase.seat
    if phase.kind == "black_market":
        view["seats"] = list(phase.seats)
    return view


def _terms_view(state: State, terms: dict) -> dict:
    # Stand goods were named by their giver, so offering them shows them.
    return dict(
        terms, stand_goods=[{"id": c, "type": state.type_of(c)} for c in terms["stand_goods"]]
    )


def _bags_shown_to(state: State, viewer) -> dict:
    """Honor among thieves: the bags shown to ``viewer`` alone (see decisions.py)."""
    return {
        int(seat): _faces(state, shown["cards"])
        for seat, shown in state.phase.shown.items()
        if viewer is not None and viewer in shown["to"]
    }


def _offer_view(state: State, offer: dict) -> dict:
    return dict(offer, terms=_terms_view(state, offer["terms"]))


def _own_view(state: State, seat: int) -> dict:
    phase = state.phase
    me = {
        "seat": seat,
        "hand": _faces(state, state.hand(seat)),
        "bag": _faces(state, state.bag(seat)),
    }
    if phase is not None and phase.kind == "market" and phase.pending[seat] is not None:
        me["set_aside"] = _faces(state, phase.pending[seat])
    if phase is not None and phase.kind in ("load", "inspection"):
        declaration = phase.declarations[seat]
        me["declaration"] = dict(declaration) if declaration else None
    if phase is not None and phase.kind == "black_market":
        me["black_market_choice"] = phase.choices[seat]
    return me


# --- the game log, as one seat may know it -----------------------------------------


def project_event(state: State, event: dict, viewer: int | None) -> dict:
    """One event as ``viewer`` may know it. ``state`` is any state of the same
    game (only its constant card identities and config are read)."""
    kind = event["type"]
    head = {"seq": event["seq"], "type": kind}
    if kind == "offer_made":
        return dict(event, offer=_offer_view(state, event["offer"]))
    if kind == "offer_revised":
        return dict(event, terms=_terms_view(state, event["terms"]))
    if kind in PUBLIC_EVENTS:
        return dict(event)
    if kind == "game_started":
        return {
            **head,
            "config": event["config"],
            "seed_sha256": event["seed_sha256"],
            "deck_size": len(event["card_types"]),
            "starting_gold": event["starting_gold"],
        }
    if kind in ("deck_shuffled", "deputy_deck_shuffled"):  # never the order
        return {**head, "number": event["number"], "size": len(event["order"])}
    if kind == "cards_moved":
        edition = state.config.edition
        seen = [
            c
            for c in event["cards"]
            if event["reveal"]
            or zone_visible(event["from"], state.type_of(c), viewer, edition)
            or zone_visible(event["to"], state.type_of(c), viewer, edition)
        ]
        return {
            **head,
            "from": event["from"],
            "to": event["to"],
            "reason": event["reason"],
            "cards": [{"id": c, "type": state.type_of(c)} for c in seen],
            # How many cards go into another seat's bag is its size: sealed.
            "hidden": None if _into_closed_bag(event, viewer) else len(event["cards"]) - len(seen),
        }
    if kind == "bag_goods_shown":  # the table sees it done; only its parties see the cards
        public = {**head, "payer": event["payer"], "to": event["to"], "deals": event["deals"]}
        public["count"] = len(event["cards"])
        if viewer is not None and (viewer in event["to"] or viewer == event["payer"]):
            public["cards"] = _faces(state, event["cards"])
        return public
    if kind in ("set_aside_submitted", "bag_loaded", "black_market_submitted"):
        return dict(event) if viewer == event["seat"] else {**head, "seat": event["seat"]}
    raise ValueError(f"no projection for event type {kind!r}")


def _into_closed_bag(event: dict, viewer) -> bool:
    kind, _, owner = event["to"].partition(":")
    return kind == "bag" and (viewer is None or str(viewer) != owner)


def project_log(state: State, events: list, viewer: int | None) -> list:
    return [project_event(state, event, viewer) for event in events]
