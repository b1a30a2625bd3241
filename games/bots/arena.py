"""Bots playing each other through the engine alone (``manage.py bot_arena``):
every command a bot makes is judged by ``engine.apply``, as a move from a page is.

A refused command is counted as illegal, and the seat then plays its deadline
default (``engine.default_commands``), as at the table. A phase that goes on for
STALL_STEPS decisions without moving on is counted as stalled and timed out. Every
step checks the engine's invariants when ``checked``.
"""

import random
import time
from dataclasses import dataclass, field

from games.engine import EngineError, GameConfig, actions, apply, new_game
from games.engine.invariants import check_state

from .levels import bot
from .seen import seen_by
from .turns import OPTIONAL_MOVES, awaited_and_optional, default_for

MAX_STEPS = 5_000
# Decisions in an inspection before its bargaining time runs out (the clock the table
# plays to), and in any phase before the arena calls it stalled and times it out.
BARGAINING_STEPS = 40
STALL_STEPS = 120


@dataclass
class GameResult:
    levels: list
    winners: list  # seats ranked first (a tie shares the win)
    illegal: int = 0
    errors: int = 0  # decisions that raised (the seat played its default)
    stalled: int = 0
    failures: list = field(default_factory=list)
    decision_ms: dict = field(default_factory=dict)  # level -> [ms], seen_by included
    behaviour: dict = field(default_factory=dict)  # level -> Counter-like dict


def _count(result: GameResult, level: str, what: str, n: int = 1) -> None:
    counts = result.behaviour.setdefault(level, {})
    counts[what] = counts.get(what, 0) + n


def _default_for(state, seat: int) -> dict:
    return default_for(state, seat) or {"type": "timeout"}


def _tally_bags(state, levels: list, result: GameResult) -> None:
    """At the start of an inspection: which bags lie (the arena sees every bag)."""
    for seat, declaration in enumerate(state.phase.declarations):
        if declaration is None:
            continue
        lies = any(state.type_of(c) != declaration["declared"] for c in state.bag(seat))
        _count(result, levels[seat], "bags")
        if lies:
            _count(result, levels[seat], "lying bags")


def _inspectors(state, event) -> list:
    """Who decided a bag: the Deputies named, or the Sheriff."""
    if event.get("by"):
        return list(event["by"])
    return [] if state.sheriff is None else [state.sheriff]


def _tally_events(state, events: list, levels: list, result: GameResult) -> None:
    for event in events:
        kind = event["type"]
        if kind == "bag_inspected":
            for inspector in _inspectors(state, event):
                _count(result, levels[inspector], "inspections")
        elif kind == "bag_passed":
            for inspector in _inspectors(state, event):
                _count(result, levels[inspector], "passes")
        elif kind == "offer_made":
            offer = event["offer"]
            proposer = offer["proposer"]
            _count(result, levels[proposer], "bribes offered" if proposer == offer["payer"]
                   else "demands made")  # fmt: skip
        elif kind == "deal_made":
            what = "demands paid" if event["demand"] else "bribes accepted"
            _count(result, levels[event["payer"]], what)


def play(config: GameConfig, seed: str, levels: list, checked: bool = False) -> GameResult:
    """One game, seat i played by a bot of ``levels[i]``, each with its own random
    source drawn from ``seed``: the same seed plays the same game."""
    state, events = new_game(config, seed)
    bots = [bot(level, random.Random(f"{seed}:{seat}")) for seat, level in enumerate(levels)]
    result = GameResult(levels=list(levels), winners=[])
    order = random.Random(f"{seed}:order")
    phase_steps, unasked, phase_id = 0, {}, None
    for _ in range(MAX_STEPS):
        if state.is_over():
            break
        if (state.phase.kind, state.phase.since) != phase_id:
            phase_id, phase_steps, unasked = (state.phase.kind, state.phase.since), 0, {}
            if state.phase.kind == "inspection":
                _tally_bags(state, levels, result)
        phase_steps += 1
        command = _next_command(state, events, bots, levels, result, order, unasked)
        bargaining = state.phase.kind == "inspection" and not state.phase.bargaining_over
        if phase_steps == BARGAINING_STEPS and bargaining:
            command = {"type": "end_bargaining"}
        if phase_steps > STALL_STEPS:
            result.stalled += 1
            result.failures.append(f"stalled in {state.phase.kind}: {levels}")
            command = {"type": "timeout"}
        try:
            state, new_events = apply(state, command)
        except EngineError as refused:
            result.illegal += 1
            result.failures.append(f"{levels[command.get('seat', 0)]}: {refused.code} {command}")
            state, new_events = apply(state, _default_for(state, command["seat"]))
        events += new_events
        _tally_events(state, new_events, levels, result)
        if checked:
            result.failures += check_state(state)
    else:
        result.failures.append(f"no end after {MAX_STEPS} steps")
    if state.is_over():
        result.winners = [s["seat"] for s in state.phase.scores if s["winner"]]
    return result


def _next_command(state, events, bots, levels, result, order, unasked) -> dict:
    """The next seat's decision: the seats the phase waits for, or an optional
    move (an offer) from a seat that still has some left; the deadline if none."""
    open_moves = actions(state)
    awaited, optional = awaited_and_optional(open_moves, sorted(open_moves), unasked)
    for seat in order.sample(awaited + optional, len(awaited + optional)):
        started = time.perf_counter()  # what the seat knows, and the decision
        seen = seen_by(state, seat, events)
        try:
            command = bots[seat].decide(seen)
        except Exception as error:  # a bot that raises plays its default
            result.errors += 1
            result.failures.append(f"{levels[seat]} raised {error!r}")
            command = _default_for(state, seat)
        result.decision_ms.setdefault(levels[seat], []).append(
            (time.perf_counter() - started) * 1000
        )
        if seat not in awaited:
            unasked[seat] = unasked.get(seat, 0) + 1
        if command is not None:
            return command
        if seat not in awaited:
            unasked[seat] = OPTIONAL_MOVES  # it chose to wait: no more asking this phase
    return {"type": "timeout"}
