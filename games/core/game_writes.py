"""What every write to a game shares: one transaction, one writer per game.

A write locks the game row (``select_for_update`` on PostgreSQL; SQLite's
IMMEDIATE transactions serialize writers), and a seat's row after it, never
before (``locked_seat``); applies the engine command, appends
the events and moves the snapshot forward with a compare-and-set on the version,
recording the emails owed in the outbox in the same commit (notifications).
Sending happens after commit (games.mail.sending, through games.tasks)."""

import functools
import logging
from dataclasses import dataclass
from datetime import timedelta

from django.db import OperationalError
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.core import bot_timing, bulk, compiled, deadlines, notifications, selectors
from games.engine import EngineError
from games.models import Game, GameEvent, Seat
from games.words import refusal_messages

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    code: str = ""
    message: str = ""
    version: int = 0
    repeated: bool = False  # the same submission was seen before; nothing changed now
    since: int = 0  # the seq of the first event this move made (an accepted move)
    retry_after: int = 0  # refused as too fast: the seconds to wait
    events: tuple = ()  # the events this move made (an accepted move), as stored
    before: object = None  # the engine state it was applied to (an accepted move)
    then: tuple = ()  # the events of the standing instructions' moves it set off at once


class ServiceError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def assign_fields(game: Game, fields: dict) -> None:
    """Keep the in-memory game in step with the fields just written."""
    for name, value in fields.items():
        setattr(game, name, value)


def locked_game(game_id: int) -> Game:
    return selectors.game_locked(game_id)


def locked_seat(seat: Seat) -> Seat:
    """``seat``'s row locked, and its game's before it (attached as ``seat.game``):
    the one order every write takes them in. A move or a deadline holds the game's
    row and then needs its seats (its rows point at them, checked at commit, as
    Django makes PostgreSQL's foreign keys DEFERRABLE INITIALLY DEFERRED); a write
    that took a seat first and then needed the game would wait for it in a circle.
    FOR NO KEY UPDATE: the rows that point at the seat may still be written."""
    game = locked_game(seat.game_id)
    locked = Seat.objects.select_for_update(no_key=True).get(pk=seat.pk)
    locked.game = game
    return locked


def store_events(game: Game, events: list) -> None:
    bulk.insert(event_rows(game, events))


def event_rows(game: Game, events: list) -> list:
    return [GameEvent(game=game, seq=e["seq"], type=e["type"], data=e) for e in events]


def policy(game: Game) -> deadlines.DeadlinePolicy:
    """The organizer's deadline settings, as the pure deadline arithmetic takes them."""
    minutes = {
        "market": game.market_minutes,
        "market_turn": game.market_turn_minutes,
        "load": game.load_minutes,
        "inspection": game.inspection_minutes,
        "black_market": deadlines.black_market_minutes(
            game.black_market_minutes, game.inspection_minutes
        ),
    }
    return deadlines.DeadlinePolicy(
        mode=game.deadline_mode,
        durations={kind: timedelta(minutes=m) for kind, m in minutes.items() if m},
        daily_time=game.daily_time,
        timezone=game.deadline_timezone,
        skip_weekends=game.skip_weekends,
        reminder_before=timedelta(minutes=game.reminder_minutes) if game.reminder_minutes else None,
    )


def phase_timing(game: Game, state, now) -> dict:
    """A new phase gets its deadline and reminder time; the same phase keeps them."""
    if state.is_over():
        return {"phase_since": state.phase.since, "phase_deadline": None, "reminder_at": None}
    if state.phase.since == game.phase_since:
        return {}
    rules = policy(game)
    deadline = deadlines.phase_deadline(rules, state.phase.kind, now)
    bargaining = state.phase.kind == "inspection" and not state.phase.bargaining_over
    return {
        "phase_since": state.phase.since,
        "phase_deadline": deadline,
        "reminder_at": deadlines.reminder_time(rules, deadline, now),
        "bargaining_until": (
            deadlines.bargaining_end(game.bargaining_minutes, deadline, now) if bargaining else None
        ),
        "deadline_claimed_until": None,
    }


def apply_command(game: Game, state, command: dict, **options) -> tuple:
    """``engine.apply``; a game whose organizer set no bargaining time has it end as
    soon as an inspection begins, in the same commit."""
    state, events = engine.apply(state, command, **options)
    phase = state.phase
    if game.bargaining_minutes == 0 and phase.kind == "inspection" and not phase.bargaining_over:
        state, more = engine.apply(state, {"type": "end_bargaining"})
        events = events + more
    return state, events


def moved_on(game: Game, state, now) -> dict:
    """The Game fields a new state changes: snapshot, version, the new phase's timing,
    the bots' next look at the table."""
    fields = {"state": state.to_dict(), "version": state.seq, "updated_at": now}
    fields.update(phase_timing(game, state, now))
    if state.is_over():
        fields.update(status=Game.Status.FINISHED, finished_at=now)
    deadline = fields.get("phase_deadline", game.phase_deadline)
    fields.update(bot_timing.due_fields(game, state, now, deadline))
    return fields


def _same_version(game, version):
    """The compare-and-set of a game's every write (compiled once per set of fields)."""
    return Game.objects.filter(pk=game, version=version)


def commit_state(game: Game, state, events: list, now=None, **extra) -> None:
    """Append the events and move the snapshot forward, compare-and-set on the
    version; a new phase gets its deadline from the database's clock of record.
    ``extra``: more Game fields to write in the same update."""
    now = now or timezone.now()
    fields = {**moved_on(game, state, now), **extra}
    update = compiled.updates_of(Game, tuple(fields), _same_version)
    updated = compiled.insert_and_update(
        event_rows(game, events), update, fields, game=game.pk, version=game.version
    )
    if updated != 1:  # impossible while the row lock is held; refuse rather than fork
        raise ServiceError("conflict", _("The game changed meanwhile; please try again."))
    assign_fields(game, fields)


def apply_move(
    game: Game, command: dict, version: int, now, seats: list | None = None, **fields
) -> Outcome:
    """Apply a seat's command (its ``seat`` given) to the locked game: the path of every
    move, a player's (games.core.moves) or their standing instruction's (games.core.standing).
    ``version``: the phase it was meant for; ``seats``: the game's seats, if read already
    (see ``notifications.record``); ``fields``: more Game fields to write with the move."""
    if game.status != Game.Status.ACTIVE:
        return Outcome(False, "game_not_active", _("This game is no longer in play."), game.version)
    if game.paused_at is not None:  # nothing may move while paused, a player's move included
        return Outcome(
            False,
            "paused",
            _(
                "The organizer has paused the game: moves wait until it resumes. "
                "You will get an email then."
            ),
            game.version,
        )
    before = game.engine_state()
    if version != before.phase.since:
        return Outcome(
            False,
            "stale_page",
            _("The game moved on since this page was shown. Here is the current table."),
            game.version,
        )
    try:
        state, events = apply_command(game, before, command, auto_advance=game.advance_early)
    except EngineError as error:  # the player reads it in their language
        return Outcome(False, error.code, refusal_messages.message(error), game.version)
    since = game.version
    commit_state(game, state, events, now, **fields)
    notifications.record(game, state, events, seats)
    return Outcome(True, version=game.version, since=since, events=tuple(events), before=before)


DEADLOCK_RETRIES = 3


def retried_on_deadlock(write):
    """Run a whole write transaction again if the database chose it as a deadlock's
    victim (SQLSTATE 40P01): it was rolled back entirely, and each write here is
    keyed or compare-and-set, so running it again is safe."""

    @functools.wraps(write)
    def run(*args, **kwargs):
        for attempt in range(DEADLOCK_RETRIES):
            try:
                return write(*args, **kwargs)
            except OperationalError as error:
                victim = getattr(error.__cause__, "sqlstate", None) == "40P01"
                if not victim or attempt == DEADLOCK_RETRIES - 1:
                    raise
                log.warning("%s was a deadlock victim; running it again", write.__name__)
        raise AssertionError("unreachable")

    return run
