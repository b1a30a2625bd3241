"""The bots' turn at a table: each bot seat that has something to do decides from
what its seat may know (games.bots.seen_by) and moves through the path of every move
(``game_writes.apply_move``), under the game's lock, with the emails its move owes the
people at the table, in one transaction.

The turn runs when the game's ``bots_due_at`` has come (games.core.bot_timing sets it
with every write; the beat's sweep hands it to a worker: tasks.sweep_deadlines). In
one turn each bot seat is asked once, in a random order, each seeing the moves of
those asked before it. Whose decision it is follows games.bots.turns: a seat the
phase waits for always answers; a seat with only optional moves (an offer it may
make) makes a few of them a phase at most, and may wait: then it is not asked again
until the table changes (an offer made to it, say).

A bot that raises, or whose command the engine refuses, is logged, and its seat
plays its deadline default (a merchant still to speak says "no offer"), so the game
goes on. Now and then a bot says a line that fits its move (games.words.bot_lines).
A bot's move is not a person's: it does not count against the game's
"nobody is playing" pause (timers._idle), and a bot gets no email.
"""

import contextlib
import logging
import random

from django.db import transaction
from django.utils import timezone

from games import engine
from games.bots import bot, seen_by
from games.bots.turns import as_awaited, fallback
from games.core import bot_timing, standing, talk
from games.core.game_writes import (
    ServiceError,
    apply_move,
    assign_fields,
    locked_game,
    retried_on_deadlock,
)
from games.models import Game, GameEvent
from games.words import bot_lines

log = logging.getLogger(__name__)


def _decide(game: Game, state, seat: int, events: list, awaited: bool, rnd) -> dict | None:
    level = game.bots[str(seat)]
    try:
        seen = seen_by(state, seat, events)
        command = bot(level, rnd).decide(as_awaited(seen) if awaited else seen)
    except Exception:
        log.exception("game %s: the %s bot of seat %d raised; it plays its default",
                      game.pk, level, seat)  # fmt: skip
        return fallback(state, seat) if awaited else None
    if command is None and awaited:
        return fallback(state, seat)
    return command


def _say(seat, events, now, rnd) -> None:
    """Now and then a line at the table after a bot's move (games.words.bot_lines), in
    the bot's language; none where talk is closed, or too fast."""
    line = bot_lines.line_for(events, seat.language, rnd)
    if line is None:
        return
    with contextlib.suppress(ServiceError):  # talk is off now, or the bot spoke too often
        talk.post(seat, line, now)


def _move(game: Game, command: dict, now, seats: list):
    """Apply a bot's command; one the engine refuses is logged and its seat's
    default played instead. The accepted outcome, or None."""
    state = game.engine_state()
    outcome = apply_move(game, command, state.phase.since, now, seats)
    if outcome.accepted:
        return outcome
    log.warning("game %s: a bot's command was refused (%s): %s", game.pk, outcome.code, command)
    default = fallback(state, command["seat"])
    if default is None:
        return None
    outcome = apply_move(game, default, state.phase.since, now, seats)
    return outcome if outcome.accepted else None


@retried_on_deadlock
def play(game_id: int, now=None, rnd=None) -> int:
    """The bots' turn at the game, if it is due: how many moves they made."""
    now = now or timezone.now()
    rnd = rnd or random.Random()
    with transaction.atomic():
        game = locked_game(game_id)
        if (
            game.status != Game.Status.ACTIVE
            or game.paused_at is not None
            or not game.bots
            or game.bots_due_at is None
            or game.bots_due_at > now
        ):
            return 0
        seats = list(game.seats.all())
        events = list(
            GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True)
        )
        state = game.engine_state()
        asks = bot_timing.Asks.of(game, state)
        awaited, optional = bot_timing.to_ask(game, state)
        made = 0
        for seat in rnd.sample(awaited + optional, len(awaited) + len(optional)):
            state = game.engine_state()
            if state.is_over() or game.paused_at is not None:
                break
            if not engine.actions(state)[seat]["moves"]:
                continue  # a move made before it this turn closed its own
            command = _decide(game, state, seat, events, seat in awaited, rnd)
            if seat not in awaited:
                if command is None:
                    asks.waited[seat] = state.seq
                else:
                    asks.acted[seat] = asks.acted.get(seat, 0) + 1
            if command is None:
                continue
            outcome = _move(game, command, now, seats)
            if outcome is None:
                continue
            made += 1
            events += outcome.events
            _say(seats[command["seat"]], outcome.events, now, rnd)
            for followed in standing.follow(game, now, seats, after=outcome.events):
                events += followed.events
        _end_turn(game, asks, now, made)
    log.info("game %s: the bots made %d moves", game_id, made)
    return made


def _end_turn(game: Game, asks, now, made: int) -> None:
    """Keep what the bots were asked this phase (a new phase starts afresh), and when
    they look again: after their moves, as any move sets it; after none, not before
    the table changes (each was asked, and answered what it had to), so that no turn
    comes round for nothing."""
    state = game.engine_state()
    if asks.since != state.phase.since:
        asks = bot_timing.Asks(state.phase.since)
    fields = {"bot_asks": asks.stored(), "bots_queued_at": None}
    assign_fields(game, fields)
    fields["bots_due_at"] = (
        bot_timing.due_at(game, state, now, game.phase_deadline) if made else None
    )
    Game.objects.filter(pk=game.pk).update(**fields)
    assign_fields(game, fields)
