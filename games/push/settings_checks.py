"""The system check of the Web Push settings (``manage.py check``, and ``migrate``,
which the deployment runs before the site starts): keys that cannot sign, or a
contact the push services cannot use, would have every push refused."""

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_email

from games.push import vapid

HINT = (
    "Make a pair with `manage.py vapid_keys` and set WEBPUSH_VAPID_PUBLIC_KEY, "
    "WEBPUSH_VAPID_PRIVATE_KEY and WEBPUSH_VAPID_CONTACT (mailto:you@example.org, or an "
    "https:// page); leave both keys empty to turn push off (docs/operations.md, Web Push)."
)


def contact_problem(contact: str) -> str:
    """Why the contact is not one a push service can use ("" when it is)."""
    if contact.startswith("mailto:"):
        try:
            validate_email(contact.removeprefix("mailto:"))
        except ValidationError:
            return f"WEBPUSH_VAPID_CONTACT {contact!r} is not mailto: and a valid address"
        return ""
    if contact.startswith("https://"):
        try:
            URLValidator(schemes=["https"])(contact)
        except ValidationError:
            return f"WEBPUSH_VAPID_CONTACT {contact!r} is not a valid https:// address"
        return ""
    return "WEBPUSH_VAPID_CONTACT must be mailto: and an address, or an https:// address"


@register()
def vapid_keys_work(app_configs, **kwargs) -> list:
    """With keys set (push on), both must load and match, and the contact must be
    mailto: or https:. Half a pair is an error too: push would be off unnoticed."""
    public = settings.WEBPUSH_VAPID_PUBLIC_KEY
    private = settings.WEBPUSH_VAPID_PRIVATE_KEY
    if not public and not private:
        return []
    if not public or not private:
        missing = "WEBPUSH_VAPID_PUBLIC_KEY" if not public else "WEBPUSH_VAPID_PRIVATE_KEY"
        return [
            Error(f"{missing} is empty while its other half is set.", hint=HINT, id="games.E010")
        ]
    errors = []
    problem = vapid.public_key_problem(public, private)
    if problem:
        errors.append(Error(problem + ".", hint=HINT, id="games.E011"))
    problem = contact_problem(settings.WEBPUSH_VAPID_CONTACT)
    if problem:
        errors.append(Error(problem + ".", hint=HINT, id="games.E012"))
    return errors
