"""System checks of the settings the site's safety depends on (``manage.py check``,
and ``migrate``, which the deployment runs before the site starts)."""

from django.conf import settings
from django.core.checks import Error, Tags, register

from games.mail import webhooks


@register(Tags.security)
def tracking_webhooks_are_secured(app_configs, **kwargs) -> list:
    """With DEBUG off, the tracking webhooks of the ESPs we send through need their
    secret and the ESP's signature key: unsecured, anyone could report a seat's
    address as bouncing, and the seat would get no more email (games.mail.webhooks
    refuses them meanwhile)."""
    if settings.DEBUG:
        return []
    errors = []
    for esp in sorted(webhooks.tracking_esps()):
        needs = webhooks.missing(esp)
        if needs:
            errors.append(
                Error(
                    f"The {esp} tracking webhook (/anymail/{esp}/tracking/) is not secured: "
                    f"it needs {', '.join(needs)}.",
                    hint="Set a long random ANYMAIL_WEBHOOK_SECRET (user:password) and give "
                    "the same to the ESP in the webhook's address; set the ESP's own webhook "
                    "signing key where it has one (docs/operations.md, How email is delivered). "
                    "TRACKING_ESPS names the ESPs whose webhooks are answered besides that of "
                    "EMAIL_BACKEND.",
                    id="games.E001",
                )
            )
    return errors
