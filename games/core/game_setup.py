"""Setting a game up: the organizer's words checked (players, names, addresses,
the Black Market's piles, the seed) and the game created with its seats, its
first events and its first emails, in one transaction."""

import logging
import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.bots.names import is_bot_name
from games.core import bot_timing, notifications
from games.core.game_writes import assign_fields, phase_timing, store_events
from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_TYPES, BLACK_MARKET_VALUES
from games.models import Game, Seat
from games.words.typed_text import look_alike, unfit_for_a_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    timezone: str = "UTC"
    language: str = "en"
    bot: str = ""  # a bot's level (games.bots.LEVELS); a bot has no address


# The Game's deadline settings, as create_game(timing=...) takes them, and its table
# talk settings: what the organizer sets for a game (and a rematch carries over).
TIMING_FIELDS = (
    "deadline_mode",
    "market_minutes",
    "market_turn_minutes",
    "load_minutes",
    "inspection_minutes",
    "bargaining_minutes",
    "black_market_minutes",
    "daily_time",
    "deadline_timezone",
    "skip_weekends",
    "reminder_minutes",
    "advance_early",
    "miss_alert_after",
    "abandon_after",
    "away_pauses",
    "away_cap_days",
)
TALK_FIELDS = ("talk", "talk_private", "reveal_private")


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
    if is_bot_name(name):
        raise ValueError(_('A name ending in "(bot)" marks a bot: choose another.'))
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
    practice: bool = False,
    now=None,
) -> Game:
    """Create and start a game; the first emails are owed in the same commit.
    ``timing`` holds Game deadline settings (deadline_mode, load_minutes, ...).
    A player with a ``bot`` level is a bot (games.core.bot_turns plays its seat)."""
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
            bots={str(i): p.bot for i, p in enumerate(players) if p.bot},
            practice=practice,
            **(timing or {}),
        )
        first_phase = phase_timing(game, state, now)
        deadline = first_phase.get("phase_deadline")
        first_phase.update(bot_timing.due_fields(game, state, now, deadline))
        Game.objects.filter(pk=game.pk).update(**first_phase)
        assign_fields(game, first_phase)
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
        store_events(game, events)
        notifications.record(game, state, events)
    log.info("game %s created with %d players", game.pk, len(players))
    return game
