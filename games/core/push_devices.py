"""The devices that take a person's Web Push notifications (``PushSubscription``): made,
changed, moved to a new endpoint and dropped, from what a browser hands over, read
strictly (a bad value changes nothing and says why, in the reader's language).

A device's endpoint is where the worker will POST: only the push services of
``WEBPUSH_ENDPOINT_HOSTS``, over HTTPS, are taken (plain HTTP only for a loopback
host listed there: a test push service). Its keys must be a P-256 point and 16 bytes
of secret; the secret, known only to the browser and to us, is what proves a
device's renewal (``renew``), which comes without a seat's link."""

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import pushes
from games.models import PUSH_KINDS, PushSubscription

MAX_ENDPOINT = 2000
MAX_DEVICES = 20  # a person's; the one renewed longest ago gives way to a new one
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text) -> bytes:
    """URL-safe base64, padded or not (as browsers and web-push tools write keys);
    ValueError for anything else."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url text")
    cleaned = text.strip().rstrip("=")
    if not cleaned or len(cleaned) > 200 or any(c not in B64URL for c in cleaned):
        raise ValueError("not base64url text")
    try:
        return base64.urlsafe_b64decode(cleaned + "=" * (-len(cleaned) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url text") from None


class PushInputError(ValueError):
    """What a browser sent cannot be taken; its message says why, for the person."""


@dataclass(frozen=True)
class Device:
    """A browser's push subscription, as read (``read_device``)."""

    endpoint: str
    p256dh: str
    auth: str

    @property
    def digest(self) -> str:
        return endpoint_digest(self.endpoint)


def endpoint_digest(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _refused(message: str) -> PushInputError:
    return PushInputError(message)


def read_endpoint(value) -> str:
    """A push service's address this site will POST to, or PushInputError."""
    if not isinstance(value, str) or not value or len(value) > MAX_ENDPOINT:
        raise _refused(_("The device's push address is missing or too long."))
    if not value.isascii() or any(c.isspace() or ord(c) < 32 for c in value):
        raise _refused(_("The device's push address is not a web address."))
    try:
        parts = urlsplit(value)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise _refused(_("The device's push address is not a web address.")) from None
    plain_loopback = parts.scheme == "http" and host in LOOPBACK
    if (parts.scheme != "https" and not plain_loopback) or parts.username or parts.password:
        raise _refused(_("The device's push address is not a secure web address."))
    if not host or not endpoint_allowed(host):
        raise _refused(_("This browser's push service is not one this site sends to."))
    return value


def endpoint_allowed(host: str) -> bool:
    """Is ``host`` one of WEBPUSH_ENDPOINT_HOSTS (".example.org": its subdomains)?"""
    host = host.lower().rstrip(".")
    for allowed in settings.WEBPUSH_ENDPOINT_HOSTS:
        allowed = allowed.lower()
        if host == allowed.lstrip(".") or (allowed.startswith(".") and host.endswith(allowed)):
            return True
    return False


def read_device(value) -> Device:
    """A PushSubscription as the browser's ``toJSON()`` gives it: ``{"endpoint",
    "keys": {"p256dh", "auth"}}``; or PushInputError."""
    if not isinstance(value, dict):
        raise _refused(_("The device's subscription is missing."))
    endpoint = read_endpoint(value.get("endpoint"))
    keys = value.get("keys")
    if not isinstance(keys, dict):
        raise _refused(_("The device's subscription has no keys."))
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("not an uncompressed point")
    except (ValueError, TypeError):
        raise _refused(_("The device's public key is not a P-256 key.")) from None
    try:
        secret = b64url_decode(auth)
    except (ValueError, TypeError):
        secret = b""
    if len(secret) != 16:
        raise _refused(_("The device's secret is not 16 bytes."))
    return Device(endpoint, p256dh.strip().rstrip("="), auth.strip().rstrip("="))


def read_kinds(value) -> list:
    """The kinds of notification asked for: a list of some of PUSH_KINDS, at least one."""
    if not isinstance(value, list) or not all(isinstance(kind, str) for kind in value):
        raise _refused(_("Choose which notifications this device gets."))
    unknown = [kind for kind in value if kind not in PUSH_KINDS]
    if unknown or len(value) > len(PUSH_KINDS):
        raise _refused(_("That is not a kind of notification this site sends."))
    if not value:
        raise _refused(_("Choose at least one, or turn notifications off on this device."))
    return [kind for kind in PUSH_KINDS if kind in value]


def of_person(email: str) -> list:
    """A person's devices, newest first."""
    return list(PushSubscription.objects.filter(email=email.lower()).order_by("-renewed_at"))


def subscribe(email: str, device: Device, kinds: list, language: str, label: str, now=None):
    """Make the device the person's, with these kinds (the same endpoint again: its
    keys, kinds and owner are replaced: one browser profile has one subscription)."""
    now = now or timezone.now()
    fields = {
        "email": email.lower(),
        "endpoint": device.endpoint,
        "p256dh": device.p256dh,
        "auth": device.auth,
        "kinds": kinds,
        "language": language,
        "device": label[:60],
        "renewed_at": now,
    }
    try:
        return _upsert(device, fields)
    except IntegrityError:  # another tab created it at the same instant: now an update
        return _upsert(device, fields)


def _upsert(device: Device, fields: dict) -> PushSubscription:
    with transaction.atomic():
        found, _created = PushSubscription.objects.update_or_create(
            endpoint_sha256=device.digest, defaults=fields
        )
        _keep_at_most(fields["email"])
    return found


def _keep_at_most(email: str) -> None:
    extra = PushSubscription.objects.filter(email=email).order_by("-renewed_at")[MAX_DEVICES:]
    stale = list(extra.values_list("pk", flat=True))
    if stale:
        PushSubscription.objects.filter(pk__in=stale).delete()


def set_kinds(email: str, endpoint: str, kinds: list) -> bool:
    """Change the kinds a device of the person's gets; False if it is not theirs."""
    found = PushSubscription.objects.filter(
        email=email.lower(), endpoint_sha256=endpoint_digest(endpoint)
    )
    return found.update(kinds=kinds) == 1


def unsubscribe(email: str, endpoint: str) -> bool:
    """Drop a device of the person's; its pushes not yet sent are not sent (they find no
    device: games.push.delivery marks them gone). False if it is not theirs."""
    found = PushSubscription.objects.filter(
        email=email.lower(), endpoint_sha256=endpoint_digest(endpoint)
    )
    return found.delete()[0] > 0


def renew(device: Device, old_endpoint: str | None, old_auth: str | None, now=None):
    """The app opened on a device (or its browser replaced the subscription): the
    subscription known by ``old_endpoint`` (else the device's own endpoint) moves to
    ``device`` and is marked renewed. Proved by the secret of the subscription known
    (``old_auth``, else the device's): only that browser and this site hold it, so no
    link, cookie or CSRF token is needed, and another site cannot make the request.
    The subscription renewed, or None if none matches."""
    now = now or timezone.now()
    known_endpoint = old_endpoint or device.endpoint
    secret = old_auth if old_endpoint else device.auth
    with transaction.atomic():
        found = (
            PushSubscription.objects.select_for_update()
            .filter(endpoint_sha256=endpoint_digest(known_endpoint))
            .first()
        )
        if found is None or not isinstance(secret, str):
            return None
        if not hmac.compare_digest(found.auth.encode(), secret.strip().rstrip("=").encode()):
            return None
        if device.endpoint != found.endpoint:
            # The new endpoint may have been subscribed meanwhile (this same device).
            PushSubscription.objects.filter(endpoint_sha256=device.digest).exclude(
                pk=found.pk
            ).delete()
        found.endpoint, found.endpoint_sha256 = device.endpoint, device.digest
        found.p256dh, found.auth, found.renewed_at = device.p256dh, device.auth, now
        found.save(update_fields=["endpoint", "endpoint_sha256", "p256dh", "auth", "renewed_at"])
    return found


def site_key() -> str:
    """The public VAPID key the pages hand the browsers ("" while push is off)."""
    return settings.WEBPUSH_VAPID_PUBLIC_KEY if pushes.enabled() else ""
