"""The organizer's new-game form on the site (not the admin): what the admin's
offers, with defaults that suit a first game (one phase a day at 18:00 in the
organizer's zone, a reminder three hours before), the seats to fill, the
invitations by email and an optional start time."""

from datetime import datetime, time
from email.utils import parseaddr
from zoneinfo import ZoneInfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.core import game_setup
from games.models import Game
from games.present.clock import ZONES
from games.present.game_fields import (
    TIMING_FIELDS,
    TIMING_LABELS,
    DeadlineSettingsMixin,
    GameNameMixin,
    PileField,
    RulesMixin,
    black_market_field,
    checked,
    edition_field,
)

FIRST_GAME = {
    "deadline_mode": Game.DeadlineMode.DAILY,
    "daily_time": time(18, 0),
    "reminder_minutes": 180,
}
MAX_INVITEES = 5
# The settings the pace in words is made of: unreadable, it says nothing.
PACE_FIELDS = ("deadline_mode", "daily_time", "deadline_timezone")
# The table talk's settings, carried into the Game with the deadlines (lobby.timing).
TALK_FIELDS = game_setup.TALK_FIELDS


def parse_invitee(line: str) -> game_setup.PlayerSpec:
    """'Bob <bob@example.org>' or 'bob@example.org' (then named 'bob')."""
    text = line.strip()
    if "<" in text:
        name, address = parseaddr(text)
    else:
        name, address = "", text
    address = game_setup.email_address(address).lower()
    name = game_setup.player_name(name or address.split("@", 1)[0])
    return game_setup.PlayerSpec(name=name, email=address)


class NewTableForm(GameNameMixin, RulesMixin, DeadlineSettingsMixin, forms.ModelForm):
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[(n, str(n)) for n in range(3, 7)],
        coerce=int,
        initial=4,
        help_text=gettext_lazy("Six players play the 2nd edition's Deputies rules."),
    )
    i_play = forms.BooleanField(required=False, initial=True, label=gettext_lazy("I play too"))
    my_name = forms.CharField(label=gettext_lazy("Your name at the table"), max_length=60)
    random_order = forms.TypedChoiceField(
        label=gettext_lazy("Seat order"),
        choices=[
            ("1", gettext_lazy("Random, once everyone is in")),
            ("0", gettext_lazy("As listed: me first, then the invitations in order")),
        ],
        coerce=lambda value: value == "1",
        initial="1",
    )
    edition = edition_field()
    first_sheriff = forms.IntegerField(
        min_value=1,
        max_value=6,
        initial=1,
        label=gettext_lazy("First Sheriff"),
        help_text=gettext_lazy(
            "The seat number of the first Sheriff, in the seat order. Unused with six "
            "players: two Deputies are drawn each round."
        ),
    )
    royal_goods = forms.BooleanField(required=False, label=gettext_lazy("Royal Goods"))
    seven_card_hand = forms.BooleanField(required=False, label=gettext_lazy("Seven Card Hand"))
    remove_ten = forms.BooleanField(required=False, label=gettext_lazy("Remove 10 Cards"))
    black_market = black_market_field()
    black_market_pepper = PileField("pepper")
    black_market_mead = PileField("mead")
    black_market_silk = PileField("silk")
    invitees = forms.CharField(
        required=False,
        label=gettext_lazy("Invite by email"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            'One per line: "Bob <bob@example.org>" or just the address. You can also '
            "share a join link, and invite more later."
        ),
    )
    # The organizer's own zone, as their device says (the form's script fills it in):
    # their seat's, where the deadlines' zone may be another. Any other bytes: none
    # (a plain Field: nothing it holds is an error the person could correct).
    my_timezone = forms.Field(required=False, widget=forms.HiddenInput)
    start_at = forms.DateTimeField(
        required=False,
        label=gettext_lazy("Start automatically at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=gettext_lazy(
            "In the deadline time zone. Empty: you press Start once every seat is taken."
        ),
    )

    class Meta:
        model = Game
        fields = ("name", *TIMING_FIELDS, *TALK_FIELDS)
        labels = {
            "name": gettext_lazy("The game's name"),
            "talk": gettext_lazy("Table talk"),
            "talk_private": gettext_lazy("Private messages between two players"),
            "reveal_private": gettext_lazy("Reveal private messages when the game ends"),
            **TIMING_LABELS,
        }
        help_texts = {
            "market_minutes": gettext_lazy("2nd edition: everyone at once."),
            "market_turn_minutes": gettext_lazy("1st edition: one player at a time."),
            "load_minutes": "",
            "inspection_minutes": "",
            "bargaining_minutes": gettext_lazy(
                "At the start of each inspection, before the Sheriff may decide a bag "
                "whose merchant has not spoken. Empty: half the inspection time."
            ),
            "black_market_minutes": gettext_lazy("Empty: a tenth of the inspection time."),
            "daily_time": gettext_lazy("Every deadline falls at this time of day."),
            "deadline_timezone": gettext_lazy("The zone of the daily time and of weekends."),
            "skip_weekends": "",
            "reminder_minutes": gettext_lazy(
                "Players who still owe a move get a reminder this long before (0: never)."
            ),
            "advance_early": gettext_lazy(
                "The next phase starts as soon as every move is in, without waiting for "
                "the deadline."
            ),
            "miss_alert_after": gettext_lazy(
                "You get an email when a player misses this many deadlines in a row; a "
                "missed move plays its default (nothing set aside, an honest bag, let pass)."
            ),
            "abandon_after": gettext_lazy(
                "The game pauses itself when this many phases pass with nobody moving (0: never)."
            ),
            "away_pauses": gettext_lazy(
                "A player may say they are away: the game waits for them rather than "
                "playing their defaults."
            ),
            "away_cap_days": gettext_lazy("In the whole game."),
            "talk": gettext_lazy(
                "When the players may write to the whole table on their pages. You can "
                "change it, hide a message or mute a player on your page once it runs."
            ),
            "talk_private": gettext_lazy(
                "A player may then write to one other player alone. Off: everyone "
                "negotiates in the open, as the rulebooks have it. You read a private "
                "message only if its reader reports it to you."
            ),
            "reveal_private": gettext_lazy(
                "On the final page, the whole table reads every private message."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, value in FIRST_GAME.items():
            self.fields[name].initial = value
        self.fields["deadline_mode"].choices = [
            (Game.DeadlineMode.DAILY, _("One phase a day, at a fixed time")),
            (Game.DeadlineMode.DURATION, _("A time limit for each phase")),
            (Game.DeadlineMode.NONE, _("No deadlines")),
        ]
        self.fields["daily_time"].widget = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")

    def clean_my_timezone(self) -> str:
        zone = self.cleaned_data.get("my_timezone") or ""
        return zone if zone in ZONES else ""

    def organizer_timezone(self) -> str:
        """The organizer's seat's zone, unless they chose one (games.core.lobbies)."""
        return self.cleaned_data["my_timezone"] or self.cleaned_data["deadline_timezone"]

    def pace_timing(self) -> dict:
        """The deadline settings the form shows: as sent, where readable (a form
        sent back with an error shows them, so its pace in words says them too),
        else its initial ones."""
        if not self.is_bound:
            return {name: self[name].value() for name in TIMING_FIELDS}
        self.is_valid()
        if any(name in self.errors for name in PACE_FIELDS):
            return {}
        return {name: self.cleaned_data.get(name) for name in TIMING_FIELDS}

    def clean_my_name(self):
        return checked(game_setup.player_name, self.cleaned_data["my_name"])

    def clean_invitees(self):
        lines = [line for line in self.cleaned_data["invitees"].splitlines() if line.strip()]
        if len(lines) > MAX_INVITEES:
            raise forms.ValidationError(_("At most 5 invitations: a game has at most 6 players."))
        invitees = []
        for line in lines:
            invitees.append(checked(parse_invitee, line))
        addresses = [invitee.email for invitee in invitees]
        if len(set(addresses)) != len(addresses):
            raise forms.ValidationError(_("Each address once, please."))
        return invitees

    def clean(self):
        cleaned = super().clean()
        players, invitees = cleaned.get("players"), cleaned.get("invitees")
        if players is not None and invitees is not None:
            free = players - (1 if cleaned.get("i_play") else 0)
            if len(invitees) > free:
                self.add_error(
                    "invitees",
                    _("There are %(free)d seats to fill, and %(count)d invitations.")
                    % {"free": free, "count": len(invitees)},
                )
        self._clean_start(cleaned)
        self._clean_rules(cleaned)
        return cleaned

    def _clean_start(self, cleaned):
        start_at = cleaned.get("start_at")
        if start_at is None or "deadline_timezone" in self.errors:
            return
        zone = ZoneInfo(cleaned.get("deadline_timezone") or "UTC")
        naive = start_at.replace(tzinfo=None) if isinstance(start_at, datetime) else start_at
        cleaned["start_at"] = naive.replace(tzinfo=zone)
        if cleaned["start_at"] <= timezone.now():
            self.add_error("start_at", _("The start time has passed: choose a later one."))

    def _clean_rules(self, cleaned):
        if cleaned.get("players") is not None:
            config = self.rules_config(cleaned, cleaned["players"])
            if config is not None:
                cleaned["config"] = config

    def timing(self) -> dict:
        """The Game's settings the table starts with: its deadlines and its talk."""
        return {name: self.cleaned_data[name] for name in (*TIMING_FIELDS, *TALK_FIELDS)}
