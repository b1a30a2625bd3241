"""The fields a new game's forms share, the admin's and the organizer's own page's,
with the checks ``creategame`` makes too: the deadline settings (a setting left
empty takes the Game's default), the Black Market piles and the yes-or-no rules."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from games import engine
from games.core import deadlines, game_setup
from games.engine import EngineError
from games.engine.cards import BLACK_MARKET_TYPES, BLACK_MARKET_VALUES
from games.models import Game
from games.words import goods_names

TIMING_FIELDS = game_setup.TIMING_FIELDS  # the deadline settings, named once in the core

# The deadline settings as the organizer reads them (the model's names are for code).
TIMING_LABELS = {
    "deadline_mode": _("Deadlines"),
    "market_minutes": _("Market, minutes"),
    "market_turn_minutes": _("Each market turn, minutes"),
    "load_minutes": _("Load and declare, minutes"),
    "inspection_minutes": _("Inspection, minutes"),
    "bargaining_minutes": _("Bargaining time, minutes"),
    "black_market_minutes": _("Black Market step, minutes"),
    "daily_time": _("Daily time"),
    "deadline_timezone": _("Deadline time zone"),
    "skip_weekends": _("Skip weekends"),
    "reminder_minutes": _("Reminder, minutes before"),
    "advance_early": _("Advance early"),
    "miss_alert_after": _("Alert me after this many misses"),
    "abandon_after": _("Pause after this many phases nobody moved in"),
    "away_pauses": _("Wait for away players"),
    "away_cap_days": _("At most this many days of waiting"),
}


def check_zone(name: str) -> str:
    """``name`` stripped, if it is an IANA time zone the server knows; a form error
    if not, before a deadline is ever computed in it."""
    name = (name or "").strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise forms.ValidationError(
            _("Unknown time zone %(zone)r; use a name such as Europe/Paris or UTC.")
            % {"zone": name}
        ) from None
    return name


class DeadlineSettingsMixin:
    """The add and change forms' deadline settings: a setting left empty takes the
    Game's default; no time is longer than a year; the zone must be a known IANA
    zone; daily mode needs a time."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in TIMING_FIELDS:
            field = self.fields.get(name)
            model_field = Game._meta.get_field(name)
            if field is not None and model_field.has_default() and field.required:
                field.required = False
            if field is not None and name.endswith("_minutes"):
                field.validators.append(MaxValueValidator(deadlines.MAX_MINUTES))
                field.widget.attrs["max"] = deadlines.MAX_MINUTES

    def clean_deadline_timezone(self):
        return check_zone(self.cleaned_data.get("deadline_timezone") or "UTC")

    def clean(self):
        cleaned = super().clean()
        for name in TIMING_FIELDS:
            if name in self.fields and cleaned.get(name) in (None, "") and name not in self.errors:
                model_field = Game._meta.get_field(name)
                if model_field.has_default():
                    cleaned[name] = model_field.get_default()
        if cleaned.get("deadline_mode") == Game.DeadlineMode.DAILY and not cleaned.get(
            "daily_time"
        ):
            self.add_error("daily_time", _("Daily deadlines need a time of day."))
        return cleaned


# The new-game form's field for each Black Market pile.
PILE_FIELDS = {kind: f"black_market_{kind}" for kind in BLACK_MARKET_TYPES}


class PileField(forms.CharField):
    """One Black Market pile's two card values, "30, 27"; blank: the provisional default.

    One field per pile rather than two number boxes: a pile's two cards are read
    together (the top one, then the one below), as ``creategame`` takes them
    (``pepper=30,27``), and the form stays short for values seldom changed."""

    def __init__(self, kind: str):
        self.kind = kind
        top, below = BLACK_MARKET_VALUES[kind]
        super().__init__(
            required=False,
            max_length=20,
            label=format_lazy(_("{kind} pile"), kind=goods_names.LABELS[kind]),
            help_text=format_lazy(
                _("Two values; blank: {top}, {below} (provisional)."), top=top, below=below
            ),
            widget=forms.TextInput(attrs={"placeholder": f"{top}, {below}", "size": 8}),
        )

    def validate(self, value):
        super().validate(value)
        if value:
            try:
                game_setup.black_market_pile(self.kind, value)
            except ValueError as error:
                raise forms.ValidationError(str(error)) from None


# The new-game form's yes-or-no options, named as GameConfig names them.
BOOLEAN_OPTIONS = ("royal_goods", "seven_card_hand", "remove_ten", "black_market")


def edition_field() -> forms.TypedChoiceField:
    """The edition, as the new-game form and "Play now" offer it."""
    return forms.TypedChoiceField(
        label=gettext_lazy("Edition"),
        choices=[(2, gettext_lazy("2nd edition (2020)")), (1, gettext_lazy("1st edition"))],
        coerce=int,
        initial=2,
    )


def black_market_field() -> forms.BooleanField:
    return forms.BooleanField(
        required=False,
        label=gettext_lazy("Black Market"),
        help_text=gettext_lazy(
            "2nd edition: a merchant may trade 3 contraband of a kind for a Black Market card."
        ),
    )


def checked(check, value):
    """``check(value)``, its ValueError said as the field's error."""
    try:
        return check(value)
    except ValueError as error:
        raise forms.ValidationError(str(error)) from None


class GameNameMixin:
    """The game's name goes in every email's subject: one line of plain text."""

    def clean_name(self):
        return checked(game_setup.game_name, self.cleaned_data["name"])


class RulesMixin:
    """The rules' fields (edition, first Sheriff, the options, the Black Market's
    piles) made into the engine's configuration, which the engine checks too."""

    def rules_config(self, cleaned: dict, seats: int, seed: str | None = None) -> dict | None:
        """The configuration for ``seats`` players, or None with the form's errors said."""
        first_sheriff = cleaned.get("first_sheriff")
        if first_sheriff is None or cleaned.get("edition") is None:
            return None
        if first_sheriff > seats:
            text = gettext("There are only %(seats)d seats.") % {"seats": seats}
            self.add_error("first_sheriff", text)
            return None
        if any(name in self.errors for name in PILE_FIELDS.values()):
            return None
        piles = {kind: cleaned.get(name) for kind, name in PILE_FIELDS.items()}
        if any(piles.values()) and not cleaned.get("black_market"):
            text = gettext("Tick Black Market to play with these pile values.")
            self.add_error("black_market", text)
            return None
        config = {
            "players": seats,
            "edition": cleaned["edition"],
            "first_sheriff": first_sheriff - 1,  # the engine numbers seats from 0
            **{option: cleaned.get(option, False) for option in BOOLEAN_OPTIONS},
        }
        values = game_setup.black_market_values(piles)
        if values is not None:  # blank piles: the engine's provisional defaults
            config["black_market_values"] = values
        try:  # the engine's own checks (player count, edition, seed), before anything is saved
            engine.new_game(config, seed or None)
        except EngineError as error:
            raise forms.ValidationError(error.message) from None
        return config
