"""The Black Market (2nd edition option): claims during the inspection, and the
short Black Market step that keeps the inspection open for those who could still
claim when the last bag is decided.

A merchant whose bag has been resolved this round (passed or inspected) may claim
once a round: reveal 3 contraband cards of one Black Market kind (pepper, mead,
silk) from their own stand — they leave the game — and take the top card of that
pile into their contraband pile. The Sheriff (the Deputies) cannot claim in a round
they inspect. During the inspection a claim is carried out at once. When the last
bag is decided, the merchants who could still claim — by what the table can see: a
resolved bag, at least 3 face-down cards on the stand, a pile not empty — and have
neither claimed nor declined are waited for: their choices are sealed and resolve
together, clockwise from the Sheriff's left, so that arrival order does not matter;
a claim whose pile an earlier claimant emptied comes to nothing.

Waiting only for those who can claim would tell the table who holds three of a
kind, so the step waits for everyone the table cannot rule out. Two ways spare a
merchant (and the table) the wait: saying "no claim this round" any time during
the inspection, even before their bag is decided; or a standing answer, "claim
when I can, else no claim", which the step answers for them at once (the best
pile). The standing answer is public, so it shows something: when such a merchant
does not claim, everyone can tell they could not.

The standing answer claims the moment it can, as the 2nd edition has it: "The first
player that fulfills a Black Market order takes the topmost card." That is when its
merchant's bag is resolved (passed or inspected, fines and promised goods paid), or
when the answer is set after that; the flow (flow.settle) asks after every command of
the inspection. Bags resolved by one command (a deal deciding several, the deadline
passing the rest) claim clockwise from the Sheriff's left. A merchant with the answer
who cannot claim then never can this round (a stand only loses cards once its bag is
resolved, and piles only shrink): the step, if any, answers "no claim" for them.
"""

from . import checks
from .cards import BLACK_MARKET_CLAIM, BLACK_MARKET_TYPES, card
from .refusals import EngineError
from .state import OUT, Inspection
from .table import Run, move_cards

NO_CLAIM = "none"  # a sealed choice in the Black Market step: no claim this round


# --- reading the state -----------------------------------------------------------------


def claimable(state, seat: int) -> list:
    """The kinds ``seat`` could claim now by their own stand (private to them)."""
    stand = [state.type_of(c) for c in state.stand(seat)]
    return [
        kind
        for kind in BLACK_MARKET_TYPES
        if state.black_market[kind] and stand.count(kind) >= BLACK_MARKET_CLAIM
    ]


def _resolved(state, seat: int) -> bool:
    phase = state.phase
    return isinstance(phase, Inspection) and phase.decided[seat] in ("passed", "inspected")


def _contraband_count(state, seat: int) -> int:
    return sum(1 for c in state.stand(seat) if not card(state.type_of(c)).is_legal)


def may_still_claim(state, seat: int) -> bool:
    """By what every seat can see: a merchant with a resolved bag who has neither claimed
    nor declined this round, with at least 3 face-down cards and a pile not empty."""
    return (
        _resolved(state, seat)
        and not state.claimed_this_round(seat)
        and seat not in state.phase.declined
        and _contraband_count(state, seat) >= BLACK_MARKET_CLAIM
        and any(state.black_market.values())
    )


def may_answer_ahead(state, seat: int) -> bool:
    """A merchant whose bag is still undecided may say now that they make no claim
    this round (unless their standing answer speaks for them)."""
    phase = state.phase
    return (
        isinstance(phase, Inspection)
        and phase.decided[seat] is None
        and seat not in phase.declined
        and seat not in state.black_market_standing
        and not state.claimed_this_round(seat)
        and any(state.black_market.values())
    )


def eligible(state) -> list:
    """The merchants the Black Market step would wait for, clockwise."""
    if not state.config.black_market:
        return []
    return [m for m in state.merchants() if may_still_claim(state, m)]


# --- commands ----------------------------------------------------------------------------


def _common(state, command: dict) -> int:
    checks.require_phase(state, "inspection", "black_market")
    seat = checks.require_seat(state, command)
    if not state.config.black_market:
        raise EngineError("no_black_market", "This game is played without the Black Market.")
    checks.require_merchant(state, seat)
    if state.claimed_this_round(seat):
        raise EngineError("already_claimed", "You have already claimed a Black Market card.")
    phase = state.phase
    if phase.kind == "inspection":
        if seat in phase.declined:
            raise EngineError("already_declined", "You said you make no claim this round.")
        return seat
    if phase.choices[seat] is not None:
        raise EngineError(
            "already_submitted", "You have already made your choice.", detail="choice"
        )
    if seat not in phase.seats:
        raise EngineError("not_eligible", "The Black Market step waits only for its merchants.")
    return seat


def set_standing(run: Run, command: dict) -> None:
    """Turn a seat's standing answer on or off (any time in a Black Market game)."""
    state = run.state
    seat = checks.require_seat(state, command)
    if state.is_over():
        raise EngineError("game_over", "The game is over.")
    if not state.config.black_market:
        raise EngineError("no_black_market", "This game is played without the Black Market.")
    standing = command.get("standing")
    if not isinstance(standing, bool):
        raise EngineError(
            "bad_command", "A standing answer is on (true) or off (false).", detail="standing"
        )
    if standing == (seat in state.black_market_standing):
        raise EngineError(
            "already_submitted", "Your standing answer is already so.", detail="standing"
        )
    run.emit("black_market_standing_set", seat=seat, standing=standing)


def standing_choice(state, seat: int) -> str:
    """What a standing answer chooses: the claimable pile whose top card is worth
    most (ties: the order of the piles), else no claim."""
    kinds = claimable(state, seat)
    if not kinds:
        return NO_CLAIM
    return max(
        kinds, key=lambda kind: (state.black_market[kind][-1], -BLACK_MARKET_TYPES.index(kind))
    )


def claim_standing(run: Run) -> None:
    """During the inspection: every merchant with a standing answer who may claim now
    takes the best pile at once, clockwise from the Sheriff's left."""
    state = run.state
    if state.phase is None or state.phase.kind != "inspection" or not state.black_market_standing:
        return
    for seat in state.merchants():
        if seat in run.state.black_market_standing and standing_claim_due(run.state, seat):
            take(run, seat, standing_choice(run.state, seat))


def standing_claim_due(state, seat: int) -> bool:
    """Whether ``seat``'s standing answer would claim now (asked of its holders only)."""
    return (
        _resolved(state, seat)
        and not state.claimed_this_round(seat)
        and seat not in state.phase.declined
        and standing_choice(state, seat) != NO_CLAIM
    )


def start_step(run: Run) -> bool:
    """The last bag is decided: wait for the merchants who could still claim, if any
    (False: nobody, the step is skipped); those with a standing answer have it
    given at once (sealed like any choice): by now "no claim", since they have
    claimed already if they could (``claim_standing``)."""
    seats = eligible(run.state)
    if not seats:
        return False
    run.emit("phase_started", phase="black_market", seats=seats)
    for seat in seats:
        if seat in run.state.black_market_standing:
            run.emit("black_market_submitted", seat=seat, choice=standing_choice(run.state, seat))
    if not awaited(run.state):
        run.phase_complete()
    return True


def claim(run: Run, command: dict) -> None:
    state = run.state
    seat = _common(state, command)
    if state.phase.kind == "inspection" and not _resolved(state, seat):
        raise EngineError(
            "bag_not_resolved", "You may claim once your own bag is resolved this round."
        )
    kind = command.get("kind")
    if kind not in BLACK_MARKET_TYPES:
        raise EngineError("bad_command", "Claim pepper, mead or silk.", detail="claim_kind")
    if not state.black_market[kind]:
        raise EngineError("black_market_empty", "That Black Market pile is empty.")
    if kind not in claimable(state, seat):
        raise EngineError(
            "not_enough_contraband",
            "A claim needs %(count)s cards of that kind on your stand.",
            count=BLACK_MARKET_CLAIM,
        )
    if state.phase.kind == "black_market":  # sealed until everyone awaited has chosen
        run.emit("black_market_submitted", seat=seat, choice=kind)
        _complete_if_all_chosen(run)
        return
    take(run, seat, kind)


def decline(run: Run, command: dict) -> None:
    state = run.state
    seat = _common(state, command)
    if state.phase.kind == "black_market":
        run.emit("black_market_submitted", seat=seat, choice=NO_CLAIM)
        _complete_if_all_chosen(run)
        return
    run.emit("black_market_declined", seat=seat)


def take(run: Run, seat: int, kind: str) -> None:
    """Reveal 3 cards of ``kind`` from the stand (lowest ids): they leave the game;
    the top card of the pile goes to the claimant."""
    state = run.state
    cards = sorted(c for c in state.stand(seat) if state.type_of(c) == kind)[:BLACK_MARKET_CLAIM]
    run.emit("black_market_claimed", seat=seat, kind=kind, value=state.black_market[kind][-1])
    move_cards(run, cards, f"stand:{seat}", OUT, "black_market", reveal=True)


# --- the Black Market step -----------------------------------------------------------------


def awaited(state) -> list:
    phase = state.phase
    return [s for s in phase.seats if phase.choices[s] is None]


def _complete_if_all_chosen(run: Run) -> None:
    if not awaited(run.state):
        run.phase_complete()


def resolve(run: Run) -> None:
    """Every choice is in: the claims, clockwise; a pile emptied by an earlier claim
    leaves a later one with nothing (``black_market_missed``; its kind stays unsaid).
    The step ends the inspection."""
    phase = run.state.phase
    for seat in phase.seats:
        choice = phase.choices[seat]
        if choice in BLACK_MARKET_TYPES:
            if run.state.black_market[choice]:
                take(run, seat, choice)
            else:
                run.emit("black_market_missed", seat=seat)


def default_commands(state) -> list:
    """Missed deadline: no claim."""
    return [{"type": "decline_black_market", "seat": s} for s in awaited(state)]


# --- who is awaited, with what -------------------------------------------------------------


def _claim_moves(state, seat: int) -> list:
    kinds = claimable(state, seat)  # from the seat's own stand: only it sees them
    claim = [{"type": "claim_black_market", "kinds": kinds}] if kinds else []
    return [*claim, {"type": "decline_black_market"}]


def actions(state, result: dict) -> None:
    """The Black Market step: every merchant it waits for claims or declines."""
    for seat in awaited(state):
        result[seat] = {"must_act": True, "moves": _claim_moves(state, seat)}


def inspection_actions(state, result: dict) -> None:
    """During the inspection: claims for merchants whose bag is resolved (optional)."""
    if not state.config.black_market:
        return
    for seat in state.merchants():
        if may_still_claim(state, seat):
            result[seat]["moves"] += _claim_moves(state, seat)
        elif may_answer_ahead(state, seat):  # spares the table a wait later
            result[seat]["moves"].append({"type": "decline_black_market", "ahead": True})
