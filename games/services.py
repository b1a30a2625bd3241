"""Every write to a game: one transaction per move, one writer per game.

A move locks the game row (``select_for_update`` on PostgreSQL; SQLite's
IMMEDIATE transactions serialize writers), applies the engine command,
appends the events, updates the snapshot with a compare-and-set on the
version, and records the emails owed in the outbox — all in one commit.
Sending happens after commit (``games.tasks``).
"""

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games import engine, notifications
from games.engine import EngineError
from games.models import Game, GameEvent, Seat, Submission

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    timezone: str = "UTC"
    language: str = "en"


def parse_player(line: str) -> PlayerSpec:
    """'Alice <alice@example.org> Europe/Paris' -> PlayerSpec (timezone optional)."""
    from email.utils import parseaddr
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    text = line.strip()
    tz = "UTC"
    if ">" in text and text.rsplit(">", 1)[1].strip():
        text, tz = text.rsplit(">", 1)[0] + ">", text.rsplit(">", 1)[1].strip()
    name, email = parseaddr(text)
    if not name or "@" not in email:
        raise ValueError(f'Write each player as "Name <email>": {line.strip()!r}')
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"Unknown timezone {tz!r} for {name}.") from None
    return PlayerSpec(name=name, email=email, timezone=tz)


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    code: str = ""
    message: str = ""
    version: int = 0
    repeated: bool = False  # the same submission was seen before; nothing changed now


class ServiceError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def create_game(
    *,
    name: str,
    players: list[PlayerSpec],
    config: dict,
    seed: str | None = None,
    organizer_email: str = "",
) -> Game:
    """Create and start a game; the first emails are owed in the same commit."""
    config = {**config, "players": len(players)}
    state, events = engine.new_game(config, seed)  # EngineError for a bad config
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            config=state.config.to_dict(),
            state=state.to_dict(),
            version=state.seq,
            seed_sha256=state.seed_sha256,
            organizer_email=organizer_email,
        )
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


def _locked(game_id: int) -> Game:
    return Game.objects.select_for_update().get(pk=game_id)


def _store_events(game: Game, events: list) -> None:
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=e["seq"], type=e["type"], data=e) for e in events
    )


def _commit_state(game: Game, state, events: list) -> None:
    """Append the events and move the snapshot forward, compare-and-set."""
    _store_events(game, events)
    fields = {"state": state.to_dict(), "version": state.seq, "updated_at": timezone.now()}
    if state.is_over():
        fields.update(status=Game.Status.FINISHED, finished_at=timezone.now())
    updated = Game.objects.filter(pk=game.pk, version=game.version).update(**fields)
    if updated != 1:  # impossible while the row lock is held; refuse rather than fork
        raise ServiceError("conflict", "The game changed meanwhile; please try again.")
    for name, value in fields.items():
        setattr(game, name, value)


def submit(seat: Seat, command: dict, *, version: int, key: str) -> Outcome:
    """Apply a seat's command. ``version`` is the phase version the page was
    rendered for (``view["phase"]["since"]``): moves of other seats within the
    same phase do not make a page stale, a new phase does. ``key`` is the form's
    one-time key (a repeat returns the first outcome)."""
    with transaction.atomic():
        game = _locked(seat.game_id)
        earlier = Submission.objects.filter(game=game, key=key).first()
        if earlier is not None:
            return Outcome(
                earlier.accepted,
                earlier.error_code,
                earlier.error_message,
                game.version,
                repeated=True,
            )
        command = {**command, "seat": seat.index}  # the seat comes from the link, never the form
        outcome = _apply_for_seat(game, command, version)
        Submission.objects.create(
            game=game,
            seat=seat,
            key=key,
            command=command,
            accepted=outcome.accepted,
            error_code=outcome.code,
            error_message=outcome.message,
            version_after=game.version,
        )
    return outcome


def _apply_for_seat(game: Game, command: dict, version: int) -> Outcome:
    if game.status != Game.Status.ACTIVE:
        return Outcome(False, "game_not_active", "This game is no longer in play.", game.version)
    state = game.engine_state()
    if version != state.phase.since:
        return Outcome(
            False,
            "stale_page",
            "The game moved on since this page was shown. Here is the current table.",
            game.version,
        )
    try:
        state, events = engine.apply(state, command)
    except EngineError as error:
        return Outcome(False, error.code, error.message, game.version)
    _commit_state(game, state, events)
    notifications.record(game, state, events)
    return Outcome(True, version=game.version)


def advance(game_id: int, *, expected_version: int | None = None) -> bool:
    """Apply the missed-move defaults (the deadline passed). Compare-and-set on
    the version: a duplicate or late call for a version already gone does nothing."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        if expected_version is not None and expected_version != game.version:
            return False
        state, events = engine.apply(game.engine_state(), {"type": "timeout"})
        _commit_state(game, state, events)
        notifications.record(game, state, events)
    return True
