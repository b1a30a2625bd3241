"""The game's forms in the admin: the new-game form (players, rules, Black Market
piles, seed, deadlines) and the settings form of a game in play, with the checks
``creategame`` makes too, so a game the admin accepts is one the engine starts.
A setting left empty takes the Game's default. The seats' own form (time zone,
language) is here as well: it shares the time-zone check."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games import engine
from games.core import deadlines, game_setup
from games.engine import CARD_TYPES, EngineError
from games.engine.cards import BLACK_MARKET_TYPES, BLACK_MARKET_VALUES
from games.models import Game, Seat
from games.organizer import labels

# The Game's deadline settings, as game_setup.create_game(timing=...) takes them.
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
# The deadline settings as the organizer reads them (the model's names are for code).
TIMING_LABELS = {
    "deadline_mode": "Deadlines",
    "market_minutes": "Market, minutes",
    "market_turn_minutes": "Each market turn, minutes",
    "load_minutes": "Load and declare, minutes",
    "inspection_minutes": "Inspection, minutes",
    "bargaining_minutes": "Bargaining time, minutes",
    "black_market_minutes": "Black Market step, minutes",
    "daily_time": "Daily time",
    "deadline_timezone": "Deadline time zone",
    "skip_weekends": "Skip weekends",
    "reminder_minutes": "Reminder, minutes before",
    "advance_early": "Advance early",
    "miss_alert_after": "Alert me after this many misses",
    "abandon_after": "Pause after this many phases nobody moved in",
    "away_pauses": "Wait for away players",
    "away_cap_days": "At most this many days of waiting",
}


def check_zone(name: str) -> str:
    """``name`` stripped, if it is an IANA time zone the server knows; a form error
    if not, before a deadline is ever computed in it."""
    name = (name or "").strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        text = _("Unknown time zone %(zone)s; use an IANA name such as Europe/Paris or UTC.")
        raise forms.ValidationError(text % {"zone": repr(name)}) from None
    return name


class SeatForm(forms.ModelForm):
    # The language the player reads the game in; they may change it themselves too.
    language = forms.ChoiceField(choices=settings.LANGUAGES)

    class Meta:
        model = Seat
        fields = ("timezone", "language")
        labels = {"timezone": "Time zone"}

    def clean_timezone(self):
        return check_zone(self.cleaned_data["timezone"])


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
            self.add_error("daily_time", "Daily deadlines need a time of day.")
        return cleaned


class GameFieldsMixin:
    """The game's own fields, checked as ``creategame`` checks them: the name goes
    in every email's subject, so it must be one line of plain text."""

    def clean_name(self):
        try:
            return game_setup.game_name(self.cleaned_data["name"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_organizer_email(self):
        address = self.cleaned_data.get("organizer_email") or ""
        if not address:
            return address
        try:
            return game_setup.email_address(address)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


# The new-game form's field for each Black Market pile.
PILE_FIELDS = {kind: f"black_market_{kind}" for kind in BLACK_MARKET_TYPES}
PROVISIONAL_PILES = labels.pile_values(BLACK_MARKET_VALUES)


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
            label=f"{CARD_TYPES[kind].label} pile",
            help_text=f"Two values; blank: {top}, {below} (provisional).",
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


class NewGameForm(GameFieldsMixin, DeadlineSettingsMixin, forms.ModelForm):
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        # Django shows help text as HTML: the example's angle brackets must be escaped.
        help_text=format_html(
            "One player per line (3 to 6), clockwise from seat 1: {} optionally followed by a "
            "time zone, e.g. {}. Six players play the 2nd edition's Deputies rules.",
            '"Name <email>"',
            "Alice <alice@example.org> Europe/Paris",
        ),
    )
    edition = forms.TypedChoiceField(choices=[(2, "2nd edition"), (1, "1st edition")], coerce=int)
    first_sheriff = forms.IntegerField(
        min_value=1,
        initial=1,
        label="First Sheriff",
        help_text="The seat number of the first Sheriff: 1 is the first player listed. "
        "Unused with six players: two Deputies are drawn each round.",
    )
    royal_goods = forms.BooleanField(required=False, label="Royal Goods")
    seven_card_hand = forms.BooleanField(required=False, label="Seven Card Hand")
    remove_ten = forms.BooleanField(required=False, label="Remove 10 Cards")
    black_market = forms.BooleanField(
        required=False,
        label="Black Market",
        help_text="2nd edition: a merchant may trade 3 contraband of a kind for a Black "
        "Market card of that kind.",
    )
    black_market_pepper = PileField("pepper")
    black_market_mead = PileField("mead")
    black_market_silk = PileField("silk")
    seed = forms.CharField(
        required=False,
        help_text="Hexadecimal, at least 32 digits; the server adds random digits to it. "
        "Leave empty for a secret random seed.",
    )

    class Meta:
        model = Game
        fields = ("name", "organizer_email", *TIMING_FIELDS)
        labels = TIMING_LABELS

    def clean_players(self):
        try:
            players = [
                game_setup.parse_player(line)
                for line in self.cleaned_data["players"].splitlines()
                if line.strip()
            ]
            game_setup.distinct_names(p.name for p in players)
            return players
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self):
        cleaned = super().clean()
        players, first_sheriff = cleaned.get("players"), cleaned.get("first_sheriff")
        if players is None or first_sheriff is None or cleaned.get("edition") is None:
            return cleaned
        if first_sheriff > len(players):
            self.add_error("first_sheriff", f"There are only {len(players)} seats.")
            return cleaned
        piles = {kind: cleaned.get(name) for kind, name in PILE_FIELDS.items()}
        if any(name in self.errors for name in PILE_FIELDS.values()):
            return cleaned
        if any(piles.values()) and not cleaned.get("black_market"):
            self.add_error("black_market", "Tick Black Market to play with these pile values.")
            return cleaned
        cleaned["config"] = {
            "players": len(players),
            "edition": cleaned.get("edition"),
            "first_sheriff": first_sheriff - 1,  # the engine numbers seats from 0
            **{k: cleaned.get(k, False) for k in BOOLEAN_OPTIONS},
        }
        values = game_setup.black_market_values(piles)
        if values is not None:  # blank piles: the engine's provisional defaults
            cleaned["config"]["black_market_values"] = values
        try:  # the engine's own checks (player count, edition, seed), before anything is saved
            engine.new_game(cleaned["config"], cleaned.get("seed") or None)
        except EngineError as error:
            raise forms.ValidationError(error.message) from None
        return cleaned


class GameSettingsForm(GameFieldsMixin, DeadlineSettingsMixin, forms.ModelForm):
    """The change form: name, organizer and deadline settings; never state or version."""

    class Meta:
        model = Game
        fields = ("name", "organizer_email", *TIMING_FIELDS)
        labels = TIMING_LABELS
