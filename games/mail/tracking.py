"""What the ESP says happened to an email after it took it: anymail's tracking
webhooks (at /anymail/<esp>/tracking/, authenticated by ANYMAIL_WEBHOOK_SECRET
and the ESP's own signature: games.mail.webhooks), stored once per event and matched
to the outbox.

An event is matched to an email by the recipient it names together with the
ESP's own id of the message, or with the key we sent along as metadata. That key
is signed with SECRET_KEY: a player sees their own seat's key (in the
Message-ID), and could otherwise name another seat's email in a forged event.

A hard bounce, a rejection or a complaint makes the seat's address
undeliverable: nothing more is sent to it (pending emails fail at once) and the
organizer is told, with the game's admin page, so they can fix the address or
replace the player. Deliveries and auto-replies are shown on the seat.
"""

import contextvars
import hashlib
import logging

from anymail.signals import tracking
from django.core import signing
from django.db import IntegrityError, transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import notifications
from games.core.game_writes import locked_seat
from games.models import DeliveryEvent, OutboxEmail, Seat

log = logging.getLogger(__name__)

# anymail's normalized event types that say the address does not take our mail.
PERMANENT = {"bounced", "rejected", "complained"}
FAILED = PERMANENT | {"failed", "deferred"}


def event_id(esp: str, event) -> str:
    """The ESP's own id of the event, or one derived from what identifies it."""
    if event.event_id:
        return str(event.event_id)[:200]
    seen = f"{event.message_id}|{event.event_type}|{event.recipient}|{event.timestamp}"
    return hashlib.sha256(f"{esp}|{seen}".encode()).hexdigest()


# Keeps these signatures apart from every other use of SECRET_KEY.
KEY_SIGNER = signing.Signer(salt="games.mail.tracking.outbox-key")


def signed_key(key: str) -> str:
    """The outbox key as sent to the ESP: the key and our signature of it."""
    return KEY_SIGNER.sign(key)


def key_from(signed) -> str | None:
    """The outbox key a signed one carries; None if it is not ours."""
    if not isinstance(signed, str):
        return None
    try:
        return KEY_SIGNER.unsign(signed)
    except signing.BadSignature:
        return None


def matching_email(event) -> OutboxEmail | None:
    """The email the event is about: sent to its recipient, and named either by
    the ESP's id of the message or by our signed key (the ESP has no id for an
    email whose answer was lost)."""
    recipient = (event.recipient or "").strip()
    if not recipient:
        return None
    to_them = OutboxEmail.objects.filter(to__iexact=recipient)
    if event.message_id:
        found = to_them.filter(provider_message_id=str(event.message_id)).first()
        if found:
            return found
    key = key_from((event.metadata or {}).get("key"))
    return to_them.filter(key=key).first() if key else None


# Set once the webhook's body is read and an event is being stored (games.mail.webhooks
# answers an error before then with a 400, one after with a 500 the ESP retries).
RECORDING = contextvars.ContextVar("tracking_recording", default=False)


@receiver(tracking)
def on_tracking(sender, event, esp_name: str, **kwargs) -> None:
    RECORDING.set(True)
    record(esp_name, event)


def record(esp: str, event) -> DeliveryEvent | None:
    """Store one tracking event (None if it was seen before) and act on it."""
    email = matching_email(event)
    reason = event.description or event.mta_response or event.reject_reason or ""
    try:
        with transaction.atomic():
            stored = DeliveryEvent.objects.create(
                esp=esp[:30],
                event_id=event_id(esp, event),
                event_type=event.event_type or "unknown",
                message_id=str(event.message_id or "")[:200],
                recipient=(event.recipient or "")[:254],
                reject_reason=event.reject_reason or "",
                description=str(reason)[:300],
                occurred_at=event.timestamp,
                email=email,
            )
            if email is not None and email.seat_id is not None:
                _update_seat(email, stored)
    except IntegrityError:  # the ESP sent the same event again
        return None
    return stored


def _update_seat(email: OutboxEmail, event: DeliveryEvent) -> None:
    # The game's row before the seat's, as every write takes them: a bounce writes the
    # organizer's alert, a row of the game's, and would wait on a move in a circle.
    seat = locked_seat(Seat(pk=email.seat_id, game_id=email.game_id))
    if seat.email.lower() != email.to.lower():
        return  # the seat has a new address since: this says nothing of it
    when = event.occurred_at or timezone.now()
    kind = event.event_type
    if kind == "delivered":
        Seat.objects.filter(pk=seat.pk).update(last_delivered_at=when)
    elif kind == "autoresponded":
        Seat.objects.filter(pk=seat.pk).update(autoreply_at=when)
    elif kind in FAILED:
        # Kept for the organizer (the admin, their alert); a webhook runs in the site's language.
        reason = event.description or event.reject_reason or _("no reason given")
        problem = f"{kind}: {reason}"
        fields = {"last_failure": problem[:300], "last_failure_at": when}
        if kind in PERMANENT and seat.undeliverable_at is None:
            fields["undeliverable_at"] = when
            _stop_sending(seat, problem)
            notifications.record_undeliverable_alert(email.game, seat, problem)
        Seat.objects.filter(pk=seat.pk).update(**fields)


def _stop_sending(seat: Seat, problem: str) -> None:
    """Retries to an address that bounced for good only hurt: they fail now, visibly."""
    OutboxEmail.objects.filter(
        seat=seat, to__iexact=seat.email, status=OutboxEmail.Status.PENDING
    ).update(status=OutboxEmail.Status.FAILED, last_error=f"Address undeliverable ({problem})")
    log.warning("seat %s: address undeliverable (%s)", seat.pk, problem)
