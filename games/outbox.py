"""Delivering the outbox: at least once, never twice.

A row is locked while it is sent and marked sent in the same transaction, so
two workers never send the same email; a failure schedules the next attempt
with exponential backoff, up to OUTBOX_MAX_ATTEMPTS, then marks it failed
(visible in the admin).
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import OutboxEmail, Seat

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 30
MAX_RETRY_SECONDS = 3600
# An email just written is sent by its own task; the sweep waits this long before helping.
SWEEP_GRACE_SECONDS = 10


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** (attempts - 1)))


def build_message(email: OutboxEmail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=email.subject,
        body=email.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[email.to],
        headers=email.headers,
    )
    message.attach_alternative(email.html, "text/html")
    for attachment in email.attachments:
        message.attach(attachment["filename"], attachment["content"], attachment["mimetype"])
    # django-anymail reads these; other backends ignore them.
    message.tags = ["game"]
    message.metadata = {"game": str(email.game_id), "key": email.key}
    return message


def render(email: OutboxEmail, now) -> None:
    """Write an owed email's body from its seat's view of the game as it is now."""
    from games import emails

    game, seat = email.game, email.seat
    message = emails.render(game, seat, game.engine_state(), email.kind, email.key)
    for field in ("to", "subject", "text", "html", "headers", "attachments"):
        setattr(email, field, message[field])
    email.rendered_at = now
    email.save()  # kept even if the send fails, so a retry sends the same words
    Seat.objects.filter(pk=seat.pk).update(notified_seq=game.version)


def deliver(pk: int, now=None) -> str:
    """Send one owed email if it is due. Returns what happened."""
    now = now or timezone.now()
    with transaction.atomic():
        email = (
            OutboxEmail.objects.select_for_update(skip_locked=True)
            .filter(pk=pk, status=OutboxEmail.Status.PENDING)
            .first()
        )
        if email is None:
            return "not pending"
        if email.next_attempt_at and email.next_attempt_at > now:
            return "not due"
        if email.rendered_at is None and email.seat_id is not None:
            render(email, now)
        message = build_message(email)
        try:
            message.send()
        except Exception as error:  # any backend failure: retry later, visibly
            email.attempts += 1
            email.last_error = f"{type(error).__name__}: {error}"[:2000]
            if email.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
                email.status = OutboxEmail.Status.FAILED
                log.error("email %s failed for good: %s", email.key, email.last_error)
            else:
                email.next_attempt_at = now + backoff(email.attempts)
            email.save()
            return "failed"
        status = getattr(message, "anymail_status", None)
        email.provider_message_id = (getattr(status, "message_id", None) or "")[:200]
        email.status = OutboxEmail.Status.SENT
        email.attempts += 1
        email.sent_at = now
        email.save()
    return "sent"


def due(now=None, limit: int = 200) -> list:
    """Pending emails the sweep should send now."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=SWEEP_GRACE_SECONDS)
    return list(
        OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING)
        .filter(Q(next_attempt_at__lte=now) | Q(next_attempt_at=None, created_at__lte=grace))
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
