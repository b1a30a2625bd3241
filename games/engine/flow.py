"""The phase flow in one table: for each phase, how it starts, who is awaited and
with what moves, the missed-move defaults, how it resolves and what comes next.

A round: ``round`` (the Sheriff or the Deputies) -> ``market`` (2nd edition) or
``market_turn`` (1st edition, one per merchant) -> ``load`` -> ``inspection`` ->
``black_market`` (only if someone could still claim) -> ``round_end`` -> the next
``round``, or the end of the game.

Phase modules never import each other. A phase's ``resolve`` settles it and
returns the step that comes next (a key of ``STEPS``); a step's start returns the
step after it when it waits for nobody, or None once a phase waits for seats.
The rules mark a phase complete (``Run.phase_complete``) when the last awaited
move is in. By default the engine then advances at once, in the same command,
after that command's own events. A game whose organizer wants every phase to last
until its deadline applies commands with ``auto_advance=False``: the complete
phase then waits, and the ``timeout`` command at the deadline advances it (after
applying the missed-move defaults, if any seat is awaited).

A new phase: a module with its start, commands, actions, defaults and resolve; a
row in ``PHASES`` (and ``STEPS``), its commands in ``COMMANDS``; its state class
and ``phase_started`` handling in state.py and events.py.
"""

from collections.abc import Callable
from dataclasses import dataclass

from . import black_market, decisions, inspection, loading, market, offers, round_end
from .refusals import EngineError
from .state import State
from .table import Run

Handler = Callable[[Run, dict], None]


@dataclass(frozen=True)
class Phase:
    """One phase of a round, as the flow sees it."""

    start: str  # the step (a key of STEPS) that begins it
    # Fill in ``result`` (seat -> {"must_act", "moves"}): the seats awaited have
    # ``must_act``; others may have optional moves. Called in order.
    actions: tuple[Callable[[State, dict], None], ...]
    # The commands a passed deadline applies for each seat still awaited.
    defaults: Callable[[State], list]
    # The phase is complete: settle it; returns the next step (or None: a new
    # phase of the same kind began and waits).
    resolve: Callable[[Run], str | None]
    leads_to: tuple[str, ...]  # what ``resolve`` may return
    # A deadline that is not the seats' defaults (inspection: undecided bags pass).
    # Returns False, doing nothing, when nobody was awaited.
    time_out: Callable[[Run, dict], bool] | None = None


def _none(state: State) -> list:
    return []


PHASES = {
    "market": Phase(
        start="market",
        actions=(market.actions,),
        defaults=market.default_commands,
        resolve=market.resolve_market,
        leads_to=("load",),
    ),
    "market_turn": Phase(
        start="market",
        actions=(market.turn_actions,),
        defaults=market.turn_default_commands,
        resolve=market.next_market_turn,
        leads_to=("load",),
    ),
    "load": Phase(
        start="load",
        actions=(loading.actions,),
        defaults=loading.default_commands,
        resolve=loading.reveal,
        leads_to=("inspection",),
    ),
    "inspection": Phase(
        start="inspection",
        actions=(inspection.actions, black_market.inspection_actions),
        defaults=_none,
        resolve=inspection.close,
        leads_to=("black_market",),
        time_out=decisions.time_out,
    ),
    "black_market": Phase(
        start="black_market",
        actions=(black_market.actions,),
        defaults=black_market.default_commands,
        resolve=black_market.resolve,
        leads_to=("round_end",),
    ),
}

# What the flow can start. Each returns the next step, or None when a phase waits
# for seats (or the game is over).
STEPS: dict[str, Callable[[Run], str | None]] = {
    "round": round_end.start_round,
    "market": market.start_market,
    "load": loading.start_load,
    "inspection": inspection.start,
    "black_market": black_market.start_step,
    "round_end": round_end.end_round,
}


def begin(run: Run, step: str | None) -> None:
    """Start ``step`` and whatever follows it, until a phase waits for seats."""
    while step is not None:
        step = STEPS[step](run)
    settle(run)


def settle(run: Run) -> None:
    """After a command (or a phase's start): move on from a complete phase."""
    if run.completed and run.auto_advance:
        advance(run)


def advance(run: Run) -> None:
    """Leave the current, complete phase for the next one."""
    run.completed = False
    kind = run.state.phase.kind
    phase = PHASES.get(kind)
    if phase is None:
        raise ValueError(f"no phase follows {kind!r}")
    step = phase.resolve(run)
    assert step is None or step in phase.leads_to, (kind, step)
    begin(run, step)


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
    phase = PHASES.get(state.phase.kind)
    for fill in phase.actions if phase else ():
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
    phase = PHASES.get(state.phase.kind)
    return phase.defaults(state) if phase else []


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
        raise EngineError("bad_command", 'A timeout is by the deadline (no "by") or the organizer.')
    who = {"by": by} if by else {}
    run.auto_advance = True  # the deadline always moves the game on
    kind = state.phase.kind
    if who and not awaiting(state):
        run.emit("timed_out", phase=kind, seats=[], **who)
    phase = PHASES[kind]
    if phase.time_out is not None:
        if phase.time_out(run, who):
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
