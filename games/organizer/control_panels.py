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

from games.models import Game
from games.organizer import control_actions, labels, records
from games.organizer.overview import overview


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
        return {
            **overview(game, game.deadline_timezone),
            "url": reverse("admin:games_game_control", args=[game.pk]),
            "status": game.get_status_display(),
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
        outcome = control_actions.perform(game, request.POST, game.deadline_timezone)
        (messages.success if outcome.done else messages.error)(request, outcome.message)
        return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
