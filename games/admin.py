"""The organizer's side. Games are created with the form below (or the
``creategame`` command); state changes only through ``games.services``: the
change page's "Controls" panel posts to ``GameAdmin.control_view``, which calls
the organizer controls with the version the page was rendered for."""

from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html

from games import deadlines, links, services
from games.engine import EngineError
from games.models import Game, GameEvent, OutboxEmail, Seat, Submission

# The Game's deadline settings, as services.create_game(timing=...) takes them.
TIMING_FIELDS = (
    "deadline_mode",
    "market_minutes",
    "market_turn_minutes",
    "load_minutes",
    "inspection_minutes",
    "bargaining_minutes",
    "daily_time",
    "deadline_timezone",
    "skip_weekends",
    "reminder_minutes",
    "advance_early",
    "miss_alert_after",
    "abandon_after",
)
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


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "name", "email", "timezone", "language", "link_version", "link")
    # A new person at a seat goes through "Replace a player", which revokes the old links.
    readonly_fields = ("index", "name", "email", "link_version", "link")
    can_delete = False
    # Admin text inputs are 20em wide: two of them would push the table past a laptop's width.
    formfield_overrides = {
        models.CharField: {"widget": forms.TextInput(attrs={"size": 18})},
    }

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="Seat link")
    def link(self, seat):
        return format_html('<a href="{}">open</a>', links.seat_url(seat)) if seat.pk else "—"


class DeadlineSettingsMixin:
    """The add and change forms' deadline settings: a setting left empty takes the
    Game's default; the zone must be a known IANA zone; daily mode needs a time."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in TIMING_FIELDS:
            field = self.fields.get(name)
            model_field = Game._meta.get_field(name)
            if field is not None and model_field.has_default() and field.required:
                field.required = False

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


class NewGameForm(DeadlineSettingsMixin, forms.ModelForm):
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text='One player per line, clockwise from seat 0: "Name <email>" '
        "optionally followed by a timezone, e.g. Alice <alice@example.org> Europe/Paris.",
    )
    edition = forms.TypedChoiceField(choices=[(2, "2nd edition"), (1, "1st edition")], coerce=int)
    first_sheriff = forms.IntegerField(min_value=0, initial=0)
    royal_goods = forms.BooleanField(required=False)
    seven_card_hand = forms.BooleanField(required=False)
    remove_ten = forms.BooleanField(required=False, label="Remove 10 cards")
    seed = forms.CharField(required=False, help_text="Hex; leave empty for a secret random seed.")

    class Meta:
        model = Game
        fields = ("name", "organizer_email", *TIMING_FIELDS)

    def clean_players(self):
        try:
            return [
                services.parse_player(line)
                for line in self.cleaned_data["players"].splitlines()
                if line.strip()
            ]
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


class GameSettingsForm(DeadlineSettingsMixin, forms.ModelForm):
    """The change form: name, organizer and deadline settings; never state or version."""

    class Meta:
        model = Game
        fields = ("name", "organizer_email", *TIMING_FIELDS)


class ReplacePlayerForm(forms.Form):
    seat = forms.IntegerField()
    name = forms.CharField(max_length=60)
    email = forms.EmailField()
    timezone = forms.CharField(max_length=64, initial="UTC")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if any(c in name for c in "<>\r\n"):
            raise forms.ValidationError("A name may not contain < > or line breaks.")
        return name

    def clean_timezone(self):
        return _check_zone(self.cleaned_data["timezone"])


def _first_error(form: forms.Form) -> str:
    for field, errors in form.errors.items():
        if field in form.fields:
            label = form.fields[field].label or field.replace("_", " ")
            return f"{label.capitalize()}: {errors[0]}"
        return errors[0]
    return "Please check the form."


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "round_and_phase", "version", "phase_deadline", "created_at")
    list_filter = ("status",)
    search_fields = ("name", "seats__email", "seats__name")
    readonly_fields = (
        "status",
        "version",
        "seed_sha256",
        "config",
        "created_at",
        "finished_at",
        "phase_deadline",
        "paused_at",
        "round_and_phase",
    )
    inlines = [SeatInline]

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
                    "Deadlines",
                    {
                        "fields": TIMING_FIELDS,
                        "description": "Durations are in minutes and apply in the "
                        '"duration" mode; the daily time (in the deadline time zone) '
                        'applies in the "daily" mode.',
                    },
                ),
            )
        return (
            (
                None,
                {
                    "fields": (
                        "name",
                        "organizer_email",
                        "status",
                        "round_and_phase",
                        "version",
                        "config",
                        "seed_sha256",
                        "phase_deadline",
                        "paused_at",
                        "created_at",
                        "finished_at",
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

    @admin.display(description="Round / phase")
    def round_and_phase(self, game):
        state = game.state or {}
        phase = (state.get("phase") or {}).get("kind", "—")
        return f"{state.get('round', '—')} / {phase}"

    def save_model(self, request, obj, form, change):
        if change:
            # Only the settings: state, version and the current deadline stay untouched.
            settings = ("name", "organizer_email", *TIMING_FIELDS)
            Game.objects.filter(pk=obj.pk).update(**{f: getattr(obj, f) for f in settings})
            return
        data = form.cleaned_data
        config = {
            k: data[k]
            for k in ("edition", "first_sheriff", "royal_goods", "seven_card_hand", "remove_ten")
        }
        try:
            game = services.create_game(
                name=data["name"],
                players=data["players"],
                config=config,
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
        return [control, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, unquote(object_id))
        if game is not None and self.has_change_permission(request, game):
            extra_context = {**(extra_context or {}), "controls": self._controls(game)}
        return super().change_view(request, object_id, form_url, extra_context)

    def _controls(self, game: Game) -> dict:
        state = game.state or {}
        deadline = None
        if game.phase_deadline is not None:
            deadline = deadlines.format_for(game.phase_deadline, game.deadline_timezone)
        return {
            "url": reverse("admin:games_game_control", args=[game.pk]),
            "version": game.version,
            "active": game.status == Game.Status.ACTIVE,
            "status": game.get_status_display(),
            "round": state.get("round", "—"),
            "phase": (state.get("phase") or {}).get("kind", "—"),
            "deadline": deadline,
            "paused_at": game.paused_at,
            "max_hours": MAX_EXTENSION_HOURS,
            "seats": list(game.seats.all()),
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
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            messages.error(request, "The form was incomplete; nothing was done.")
            return back
        action = request.POST.get("action", "")
        if action not in CONTROLS:
            messages.error(request, "Unknown control; nothing was done.")
            return back
        handler = getattr(self, f"_control_{action}")
        try:
            done = handler(request, game, version)
        except services.ServiceError as error:
            messages.error(request, error.message)
        except EngineError as error:
            messages.error(request, error.message)
        else:
            if done:
                messages.success(request, done)
        return back

    def _control_pause(self, request, game, version):
        services.pause(game.pk, expected_version=version)
        return "The game is paused: no deadline passes and no reminder goes out until you resume."

    def _control_resume(self, request, game, version):
        services.resume(game.pk, expected_version=version)
        return "The game resumes; the deadline moved by the time spent paused."

    def _control_extend(self, request, game, version):
        try:
            hours = int(request.POST.get("hours", ""))
        except ValueError:
            messages.error(request, "Give the extension as a whole number of hours.")
            return None
        game = services.extend(game.pk, expected_version=version, by=timedelta(hours=hours))
        shown = deadlines.format_for(game.phase_deadline, game.deadline_timezone)
        return f"The deadline is now {shown['local']} ({shown['utc']})."

    def _control_advance(self, request, game, version):
        services.advance_now(game.pk, expected_version=version)
        return "The game moved on: the missing moves got their defaults."

    def _control_cancel(self, request, game, version):
        if not request.POST.get("confirm"):
            messages.error(request, "Tick the box to confirm cancelling; nothing was done.")
            return None
        services.cancel(game.pk, expected_version=version)
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
            seat = services.replace_player(
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
        seat = Seat.objects.filter(game=game, pk=request.POST.get("seat", "")).first()
        if seat is None:
            messages.error(request, "No such seat in this game; nothing was done.")
            return None
        services.resend_email(seat.pk, expected_version=version)
        return f"{seat.name} was sent their current email (with their link) again."


@admin.register(OutboxEmail)
class OutboxEmailAdmin(admin.ModelAdmin):
    list_display = ("key", "to", "status", "attempts", "created_at", "sent_at", "last_error")
    list_filter = ("status",)
    search_fields = ("key", "to")
    readonly_fields = [f.name for f in OutboxEmail._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "type", "created_at")
    list_filter = ("type",)
    readonly_fields = ("game", "seq", "type", "data", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "accepted", "error_code", "created_at")
    list_filter = ("accepted",)
    readonly_fields = [f.name for f in Submission._meta.fields]

    def has_add_permission(self, request):
        return False
