"""The organizer's side. Games are created with the form below (or the
``creategame`` command); state changes only through the writes of ``games.core``
(game_setup, moves, timers, controls): the change page's "Controls" panel posts
to ``GameAdmin.control_view``, which calls the organizer controls with the version
the page was rendered for."""

from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from games import engine
from games.core import controls, deadlines, game_setup, game_writes
from games.engine import CARD_TYPES, EngineError
from games.engine.cards import BLACK_MARKET_TYPES, BLACK_MARKET_VALUES
from games.models import (
    DeliveryEvent,
    Game,
    GameEvent,
    OutboxEmail,
    RecordOpening,
    Seat,
    Submission,
)
from games.organizer import labels, records
from games.words import user_text

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
CONTROLS = ("pause", "resume", "extend", "advance", "cancel", "replace", "resend")
MAX_EXTENSION_HOURS = int(deadlines.MAX_EXTENSION / timedelta(hours=1))


def _check_zone(name: str) -> str:
    name = (name or "").strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise forms.ValidationError(
            f"Unknown time zone {name!r}; use an IANA name such as Europe/Paris or UTC."
        ) from None
    return name


class SeatForm(forms.ModelForm):
    # The language the player reads the game in; they may change it themselves too.
    language = forms.ChoiceField(choices=settings.LANGUAGES)

    class Meta:
        model = Seat
        fields = ("timezone", "language")
        labels = {"timezone": "Time zone"}

    def clean_timezone(self):
        return _check_zone(self.cleaned_data["timezone"])


class SeatInline(admin.TabularInline):
    """The seats, numbered from 1. No seat links here: an organizer who also plays
    must not open another player's table ("Resend email" sends a player theirs)."""

    model = Seat
    form = SeatForm
    extra = 0
    fields = ("number", "name", "email", "timezone", "language")
    # A new person at a seat goes through "Replace a player", which revokes the old links.
    readonly_fields = ("number", "name", "email")
    can_delete = False
    # Admin text inputs are 20em wide: two of them would push the table past a laptop's width.
    formfield_overrides = {
        models.CharField: {"widget": forms.TextInput(attrs={"size": 18})},
    }

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="Seat")
    def number(self, seat):
        return seat.index + 1


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
        return _check_zone(self.cleaned_data.get("deadline_timezone") or "UTC")

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
        players, first = cleaned.get("players"), cleaned.get("first_sheriff")
        if players is None or first is None or cleaned.get("edition") is None:
            return cleaned
        if first > len(players):
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
            "first_sheriff": first - 1,  # the engine numbers seats from 0
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


class ReplacePlayerForm(forms.Form):
    seat = forms.IntegerField()
    name = forms.CharField(max_length=60)
    email = forms.EmailField()
    # Left empty, the seat keeps its zone (the page fills in the seat's own).
    timezone = forms.CharField(max_length=64, required=False)

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if any(c in name for c in "<>\r\n"):
            raise forms.ValidationError("A name may not contain < > or line breaks.")
        return name

    def clean_timezone(self):
        zone = self.cleaned_data["timezone"].strip()
        return _check_zone(zone) if zone else ""


class OpenRecordForm(forms.Form):
    reason = forms.CharField(
        max_length=records.MAX_REASON,
        label="Why do you open it?",
        help_text='One line, shown to every player, e.g. "Ben disputes the inspection of round 3".',
        widget=forms.TextInput(attrs={"size": 60}),
    )

    def clean_reason(self):
        try:
            return records.check_reason(self.cleaned_data["reason"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


def _whole_number(raw) -> int | None:
    """A control's number in ASCII digits, short enough for any column and for a
    timedelta; else None. (int() also takes '١' and overflows both.)"""
    raw = (raw or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def _first_error(form: forms.Form) -> str:
    for field, errors in form.errors.items():
        if field in form.fields:
            label = form.fields[field].label or field.replace("_", " ")
            return f"{label.capitalize()}: {errors[0]}"
        return errors[0]
    return "Please check the form."


def _names(game: Game) -> list:
    return user_text.names(seat.name for seat in game.seats.all())


class OwnFiltersOnly:
    """A list is filtered by its own filters only (and ``extra_lookups``). Django
    lets a list's address filter on any field of its model (``?state__icontains=``):
    asked one yes-or-no question at a time, that would tell every hand and the seed
    of a game in play to whoever can see the list."""

    extra_lookups = ()

    def lookup_allowed(self, lookup, value, request=None):
        field = lookup.split(LOOKUP_SEP, 1)[0]
        allowed = {*self.extra_lookups, *_filter_names(self.get_list_filter(request))}
        return field in allowed and super().lookup_allowed(lookup, value, request)


def _filter_names(list_filter) -> set:
    """The first field (or parameter) of each of a list's filters."""
    names = set()
    for item in list_filter:
        if isinstance(item, (list, tuple)):
            item = item[0]
        if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
            names.add(item.parameter_name)
        elif isinstance(item, str):
            names.add(item.split(LOOKUP_SEP, 1)[0])
    return names


@admin.register(Game)
class GameAdmin(OwnFiltersOnly, admin.ModelAdmin):
    empty_value_display = labels.NONE
    list_display = ("name", "status", "round_and_phase", "deadline", "created")
    list_filter = ("status",)
    search_fields = ("name", "seats__email", "seats__name")
    readonly_fields = ("settings", "fingerprint", "created", "finished")
    inlines = [SeatInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats")

    def get_form(self, request, obj=None, **kwargs):
        kwargs["form"] = NewGameForm if obj is None else GameSettingsForm
        return super().get_form(request, obj, **kwargs)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return (
                (
                    None,
                    {
                        "fields": (
                            "name",
                            "organizer_email",
                            "players",
                            "edition",
                            "first_sheriff",
                            "royal_goods",
                            "seven_card_hand",
                            "remove_ten",
                            "seed",
                        )
                    },
                ),
                (
                    "Black Market",
                    {
                        "fields": ("black_market", *PILE_FIELDS.values()),
                        "description": format_html(
                            "Each pile holds two cards, the higher value on top. Left blank, "
                            "a pile takes the provisional values ({}): no printed card has "
                            "been checked yet.",
                            PROVISIONAL_PILES,
                        ),
                    },
                ),
                (
                    "Deadlines",
                    {
                        "fields": TIMING_FIELDS,
                        "description": 'Durations are in minutes and apply with "A duration '
                        'per phase"; the daily time (in the deadline time zone) applies with '
                        '"A fixed time every day".',
                    },
                ),
            )
        # Status, phase and deadline are in the Controls panel above the form.
        return (
            (
                None,
                {
                    "fields": (
                        "name",
                        "organizer_email",
                        "settings",
                        "fingerprint",
                        "created",
                        "finished",
                    )
                },
            ),
            (
                "Deadline settings",
                {
                    "fields": TIMING_FIELDS,
                    "description": "Changes apply from the next phase on: the current "
                    "phase keeps its deadline (use Extend in the controls to move it).",
                },
            ),
        )

    def get_inlines(self, request, obj):
        return [SeatInline] if obj else []

    @admin.display(description="Round and phase")
    def round_and_phase(self, game):
        return labels.phase_line(game.state or {}, _names(game))

    @admin.display(description="Deadline", ordering="phase_deadline")
    def deadline(self, game):
        return labels.moment(game.phase_deadline, game.deadline_timezone)

    @admin.display(description="Created", ordering="created_at")
    def created(self, game):
        return labels.moment(game.created_at, game.deadline_timezone)

    @admin.display(description="Finished")
    def finished(self, game):
        return labels.moment(game.finished_at, game.deadline_timezone)

    @admin.display(description="Settings")
    def settings(self, game):
        return labels.settings_line(game.config, _names(game))

    @admin.display(description="Fairness fingerprint")
    def fingerprint(self, game):
        return format_html(
            '<code>{}</code><div class="help">The SHA-256 of the secret seed, shown to the '
            "players from the start; the seed itself is revealed when the game ends.</div>",
            game.seed_sha256,
        )

    # --- deleting: never a game in play ---------------------------------------------

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.status == Game.Status.ACTIVE:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        # A bulk delete would take games in play with it: delete one finished game at a time.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(self, request, object_id, extra_context=None):
        game = self.get_object(request, unquote(object_id))
        if game is not None and game.status == Game.Status.ACTIVE:
            messages.error(
                request, "A game in play cannot be deleted. Cancel it first if it must stop."
            )
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        return super().delete_view(request, object_id, extra_context)

    def get_deleted_objects(self, objs, request):
        """A finished game goes with its seats, events and emails, which cannot be
        deleted on their own: list the game only (the summary counts the rest)."""
        _, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        own = {m._meta.verbose_name for m in (GameEvent, OutboxEmail, Submission, RecordOpening)}
        return [str(obj) for obj in objs], counts, perms_needed - own, protected

    def save_model(self, request, obj, form, change):
        if change:
            # Only the settings: state, version and the current deadline stay untouched.
            settings = ("name", "organizer_email", *TIMING_FIELDS)
            Game.objects.filter(pk=obj.pk).update(**{f: getattr(obj, f) for f in settings})
            return
        data = form.cleaned_data
        try:
            game = game_setup.create_game(
                name=data["name"],
                players=data["players"],
                config=data["config"],
                seed=data["seed"] or None,
                organizer_email=data["organizer_email"],
                timing={f: data[f] for f in TIMING_FIELDS},
            )
        except EngineError as error:
            messages.error(request, error.message)
            raise
        obj.pk = game.pk
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)

    # --- the organizer's controls -------------------------------------------------------

    def get_urls(self):
        control = path(
            "<path:object_id>/control/",
            self.admin_site.admin_view(self.control_view),
            name="games_game_control",
        )
        open_record = path(
            "<path:object_id>/open-record/",
            self.admin_site.admin_view(self.open_record_view),
            name="games_game_open_record",
        )
        return [control, open_record, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, unquote(object_id))
        extra_context = dict(extra_context or {})
        if game is not None and self.has_view_or_change_permission(request, game):
            extra_context["record"] = self._record(request, game)
        if game is not None and self.has_change_permission(request, game):
            extra_context["controls"] = self._controls(game)
        return super().change_view(request, object_id, form_url, extra_context)

    def _record(self, request, game: Game) -> dict:
        """The "Full record" panel: the seed and the ways to the stored records
        when they are open to this user; who opened them while the game ran."""
        zone = game.deadline_timezone
        until = None if records.is_over(game) else records.open_until(game, request.user)
        is_open = records.is_over(game) or until is not None
        only_game = f"?game__id__exact={game.pk}"
        return {
            "over": records.is_over(game),
            "open": is_open,
            "until": labels.moment(until, zone) if until else "",
            "seed": game.state["seed"] if is_open else "",
            "links": [
                (label, reverse(f"admin:games_{model}_changelist") + only_game)
                for label, model in (
                    ("Events as stored", "gameevent"),
                    ("Emails as sent", "outboxemail"),
                    ("Moves as received", "submission"),
                )
            ]
            if is_open
            else [],
            "can_open": request.user.is_superuser and not is_open,
            "open_url": reverse("admin:games_game_open_record", args=[game.pk]),
            "openings": [
                {"when": labels.moment(o.opened_at, zone), "who": o.username, "why": o.reason}
                for o in game.openings.all()
            ],
        }

    def open_record_view(self, request, object_id):
        """A superuser opens a running game's full record, for a reason the players
        will read: GET shows the form, only a POST (CSRF-checked) opens it."""
        if request.method not in ("GET", "POST"):
            return HttpResponseNotAllowed(["GET", "POST"])
        if not request.user.is_superuser:
            raise PermissionDenied
        game = self.get_object(request, unquote(object_id))
        if game is None:
            raise Http404("No such game.")
        back = HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        if records.is_over(game):
            messages.info(request, "This game is over: its full record is open already.")
            return back
        form = OpenRecordForm(request.POST if request.method == "POST" else None)
        if form.is_valid():
            opening = records.open_record(game, request.user, form.cleaned_data["reason"])
            until = labels.moment(opening.opened_at + records.OPEN_FOR, game.deadline_timezone)
            messages.success(
                request,
                f"The full record is open to you until {until}. Every player's page now "
                "says that you opened it, when and why.",
            )
            return back
        context = {
            **self.admin_site.each_context(request),
            "title": "Open the full record",
            "subtitle": game.name,
            "opts": self.opts,
            "original": game,
            "game": game,
            "form": form,
            "hours": int(records.OPEN_FOR / timedelta(hours=1)),
        }
        return TemplateResponse(request, "admin/games/game/open_record.html", context)

    def _controls(self, game: Game) -> dict:
        state = game.engine_state()
        names = _names(game)
        active = game.status == Game.Status.ACTIVE
        paused = labels.moment(game.paused_at, game.deadline_timezone) if game.paused_at else ""
        deadline = None
        if game.phase_deadline is not None:
            deadline = deadlines.format_for(game.phase_deadline, game.deadline_timezone)
        events = GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True)
        return {
            "url": reverse("admin:games_game_control", args=[game.pk]),
            "version": game.version,  # for the forms' compare-and-set only; never shown
            "active": active,
            "status": game.get_status_display(),
            "phase": labels.phase_line(game.state, names),
            "waiting": labels.waiting_for(state, names) if active else "",
            "deadline": deadline,
            "paused_at": paused,
            "max_hours": MAX_EXTENSION_HOURS,
            "seats": [
                {"seat": seat, "delivery": labels.delivery(seat, game.deadline_timezone)}
                for seat in game.seats.all()
            ],
            "log": labels.game_log(state, events.iterator(chunk_size=500), names),
        }

    def control_view(self, request, object_id):
        """POST only (CSRF-protected by admin_view; staff required): one control,
        at the version the page showed, then back to the change page."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        game = self.get_object(request, unquote(object_id))
        if game is None:
            raise Http404("No such game.")
        if not self.has_change_permission(request, game):
            raise PermissionDenied
        back = HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        version = _whole_number(request.POST.get("version"))
        if version is None:
            messages.error(request, "The form was incomplete; nothing was done.")
            return back
        action = request.POST.get("action", "")
        if action not in CONTROLS:
            messages.error(request, "Unknown control; nothing was done.")
            return back
        handler = getattr(self, f"_control_{action}")
        try:
            done = handler(request, game, version)
        except game_writes.ServiceError as error:
            messages.error(request, error.message)
        except EngineError as error:
            messages.error(request, error.message)
        else:
            if done:
                messages.success(request, done)
        return back

    def _control_pause(self, request, game, version):
        controls.pause(game.pk, expected_version=version)
        return "The game is paused: no deadline passes and no reminder goes out until you resume."

    def _control_resume(self, request, game, version):
        controls.resume(game.pk, expected_version=version)
        return "The game resumes; the deadline moved by the time spent paused."

    def _control_extend(self, request, game, version):
        hours = _whole_number(request.POST.get("hours"))
        if hours is None:
            messages.error(request, "Give the extension as a whole number of hours.")
            return None
        game = controls.extend(game.pk, expected_version=version, by=timedelta(hours=hours))
        shown = deadlines.format_for(game.phase_deadline, game.deadline_timezone)
        return f"The deadline is now {shown['local']} ({shown['utc']})."

    def _control_advance(self, request, game, version):
        controls.advance_now(game.pk, expected_version=version)
        return "The game moved on: the missing moves got their defaults."

    def _control_cancel(self, request, game, version):
        if not request.POST.get("confirm"):
            messages.error(request, "Tick the box to confirm cancelling; nothing was done.")
            return None
        controls.cancel(game.pk, expected_version=version)
        return "The game is cancelled."

    def _control_replace(self, request, game, version):
        form = ReplacePlayerForm(request.POST)
        if not form.is_valid():
            messages.error(request, f"{_first_error(form)} Nothing was done.")
            return None
        data = form.cleaned_data
        seat = Seat.objects.filter(game=game, pk=data["seat"]).first()
        if seat is None:
            messages.error(request, "No such seat in this game; nothing was done.")
            return None
        old, old_email = seat.name, seat.email
        try:
            seat = controls.replace_player(
                seat.pk,
                expected_version=version,
                name=data["name"],
                email=data["email"],
                timezone_name=data["timezone"],
            )
        except ValueError as error:
            messages.error(request, f"{error} Nothing was done.")
            return None
        told = f"; {old} was told so and" if old_email.lower() != seat.email.lower() else " and"
        return (
            f"{seat.name} now plays seat {seat.index + 1} instead of {old}; "
            f"the old links no longer work{told} the new player was emailed."
        )

    def _control_resend(self, request, game, version):
        number = _whole_number(request.POST.get("seat"))
        seat = Seat.objects.filter(game=game, pk=number).first() if number is not None else None
        if seat is None:
            messages.error(request, "No such seat in this game; nothing was done.")
            return None
        controls.resend_email(seat.pk, expected_version=version)
        return f"{seat.name} was sent their current email (with their link) again."


class ReadOnlyAdmin(admin.ModelAdmin):
    """What happened: never added, changed or deleted by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RecordAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    """What happened in a game (emails, events, moves): read-only. Times are in the
    game's deadline zone. A list can be narrowed to one game (``?game__id__exact=``).
    A record's own content (``full_record_fields``) is shown only when the game's
    full record is open to the reader (games.organizer.records)."""

    extra_lookups = ("game",)
    full_record_fields = ()

    class Media:
        css = {"all": ["games/admin-game.css"]}

    def get_fields(self, request, obj=None):
        fields = tuple(super().get_fields(request, obj))
        if obj is not None and records.is_open(obj.game, request.user):
            fields += self.full_record_fields
        return fields

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    list_select_related = ("game",)
    empty_value_display = labels.NONE

    @admin.display(description="When", ordering="created_at")
    def created(self, record):
        return labels.moment(record.created_at, record.game.deadline_timezone)


@admin.register(OutboxEmail)
class OutboxEmailAdmin(RecordAdmin):
    """Delivery only: an email's body is its reader's own view of the game, so the
    organizer (who may play too) sees who it went to and how, never what it says."""

    DELIVERY = ("game", "recipient", "what", "status", "attempts", "possible_duplicates")
    list_display = (*DELIVERY, "created", "sent")
    list_filter = ("status",)
    list_select_related = ("game", "seat")
    search_fields = ("to", "game__name")
    fields = (*DELIVERY, "last_error", "next_attempt", "created", "sent")
    full_record_fields = ("body",)

    @admin.display(description="To")
    def recipient(self, email):
        who = str(email.seat) if email.seat else "The organizer"
        return f"{who} <{email.to}>"

    @admin.display(description="Possible duplicates", ordering="in_doubt")
    def possible_duplicates(self, email):
        """Sent again without knowing whether an earlier attempt arrived (its answer was
        lost): the copy carries the same Message-ID, which most mail apps fold."""
        return email.in_doubt

    @admin.display(description="What")
    def what(self, email):
        return labels.label(labels.EMAILS, email.kind)

    @admin.display(description="Sent", ordering="sent_at")
    def sent(self, email):
        return labels.moment(email.sent_at, email.game.deadline_timezone)

    @admin.display(description="Next attempt")
    def next_attempt(self, email):
        return labels.moment(email.next_attempt_at, email.game.deadline_timezone)

    @admin.display(description="Text (seat link left out)")
    def body(self, email):
        return _preformatted(records.email_text(email.text))


class EventKindFilter(admin.SimpleListFilter):
    title = "what happened"
    parameter_name = "what"

    def lookups(self, request, model_admin):
        return list(labels.EVENTS.items())

    def queryset(self, request, queryset):
        return queryset.filter(type=self.value()) if self.value() else queryset


@admin.register(GameEvent)
class GameEventAdmin(RecordAdmin):
    """The append-only log, as a spectator knows it: the stored record itself holds
    the seed, the deck and every hand, so it is never shown."""

    list_display = ("game", "number", "what", "created")
    list_filter = (EventKindFilter,)
    fields = ("game", "number", "what", "story", "created")
    full_record_fields = ("recorded",)

    @admin.display(description="No.", ordering="seq")
    def number(self, event):
        return event.seq + 1

    @admin.display(description="What")
    def what(self, event):
        return labels.label(labels.EVENTS, event.type)

    @admin.display(description="In the game log")
    def story(self, event):
        game = event.game
        line = labels.event_line(game.engine_state(), event.data, _names(game))
        return line or "Not in the game log."

    @admin.display(description="As stored")
    def recorded(self, event):
        return _preformatted(records.pretty_json(event.data))


@admin.register(Submission)
class SubmissionAdmin(RecordAdmin):
    """Every move a player made (not its content: a bag's cards stay the player's
    secret). Refused moves changed nothing and are not kept."""

    list_display = ("game", "seat", "move", "created")
    list_select_related = ("game", "seat")
    fields = ("game", "seat", "move", "created")
    full_record_fields = ("received",)

    @admin.display(description="Move")
    def move(self, submission):
        return labels.label(labels.MOVES, str(submission.command.get("type", "")))

    @admin.display(description="As received")
    def received(self, submission):
        return _preformatted(records.pretty_json(submission.command))


@admin.register(RecordOpening)
class RecordOpeningAdmin(RecordAdmin):
    """Every time a superuser opened the full record of a game in play, and why."""

    list_display = ("game", "opened_by", "reason", "when")
    fields = list_display

    @admin.display(description="Opened by", ordering="username")
    def opened_by(self, opening):
        return opening.username

    @admin.display(description="When", ordering="opened_at")
    def when(self, opening):
        return labels.moment(opening.opened_at, opening.game.deadline_timezone)


def _preformatted(text: str) -> str:
    return format_html('<pre class="record-text">{}</pre>', text)


@admin.register(DeliveryEvent)
class DeliveryEventAdmin(OwnFiltersOnly, ReadOnlyAdmin):
    """What the email provider reported after taking an email: read-only."""

    list_display = ("received_at", "esp", "event_type", "recipient", "description")
    list_filter = ("event_type", "esp")
    search_fields = ("recipient",)
    fields = (
        "esp",
        "event_type",
        "recipient",
        "reject_reason",
        "description",
        "occurred_at",
        "received_at",
    )
    readonly_fields = fields
