"""Phase 5, end of round: the Booty shared (6 players), game end check, refill
hands; and the start of a round: the next Sheriff (or the next two Deputies,
drawn from the Deputy deck with 6 players). flow.py says when each comes."""

from .cards import CARD_TYPES, card
from .rng import shuffled
from .scoring import score_sheets
from .state import BOOTY, GOLD_OUT
from .table import Run, move_cards, refill_hand, transfer_gold

_TABLE_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}


def start_round(run: Run) -> bool:
    """The next round, ``number``, begins: its Sheriff is the previous one's left neighbour
    (round 1: the configured first Sheriff). With 6 players the top two cards of the
    Deputy deck name its Deputies; the deck of 6 is shuffled from the seed whenever it
    has run out (before rounds 1, 4 and 7). Nobody is awaited yet: the market follows."""
    state = run.state
    number = state.round + 1
    if state.config.deputies:
        if not state.deputy_deck:
            number_k = state.deputy_shuffles
            order = shuffled(list(range(state.players)), state.seed, f"deputies:{number_k}")
            run.emit("deputy_deck_shuffled", order=order, number=number_k)
        deck = run.state.deputy_deck
        run.emit("round_started", round=number, sheriff=None, deputies=[deck[-1], deck[-2]])
    else:
        first = state.config.first_sheriff
        sheriff = first if number == 1 else (state.sheriff + 1) % state.players
        run.emit("round_started", round=number, sheriff=sheriff)
    return False


def end_round(run: Run) -> bool:
    """The inspection is over: the Booty is shared (6 players), the round ends; then
    the game ends, or hands are refilled for the next round. Nobody is awaited."""
    share_booty(run)
    state = run.state
    run.emit("round_ended", round=state.round)
    if state.round >= state.config.rounds:
        finish(run)
        return False
    # Clockwise from the Sheriff's (first Deputy's) left, the Sheriff (first Deputy) last.
    for seat in state.clockwise():
        refill_hand(run, seat, "refill")
    return False


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


def finish(run: Run) -> None:
    state = run.state
    stands = [[state.type_of(c) for c in state.stand(seat)] for seat in range(state.players)]
    claimed = state.claims if state.config.black_market else None
    run.emit(
        "game_ended",
        scores=score_sheets(state.gold, stands, claimed),
        stands=[sorted(s) for s in stands],
        seed=state.seed,
    )
