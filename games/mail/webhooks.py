"""The ESP webhooks we listen to, and what they must prove: tracking (delivery
events) and inbound (replies by email, games.mail.inbound).

anymail answers every ESP's webhooks, and without ANYMAIL_WEBHOOK_SECRET it
believes an unsigned POST: one forged "hard bounce" would stop a seat's email.
So only the tracking webhooks of the ESPs we send through are answered
(TRACKING_ESPS, or the anymail backend of EMAIL_BACKEND), and only once they are
secured: the shared secret (HTTP basic auth) always, and the ESP's own
signature wherever anymail can check one. Anything else is a 400 that says
which setting is missing, as is a body anymail cannot read; a 500 is kept for
our own failure to store an event (the ESP then sends it again). With DEBUG
off, a missing setting is also a system check error (games.mail.settings_checks), so that
``manage.py migrate`` and ``check`` refuse to start the site.

The inbound webhooks are held to the same: those of INBOUND_ESPS only, once
secured. (An inbound forged by anyone who knows a seat's reply address would post
talk in that seat's name.)
"""

import logging

from anymail import urls as anymail_urls
from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.utils import get_anymail_setting
from django.conf import settings
from django.http import HttpResponseBadRequest
from django.urls import path, re_path
from django.urls.resolvers import RegexPattern
from django.views.decorators.csrf import csrf_exempt

from games.mail import inbound, tracking

log = logging.getLogger(__name__)

# The anymail settings (any one of them) with which it checks each ESP's own
# signature. The ESPs not named sign nothing anymail can check (Postmark, Brevo,
# Mailjet, SparkPost, Amazon SES): the shared secret is all they have.
SIGNATURE_SETTINGS = {
    "mailersend": ("SIGNING_SECRET",),
    "mailgun": ("WEBHOOK_SIGNING_KEY", "API_KEY"),  # anymail falls back on the API key
    "mailtrap": ("TRACKING_SECRET",),
    "mandrill": ("WEBHOOK_KEY",),
    "postal": ("WEBHOOK_KEY",),
    "resend": ("SIGNING_SECRET",),
    "sendgrid": ("TRACKING_WEBHOOK_VERIFICATION_KEY",),
    "unisender_go": ("API_KEY",),
}


TRACKING_KIND, INBOUND_KIND = "tracking", "inbound"


def _patterns(kind: str) -> dict:
    """anymail's webhooks of one kind (tracking or inbound), by ESP."""
    found = {}
    suffix = f"_{kind}_webhook"
    for pattern in anymail_urls.urlpatterns:
        name = pattern.name or ""
        if name.endswith(suffix) or (kind == TRACKING_KIND and name == "mandrill_webhook"):
            esp = name.removesuffix(suffix).removesuffix("_webhook")
            found.setdefault(esp, []).append(pattern)
    return found


TRACKING = _patterns(TRACKING_KIND)
INBOUND = _patterns(INBOUND_KIND)
# What each kind's webhook reports to while it is handled (a 500 after it starts:
# the ESP sends it again), and the ESPs whose webhooks of that kind are answered.
HANDLING = {TRACKING_KIND: tracking.RECORDING, INBOUND_KIND: inbound.HANDLING}


def backend_esp(backend: str) -> str | None:
    """The ESP an anymail EMAIL_BACKEND sends through (None for any other backend)."""
    parts = backend.split(".")
    if len(parts) == 4 and parts[:2] == ["anymail", "backends"] and parts[2] != "test":
        return parts[2]
    return None


def tracking_esps() -> set:
    """The ESPs whose tracking webhooks we answer."""
    named = {esp.strip().lower() for esp in getattr(settings, "TRACKING_ESPS", []) if esp}
    sending = backend_esp(settings.EMAIL_BACKEND)
    return named | ({sending} if sending else set())


def inbound_esps() -> set:
    """The ESPs whose inbound webhooks we answer (INBOUND_ESPS)."""
    return {esp.strip().lower() for esp in getattr(settings, "INBOUND_ESPS", []) if esp}


def answered(kind: str) -> set:
    return tracking_esps() if kind == TRACKING_KIND else inbound_esps()


def _setting(name: str, esp: str | None = None):
    return get_anymail_setting(name, esp_name=esp, default=None, allow_bare=esp is not None)


def missing(esp: str, kind: str = TRACKING_KIND) -> list:
    """What the ESP's webhook of that kind still needs before it is answered."""
    if esp not in (TRACKING if kind == TRACKING_KIND else INBOUND):
        return [f"an ESP anymail has no {kind} webhook for ({esp!r})"]
    needs = []
    if not _setting("webhook_secret"):
        needs.append("ANYMAIL_WEBHOOK_SECRET")
    names = SIGNATURE_SETTINGS.get(esp, ())
    if names and not any(_setting(name, esp.upper()) for name in names):
        needs.append(" or ".join(f"ANYMAIL_{esp.upper()}_{name}" for name in names))
    return needs


def guarded(esp: str, view, kind: str = TRACKING_KIND):
    """anymail's view, answered only when secured, and a 400 for a body it cannot read."""
    handling = HANDLING[kind]

    @csrf_exempt
    def webhook(request, *args, **kwargs):
        if esp not in answered(kind):
            return HttpResponseBadRequest(f"No {kind} webhook for {esp} here.")
        needs = missing(esp, kind)
        if needs:
            log.warning("%s %s webhook refused: it needs %s", esp, kind, ", ".join(needs))
            return HttpResponseBadRequest(
                f"The {esp} {kind} webhook is not configured: it needs {', '.join(needs)}."
            )
        started = handling.set(False)
        try:
            return view(request, *args, **kwargs)
        except AnymailWebhookValidationFailure:
            raise  # a 400 from Django, logged as a suspicious request
        except Exception as error:
            if handling.get():
                raise  # storing a real event failed: a 500, and the ESP tries again
            log.warning("%s %s webhook: unreadable body (%s)", esp, kind, type(error).__name__)
            return HttpResponseBadRequest("Malformed webhook body.")
        finally:
            handling.reset(started)

    return webhook


def _route(pattern, view):
    """anymail's route with our view (Mailgun's inbound one is a regex: inbound_mime too)."""
    route = pattern.pattern
    if isinstance(route, RegexPattern):
        return re_path(str(route), view, name=pattern.name)
    return path(str(route), view, name=pattern.name)


app_name = "anymail"  # anymail's own URL names, for anyone who reverses them
urlpatterns = [
    _route(pattern, guarded(esp, pattern.callback, kind))
    for kind, by_esp in ((TRACKING_KIND, TRACKING), (INBOUND_KIND, INBOUND))
    for esp, patterns in by_esp.items()
    for pattern in patterns
]
