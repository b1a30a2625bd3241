"""Every write to a game: one transaction per move, one writer per game.

A move locks the game row (``select_for_update`` on PostgreSQL; SQLite's
IMMEDIATE transactions serialize writers), applies the engine command,
appends the events, updates the snapshot with a compare-and-set on the
version, and records the emails owed in the outbox — all in one commit.
Sending happens after commit (``games.core.tasks``).
"""

import functools
import logging
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.core import bulk, deadlines, notifications, pacing, selectors
from games.engine import CARD_TYPES, EngineError
from games.engine.cards import BLACK_MARKET_TYPES, BLACK_MARKET_VALUES
from games.engine.inspection import waiting_to_speak
from games.models import Game, GameEvent, Seat, Submission
from games.words import refusal_messages
from games.words.narrate import REPLACED, idle_for
from games.words.typed_text import look_alike, unfit_for_a_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    timezone: str = "UTC"
    language: str = "en"


MAX_PLAYER_NAME = 60  # Seat.name
MAX_GAME_NAME = 100  # Game.name
MAX_EMAIL = 254  # an EmailField
ONE_LINE = "one line of plain text: no line breaks, control or text-direction characters"


def parse_player(line: str) -> PlayerSpec:
    """'Alice <alice@example.org> Europe/Paris' -> PlayerSpec (timezone optional).
    ValueError says what is wrong with the line."""
    from email.utils import parseaddr
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    text = line.strip()
    tz = "UTC"
    if ">" in text and text.rsplit(">", 1)[1].strip():
        text, tz = text.rsplit(">", 1)[0] + ">", text.rsplit(">", 1)[1].strip()
    name, email = parseaddr(text)
    one_address = text.count("<") == 1 and text.count(">") == 1
    if not name or "@" not in email or not one_address:
        raise ValueError(f'Write each player as "Name <email>": {line.strip()!r}')
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"Unknown timezone {tz!r} for {name!r}.") from None
    return PlayerSpec(name=player_name(name), email=email_address(email), timezone=tz)


def player_name(name: str) -> str:
    """A player's name as every page and email shows it; ValueError if it cannot be."""
    name = name.strip()
    if len(name) > MAX_PLAYER_NAME:
        raise ValueError(
            f"A player's name can be at most {MAX_PLAYER_NAME} characters: {name[:30]!r}…"
        )
    if unfit_for_a_name(name):
        raise ValueError(f"A player's name is {ONE_LINE}: {name!r}.")
    if name.casefold() == "you":
        raise ValueError('No player may be called "You": that is what the pages call their reader.')
    return name


def distinct_names(names) -> None:
    """ValueError if two players' names would read as the same (games.words.typed_text.look_alike):
    the same letters in another script, another case or another form."""
    seen: list = []
    for name in names:
        twin = look_alike(name, seen)
        if twin is not None:
            text = _(
                "Two players would read as the same name (%(first)s and %(second)s): "
                "give each player a name of their own."
            )
            raise ValueError(text % {"first": repr(twin), "second": repr(name)})
        seen.append(name)


MAX_PILE_VALUE = 999  # a Black Market card's value: a few digits (any column, any page)


def black_market_pile(kind: str, text: str) -> list[int]:
    """'30, 27' (or '30 27', '30/27') -> [30, 27]: the two card values of a Black
    Market pile, in any order (the higher one is on top). ValueError says what is wrong."""
    values = [_card_value(part) for part in re.split(r"[\s,/]+", text.strip()) if part]
    if len(values) == 2 and None not in values:
        return values
    top, below = BLACK_MARKET_VALUES[kind]
    raise ValueError(
        f"The {CARD_TYPES[kind].label} pile holds two cards: give two whole numbers from 1 "
        f'to {MAX_PILE_VALUE}, e.g. "{top}, {below}".'
    )


def _card_value(text: str) -> int | None:
    # ASCII digits only: int() also takes '١', and thousands of digits.
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_PILE_VALUE))):
        return None
    return int(text) if 0 < int(text) <= MAX_PILE_VALUE else None


def black_market_values(piles: dict) -> dict | None:
    """The organizer's Black Market values from each pile's text (kind -> '30, 27'):
    a pile left blank keeps its provisional default; None when every pile is blank,
    so that the game uses, and says it uses, the provisional values. ValueError for
    a pile's text or for a kind there is no pile of."""
    given = {kind: text.strip() for kind, text in piles.items() if text and text.strip()}
    unknown = sorted(set(given) - set(BLACK_MARKET_TYPES))
    if unknown:
        raise ValueError(
            f"No Black Market pile is called {unknown[0]!r}: the piles are "
            f"{', '.join(BLACK_MARKET_TYPES)}."
        )
    if not given:
        return None
    defaults = {kind: list(values) for kind, values in BLACK_MARKET_VALUES.items()}
    return {
        kind: black_market_pile(kind, given[kind]) if kind in given else defaults[kind]
        for kind in BLACK_MARKET_TYPES
    }


def game_name(name: str) -> str:
    """A game's name, which every email's subject carries; ValueError if it cannot be."""
    name = name.strip()
    if not name:
        raise ValueError("The game needs a name.")
    if len(name) > MAX_GAME_NAME:
        raise ValueError(f"A game's name can be at most {MAX_GAME_NAME} characters.")
    if unfit_for_a_name(name):
        raise ValueError(f"A game's name is {ONE_LINE}.")
    return name


def email_address(address: str) -> str:
    """An address mail can be sent to (caught now rather than when the first email fails)."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    address = address.strip()
    try:
        validate_email(address)
    except ValidationError:
        raise ValueError(f"{address!r} is not an email address.") from None
    if len(address) > MAX_EMAIL:
        raise ValueError(f"An email address can be at most {MAX_EMAIL} characters.")
    return address


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


class ServiceError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def mixed_seed(seed: str | None) -> str | None:
    """The seed a game is dealt from, given the one its organizer typed (if any).

    SHA-256(seed) is published from the start, so a typed seed of low entropy ("00"
    times 16, a date) is found by trying candidates against it, and with it the deck
    and every hand. Refusing typed seeds would lose the organizer's say in the deal;
    instead 16 random bytes of the server are appended, and the commitment is to the
    whole. The revealed seed still starts with the typed one, so the organizer can
    see it was used. FIXED_SEEDS (tests, debugging) deals from the typed seed alone,
    so that a game is reproducible. A malformed seed goes to the engine unchanged,
    which refuses it with its usual message.
    """
    if seed is None or settings.FIXED_SEEDS:
        return seed
    try:
        if len(bytes.fromhex(seed)) < 16:
            return seed
    except (TypeError, ValueError):
        return seed
    return seed.lower() + secrets.token_hex(16)


def create_game(
    *,
    name: str,
    players: list[PlayerSpec],
    config: dict,
    seed: str | None = None,
    organizer_email: str = "",
    timing: dict | None = None,
    now=None,
) -> Game:
    """Create and start a game; the first emails are owed in the same commit.
    ``timing`` holds Game deadline settings (deadline_mode, load_minutes, ...)."""
    now = now or timezone.now()
    distinct_names(p.name for p in players)
    config = {**config, "players": len(players)}
    state, events = engine.new_game(config, mixed_seed(seed))  # EngineError for a bad config
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            config=state.config.to_dict(),
            state=state.to_dict(),
            version=state.seq,
            seed_sha256=state.seed_sha256,
            organizer_email=organizer_email,
            **(timing or {}),
        )
        first_phase = _timing(game, state, now)
        Game.objects.filter(pk=game.pk).update(**first_phase)
        _assign(game, first_phase)
        Seat.objects.bulk_create(
            Seat(
                game=game,
                index=i,
                name=p.name,
                email=p.email,
                timezone=p.timezone,
                language=p.language,
            )
            for i, p in enumerate(players)
        )
        _store_events(game, events)
        notifications.record(game, state, events)
    log.info("game %s created with %d players", game.pk, len(players))
    return game


def _assign(game: Game, fields: dict) -> None:
    """Keep the in-memory game in step with the fields just written."""
    for name, value in fields.items():
        setattr(game, name, value)


def _locked(game_id: int) -> Game:
    return selectors.game_locked(game_id)


def _store_events(game: Game, events: list) -> None:
    bulk.insert(_event_rows(game, events))


def _event_rows(game: Game, events: list) -> list:
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


def _timing(game: Game, state, now) -> dict:
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
        "advance_queued_at": None,
    }


def _apply(game: Game, state, command: dict, **options) -> tuple:
    """``engine.apply``; a game whose organizer set no bargaining time has it end as
    soon as an inspection begins, in the same commit."""
    state, events = engine.apply(state, command, **options)
    phase = state.phase
    if game.bargaining_minutes == 0 and phase.kind == "inspection" and not phase.bargaining_over:
        state, more = engine.apply(state, {"type": "end_bargaining"})
        events = events + more
    return state, events


def _moved_on(game: Game, state, now) -> dict:
    """The Game fields a new state changes: snapshot, version, the new phase's timing."""
    fields = {"state": state.to_dict(), "version": state.seq, "updated_at": now}
    fields.update(_timing(game, state, now))
    if state.is_over():
        fields.update(status=Game.Status.FINISHED, finished_at=now)
    return fields


def _commit_state(game: Game, state, events: list, now=None, **extra) -> None:
    """Append the events and move the snapshot forward, compare-and-set on the
    version; a new phase gets its deadline from the database's clock of record.
    ``extra``: more Game fields to write in the same update."""
    now = now or timezone.now()
    fields = {**_moved_on(game, state, now), **extra}
    match = {"pk": game.pk, "version": game.version}
    GameEvent.objects.bulk_create(_event_rows(game, events))
    updated = Game.objects.filter(**match).update(**fields)
    if updated != 1:  # impossible while the row lock is held; refuse rather than fork
        raise ServiceError("conflict", _("The game changed meanwhile; please try again."))
    _assign(game, fields)


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


@retried_on_deadlock
def submit(
    seat: Seat, command: dict, *, version: int, key: str, now=None, seats: list | None = None
) -> Outcome:
    """Apply a seat's command. ``version`` is the phase version the page was
    rendered for (``view["phase"]["since"]``): moves of other seats within the
    same phase do not make a page stale, a new phase does. ``key`` is the form's
    one-time key: a repeat of an accepted move returns its outcome. A refused
    move changes nothing and leaves no row (a flood of them stores nothing); the
    same form sent again is judged again. A seat moving too fast (games.core.pacing)
    is refused with ``retry_after``. ``seats``: the game's seats in seat order,
    if read already (the emails the move owes are addressed from them)."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            return _submit_locked(seat, command, version, key, now, seats)
    except _Repeated as repeat:  # everything it wrote is rolled back
        return Outcome(True, version=repeat.version, repeated=True)


class _Repeated(Exception):
    """The form's key was taken by an earlier accepted move: undo this one."""

    def __init__(self, version: int):
        self.version = version


def _submit_locked(seat: Seat, command: dict, version: int, key: str, now, seats) -> Outcome:
    game = _locked(seat.game_id)
    version_seen = game.version
    allowances, wait = _take_a_move(game, seat.index, now)
    if wait:
        if _submitted(game, key):
            raise _Repeated(version_seen)
        return Outcome(
            False, "too_fast", pacing.too_fast_message(wait), game.version, retry_after=wait
        )
    command = {**command, "seat": seat.index}  # the seat comes from the link, never the form
    outcome = _apply_for_seat(game, command, version, now, seats=seats, move_allowances=allowances)
    if not outcome.accepted:
        # Refused as made again (the same form sent twice, or a stale page): its
        # first outcome. Else a refused move counts against the allowance all the same.
        if _submitted(game, key):
            raise _Repeated(version_seen)
        Game.objects.filter(pk=game.pk).update(move_allowances=allowances)
        return outcome
    if seat.missed_in_a_row:
        Seat.objects.filter(pk=seat.pk).update(missed_in_a_row=0)
    # Recorded last, and checked by the same statement: a move whose key is taken
    # is a repeat of one accepted earlier (the same form sent twice), which the
    # lock has made us wait for; it is undone whole, its allowance included.
    submission = Submission(
        game=game, seat=seat, key=key, command=command, version_after=game.version
    )
    try:
        submission.save()
    except IntegrityError:  # the key is taken; the transaction is rolled back whole
        raise _Repeated(version_seen) from None
    return outcome


def _submitted(game: Game, key: str) -> bool:
    return Submission.objects.filter(game=game, key=key).exists()


def _take_a_move(game: Game, seat: int, now) -> tuple[dict, int]:
    """Count one move against the seat's allowance: (the game's allowances after
    it, 0), or (unchanged, the seconds to wait) if none is left. Read under the
    game's lock: two tabs of one seat cannot both spend it."""
    after, wait = pacing.take(pacing.of_seat(game.move_allowances, seat), now)
    if after is None:
        return game.move_allowances, wait
    return pacing.with_seat(game.move_allowances, seat, after), 0


def _apply_for_seat(
    game: Game, command: dict, version: int, now, seats: list | None = None, **fields
) -> Outcome:
    """Apply a seat's command to the locked game; ``seats``: its seats, if read
    already (see ``notifications.record``); ``fields``: more Game fields to write
    with the move."""
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
        state, events = _apply(game, before, command, auto_advance=game.advance_early)
    except EngineError as error:  # the player reads it in their language
        return Outcome(
            False, error.code, refusal_messages.message(error.code, error.message), game.version
        )
    since = game.version
    # A player moved: the game is not abandoned (see _idle).
    _commit_state(game, state, events, now, last_move_seq=since, idle_phases=0, **fields)
    notifications.record(game, state, events, seats)
    return Outcome(True, version=game.version, since=since, events=tuple(events), before=before)


def advance(
    game_id: int, *, expected_version: int | None = None, now=None, force: bool = False
) -> bool:
    """The deadline passed: apply the missed-move defaults and move on.

    Compare-and-set: nothing happens unless the game is still at
    ``expected_version`` (when given), active, not paused and past its deadline
    (unless ``force``, the organizer's "advance now"). So a task delivered twice,
    a sweep racing an early advance, or two workers make exactly one transition."""
    return advance_many([(game_id, expected_version)], now=now, force=force) == 1


# Every Game field a transition may change (see _moved_on).
TRANSITION_FIELDS = [
    "state",
    "version",
    "updated_at",
    "phase_since",
    "phase_deadline",
    "reminder_at",
    "bargaining_until",
    "advance_queued_at",
    "status",
    "finished_at",
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


def _stamp(game: Game) -> tuple:
    # Every write to a game moves its version (a move, a control) or its
    # updated_at (an admin edit of its settings).
    return (game.version, game.updated_at)


def _transitions(games, now, force: bool) -> list:
    """Each game's Transition; its seats in one query for them all. (A seat only
    changes with a move or a control, which moves the game's version.)"""
    games = list(games)
    seats: dict[int, list] = {game.pk: [] for game in games}
    for seat in Seat.objects.filter(game__in=games):
        seats[seat.game_id].append(seat)
    return [_transition(game, seats[game.pk], now, force) for game in games]


def _transition(game: Game, seats: list, now, force: bool) -> Transition:
    stamp = _stamp(game)
    state = game.engine_state()
    late = set(engine.awaiting(state))
    waiting = None if force else _waiting_for_away(game, state, seats, late, now)
    if waiting:  # the deadline moves; nothing else happens, nobody missed anything
        _assign(game, waiting)
        return Transition(stamp, game, state, [], [], seats, set(), False, [])
    # The organizer's "advance now" is logged as theirs, not as time running out.
    timeout = {"type": "timeout", "by": "organizer"} if force else {"type": "timeout"}
    state, events = _apply(game, state, timeout)
    # Nobody played for too long: pause (the organizer's "advance now" does not count).
    pausing = not force and _idle(game) and not state.is_over()
    if pausing:
        state, noted = engine.apply(state, _pause_note(game))
        events += noted
        game.paused_at = now
    _assign(game, _moved_on(game, state, now))
    rows = [GameEvent(game=game, seq=e["seq"], type=e["type"], data=e) for e in events]
    # The game that paused itself: one email says so, instead of the new phase's.
    emails = [] if pausing else notifications.emails_owed([(game, seats, state, events)])
    return Transition(stamp, game, state, events, rows, seats, late, pausing, emails)


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
        "advance_queued_at": None,
        "updated_at": now,
        "away_minutes_used": game.away_minutes_used + used / timedelta(minutes=1),
    }


def plan_advances(targets: list, *, at) -> dict:
    """Work out, without a lock, what the deadline at ``at`` will do to these
    games if nothing else happens to them first: game id -> Transition. A
    worker does this just before the deadline, so that at the deadline only
    the writes are left (see advance_many's ``plans``)."""
    expected = dict(targets)
    games = Game.objects.filter(pk__in=expected, status=Game.Status.ACTIVE, paused_at=None)
    games = [game for game in games if expected[game.pk] in (None, game.version)]
    transitions = _transitions(games, at, force=False)
    bulk.ready([row for t in transitions for row in t.rows])
    bulk.ready([t.game for t in transitions], ADVANCED_FIELDS)
    bulk.ready([email for t in transitions for email in t.emails])
    return {t.game.pk: t for t in transitions}


@retried_on_deadlock
def advance_many(targets: list, *, now=None, force: bool = False, plans=None) -> int:
    """``advance`` for (game id, expected version) pairs in one transaction and
    one commit, with set-wide reads and writes (games.core.bulk): a thousand deadlines
    falling in the same second must not be a thousand transactions. Rows are
    locked in id order (no deadlock between two chunks). ``plans`` (from
    plan_advances) are used for the games whose row has not changed since;
    the others are worked out here. Returns how many games moved on."""
    now = now or timezone.now()
    expected = dict(targets)
    plans = plans or {}
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update()
            .filter(pk__in=expected, status=Game.Status.ACTIVE)
            .order_by("pk")
        )
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
        fresh = Game.objects.filter(pk__in=[pk for pk, _ in due if pk not in ready])
        ready.update((t.game.pk, t) for t in _transitions(fresh, now, force))
        transitions = [ready[pk] for pk, _ in due]
        _write_transitions(transitions, count_missed=not force)
    return len(transitions)


def _write_transitions(transitions: list, count_missed: bool) -> None:
    games = [t.game for t in transitions]
    bulk.insert([row for t in transitions for row in t.rows])
    bulk.update(games, ADVANCED_FIELDS)
    notifications.save_owed([email for t in transitions for email in t.emails])
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
    return {"type": "note", "text": text, "by": "game"}


def _count_missed(games: dict, seats: list) -> None:
    """One more missed deadline in a row for each of these seats (as loaded under
    their game's lock); the organizer is alerted once a seat reaches its game's
    threshold."""
    for seat in seats:
        seat.missed_in_a_row += 1
    bulk.update(seats, ["missed_in_a_row"])
    for seat in seats:
        game = games[seat.game_id]
        if game.organizer_email and seat.missed_in_a_row == game.miss_alert_after:
            notifications.record_miss_alert(game, seat)


@retried_on_deadlock
def send_reminders(game_id: int, *, now=None) -> int:
    """Remind the seats that still owe a move, once per seat and phase."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
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
        game = _locked(game_id)
        due = game.bargaining_until is not None and game.bargaining_until <= now
        if game.status != Game.Status.ACTIVE or game.paused_at is not None or not due:
            return False
        Game.objects.filter(pk=game.pk).update(bargaining_until=None)
        game.bargaining_until = None
        state = game.engine_state()
        if state.phase.kind != "inspection" or not waiting_to_speak(state):
            return False
        state, events = engine.apply(state, {"type": "end_bargaining"})
        _commit_state(game, state, events, now)
        notifications.record(game, state, events)
    return True


# --- the organizer's controls ----------------------------------------------------------
# Each takes the version the organizer's page showed: a double-submitted form
# finds the version moved on (every control writes a note to the game log) and
# does nothing the second time.

STALE = "The game changed meanwhile; nothing was done."
NOT_ACTIVE = "This game is no longer in play."


def _control(
    game_id: int, expected_version: int, note: str, change, now, announce: str = ""
) -> Game:
    """One organizer control: the change, a note in the log and, with ``announce``
    (an email kind), an email to every player in the same commit."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.version != expected_version:
            raise ServiceError("stale", STALE)
        if game.status != Game.Status.ACTIVE:
            raise ServiceError("not_active", NOT_ACTIVE)
        fields = change(game) or {}
        state, events = engine.apply(game.engine_state(), {"type": "note", "text": note})
        _commit_state(game, state, events, now)
        if fields:
            Game.objects.filter(pk=game.pk).update(**fields)
            _assign(game, fields)
        if announce:
            notifications.record_notice(game, announce, f"note{state.seq}")
    return game


def pause(game_id: int, *, expected_version: int, now=None) -> Game:
    now = now or timezone.now()

    def change(game):
        if game.paused_at is not None:
            raise ServiceError("already_paused", "The game is already paused.")
        return {"paused_at": now}

    return _control(game_id, expected_version, "The game is paused.", change, now, "paused")


def resume(game_id: int, *, expected_version: int, now=None) -> Game:
    """The deadline (and the reminder) shift by the time spent paused."""
    now = now or timezone.now()

    def change(game):
        if game.paused_at is None:
            raise ServiceError("not_paused", "The game is not paused.")
        return {
            "paused_at": None,
            "idle_phases": 0,  # the organizer stepped in: the players get a fresh run
            "phase_deadline": deadlines.resume(game.phase_deadline, game.paused_at, now),
            "advance_queued_at": None,
            "reminder_at": deadlines.resume(game.reminder_at, game.paused_at, now),
            "bargaining_until": deadlines.resume(game.bargaining_until, game.paused_at, now),
        }

    return _control(game_id, expected_version, "The game resumes.", change, now, "resumed")


def extend(game_id: int, *, expected_version: int, by: timedelta, now=None) -> Game:
    now = now or timezone.now()
    try:
        game = Game.objects.get(pk=game_id)
        new_deadline = deadlines.extend(game.phase_deadline, by, now)
    except deadlines.ExtensionError as error:
        raise ServiceError("bad_extension", str(error)) from None
    shown = deadlines.format_for(new_deadline, "UTC")["utc"]

    def change(game):
        reminder = deadlines.reminder_time(policy(game), new_deadline, now)
        return {"phase_deadline": new_deadline, "reminder_at": reminder, "advance_queued_at": None}

    note = f"The deadline is extended to {shown}."
    return _control(game_id, expected_version, note, change, now, "extended")


def advance_now(game_id: int, *, expected_version: int, now=None) -> Game:
    """The organizer moves the game on before its deadline: the missing moves get
    their defaults, logged as the organizer's doing (``timed_out`` says ``by``, so
    no note is needed) and counted as nobody's miss. One compare-and-set
    transition: a form posted twice finds the version moved on."""
    if not advance(game_id, expected_version=expected_version, now=now, force=True):
        if Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).exists():
            raise ServiceError("stale", STALE)
        raise ServiceError("not_active", NOT_ACTIVE)
    return Game.objects.get(pk=game_id)


def cancel(game_id: int, *, expected_version: int, now=None) -> Game:
    now = now or timezone.now()

    def change(game):
        return {
            "status": Game.Status.CANCELLED,
            "phase_deadline": None,
            "reminder_at": None,
            "finished_at": now,
        }

    note = "The organizer cancelled the game."
    return _control(game_id, expected_version, note, change, now, "cancelled")


def resend_email(seat_id: int, *, expected_version: int, now=None) -> Game:
    """A player lost their link (the commonest request): their current email again.
    A form posted twice finds the version moved on and sends nothing more."""
    now = now or timezone.now()
    seat = Seat.objects.get(pk=seat_id)

    def change(game):
        notifications.record_resend(game, seat)

    note = f"The organizer sent {seat.name} their link again."
    return _control(seat.game_id, expected_version, note, change, now)


def replace_player(
    seat_id: int,
    *,
    expected_version: int,
    name: str,
    email: str,
    timezone_name: str = "",
    now=None,
) -> Seat:
    """A new person takes the seat: every earlier link is revoked, the player who
    leaves is told so at their address (in the same commit), the others read it in
    the log (and their next email), and the new player gets the current email.
    Without ``timezone_name``, the seat keeps its zone (the new player's settings
    change it)."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("game").get(pk=seat_id)
    new = parse_player(f"{name} <{email}> {timezone_name or seat.timezone}")
    others = seat.game.seats.exclude(pk=seat.pk).values_list("name", flat=True)
    distinct_names([*others, new.name])
    note = REPLACED.format(new=new.name, seat=seat.index + 1, old=seat.name)

    def change(game):
        if seat.email.lower() != new.email.lower():  # the same person: the welcome says it
            notifications.record_replaced(game, seat)
        Seat.objects.filter(pk=seat.pk).update(
            name=new.name,
            email=new.email,
            timezone=new.timezone,
            link_version=F("link_version") + 1,
            notified_seq=0,
            missed_in_a_row=0,
            last_delivered_at=None,
            last_failure="",
            last_failure_at=None,
            autoreply_at=None,
            undeliverable_at=None,
        )

    game = _control(seat.game_id, expected_version, note, change, now)
    seat.refresh_from_db()
    with transaction.atomic():
        notifications.record_welcome(game, seat, game.engine_state())
    return seat
