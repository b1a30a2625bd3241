"""What a player is told once their move is made, on their page and in the answer to
a move by reply (one wording for both): the move's own message (games.present.moves),
what a decision or a deal did, and what the other seats' standing instructions made
of it at once (an offer accepted as it arrived). Only what the seat may know: every
event is projected for it."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.present.moves import MOVES
from games.words import narrate

# A move whose events say it did something else than the usual.
DONE_BY_EVENT = {
    "offer_agreed": gettext_lazy(
        "You accepted this revision; the deal is made once every party has."
    ),
    "black_market_submitted": gettext_lazy(
        "Your Black Market choice is sealed; it is carried out with the others' once "
        "every choice is in."
    ),
}
# The moves that put an offer on the table, and the event that says which.
OFFERING = {"offer_made": lambda e: e["offer"]["id"], "offer_revised": lambda e: e["offer"]}


def told(seat, kind: str, outcome, names: list) -> str:
    """The message for the seat's accepted move ``kind`` (``outcome``: games.core's,
    with ``then``, the standing instructions' events it set off); ``names``: the
    players' names, ready to print."""
    state = outcome.before if outcome.before is not None else seat.game.engine_state()
    return _told(kind, seat.index, state, outcome, names)


def _told(kind: str, seat: int, state, outcome, names: list) -> str:
    move = MOVES[kind]
    done = (state.config.deputies and move.done_with_deputies) or move.done
    if move.done_as_inspector and state.is_inspector(seat):
        done = move.done_as_inspector
    done = str(done)
    if outcome.repeated:
        return _("That form was already sent; it counted once.") + " " + done
    answered = _answered_at_once(seat, state, outcome, names)
    if answered:
        return answered
    if not move.said_by_events:
        return done
    projected = engine.project_log(state, list(outcome.events), seat)
    said = [str(DONE_BY_EVENT[e["type"]]) for e in projected if e["type"] in DONE_BY_EVENT]
    if said:
        return said[0]
    if not move.tells_outcome:
        return done
    return " ".join([done, *narrate.outcome_lines(projected, names, seat, state.config)])


def _answered_at_once(seat: int, state, outcome, names: list) -> str:
    """An offer of this move that a standing instruction accepted (or, six players,
    agreed to) as it arrived: the deal and what it did, instead of "on the table"."""
    offered = {OFFERING[e["type"]](e) for e in outcome.events if e["type"] in OFFERING}
    then = engine.project_log(state, list(outcome.then), seat)
    answers = [
        e for e in then if e["type"] in ("deal_made", "offer_agreed") and e["offer"] in offered
    ]
    if not answers:
        return ""
    narrator = narrate.Narrator.of_game(names, seat, state.config)
    lines = narrator.lines(answers) + narrate.outcome_lines(then, names, seat, state.config)
    return " ".join(lines)
