"""Create and start a game from the command line; the first emails go out."""

import math
from argparse import ArgumentTypeError
from datetime import datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.management.base import BaseCommand, CommandError

from games.core import deadlines, game_setup, links
from games.engine import EngineError
from games.engine.cards import BLACK_MARKET_VALUES

# Game field and what it times; an option left out keeps the Game's default.
MINUTE_OPTIONS = (
    ("market_minutes", "2nd edition market (everyone at once)"),
    ("market_turn_minutes", "each 1st edition market turn"),
    ("load_minutes", "load and declare"),
    ("inspection_minutes", "inspection"),
)
MAX_COUNT = 32767  # the counts (misses, idle phases) are small integer columns
# The provisional piles, as --black-market-values takes them: "pepper=30,27 mead=...".
PROVISIONAL_PILES = [f"{kind}={top},{below}" for kind, (top, below) in BLACK_MARKET_VALUES.items()]


def _whole(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 0:
        raise ArgumentTypeError(f"must be 0 or more: {value!r}")
    return number


def _count(value: str) -> int:
    number = _whole(value)
    if number > MAX_COUNT:
        raise ArgumentTypeError(f"must be at most {MAX_COUNT}: {value!r}")
    return number


def _minutes(value: str) -> int:
    return _at_most_a_year(_whole(value), value)


def _reminder(value: str) -> int | float:
    """Minutes, fractions allowed (0.5 is 30 seconds)."""
    try:
        number = float(value)
    except ValueError:
        raise ArgumentTypeError(f"not a number: {value!r}") from None
    if not (math.isfinite(number) and number >= 0):
        raise ArgumentTypeError(f"must be 0 or more: {value!r}")
    return _at_most_a_year(int(number) if number.is_integer() else number, value)


def _at_most_a_year(minutes, value: str):
    if minutes > deadlines.MAX_MINUTES:
        raise ArgumentTypeError(f"must be at most {deadlines.MAX_MINUTES} (a year): {value!r}")
    return minutes


def _hh_mm(value: str) -> time:
    try:
        return datetime.strptime(value, "%H:%M").time()
    except ValueError:
        raise ArgumentTypeError(f"write the time as HH:MM, e.g. 18:00 (got {value!r})") from None


def _pile(value: str) -> tuple[str, str]:
    """'pepper=30,27' -> ('pepper', '30,27'); the values are checked with the others."""
    kind, equals, values = value.partition("=")
    if not equals or not kind.strip():
        raise ArgumentTypeError(
            f"write each pile as kind=value,value, e.g. {PROVISIONAL_PILES[0]} (got {value!r})"
        )
    return kind.strip().lower(), values


def _black_market_values(piles: list | None) -> dict | None:
    """The organizer's piles (a pile not given keeps its provisional value); None: none given."""
    if not piles:
        return None
    kinds = [kind for kind, _ in piles]
    repeated = sorted({kind for kind in kinds if kinds.count(kind) > 1})
    if repeated:
        raise CommandError(f"--black-market-values gives the {repeated[0]} pile twice.")
    try:
        return game_setup.black_market_values(dict(piles))
    except ValueError as error:
        raise CommandError(str(error)) from None


def _config(options: dict) -> dict:
    """The engine configuration the options ask for (the engine checks it)."""
    config = {
        "edition": options["edition"],
        "first_sheriff": options["first_sheriff"],
        "royal_goods": options["royal"],
        "seven_card_hand": options["seven_card_hand"],
        "remove_ten": options["remove_ten"],
        "black_market": options["black_market"],
    }
    values = _black_market_values(options["black_market_values"])
    if values is not None and not options["black_market"]:
        raise CommandError("--black-market-values needs --black-market.")
    if values is not None:
        config["black_market_values"] = values
    return config


def _zone(value: str) -> str:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ArgumentTypeError(f"unknown time zone {value!r}") from None
    return value


class Command(BaseCommand):
    help = (
        'Create a game: --player "Name <email> [Time/Zone]" once per seat (3 to 6; six play '
        "the 2nd edition's Deputies rules), clockwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)
        parser.add_argument("--player", action="append", required=True, dest="players")
        parser.add_argument("--edition", type=int, choices=(1, 2), default=2)
        parser.add_argument("--first-sheriff", type=int, default=0)
        parser.add_argument("--royal", action="store_true", help="play with the Royal Goods")
        parser.add_argument("--seven-card-hand", action="store_true")
        parser.add_argument("--remove-ten", action="store_true")
        parser.add_argument(
            "--black-market",
            action="store_true",
            help="play with the Black Market (2nd edition option)",
        )
        parser.add_argument(
            "--black-market-values",
            nargs="+",
            type=_pile,
            metavar="KIND=HIGH,LOW",
            help=f"the Black Market piles' values, e.g. {' '.join(PROVISIONAL_PILES)} (the "
            "provisional values: the default, also for a pile left out)",
        )
        parser.add_argument(
            "--seed",
            help="hex seed, with random digits added unless FIXED_SEEDS is on "
            "(default: a secret random one)",
        )
        parser.add_argument("--organizer", default="", help="organizer's email")
        timing = parser.add_argument_group("deadlines")
        timing.add_argument(
            "--deadlines",
            choices=("none", "duration", "daily"),
            default="none",
            dest="deadline_mode",
            help="none (default), a duration per phase, or a fixed time every day",
        )
        for field, what in MINUTE_OPTIONS:
            timing.add_argument(
                "--" + field.replace("_", "-"),
                type=_minutes,
                dest=field,
                help=f"duration mode: minutes for {what} (0: no deadline)",
            )
        timing.add_argument("--daily-time", type=_hh_mm, help="daily mode: HH:MM local time")
        timing.add_argument(
            "--deadline-timezone", type=_zone, help="zone of the daily time and weekends (UTC)"
        )
        timing.add_argument(
            "--skip-weekends", action="store_true", help="no deadline on Sat or Sun"
        )
        timing.add_argument(
            "--reminder-minutes", type=_reminder, help="remind this long before (0: never)"
        )
        timing.add_argument(
            "--no-early-advance",
            action="store_false",
            dest="advance_early",
            help="hold a complete phase until its deadline",
        )
        timing.add_argument(
            "--bargaining-minutes",
            type=_minutes,
            help="minutes the Sheriff waits for each merchant to offer or say 'no offer' "
            "(default: half the inspection time; 0: no waiting)",
        )
        timing.add_argument(
            "--black-market-minutes",
            type=_minutes,
            help="duration mode: minutes for the Black Market step "
            "(default: a tenth of the inspection time; 0: no deadline)",
        )
        timing.add_argument(
            "--miss-alert-after",
            type=_count,
            help="email the organizer after this many missed deadlines in a row",
        )
        timing.add_argument(
            "--abandon-after",
            type=_count,
            help="pause the game after this many phases in a row with nobody moving "
            "(default 3; 0: never, e.g. for a game that plays itself)",
        )
        timing.add_argument(
            "--away-defaults",
            action="store_true",
            help="do not wait for players who are away: the missed-move defaults apply",
        )
        timing.add_argument(
            "--away-cap-days",
            type=_count,
            help="wait for away players at most this many days in the whole game (default 7)",
        )

    def handle(self, *args, **options):
        if options["deadline_mode"] == "daily" and options["daily_time"] is None:
            raise CommandError("--deadlines daily needs --daily-time HH:MM.")
        timing = {
            "deadline_mode": options["deadline_mode"],
            "skip_weekends": options["skip_weekends"],
            "advance_early": options["advance_early"],
            "away_pauses": not options["away_defaults"],
        }
        optional = (
            *(field for field, _ in MINUTE_OPTIONS),
            "daily_time",
            "deadline_timezone",
            "reminder_minutes",
            "bargaining_minutes",
            "black_market_minutes",
            "miss_alert_after",
            "abandon_after",
            "away_cap_days",
        )
        timing.update({f: options[f] for f in optional if options.get(f) is not None})
        try:
            name = game_setup.game_name(options["name"])
            organizer = options["organizer"] and game_setup.email_address(options["organizer"])
            players = [game_setup.parse_player(p) for p in options["players"]]
            game = game_setup.create_game(
                name=name,
                players=players,
                config=_config(options),
                seed=options["seed"],
                organizer_email=organizer,
                timing=timing,
            )
        except (ValueError, EngineError) as error:
            raise CommandError(getattr(error, "message", str(error))) from None
        self.stdout.write(self.style.SUCCESS(f"Game {game.pk} '{game.name}' started."))
        if game.phase_deadline is not None:
            shown = deadlines.format_for(game.phase_deadline, game.deadline_timezone)
            # In UTC the local time is the UTC one: said once.
            when = shown["local"] if shown["is_utc"] else f"{shown['local']} ({shown['utc']})"
            self.stdout.write(f"  First deadline: {when}")
        for seat in game.seats.all():
            self.stdout.write(f"  {seat.name} <{seat.email}>: {links.seat_url(seat)}")
