"""The moves a seat may make now, each with an example body a client may send as
it is: the random bot's choices from what the seat may know (games.bots.seen),
seeded by the table's version so that the same table shows the same examples, the
first the engine accepts. Whether the engine accepts a command the seat could make
depends only on what the seat may know (an offer's payer's gold, the bags still
locked for bargaining): tests/api/test_api_hides_nothing.py checks that the moves
are the same in two worlds that differ in anything else, and
tests/api/test_api_parity.py that the engine accepts every example and that every
kind it accepts is listed."""

import random

from games import engine
from games.bots.levels import RandomBot
from games.bots.seen import seen_by
from games.present.moves import MOVES


def listed(state, seat: int) -> dict:
    """{"version", "must_act", "moves": [{"type", "label", "options", "example"}]}: the
    engine's move descriptions (``options``: what it allows, e.g. the bags, the
    offers, the most cards) with an example body each (None where the random bot
    finds none, e.g. an offer with every offer move spent)."""
    seen = seen_by(state, seat)
    moves = []
    for move in seen.moves:
        options = {k: v for k, v in move.items() if k != "type"}
        moves.append(_entry(move["type"], options, example(state, seen, move)))
    listed = {move["type"] for move in moves}
    for kind in BARE:  # accepted beyond the moves offered: a Black Market "no" said early
        if kind not in listed and _accepted(state, {"type": kind}, seat):
            moves.append(_entry(kind, {}, {"type": kind}))
    # The version a command is made against, as the seat's view says (SeatView.version).
    return {"version": seen.view["phase"]["since"], "must_act": seen.must_act, "moves": moves}


def _entry(kind: str, options: dict, body: dict | None) -> dict:
    label = MOVES[kind].label
    return {
        "type": kind,
        "label": str(label) if label else kind,
        "options": options,
        "example": body,
    }


# The commands that take no fields: the engine may accept one the moves do not offer
# (it lets a merchant decline the Black Market before their bag is resolved).
BARE = ("say_no_offer", "decline_black_market")
TRIES = 8  # random choices tried for an example: most moves take the first


def example(state, seen, move: dict) -> dict | None:
    kind = move["type"]
    bot = RandomBot(random.Random(f"{state.seq}:{seen.seat}:{kind}"))
    build = getattr(bot, "random_" + kind, None)
    if build is None:
        return None
    for candidate in _candidates(seen, move, build):
        if candidate is not None and _accepted(state, {"type": kind, **candidate}, seen.seat):
            return {"type": kind, **candidate}
    return None


def _candidates(seen, move: dict, build):
    """Each offer in turn where the move names offers (an offer may be spent or
    blocked while another is not), else random choices."""
    if "offers" in move:
        for offer in move["offers"]:
            yield build(seen, {**move, "offers": [offer]})
        return
    for _ in range(TRIES):
        yield build(seen, move)


def _accepted(state, command: dict, seat: int) -> bool:
    try:
        engine.apply(state, {**command, "seat": seat})
    except engine.EngineError:
        return False
    return True
