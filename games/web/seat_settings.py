"""A player's own settings, behind their signed link: display name, time zone,
language and which emails they get; their standing instructions for this game
(games.core.standing); and the one-click unsubscribe of their mail app (RFC 8058),
which mutes the game's optional emails.

GET shows and never changes anything (mail scanners open every link); changes
are POSTs with CSRF. The one-click unsubscribe is a POST from the mail app, with
no cookie, so it is exempt from CSRF: the signed link is its proof.
"""

import re
import secrets
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.core import api_tokens, game_setup, links, moves, push_devices, pushes, standing
from games.core.game_writes import ServiceError
from games.models import Game, Seat
from games.present.clock import ZONES
from games.web.views import _private
from games.words import i18n
from games.words.typed_text import look_alike, whole_number
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


class StandingForm(forms.Form):
    """The standing instructions (games.core.standing): on or off each, the Sheriff's
    one with its gold; the Black Market's only in a game played with it."""

    no_offer = forms.BooleanField(required=False)
    pass_on = forms.BooleanField(required=False)
    pass_gold = forms.CharField(required=False, max_length=10)
    black_market = forms.BooleanField(required=False)
    key = forms.CharField(max_length=40)  # the Black Market's move: sent twice, made once

    def clean_pass_gold(self) -> int | None:
        typed = self.cleaned_data["pass_gold"].strip()
        gold = whole_number(typed, 2)
        if typed and (gold is None or not standing.MIN_GOLD <= gold <= standing.MAX_GOLD):
            raise _gold_range()
        return gold

    def clean_key(self) -> str:
        if not _KEY.fullmatch(self.cleaned_data["key"]):
            raise forms.ValidationError(_("This form is incomplete. Please reload the page."))
        return self.cleaned_data["key"]

    def clean(self):
        data = super().clean()
        if data.get("pass_on") and "pass_gold" in data and data["pass_gold"] is None:
            self.add_error("pass_gold", _gold_range())
        return data


GOLD_RANGE = gettext_lazy("Give the gold as a whole number from %(least)s to %(most)s.")


def _gold_range() -> forms.ValidationError:
    bounds = {"least": standing.MIN_GOLD, "most": standing.MAX_GOLD}
    return forms.ValidationError(GOLD_RANGE, params=bounds)


_KEY = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def seat_or_error(request, token: str):
    try:
        return links.resolve(token), None
    except links.LinkError as error:
        context = {"title": error.title, "message": error.message}
        return None, render(request, "link_error.html", context, status=error.status, using="jinja")


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request, token: str):
    seat, refused = seat_or_error(request, token)
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
    return _private(page(request, seat, token, form=form))


def page(request, seat: Seat, token: str, form=None, standing_form=None, minted: str = ""):
    """The settings page, with either form as posted (refused) or as the seat has it.
    Each form says where it posts: the page is also shown at the standing form's address.
    ``minted``: an API token just made, shown this once (games.web.api_keys)."""
    state = seat.game.engine_state()
    with i18n.as_seat(seat):
        context = {
            "form": form or SettingsForm(initial=_current(seat), seat=seat),
            "seat": seat,
            "table": reverse("games:seat", args=[token]),
            "action": reverse("games:settings", args=[token]),
            "zones": ZONES,
            "standing": _standing_context(seat, state, standing_form),
            "api": {
                "tokens": [_token_row(t) for t in api_tokens.live(seat)],
                "action": reverse("games:api-tokens", args=[token]),
                "minted": minted,
                "docs": settings.SITE_URL + "/api/v1/openapi.json",
            },
            "push": _push_context(seat, token),
        }
        if context["standing"]:
            context["standing"]["action"] = reverse("games:standing", args=[token])
        return render(request, "settings.html", context, using="jinja")


PUSH_LABELS = {
    pushes.YOUR_MOVE: gettext_lazy("My move: a new phase, a reminder, bags to decide"),
    pushes.DEAL: gettext_lazy("Offers, demands and deals that concern me"),
    pushes.TALK: gettext_lazy("Table talk that concerns me"),
    pushes.GAME_OVER: gettext_lazy("The end of a game"),
}


def _push_context(seat: Seat, token: str) -> dict:
    """The "Notifications on this device" section: the site's public key ("" while push
    is off), where its script posts, and the person's devices by their endpoint's
    SHA-256 with their kinds (the script finds its own device among them)."""
    key = push_devices.site_key()
    devices = push_devices.of_person(seat.email) if key and seat.email else []
    return {
        "key": key,
        "kinds": list(PUSH_LABELS.items()),
        "devices": {device.endpoint_sha256: device.kinds for device in devices},
        "subscribe": reverse("games:push-subscribe", args=[token]),
        "choose": reverse("games:push-kinds", args=[token]),
        "unsubscribe": reverse("games:push-unsubscribe", args=[token]),
    }


def _token_row(token) -> dict:
    used = token.last_used_at
    return {
        "id": token.pk,
        "prefix": token.prefix,
        "label": token.label,
        "used": _("last used %(when)s ago") % {"when": timesince(used)}
        if used
        else _("never used"),
    }


def _standing_context(seat: Seat, state, form) -> dict | None:
    """The standing instructions' form, while the game is in play (None after)."""
    if seat.game.status != Game.Status.ACTIVE or state.is_over():
        return None
    given = standing.of_seat(seat)
    black_market = state.config.black_market
    initial = {
        "no_offer": given.no_offer,
        "pass_on": given.pass_gold is not None,
        "pass_gold": "" if given.pass_gold is None else str(given.pass_gold),
        "black_market": black_market and seat.index in state.black_market_standing,
    }
    return {
        "form": form or StandingForm(initial=initial),
        "key": secrets.token_urlsafe(16),
        "deputies": state.config.deputies,
        "black_market": black_market,
    }


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def standing_page(request, token: str):
    """Set, change or turn off the standing instructions; they take effect at once.
    The Black Market's is the engine's standing answer, set by its own move (moves.submit,
    as its button on the table does). A GET (this address kept after a refused form) is
    sent to the settings page."""
    seat, refused = seat_or_error(request, token)
    if refused:
        return _private(refused)
    if request.method != "POST":
        return _private(redirect(reverse("games:settings", args=[token]) + "#standing"))
    table = reverse("games:seat", args=[token])
    form = StandingForm(request.POST)
    if not form.is_valid():
        return _private(page(request, seat, token, standing_form=form))
    data = form.cleaned_data
    with i18n.as_seat(seat):
        try:
            standing.change(
                seat,
                no_offer=data["no_offer"],
                pass_gold=data["pass_gold"] if data["pass_on"] else None,
            )
        except ServiceError as error:
            messages.error(request, error.message)
            return _private(redirect(table))
        refusal = _black_market_answer(seat, data["black_market"], data["key"])
        if refusal:
            messages.error(
                request,
                _("Your other standing instructions are saved; the Black Market one is not: %s")
                % refusal,
            )
        else:
            messages.success(request, _("Your standing instructions are saved."))
    return _private(redirect(table))


def _black_market_answer(seat: Seat, wanted: bool, key: str) -> str:
    """Turn the seat's Black Market standing answer on or off, if it is not so already
    (and the game has the Black Market): "" when done, else why not."""
    state = Game.objects.get(pk=seat.game_id).engine_state()  # as the change left it
    if not state.config.black_market or wanted == (seat.index in state.black_market_standing):
        return ""
    command = {"type": "set_black_market_standing", "standing": wanted}
    version = state.phase.since
    outcome = moves.submit(seat, command, version=version, key=f"{seat.pk}.{key}")
    return "" if outcome.accepted else outcome.message


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
    seat, refused = seat_or_error(request, token)
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
