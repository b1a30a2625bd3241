"""Signing in by email, with no password: a person is their email address.

Asking records a SignIn and owes one email (a row of the outbox, in the same
transaction) with a link and a 6-digit code. The answer to the asker is the same
whether the address is known or not, and whether it was paced or not, so the form
tells nobody who plays here. The link's GET only shows a button; its POST, or the
code typed on the asking device, signs in, once, within SIGN_IN_MINUTES.

The same rows pace every form that makes the site email an address someone typed
(a sign-in, "resend my links", a seat asked for through a join link): ``take_ask``
counts and records one ask as one step, so parallel requests cannot overrun it.
"""

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from games.core import notifications
from games.models import SignIn

LINK_SALT = "games.sign-in"
CODE_DIGITS = 6
WRONG_CODES_ALLOWED = 5


def _minutes() -> timedelta:
    return timedelta(minutes=settings.SIGN_IN_MINUTES)


def _code_hash(sign_in_id: int, code: str) -> str:
    return salted_hmac(LINK_SALT, f"{sign_in_id}:{code}").hexdigest()


def client_key(address: str) -> str:
    """The client, as the pacing counts it: a keyed hash, not the address itself."""
    return salted_hmac(LINK_SALT, address or "unknown").hexdigest()


def link_token(sign_in_id: int) -> str:
    return signing.dumps(sign_in_id, salt=LINK_SALT)


def paced(email: str, client: str, now) -> bool:
    """Too many asks lately, for this address or from this client."""
    hour = now - timedelta(hours=1)
    recent = SignIn.objects.filter(created_at__gte=hour)
    return (
        recent.filter(email=email).count() >= settings.SIGN_IN_PER_ADDRESS_HOURLY
        or recent.filter(client=client).count() >= settings.SIGN_IN_PER_CLIENT_HOURLY
    )


def take_ask(email: str, client: str, now, purpose=SignIn.Purpose.SIGN_IN, **fields):
    """One ask for an email to ``email`` from ``client``, recorded (a SignIn row of
    ``purpose``) unless paced; None when paced. Inside the caller's transaction,
    which holds the address's and the client's locks until it ends: the count and
    the row are one step, whatever runs beside it."""
    _one_ask_at_a_time(f"address:{email}", f"client:{client}")
    if paced(email, client, now):
        return None
    return SignIn.objects.create(
        email=email, client=client, code_hash="", created_at=now, purpose=purpose, **fields
    )


def _one_ask_at_a_time(*keys: str) -> None:
    """PostgreSQL: a transaction-scoped advisory lock per key, taken in one order
    (so two asks never wait for each other in a circle). Counting rows is not enough
    there: two transactions would each count before seeing the other's row. SQLite
    needs nothing: its IMMEDIATE transactions let one writer in at a time."""
    if connection.vendor != "postgresql":
        return
    ids = sorted({_lock_id(key) for key in keys})
    with connection.cursor() as cursor:
        for lock_id in ids:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id])


def _lock_id(key: str) -> int:
    digest = hashlib.sha256(f"{LINK_SALT}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)  # PostgreSQL's bigint


def ask(email: str, client: str, language: str, now=None) -> bool:
    """Owe a sign-in email to ``email`` (already checked as an address), unless
    paced. Returns whether one is owed; the page says the same either way."""
    now = now or timezone.now()
    email = email.strip().lower()
    with transaction.atomic():
        sign_in = take_ask(email, client, now)
        if sign_in is None:
            return False
        code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
        sign_in.code_hash = _code_hash(sign_in.pk, code)
        sign_in.save(update_fields=["code_hash"])
        notifications.record_sign_in(sign_in, code, language)
    return True


def _usable(sign_in: SignIn | None, now) -> bool:
    return (
        sign_in is not None
        and sign_in.purpose == SignIn.Purpose.SIGN_IN
        and sign_in.used_at is None
        and sign_in.created_at > now - _minutes()
        and sign_in.wrong_codes < WRONG_CODES_ALLOWED
    )


def pending_by_token(token: str, now=None) -> SignIn | None:
    """The sign-in a link names, if it may still be used (GET: nothing changes)."""
    now = now or timezone.now()
    try:
        pk = signing.loads(token, salt=LINK_SALT, max_age=_minutes())
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    sign_in = SignIn.objects.filter(pk=pk).first()
    return sign_in if _usable(sign_in, now) else None


def use_link(token: str, now=None):
    """The person a link signs in, using it up; None if it cannot be used."""
    now = now or timezone.now()
    with transaction.atomic():
        found = pending_by_token(token, now)
        if found is None:
            return None
        return _use(SignIn.objects.select_for_update().get(pk=found.pk), now)


def use_code(email: str, code: str, now=None):
    """The person a typed code signs in, using its sign-in up; None if the code is
    not that of the address's newest usable sign-in (each wrong code counts)."""
    now = now or timezone.now()
    email = email.strip().lower()
    code = "".join(ch for ch in code if not ch.isspace())
    with transaction.atomic():
        newest = (
            SignIn.objects.select_for_update()
            .filter(email=email, used_at__isnull=True, created_at__gt=now - _minutes())
            .filter(purpose=SignIn.Purpose.SIGN_IN)  # a "resend my links" signs nobody in
            .order_by("-created_at")
            .first()
        )
        if not _usable(newest, now):
            return None
        if not (code.isascii() and code.isdigit() and len(code) == CODE_DIGITS) or not (
            hmac.compare_digest(newest.code_hash, _code_hash(newest.pk, code))
        ):
            SignIn.objects.filter(pk=newest.pk).update(wrong_codes=newest.wrong_codes + 1)
            return None
        return _use(newest, now)


def _use(sign_in: SignIn, now):
    """Use the sign-in up; the person with its address (made on their first sign-in)."""
    if not _usable(sign_in, now):
        return None
    SignIn.objects.filter(pk=sign_in.pk).update(used_at=now)
    return person_for(sign_in.email)


def person_for(email: str):
    """The person with this (proven) address, made on their first sign-in."""
    email = email.lower()
    people = get_user_model().objects
    person = people.filter(email__iexact=email).order_by("pk").first()
    if person is None:
        # The username is the address, or a digest of one too long for the column.
        name = email if len(email) <= 150 else hashlib.sha256(email.encode()).hexdigest()
        person = people.create_user(username=name, email=email)
    return person
