"""Web Push notifications on a person's devices (games.core.push_devices), from the
"Notifications on this device" section of a seat's settings page and its script
(games/static/games/settings_push.js): JSON POSTs behind the seat's signed link, with
CSRF, for the person the seat's address is (every seat of theirs shares the device):
turn on, change the kinds, turn off. And ``renew``, which every page's script
(games/static/games/push.js) and the service worker post when the app opens or the
browser replaces a subscription: no link there, the device's own secret proves it.

Whatever the body, a bad one gets a 400 with a message in the seat's language and
changes nothing; never a 500.
"""

import json

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.core import links, push_devices
from games.core.push_devices import PushInputError
from games.web.views import _private
from games.words import i18n

MAX_BODY = 8 * 1024  # a subscription is some 500 bytes


class _Refused(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def _answer(payload: dict, status: int = 200) -> JsonResponse:
    response = JsonResponse(payload, status=status)
    response["Cache-Control"] = "no-store"
    return _private(response)


def _refusal(message: str, status: int = 400) -> JsonResponse:
    return _answer({"ok": False, "error": message}, status)


def _body(request) -> dict:
    """The request's JSON object, or _Refused saying what is wrong with it."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > MAX_BODY:
        raise _Refused(_("The request is too large."))
    try:
        raw = request.body
    except Exception:  # a body larger than it said, a broken upload
        raise _Refused(_("The request is too large.")) from None
    if len(raw) > MAX_BODY:
        raise _Refused(_("The request is too large."))
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _Refused(_("The request is not JSON.")) from None
    if not isinstance(data, dict):
        raise _Refused(_("The request is not a JSON object."))
    return data


def _seat(token: str):
    """The seat of the link, or _Refused with the link's own words and status."""
    try:
        return links.resolve(token)
    except links.LinkError as error:
        raise _Refused(f"{error.title}. {error.message}", error.status) from None


def _in_person_of(token: str, request, act) -> JsonResponse:
    """Run ``act(seat, body)`` for a seat's link, answering its result as JSON, or the
    refusal, in the seat's language."""
    try:
        seat = _seat(token)
    except _Refused as refused:
        return _refusal(refused.message, refused.status)
    with i18n.as_seat(seat):
        try:
            return _answer({"ok": True, **act(seat, _body(request))})
        except _Refused as refused:
            return _refusal(refused.message, refused.status)
        except PushInputError as error:
            return _refusal(str(error))


def _push_on() -> None:
    if not push_devices.site_key():
        raise _Refused(_("Notifications are not available on this site."))


@never_cache
@require_POST
def subscribe(request, token: str):
    """Turn notifications on for this device: ``{"subscription": <the browser's
    PushSubscription.toJSON()>, "kinds": [...]}``."""

    def act(seat, body):
        _push_on()
        if not seat.email or seat.bot:
            raise _Refused(_("A bot plays this seat: it takes no notifications."))
        device = push_devices.read_device(body.get("subscription"))
        kinds = push_devices.read_kinds(body.get("kinds"))
        label = device_label(request.META.get("HTTP_USER_AGENT", ""))
        push_devices.subscribe(seat.email, device, kinds, i18n.language_of(seat), label)
        return {
            "kinds": kinds,
            "message": _("Notifications are on for this device."),
        }

    return _in_person_of(token, request, act)


@never_cache
@require_POST
def kinds(request, token: str):
    """Change which notifications this device gets: ``{"endpoint", "kinds"}``."""

    def act(seat, body):
        endpoint = push_devices.read_endpoint(body.get("endpoint"))
        chosen = push_devices.read_kinds(body.get("kinds"))
        if not push_devices.set_kinds(seat.email, endpoint, chosen):
            raise _Refused(_("Notifications are not on for this device: turn them on first."))
        return {"kinds": chosen, "message": _("Your choices are saved.")}

    return _in_person_of(token, request, act)


@never_cache
@require_POST
def unsubscribe(request, token: str):
    """Turn notifications off for this device: ``{"endpoint"}`` (already off: said so)."""

    def act(seat, body):
        endpoint = push_devices.read_endpoint(body.get("endpoint"))
        push_devices.unsubscribe(seat.email, endpoint)
        return {"message": _("Notifications are off for this device.")}

    return _in_person_of(token, request, act)


# No CSRF token: the service worker that posts here on `pushsubscriptionchange` can
# read no cookie, and every page's script posts here without knowing a seat's link.
# What proves the request is the secret of the subscription it names (``old_auth``,
# else the subscription's own ``keys.auth``), which only that browser and this site
# hold: another site cannot forge it, and a wrong one changes nothing.
@csrf_exempt
@never_cache
@require_POST
def renew(request):
    """``{"subscription": <PushSubscription.toJSON()>, "old_endpoint"?, "old_auth"?}``:
    the app opened on this device, or its browser replaced the subscription (then the
    old one's endpoint and secret). Answers the site's current public key, so the
    script subscribes again when the site's keys have changed."""
    try:
        body = _body(request)
        _push_on()
        device = push_devices.read_device(body.get("subscription"))
        old_endpoint, old_auth = body.get("old_endpoint"), body.get("old_auth")
        if old_endpoint is not None:
            old_endpoint = push_devices.read_endpoint(old_endpoint)
            if not isinstance(old_auth, str):
                raise _Refused(_("The old subscription's secret is missing."))
        renewed = push_devices.renew(device, old_endpoint, old_auth)
    except _Refused as refused:
        return _refusal(refused.message, refused.status)
    except PushInputError as error:
        return _refusal(str(error))
    if renewed is None:
        return _answer({"ok": False, "known": False, "key": push_devices.site_key()}, 404)
    return _answer({"ok": True, "known": True, "key": push_devices.site_key()})


BROWSERS = (
    ("Edg", "Edge"),
    ("SamsungBrowser", "Samsung Internet"),
    ("OPR", "Opera"),
    ("Firefox", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("CrOS", "ChromeOS"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)


def device_label(agent: str) -> str:
    """A short name for the device, from its User-Agent ("Chrome on Android"), so a
    person tells their devices apart; never more than that of the header is kept."""
    browser = next((name for mark, name in BROWSERS if mark in agent), "")
    system = next((name for mark, name in SYSTEMS if mark in agent), "")
    if browser and system:
        return f"{browser} on {system}"
    return browser or system
