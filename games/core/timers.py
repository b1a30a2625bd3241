"""What time does to games: a deadline falls (the missing moves are made for the
late seats, or the game waits for players away, or pauses itself when nobody moves
any more), a reminder is due, bargaining time ends. Many games at once, for the
deadline worker: a deadline falling for a thousand games is a few statements."""

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import engine
from games.core import bulk, deadlines, notifications, standing
from games.core.game_writes import (
    apply_command,
    assign_fields,
    commit_state,
    locked_game,
    moved_on,
    policy,
    retried_on_deadlock,
)
from games.engine.inspection import waiting_to_speak
from games.models import Game, GameEvent, Seat
from games.words.narrate import PAUSED_ITSELF, idle_for

log = logging.getLogger(__name__)


def advance(
    game_id: int, *, expected_version: int | None = None, now=None, force: bool = False
) -> bool:
    """The deadline passed: apply the missed-move defaults and move on.

    Compare-and-set: nothing happens unless the game is still at
    ``expected_version`` (when given), active, not paused and past its deadline
    (unless ``force``, the organizer's "advance now"). So a task delivered twice,
    a sweep racing an early advance, or two workers make exactly one transition."""
    return advance_many([(game_id, expected_version)], now=now, force=force) == 1


# Every Game field a transition may change (see moved_on).
TRANSITION_FIELDS = [
    "state",
    "version",
    "updated_at",
    "phase_since",
    "phase_deadline",
    "reminder_at",
    "bargaining_until",
    "deadline_claimed_until",
    "status",
    "finished_at",
    "bots_due_at",
]


# What advance_many writes: a transition, whether the game paused itself, and how
# long it has waited for away players.
ADVANCED_FIELDS = [*TRANSITION_FIELDS, "idle_phases", "paused_at", "away_minutes_used"]


@dataclass
class Transition:
    """What a deadline does to one game, worked out from its row as read: the row's
    (version, updated_at) stamp, and the game with its new fields assigned."""

    stamp: tuple
    game: Game
    state: object
    events: list
    rows: list  # the events as GameEvent rows
    seats: list
    late: set  # the indexes of the seats that missed their move
    pausing: bool
    emails: list  # the new phase's emails, unsaved (none when the game pauses itself)
    # Its Web Push notifications (notifications.pushes_owed), written with the emails.
    pushes: list = field(default_factory=list)


def _stamp(game: Game) -> tuple:
    # Every write to a game moves its version (a move, a control) or its
    # updated_at (an admin edit of its settings).
    return (game.version, game.updated_at)


def _transitions(games, now, force: bool) -> list:
    """Each game's Transition; its seats in one query for them all. (A seat only
    changes with a move or a control, which moves the game's version.)"""
    games = list(games)
    seats: dict[int, list] = {game.pk: [] for game in games}
    for seat in Seat.objects.filter(game__any=[game.pk for game in games]):
        seats[seat.game_id].append(seat)
    return [_transition(game, seats[game.pk], now, force) for game in games]


def _transition(game: Game, seats: list, now, force: bool) -> Transition:
    stamp = _stamp(game)
    state = game.engine_state()
    late = set(engine.awaiting(state))
    waiting = None if force else _waiting_for_away(game, state, seats, late, now)
    if waiting:  # the deadline moves; nothing else happens, nobody missed anything
        assign_fields(game, waiting)
        return Transition(stamp, game, state, [], [], seats, set(), False, [])
    # The organizer's "advance now" is logged as theirs, not as time running out.
    timeout = {"type": "timeout", "by": "organizer"} if force else {"type": "timeout"}
    state, events = apply_command(game, state, timeout)
    # Nobody played for too long: pause (the organizer's "advance now" does not count).
    pausing = not force and _idle(game) and not state.is_over()
    if pausing:
        state, noted = engine.apply(state, _pause_note(game))
        events += noted
        game.paused_at = now
    assign_fields(game, moved_on(game, state, now))
    rows = [GameEvent(game=game, seq=e["seq"], type=e["type"], data=e) for e in events]
    # The game that paused itself: one email says so, instead of the new phase's.
    emails = [] if pausing else notifications.emails_owed([(game, seats, state, events)])
    pushed = [] if pausing else notifications.pushes_owed([(game, seats, state, events)])
    return Transition(stamp, game, state, events, rows, seats, late, pausing, emails, pushed)


def _waiting_for_away(game: Game, state, seats: list, late: set, now) -> dict | None:
    """The deadline fell while a player it waits for is away: with the organizer's
    "away pauses the game", the Game fields that make the phase start again when
    they are back (within the game's cap of waiting); None to time out as usual."""
    cap = timedelta(days=game.away_cap_days) - timedelta(minutes=game.away_minutes_used)
    if not game.away_pauses or not late or cap <= timedelta(0):
        return None
    windows = [
        deadlines.away_window(seat.away_from, seat.away_until, seat.timezone)
        for seat in seats
        if seat.index in late and seat.away_from and seat.away_until
    ]
    back = deadlines.back_from_away(now, windows)
    if back is None:
        return None
    rules = policy(game)
    deadline, used = deadlines.waiting_for_away(rules, state.phase.kind, now, back, cap)
    return {
        "phase_deadline": deadline,
        "reminder_at": deadlines.reminder_time(rules, deadline, now),
        "deadline_claimed_until": None,
        "updated_at": now,
        "away_minutes_used": game.away_minutes_used + used / timedelta(minutes=1),
    }


def plan_advances(targets: list, *, at) -> dict:
    """Work out, without a lock, what the deadline at ``at`` will do to these
    games if nothing else happens to them first: game id -> Transition. A
    worker does this just before the deadline, so that at the deadline only
    the writes are left (see advance_many's ``plans``)."""
    expected = dict(targets)
    games = Game.objects.filter(pk__any=list(expected), status=Game.Status.ACTIVE, paused_at=None)
    games = [game for game in games if expected[game.pk] in (None, game.version)]
    transitions = _transitions(games, at, force=False)
    bulk.ready([row for t in transitions for row in t.rows])
    bulk.ready([t.game for t in transitions], ADVANCED_FIELDS)
    bulk.ready([email for t in transitions for email in t.emails])
    return {t.game.pk: t for t in transitions}


@retried_on_deadlock
def advance_many(
    targets: list, *, now=None, force: bool = False, plans=None, holder: str | None = None
) -> int:
    """``advance`` for (game id, expected version) pairs in one transaction and
    one commit, with set-wide reads and writes (games.core.bulk): a thousand deadlines
    falling in the same second must not be a thousand transactions. Rows are
    locked in id order (no deadlock between two chunks). ``plans`` (from
    plan_advances) are used for the games whose row has not changed since;
    the others are worked out here. With ``holder``, only the games whose deadline
    that process still holds (games.core.deadline_claims): one taken over by another
    is that one's to write. Returns how many games moved on."""
    now = now or timezone.now()
    expected = dict(targets)
    plans = plans or {}
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update()
            .filter(pk__any=list(expected), status=Game.Status.ACTIVE)
            .order_by("pk")
        )
        if holder is not None:
            locked = locked.filter(deadline_claimed_by=holder)
        rows = locked.values_list("pk", "version", "updated_at", "paused_at", "phase_deadline")
        due = [
            (pk, (version, updated_at))
            for pk, version, updated_at, paused_at, deadline in rows
            if expected[pk] in (None, version)
            and (force or (paused_at is None and deadline is not None and deadline <= now))
        ]
        if not due:
            return 0
        ready = {pk: plans[pk] for pk, stamp in due if pk in plans and plans[pk].stamp == stamp}
        fresh = Game.objects.filter(pk__any=[pk for pk, _ in due if pk not in ready])
        ready.update((t.game.pk, t) for t in _transitions(fresh, now, force))
        transitions = [ready[pk] for pk, _ in due]
        _write_transitions(transitions, count_missed=not force)
        # A new phase may call for standing instructions (an inspection begins).
        standing.follow_many([(t.game, t.state, t.events, t.seats) for t in transitions], now)
    return len(transitions)


def advance_chunk(targets: list, *, plans=None, holder: str | None = None) -> int:
    """advance_many, and if the chunk fails, each game of it alone: one broken game
    must not hold up the others. Returns how many games moved on."""
    try:
        return advance_many(targets, plans=plans, holder=holder)
    except Exception:
        log.exception("chunk advance failed; advancing %d games one by one", len(targets))
    advanced = 0
    for target in targets:
        try:
            advanced += advance_many([target], holder=holder)
        except Exception:
            log.exception("could not advance game %s", target[0])
    return advanced


def _write_transitions(transitions: list, count_missed: bool) -> None:
    games = [t.game for t in transitions]
    bulk.insert([row for t in transitions for row in t.rows])
    bulk.update(games, ADVANCED_FIELDS)
    notifications.save_owed([email for t in transitions for email in t.emails])
    notifications.record_pushes([push for t in transitions for push in t.pushes])
    notifications.record_paused_itself([(t.game, t.seats) for t in transitions if t.pausing])
    if count_missed:  # the organizer's "advance now" is not the players' miss
        missed = [seat for t in transitions for seat in t.seats if seat.index in t.late]
        _count_missed({game.pk: game for game in games}, missed)


def _idle(game: Game) -> bool:
    """Count the phase that just reached its deadline (call before the game's
    fields move on to the next phase). "Nobody moved" means no accepted player
    submission since the phase began: ``last_move_seq`` is written by every
    accepted move (which also resets the count, so a phase that ended early
    because everyone moved breaks the run too). True when the game has now gone
    ``abandon_after`` phases in a row without a move (0: never)."""
    moved = game.last_move_seq >= game.phase_since
    game.idle_phases = 0 if moved else game.idle_phases + 1
    return 0 < game.abandon_after <= game.idle_phases


def _pause_note(game: Game) -> dict:
    text = f"The game paused itself: nobody moved for {idle_for(game.idle_phases)}."
    params = {"phases": game.idle_phases}
    return {"type": "note", "text": text, "by": "game", "code": PAUSED_ITSELF, "params": params}


def _count_missed(games: dict, seats: list) -> None:
    """One more missed deadline in a row for each of these seats (as loaded under
    their game's lock); the organizer is alerted once a seat reaches its game's
    threshold."""
    for seat in seats:
        seat.missed_in_a_row += 1
    # One statement for them all, the ids alone sent (their rows are locked with their
    # games, so counting up in the database gives the values counted here).
    Seat.objects.filter(pk__any=[seat.pk for seat in seats]).update(
        missed_in_a_row=F("missed_in_a_row") + 1
    )
    for seat in seats:
        game = games[seat.game_id]
        if reaches_miss_alert(game, seat.missed_in_a_row):
            notifications.record_miss_alert(game, seat)


def reaches_miss_alert(game: Game, missed: int) -> bool:
    """Whether a seat that has now missed ``missed`` deadlines in a row is one the
    organizer is told of (once per streak)."""
    return bool(game.organizer_email) and missed == game.miss_alert_after


@retried_on_deadlock
def send_reminders(game_id: int, *, now=None) -> int:
    """Remind the seats that still owe a move, once per seat and phase."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        due = game.reminder_at is not None and game.reminder_at <= now
        if game.status != Game.Status.ACTIVE or game.paused_at is not None or not due:
            return 0
        state = game.engine_state()
        sent = notifications.record_reminders(game, state, engine.awaiting(state))
        Game.objects.filter(pk=game.pk).update(reminder_at=None)
    return len(sent)


@retried_on_deadlock
def end_bargaining(game_id: int, *, now=None) -> bool:
    """The bargaining time ran out: every bag becomes decidable, and the Sheriff is told
    (unless every merchant has spoken already). Compare-and-set on ``bargaining_until``,
    so a duplicated or late task does nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        due = game.bargaining_until is not None and game.bargaining_until <= now
        if game.status != Game.Status.ACTIVE or game.paused_at is not None or not due:
            return False
        Game.objects.filter(pk=game.pk).update(bargaining_until=None)
        game.bargaining_until = None
        state = game.engine_state()
        if state.phase.kind != "inspection" or not waiting_to_speak(state):
            return False
        state, events = engine.apply(state, {"type": "end_bargaining"})
        commit_state(game, state, events, now)
        notifications.record(game, state, events)
    return True
