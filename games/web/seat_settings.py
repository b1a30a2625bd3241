"""A player's own settings, behind their signed link: display name, time zone,
language and which emails they get; and the one-click unsubscribe of their mail
app (RFC 8058), which mutes the game's optional emails.

GET shows and never changes anything (mail scanners open every link); changes
are POSTs with CSRF. The one-click unsubscribe is a POST from the mail app, with
no cookie, so it is exempt from CSRF: the signed link is its proof.
"""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.core import game_setup, links
from games.models import Seat
from games.present.clock import ZONES
from games.web.views import _private
from games.words import i18n
from games.words.typed_text import look_alike
from games.words.user_text import isolate

MAX_AWAY_DAYS = 60
LOOKS_LIKE_ANOTHER = gettext_lazy(
    "That name reads like “%(name)s”, another player’s name at this table: choose one "
    "that looks different."
)
HOURS = [("", gettext_lazy("No daily summary"))] + [(str(h), f"{h:02d}:00") for h in range(24)]


class SettingsForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name at the table"), max_length=60)
    timezone = forms.CharField(label=gettext_lazy("Your time zone"), max_length=64)
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=settings.LANGUAGES)
    notify = forms.ChoiceField(
        label=gettext_lazy("Emails"), choices=Seat.Notify.choices, widget=forms.RadioSelect
    )
    digest_hour = forms.TypedChoiceField(
        label=gettext_lazy("A daily summary of the game, at"),
        choices=HOURS,
        coerce=int,
        empty_value=None,
        required=False,
    )

    away_from = forms.DateField(
        label=gettext_lazy("Away from"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    away_until = forms.DateField(
        label=gettext_lazy("until (included)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, seat: Seat, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat = seat

    def clean_name(self) -> str:
        try:
            name = game_setup.player_name(self.cleaned_data["name"])
        except ValueError:
            raise forms.ValidationError(
                _("A name is one line of plain text, at most 60 characters.")
            ) from None
        others = self.seat.game.seats.exclude(pk=self.seat.pk).values_list("name", flat=True)
        twin = look_alike(name, others)
        if twin is not None:  # lazy: said in the seat's language when the page renders
            raise forms.ValidationError(LOOKS_LIKE_ANOTHER, params={"name": isolate(twin)})
        return name

    def clean(self):
        data = super().clean()
        first, last = data.get("away_from"), data.get("away_until")
        if (first is None) != (last is None):
            raise forms.ValidationError(_("Give both days of your time away, or neither."))
        if first and last and last < first:
            raise forms.ValidationError(_("Your time away ends before it begins."))
        if first and last and (last - first).days >= MAX_AWAY_DAYS:
            raise forms.ValidationError(
                _("Time away is at most %(days)d days.") % {"days": MAX_AWAY_DAYS}
            )
        return data

    def clean_timezone(self) -> str:
        return known_zone(self.cleaned_data["timezone"])


def known_zone(typed: str) -> str:
    """A time zone of the list, as typed (or ValidationError)."""
    zone = typed.strip()
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise forms.ValidationError(
            _("Choose a time zone from the list, such as Europe/Madrid.")
        ) from None
    if zone not in ZONES:
        raise forms.ValidationError(_("Choose a time zone from the list."))
    return zone


def _seat_or_error(request, token: str):
    try:
        return links.resolve(token), None
    except links.LinkError as error:
        context = {"title": error.title, "message": error.message}
        return None, render(request, "link_error.html", context, status=error.status, using="jinja")


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request, token: str):
    seat, refused = _seat_or_error(request, token)
    if refused:
        return _private(refused)
    table = reverse("games:seat", args=[token])
    if request.method == "POST":
        form = SettingsForm(request.POST, seat=seat)
        if form.is_valid():
            _save(seat, form.cleaned_data)
            with i18n.as_seat(seat):  # the new language says it
                messages.success(request, _("Your settings are saved."))
            return _private(redirect(table))
    else:
        form = SettingsForm(initial=_current(seat), seat=seat)
    with i18n.as_seat(seat):
        context = {"form": form, "seat": seat, "table": table, "zones": ZONES}
        return _private(render(request, "settings.html", context, using="jinja"))


def _current(seat: Seat) -> dict:
    return {
        "name": seat.name,
        "timezone": seat.timezone,
        "language": i18n.language_of(seat),
        "notify": seat.notify,
        "digest_hour": "" if seat.digest_hour is None else str(seat.digest_hour),
        "away_from": seat.away_from,
        "away_until": seat.away_until,
    }


def _save(seat: Seat, data: dict) -> None:
    fields = ("name", "timezone", "language", "notify", "digest_hour", "away_from", "away_until")
    with transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(**{f: data[f] for f in fields})
    for field in fields:
        setattr(seat, field, data[field])


@csrf_exempt
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token: str):
    """GET: a page with a button (GET changes nothing). POST, from that button or
    from the mail app's one-click unsubscribe: only the emails that ask for a
    move are sent from now on."""
    seat, refused = _seat_or_error(request, token)
    if refused:
        return _private(refused)
    with i18n.as_seat(seat):
        if request.method == "POST":
            Seat.objects.filter(pk=seat.pk).update(notify=Seat.Notify.TURN_ONLY, digest_hour=None)
            if request.POST.get("List-Unsubscribe") == "One-Click":
                return _private(HttpResponse(_("Unsubscribed."), content_type="text/plain"))
            messages.success(
                request, _("Muted: from now on you get only the emails that ask for a move.")
            )
            return _private(redirect(reverse("games:settings", args=[token])))
        context = {"seat": seat, "settings_url": reverse("games:settings", args=[token])}
        return _private(render(request, "unsubscribe.html", context, using="jinja"))
