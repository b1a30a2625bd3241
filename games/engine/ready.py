"""Variant: a ready check between the market and loading. Every merchant says
"ready"; the phase ends when the last one has (a missed deadline says it for them)."""

from . import checks
from .refusals import EngineError
from .table import Run


def start(run: Run) -> bool:
    run.emit("phase_started", phase="ready", seats=run.state.merchants())
    return True


def say_ready(run: Run, command: dict) -> None:
    state = run.state
    checks.require_phase(state, "ready")
    seat = checks.require_seat(state, command)
    checks.require_merchant(state, seat)
    if seat not in state.phase.waiting:
        raise EngineError("already_submitted", "You have already made your choice.")
    run.emit("ready_said", seat=seat)
    if not run.state.phase.waiting:
        run.phase_complete()


def actions(state, result: dict) -> None:
    for seat in state.phase.waiting:
        result[seat] = {"must_act": True, "moves": [{"type": "say_ready"}]}


def default_commands(state) -> list:
    return [{"type": "say_ready", "seat": seat} for seat in state.phase.waiting]
