"""Whose decision it is: the one rule of who a bot is asked next, shared by the arena
(games/bots/arena.py) and the table (games.core.bot_turns).

A seat the phase waits for is *awaited* (unless all it may do yet is bargain), and
so is a merchant who has not spoken yet in an inspection (their "no offer" or an
offer lets the Sheriff decide their bag), and a seat an offer or a demand waits on:
asked, an awaited seat always answers.
Any other seat with moves open (an offer it may make, an offer it may accept) is
asked at most ``OPTIONAL_MOVES`` times a phase, and may choose to wait.
"""

import dataclasses

from games.engine import actions, default_commands

OPTIONAL_MOVES = 3  # times a seat is asked in one phase when nothing waits for it


def to_speak(moves: list) -> bool:
    """A merchant whose word (an offer or "no offer") the Sheriff waits for."""
    return any(m["type"] == "say_no_offer" for m in moves)


def to_answer(moves: list) -> bool:
    """An offer or a demand made to the seat waits for its answer (accept or refuse),
    as a person's email asks for one."""
    return any(m["type"] == "accept_offer" for m in moves)


def bargains(move: dict) -> bool:
    """A move about offers: it names the offers it may touch or the seats it may make
    one to (the engine's move descriptions, games.engine.actions)."""
    return "offers" in move or "to" in move


def only_offers(moves: list) -> bool:
    """A Sheriff the phase waits for while no merchant has spoken yet may only
    bargain (make, change or answer offers): nothing they must do yet."""
    return all(bargains(m) for m in moves)


def awaited_and_optional(open_moves: dict, seats, asked: dict) -> tuple[list, list]:
    """Of ``seats``, those the phase waits for, and those with a move they may make
    unasked that were asked fewer than OPTIONAL_MOVES times this phase (``asked``:
    seat -> times). ``open_moves``: ``engine.actions(state)``."""
    awaited, optional = [], []
    for seat in seats:
        moves = open_moves[seat]
        waits = moves["must_act"] and not only_offers(moves["moves"])
        if waits or to_speak(moves["moves"]) or to_answer(moves["moves"]):
            awaited.append(seat)
        elif moves["moves"] and asked.get(seat, 0) < OPTIONAL_MOVES:
            optional.append(seat)
    return awaited, optional


def as_awaited(seen):
    """What an awaited seat is asked with: a merchant still to speak answers now."""
    return dataclasses.replace(seen, must_act=True) if not seen.must_act else seen


def default_for(state, seat: int) -> dict | None:
    """The seat's deadline default (``engine.default_commands``), or None if it has none."""
    return next((c for c in default_commands(state) if c.get("seat") == seat), None)


def fallback(state, seat: int) -> dict | None:
    """What an awaited seat plays when its bot fails it: its deadline default; in an
    inspection, where the deadline's default is no seat's command, what it comes to:
    a merchant says "no offer", an inspector lets the next bag pass, an offer waiting
    for an answer is refused."""
    command = default_for(state, seat)
    if command is not None:
        return command
    moves = {m["type"]: m for m in actions(state)[seat]["moves"]}
    if "say_no_offer" in moves:
        return {"type": "say_no_offer", "seat": seat}
    if "pass_bag" in moves:
        return {"type": "pass_bag", "seat": seat, "bag": moves["pass_bag"]["bags"][0]}
    if "refuse_offer" in moves:
        return {"type": "refuse_offer", "seat": seat, "offer": moves["refuse_offer"]["offers"][0]}
    return None
