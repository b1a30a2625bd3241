"""The two panels above a game's change form and the views their forms post to.
"Controls" pauses, resumes, extends, advances or cancels the game, replaces a
player or resends a seat's email, each through the writes of ``games.core`` at the
version the page was rendered for, so a control made on a stale page changes
nothing. "Full record" shows the seed and the stored records when they are open
to the reader, and lets a superuser open them, for a reason the players read
(games.organizer.records)."""

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from games.core import controls, deadlines, game_writes
from games.engine import EngineError
from games.models import Game, GameEvent, Seat
from games.organizer import labels, records
from games.organizer.game_form import check_zone

CONTROLS = ("pause", "resume", "extend", "advance", "cancel", "replace", "resend")
MAX_EXTENSION_HOURS = int(deadlines.MAX_EXTENSION / timedelta(hours=1))


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
        return check_zone(zone) if zone else ""


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


class OrganizerControls:
    """GameAdmin's change page beyond the form: the Controls and Full record panels
    (``change_view``) and the two views behind them (``get_urls``)."""

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
            extra_context["record"] = self._record_panel(request, game)
        if game is not None and self.has_change_permission(request, game):
            extra_context["controls"] = self._controls_panel(game)
        return super().change_view(request, object_id, form_url, extra_context)

    def _record_panel(self, request, game: Game) -> dict:
        """The "Full record" panel: the seed and the ways to the stored records
        when they are open to this user; who opened them while the game ran."""
        zone = game.deadline_timezone
        until = None if records.is_over(game) else records.open_until(game, request.user)
        is_open = records.is_over(game) or until is not None
        this_game_only = f"?game__id__exact={game.pk}"
        return {
            "over": records.is_over(game),
            "open": is_open,
            "until": labels.moment(until, zone) if until else "",
            "seed": game.state["seed"] if is_open else "",
            "links": [
                (label, reverse(f"admin:games_{model}_changelist") + this_game_only)
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

    def _controls_panel(self, game: Game) -> dict:
        state = game.engine_state()
        names = labels.seat_names(game)
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
            success_message = handler(request, game, version)
        except game_writes.ServiceError as error:
            messages.error(request, error.message)
        except EngineError as error:
            messages.error(request, error.message)
        else:
            if success_message:
                messages.success(request, success_message)
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
        new_deadline = deadlines.format_for(game.phase_deadline, game.deadline_timezone)
        return f"The deadline is now {new_deadline['local']} ({new_deadline['utc']})."

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
        old_name, old_email = seat.name, seat.email
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
        if old_email.lower() != seat.email.lower():
            old_player_emailed = f"; {old_name} was told so and"
        else:
            old_player_emailed = " and"
        return (
            f"{seat.name} now plays seat {seat.index + 1} instead of {old_name}; "
            f"the old links no longer work{old_player_emailed} the new player was emailed."
        )

    def _control_resend(self, request, game, version):
        seat_id = _whole_number(request.POST.get("seat"))
        seat = Seat.objects.filter(game=game, pk=seat_id).first() if seat_id is not None else None
        if seat is None:
            messages.error(request, "No such seat in this game; nothing was done.")
            return None
        controls.resend_email(seat.pk, expected_version=version)
        return f"{seat.name} was sent their current email (with their link) again."
