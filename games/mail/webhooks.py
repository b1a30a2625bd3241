"""The ESP tracking webhooks we listen to, and what they must prove.

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
"""

import logging

from anymail import urls as anymail_urls
from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.utils import get_anymail_setting
from django.conf import settings
from django.http import HttpResponseBadRequest
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from games.mail import tracking

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


def _tracking_patterns() -> dict:
    """anymail's tracking webhooks by ESP (its inbound ones are not ours to answer)."""
    found = {}
    for pattern in anymail_urls.urlpatterns:
        name = pattern.name or ""
        if name.endswith("_tracking_webhook") or name == "mandrill_webhook":
            esp = name.removesuffix("_tracking_webhook").removesuffix("_webhook")
            found.setdefault(esp, []).append(pattern)
    return found


TRACKING = _tracking_patterns()


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


def _setting(name: str, esp: str | None = None):
    return get_anymail_setting(name, esp_name=esp, default=None, allow_bare=esp is not None)


def missing(esp: str) -> list:
    """What the ESP's tracking webhook still needs before it is answered."""
    if esp not in TRACKING:
        return [f"an ESP anymail has no tracking webhook for ({esp!r})"]
    needs = []
    if not _setting("webhook_secret"):
        needs.append("ANYMAIL_WEBHOOK_SECRET")
    names = SIGNATURE_SETTINGS.get(esp, ())
    if names and not any(_setting(name, esp.upper()) for name in names):
        needs.append(" or ".join(f"ANYMAIL_{esp.upper()}_{name}" for name in names))
    return needs


def guarded(esp: str, view):
    """anymail's view, answered only when secured, and a 400 for a body it cannot read."""

    @csrf_exempt
    def webhook(request, *args, **kwargs):
        if esp not in tracking_esps():
            return HttpResponseBadRequest(f"No tracking webhook for {esp} here.")
        needs = missing(esp)
        if needs:
            log.warning("%s tracking webhook refused: it needs %s", esp, ", ".join(needs))
            return HttpResponseBadRequest(f"The {esp} tracking webhook is not configured.")
        recording = tracking.RECORDING.set(False)
        try:
            return view(request, *args, **kwargs)
        except AnymailWebhookValidationFailure:
            raise  # a 400 from Django, logged as a suspicious request
        except Exception as error:
            if tracking.RECORDING.get():
                raise  # storing a real event failed: a 500, and the ESP tries again
            log.warning("%s tracking webhook: unreadable body (%s)", esp, type(error).__name__)
            return HttpResponseBadRequest("Malformed webhook body.")
        finally:
            tracking.RECORDING.reset(recording)

    return webhook


app_name = "anymail"  # anymail's own URL names, for anyone who reverses them
urlpatterns = [
    path(str(pattern.pattern), guarded(esp, pattern.callback), name=pattern.name)
    for esp, patterns in TRACKING.items()
    for pattern in patterns
]
