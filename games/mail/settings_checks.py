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


@register(Tags.security)
def inbound_webhooks_are_secured(app_configs, **kwargs) -> list:
    """With DEBUG off, the inbound webhooks of INBOUND_ESPS need their secret and the
    ESP's signing key: unsecured, anyone who learnt a seat's reply address could
    post talk in its name. And a reply address (INBOUND_DOMAIN) with no ESP to
    receive its mail would promise players a reply that nobody reads."""
    if settings.DEBUG:
        return []
    errors = []
    for esp in sorted(webhooks.inbound_esps()):
        needs = webhooks.missing(esp, webhooks.INBOUND_KIND)
        if needs:
            errors.append(
                Error(
                    f"The {esp} inbound webhook (/anymail/{esp}/inbound/) is not secured: "
                    f"it needs {', '.join(needs)}.",
                    hint="Set ANYMAIL_WEBHOOK_SECRET (user:password) and put it in the "
                    "address of the ESP's inbound route; set the ESP's own signing key "
                    "where it has one (docs/operations.md, Replies by email).",
                    id="games.E002",
                )
            )
    if settings.INBOUND_DOMAIN and not webhooks.inbound_esps():
        errors.append(
            Error(
                "INBOUND_DOMAIN is set but INBOUND_ESPS is empty: the emails would ask for "
                "replies that no webhook receives.",
                hint="Name the ESP that receives the mail of INBOUND_DOMAIN in INBOUND_ESPS "
                "(e.g. postmark or mailgun), or leave INBOUND_DOMAIN empty.",
                id="games.E003",
            )
        )
    return errors
