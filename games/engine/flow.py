"""The phase flow in one table: for each phase, how it starts, who is awaited and
with what moves, the missed-move defaults, how it resolves and what comes next.

A round: ``round`` (the Sheriff or the Deputies) -> ``market`` (2nd edition) or
``market_turn`` (1st edition, one per merchant) -> ``load`` -> ``inspection`` ->
``black_market`` (only if someone could still claim) -> ``round_end`` -> the next
``round``, or the end of the game.

Phase modules never import each other: what comes next is the table's ``next``.
A phase's ``start`` says whether it now waits for seats; if not, the flow goes on
to its ``next`` at once. The rules mark a phase complete (``Run.phase_complete``)
when the last awaited move is in. By default the engine then resolves it and
starts the next, in the same command, after that command's own events. A game
whose organizer wants every phase to last until its deadline applies commands
with ``auto_advance=False``: the complete phase then waits, and the ``timeout``
command at the deadline advances it (after applying the missed-move defaults, if
any seat is awaited).

A new phase: a module of its own (start, commands, actions, defaults, resolve),
its row here and its commands in ``COMMANDS``, the ``next`` of the row before it;
its state class in state.py and its events in events.py (config.py if it is an
option).
"""

from collections.abc import Callable
from dataclasses import dataclass

from . import black_market, decisions, inspection, loading, market, offers, round_end
from .config import FIRST_EDITION
from .refusals import EngineError
from .state import State
from .table import Run

Handler = Callable[[Run, dict], None]


def _none(state: State) -> list:
    return []


def _nothing(run: Run) -> None:
    pass


@dataclass(frozen=True)
class Phase:
    """One step of a round. Rows whose key is a ``phase.kind`` are phases that wait
    for seats; the others (``round``, ``round_end``) are automatic."""

    # Begins it (its ``phase_started``). True: it now waits for seats (or the game
    # is over); False: nobody to wait for, on to ``next`` at once.
    start: Callable[[Run], bool]
    # The row that follows (None: nothing, the game is over), or a function of the
    # state saying which.
    next: str | Callable[[State], str | None] | None
    # Fill in ``result`` (seat -> {"must_act", "moves"}), in order: the seats awaited
    # have ``must_act``, others may have optional moves.
    actions: tuple[Callable[[State, dict], None], ...] = ()
    # The commands a passed deadline applies for each seat still awaited.
    defaults: Callable[[State], list] = _none
    # The phase is complete: settle it, before ``next`` starts.
    resolve: Callable[[Run], None] = _nothing
    # A deadline that is not the seats' defaults (inspection: undecided bags pass).
    # Returns False, doing nothing, when nobody was awaited.
    time_out: Callable[[Run, dict], bool] | None = None


FLOW = {
    "round": Phase(
        start=round_end.start_round,
        next=lambda state: "market_turn" if state.config.edition == FIRST_EDITION else "market",
    ),
    "market": Phase(
        start=market.start_market,
        actions=(market.actions,),
        defaults=market.default_commands,
        resolve=market.resolve_market,
        next="load",
    ),
    "market_turn": Phase(
        start=market.start_turn,
        actions=(market.turn_actions,),
        defaults=market.turn_default_commands,
        next=lambda state: "market_turn" if market.turns_left(state) else "load",
    ),
    "load": Phase(
        start=loading.start_load,
        actions=(loading.actions,),
        defaults=loading.default_commands,
        next="inspection",
    ),
    "inspection": Phase(
        start=inspection.start,
        actions=(inspection.actions, black_market.inspection_actions),
        resolve=inspection.close,
        time_out=decisions.time_out,
        next="black_market",
    ),
    "black_market": Phase(
        start=black_market.start_step,
        actions=(black_market.actions,),
        defaults=black_market.default_commands,
        resolve=black_market.resolve,
        next="round_end",
    ),
    "round_end": Phase(
        start=round_end.end_round,
        next=lambda state: None if state.is_over() else "round",
    ),
}


def _next(row: Phase, state: State) -> str | None:
    return row.next(state) if callable(row.next) else row.next


def begin(run: Run, name: str | None) -> None:
    """Start ``name`` and whatever follows it, until a phase waits for seats."""
    while name is not None:
        row = FLOW[name]
        if row.start(run):
            break
        name = _next(row, run.state)
    settle(run)


def settle(run: Run) -> None:
    """After a command (or a phase's start): the Black Market's standing answers claim
    if they now can (a bag just resolved), then move on from a complete phase."""
    black_market.claim_standing(run)
    if run.completed and run.auto_advance:
        advance(run)


def advance(run: Run) -> None:
    """Leave the current, complete phase for the next one."""
    run.completed = False
    kind = run.state.phase.kind
    row = FLOW.get(kind)
    if row is None:
        raise ValueError(f"no phase follows {kind!r}")
    row.resolve(run)
    begin(run, _next(row, run.state))


def _settled(handler: Handler) -> Handler:
    def command(run: Run, command: dict) -> None:
        handler(run, command)
        settle(run)

    command.__name__ = handler.__name__
    command.__doc__ = handler.__doc__
    return command


def _accept_offer(run: Run, command: dict) -> None:
    """A deal's payment (offers.py), then its Sheriff actions (decisions.py)."""
    deal = offers.accept_offer(run, command)
    if deal is not None:
        decisions.carry_out(run, *deal)


# Commands a seat sends, each followed by the flow moving on if its phase is complete.
# ``timeout`` (a passed deadline) and ``end_bargaining`` (the bargaining time ran out)
# are the service's commands (game.py).
COMMANDS: dict[str, Handler] = {
    name: _settled(handler)
    for name, handler in {
        "set_aside": market.set_aside,
        "market_turn": market.market_turn,
        "load_bag": loading.load_bag,
        "make_offer": offers.make_offer,
        "revise_offer": offers.revise_offer,
        "withdraw_offer": offers.withdraw_offer,
        "accept_offer": _accept_offer,
        "refuse_offer": offers.refuse_offer,
        "pass_bag": decisions.pass_bag,
        "inspect_bag": decisions.inspect_bag,
        "say_no_offer": offers.say_no_offer,
        "claim_black_market": black_market.claim,
        "decline_black_market": black_market.decline,
        "set_black_market_standing": black_market.set_standing,
    }.items()
}


def end_bargaining(run: Run) -> None:
    offers.end_bargaining(run)
    settle(run)


# --- reading the table -------------------------------------------------------------------


def actions(state: State) -> dict:
    """seat -> {"must_act": bool, "moves": [move descriptions]} for every seat.

    ``must_act`` seats are the ones the phase waits for (a deadline applies the
    defaults to them); other seats may still have optional moves (offers)."""
    result = {seat: {"must_act": False, "moves": []} for seat in range(state.players)}
    if state.is_over():
        return result
    row = FLOW.get(state.phase.kind)
    for fill in row.actions if row else ():
        fill(state, result)
    return result


def awaiting(state: State) -> list:
    """The seats the current phase waits for."""
    return [seat for seat, a in actions(state).items() if a["must_act"]]


def default_commands(state: State) -> list:
    """The commands a passed deadline applies for each seat still awaited.
    (In inspection the default is not a seat's command: undecided bags pass.)"""
    if state.is_over():
        return []
    row = FLOW.get(state.phase.kind)
    return row.defaults(state) if row else []


# Who may move a game on before its deadline (``timeout`` with ``by``).
TIMEOUT_BY = ("organizer",)


def time_out(run: Run, command: dict) -> None:
    """The deadline passed, or the organizer moved the game on (``"by": "organizer"``):
    apply the missed-move default for every awaited seat. ``timed_out`` carries
    ``by`` so the log can say whose doing it was; the organizer's is logged even
    when nobody was awaited (a complete phase held until its deadline)."""
    state = run.state
    if state.is_over():
        raise EngineError("game_over", "The game is over.")
    by = command.get("by")
    if by is not None and by not in TIMEOUT_BY:
        raise EngineError(
            "bad_command",
            'A timeout is by the deadline (no "by") or the organizer.',
            detail="timeout",
        )
    who = {"by": by} if by else {}
    run.auto_advance = True  # the deadline always moves the game on
    kind = state.phase.kind
    if who and not awaiting(state):
        run.emit("timed_out", phase=kind, seats=[], **who)
    row = FLOW[kind]
    if row.time_out is not None:
        if row.time_out(run, who):
            settle(run)
        else:  # every move was in, held until the deadline
            advance(run)
        return
    commands = default_commands(state)
    if not commands:  # every move was in, held until the deadline
        advance(run)
        return
    run.emit("timed_out", phase=kind, seats=[c["seat"] for c in commands], **who)
    for default in commands:
        COMMANDS[default["type"]](run, default)
