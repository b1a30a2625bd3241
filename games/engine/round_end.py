"""Phase 5, end of round: game end check, refill hands, the next Sheriff (or the
next two Deputies, drawn from the Deputy deck with 6 players)."""

from . import market
from .rng import shuffled
from .scoring import score_sheets
from .table import Run, refill_hand


def start_round(run: Run, number: int) -> None:
    """Round ``number`` begins: its Sheriff is the previous one's left neighbour
    (round 1: the configured first Sheriff). With 6 players the top two cards of the
    Deputy deck name its Deputies; the deck of 6 is shuffled from the seed whenever it
    has run out (before rounds 1, 4 and 7)."""
    state = run.state
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
    market.start_market(run)


def end_round(run: Run) -> None:
    state = run.state
    run.emit("round_ended", round=state.round)
    if state.round >= state.config.rounds:
        finish(run)
        return
    # Clockwise from the Sheriff's (first Deputy's) left, the Sheriff (first Deputy) last.
    for seat in state.clockwise():
        refill_hand(run, seat, "refill")
    start_round(run, state.round + 1)


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
