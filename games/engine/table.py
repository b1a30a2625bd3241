"""Primitive moves every rule is built from: emit an event, move cards, move
gold, draw with reshuffles, settle a debt. Gold moves only through
``transfer_gold``; cards only through ``move_cards``.
"""

from .cards import card
from .config import FIRST_EDITION
from .events import evolve
from .rng import shuffled
from .state import BOOTY, State

DISCARD_PILE_KEEP = 5  # 1st edition: the top 5 of each pile stay when reshuffling


class Run:
    """One command being applied: the working state and the events emitted."""

    def __init__(self, state: State, auto_advance: bool = True):
        self.state = state
        self.events: list[dict] = []
        self.auto_advance = auto_advance  # see flow.py
        # Set by the rules when the last awaited move of the phase is in; the flow
        # (flow.py) then moves on, once the command's own events are out.
        self.completed = False

    def phase_complete(self) -> None:
        """The current phase waits for nobody any more."""
        self.completed = True

    def emit(self, type: str, **data) -> dict:
        event = {"seq": self.state.seq, "type": type, **data}
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event


def move_cards(
    run: Run, cards: list, source: str, target: str, reason: str, reveal: bool = False
) -> None:
    """Move cards by identity. ``reveal`` shows them to every seat on the way."""
    if cards:
        run.emit(
            "cards_moved",
            cards=list(cards),
            **{"from": source, "to": target},
            reason=reason,
            reveal=reveal,
        )


def stand_of(holder) -> str:
    """Where goods given to ``holder`` go: a seat's stand, or the Booty (6 players)."""
    return BOOTY if holder == BOOTY else f"stand:{holder}"


def transfer_gold(run: Run, payer, payee, amount: int, reason: str) -> None:
    """Seat to seat; with 6 players also to and from the Booty, and out of the game."""
    if amount > 0:
        run.emit("gold_transferred", amount=amount, reason=reason, **{"from": payer, "to": payee})


def shuffle_deck(run: Run) -> None:
    state = run.state
    # Shuffle the sorted ids so anyone holding the revealed seed can re-derive it.
    order = shuffled(sorted(state.zones["deck"]), state.seed, f"shuffle:{state.shuffles}")
    run.emit("deck_shuffled", order=order, number=state.shuffles)


def reshuffle(run: Run) -> bool:
    """Rebuild an empty deck from the discard pile(s). False if no card could be had."""
    state = run.state
    keep = DISCARD_PILE_KEEP if state.config.edition == FIRST_EDITION else 0
    moved = False
    for pile in range(state.config.discard_pile_count):
        name = f"discard:{pile}"
        cards = state.zones[name]
        if len(cards) > keep:
            move_cards(run, cards[: len(cards) - keep], name, "deck", "reshuffle")
            moved = True
    if moved:
        shuffle_deck(run)
    return moved


def draw_from_deck(run: Run, seat: int, count: int, reason: str) -> int:
    """Draw up to ``count`` cards from the top of the deck; returns how many came."""
    drawn = 0
    while drawn < count:
        deck = run.state.zones["deck"]
        if not deck and not reshuffle(run):
            break  # no card can be had: play on short-handed
        deck = run.state.zones["deck"]
        take = min(count - drawn, len(deck))
        move_cards(run, deck[::-1][:take], "deck", f"hand:{seat}", reason)
        drawn += take
    return drawn


def refill_hand(run: Run, seat: int, reason: str) -> None:
    missing = run.state.config.hand_size - len(run.state.hand(seat))
    if missing > 0:
        draw_from_deck(run, seat, missing, reason)


# --- running out of gold ----------------------------------------------------------


def _cheapest_cover(cards: list, card_types: list, amount: int) -> list:
    """The cards whose total value covers ``amount`` with the least overpayment,
    then the fewest cards; among equals, lower-value cards first (stable order)."""
    ordered = sorted(cards, key=lambda c: (card(card_types[c]).value, card_types[c], c))
    below: dict[int, list] = {0: []}  # reachable sums under ``amount`` -> fewest cards
    covers: dict[int, list] = {}
    for card_id in ordered:
        value = card(card_types[card_id]).value
        for total, chosen in sorted(below.items(), reverse=True):
            new_total, new_chosen = total + value, [*chosen, card_id]
            bucket = covers if new_total >= amount else below
            best = bucket.get(new_total)
            if best is None or len(new_chosen) < len(best):
                bucket[new_total] = new_chosen
    return covers[min(covers)] if covers else []


def goods_for_debt(state: State, debtor: int, amount: int) -> list:
    """Stand goods a debtor hands over for ``amount`` still owed after their gold:
    legal goods first; contraband (royals included) only if legal goods fall short."""
    stand = state.stand(debtor)
    types = state.card_types
    legal = [c for c in stand if card(types[c]).is_legal]
    contraband = [c for c in stand if not card(types[c]).is_legal]
    legal_value = sum(card(types[c]).value for c in legal)
    if legal_value >= amount:
        return _cheapest_cover(legal, types, amount)
    rest = amount - legal_value
    if sum(card(types[c]).value for c in contraband) >= rest:
        return legal + _cheapest_cover(contraband, types, rest)
    return legal + contraband


def pay_debt(run: Run, debtor: int, creditor, amount: int, reason: str) -> None:
    """Pay a penalty or fine; gold first, then stand goods, the rest forgiven.
    ``creditor`` is a seat, or the Booty (a lying merchant's fine to both Deputies)."""
    if amount <= 0:
        return
    state = run.state
    gold = min(state.gold[debtor], amount)
    transfer_gold(run, debtor, creditor, gold, reason)
    owed = amount - gold
    goods: list = []
    if owed:
        goods = goods_for_debt(run.state, debtor, owed)
        # Contraband handed over is revealed, as the rulebooks require.
        move_cards(run, goods, f"stand:{debtor}", stand_of(creditor), reason, reveal=True)
    goods_value = sum(card(run.state.type_of(c)).value for c in goods)
    run.emit(
        "debt_settled",
        debtor=debtor,
        creditor=creditor,
        amount=amount,
        gold=gold,
        goods_value=goods_value,
        forgiven=max(0, owed - goods_value),
        reason=reason,
    )
