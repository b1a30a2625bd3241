"""The game's forms in the admin: the new-game form (players, rules, Black Market
piles, seed, deadlines) and the settings form of a game in play, with the checks
``creategame`` makes too, so a game the admin accepts is one the engine starts.
A setting left empty takes the Game's default. The seats' own form (time zone,
language) is here as well: it shares the time-zone check."""

from django import forms
from django.conf import settings
from django.utils.html import format_html

from games.core import game_setup
from games.engine.cards import BLACK_MARKET_VALUES
from games.models import Game, Seat
from games.organizer import labels
from games.present.game_fields import (
    TIMING_FIELDS,
    TIMING_LABELS,
    DeadlineSettingsMixin,
    GameNameMixin,
    PileField,
    RulesMixin,
    check_zone,
    checked,
)

PROVISIONAL_PILES = labels.pile_values(BLACK_MARKET_VALUES)


class SeatForm(forms.ModelForm):
    # The language the player reads the game in; they may change it themselves too.
    language = forms.ChoiceField(choices=settings.LANGUAGES)

    class Meta:
        model = Seat
        fields = ("timezone", "language", "reply_from_anyone")
        labels = {"timezone": "Time zone", "reply_from_anyone": "Replies from any address"}
        help_texts = {
            "reply_from_anyone": "Take this seat's replies by email from another address too."
        }

    def clean_timezone(self):
        return check_zone(self.cleaned_data["timezone"])


class GameFieldsMixin(GameNameMixin):
    """The game's own fields, checked as ``creategame`` checks them."""

    def clean_organizer_email(self):
        address = self.cleaned_data.get("organizer_email") or ""
        return checked(game_setup.email_address, address) if address else address


class NewGameForm(GameFieldsMixin, RulesMixin, DeadlineSettingsMixin, forms.ModelForm):
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
        fields = ("name", "organizer_email", *TIMING_FIELDS, "bot_seconds")
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
        players = cleaned.get("players")
        if players is not None:
            config = self.rules_config(cleaned, len(players), cleaned.get("seed"))
            if config is not None:
                cleaned["config"] = config
        return cleaned


class GameSettingsForm(GameFieldsMixin, DeadlineSettingsMixin, forms.ModelForm):
    """The change form: name, organizer and deadline settings; never state or version."""

    class Meta:
        model = Game
        fields = ("name", "organizer_email", *TIMING_FIELDS, "bot_seconds")
        labels = TIMING_LABELS
