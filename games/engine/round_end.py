"""Phase 5, end of round: game end check, refill hands, pass the Sheriff."""

from . import market
from .scoring import score_sheets
from .table import Run, refill_hand


def end_round(run: Run) -> None:
    state = run.state
    run.emit("round_ended", round=state.round)
    if state.round >= state.config.rounds:
        finish(run)
        return
    n = state.players
    for k in range(1, n + 1):  # clockwise from the Sheriff's left, the Sheriff last
        refill_hand(run, (state.sheriff + k) % n, "refill")
    run.emit("round_started", round=state.round + 1, sheriff=(state.sheriff + 1) % n)
    market.start_market(run)


def finish(run: Run) -> None:
    state = run.state
    stands = [[state.type_of(c) for c in state.stand(seat)] for seat in range(state.players)]
    run.emit(
        "game_ended",
        scores=score_sheets(state.gold, stands),
        stands=[sorted(s) for s in stands],
        seed=state.seed,
    )
