"""The site's VAPID key pair (RFC 8292), by which push services know the pushes come
from the server the devices subscribed to: a P-256 key, each half as URL-safe base64
without padding, the raw 32-byte private scalar and the 65-byte uncompressed public
point (the form browsers take as ``applicationServerKey``, and web-push tools print)."""

import functools

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid

from games.core.push_devices import b64url_decode as decode
from games.core.push_devices import b64url_encode as encode


def new_pair() -> tuple[str, str]:
    """A new key pair: (private, public)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return encode(key.private_numbers().private_value.to_bytes(32, "big")), public_of(key)


def private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """The private key of its text; ValueError if it is not one."""
    raw = decode(text)
    if len(raw) != 32:
        raise ValueError(f"a P-256 private key is 32 bytes, this one is {len(raw)}")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def public_of(key: ec.EllipticCurvePrivateKey) -> str:
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return encode(point)


def public_key_problem(public: str, private: str) -> str:
    """Why the site's keys cannot sign pushes ("" when they can): the private key must
    load, and the public key the pages hand the browsers must be its own."""
    try:
        key = private_key(private)
    except ValueError as error:
        return f"WEBPUSH_VAPID_PRIVATE_KEY does not load: {error}"
    try:
        raw = decode(public)
    except ValueError:
        return "WEBPUSH_VAPID_PUBLIC_KEY is not URL-safe base64"
    if raw != decode(public_of(key)):
        return "WEBPUSH_VAPID_PUBLIC_KEY is not the public half of WEBPUSH_VAPID_PRIVATE_KEY"
    return ""


@functools.lru_cache(maxsize=2)
def _signer(private: str) -> Vapid:
    return Vapid(private_key=private_key(private))


def signer() -> Vapid:
    """The site's key as pywebpush signs with it (kept per process)."""
    return _signer(settings.WEBPUSH_VAPID_PRIVATE_KEY)
