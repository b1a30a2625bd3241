"""Delivering the outbox: at least once, and every possible duplicate counted.

An email goes ``pending → sending → sent`` (or back to ``pending`` for a retry,
or ``failed``). Each step is its own short transaction, and none is open while
the ESP is called, so sending never holds a lock a move or a deadline needs:

1. claim (one transaction): lock the row (skip it if another worker has it),
   render the body from the seat's view if it has none, mark it ``sending``;
2. hand it to the ESP, outside any transaction;
3. record the answer: ``sent``, or a retry with exponential backoff, or
   ``failed`` (a permanent refusal, or OUTBOX_MAX_ATTEMPTS reached). Then, in a
   statement of its own, the seat's news and table talk start after what it was
   just told.

What cannot be known is counted, never hidden. Only an answer that proves the
ESP did not take the message is a clean failure (a 4xx, an SMTP reply code,
recipients refused, a connection never made); any other error may have come
after the ESP queued it (a timeout, a gateway's 502/504, a TLS error, an
exception while reading the answer), and so may a worker that died between the
ESP call and step 3 (the row stays ``sending``; the sweep takes it up after
SENDING_GRACE). If the ESP's tracking webhook has since reported the email
(games.mail.tracking matches it by the ESP's message id or the signed key sent along
as metadata, and the recipient), it is marked sent. Otherwise it is sent again
with the same words and the same Message-ID, so a mail app folds the copy, and
``in_doubt`` counts it (the admin shows it). So does another email of the seat
that tells again the table talk such an email may have told: the seat's talk
moves on only once an email's answer is recorded. A retry after a known failure
renders the game as it is now: the player gets today's table, and the news they
have not been told.
"""

import logging
import smtplib
import socket
from datetime import timedelta

import requests
from anymail.exceptions import (
    AnymailAPIError,
    AnymailConfigurationError,
    AnymailInvalidAddress,
    AnymailRecipientsRefused,
    AnymailSerializationError,
    AnymailUnsupportedFeature,
)
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.core import compiled, notifications, selectors, talk
from games.mail import emails, person_emails, tracking
from games.models import OutboxEmail, Seat
from games.words import i18n

log = logging.getLogger(__name__)

MAX_RETRY_SECONDS = 3600
# An email just written is sent by its own task; the sweep waits this long before helping.
SWEEP_GRACE_SECONDS = 10
# A row still "sending" after this was left by a worker that died mid-send.
SENDING_GRACE = timedelta(seconds=settings.OUTBOX_SENDING_GRACE_SECONDS)
# The ESP answered, but about a request that can never succeed as it is.
PERMANENT_STATUS = range(400, 500)
RETRYABLE_STATUS = {408, 429}
# Tracking events by which the ESP says it had the message (anymail's names).
TAKEN = ("queued", "sent", "delivered", "deferred", "bounced", "opened", "clicked")


def backoff(attempts: int) -> timedelta:
    first = settings.OUTBOX_FIRST_RETRY_SECONDS
    return timedelta(seconds=min(MAX_RETRY_SECONDS, first * 2 ** (attempts - 1)))


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
    # The key signed: a tracking event quoting it is believed only with our signature.
    game = "" if email.game_id is None else str(email.game_id)
    message.metadata = {"game": game, "key": tracking.signed_key(email.key)}
    return message


# What claiming an email may change (with its body, when it renders it).
CLAIMED = (
    *("status", "sending_at", "attempts", "uncertain", "in_doubt", "rendered_at"),
    *("rendered_version", "to", "subject", "text", "html", "headers", "attachments"),
    "params",  # a seat's email: the newest line of talk it tells, the phase it tells of
)


def render(email: OutboxEmail, now, table: emails.Table | None = None) -> None:
    """Write an owed email's body: a seat's from its view of the game as it is now,
    an alert from what its row recorded when it was owed. ``table``: the seat's, if
    read with it (_with_seat_and_game)."""
    game, seat = email.game, email.seat
    if email.kind in notifications.PERSON_EMAILS:
        message = person_emails.render_for_person(email.kind, email.to, email.params, email.key)
    elif seat is None:
        message = emails.render_alert(game, email.kind, email.params, email.key)
    else:
        with i18n.as_seat(seat):
            message = emails.render(
                game,
                seat,
                game.engine_state(),
                email.kind,
                email.key,
                email.params,
                table=table,
            )
        # What it told, and the phase it asked about (a reply's move is judged by it).
        told = {TALK_TOLD: message["talk_told"], PHASE_SINCE: game.phase_since}
        email.params = {**email.params, **told}
    for field in ("to", "subject", "text", "html", "headers", "attachments"):
        if field in message:  # an alert has no attachments
            setattr(email, field, message[field])
    email.rendered_at = now
    email.rendered_version = None if game is None else game.version


def deliver(pk: int, now=None) -> str:
    """Send one owed email if it is due. Returns what happened."""
    now = now or timezone.now()
    email = _claim(pk, now)
    if isinstance(email, str):
        return email
    message = build_message(email)
    try:
        message.send()
    except Exception as error:  # any backend failure: recorded, retried or given up, visibly
        return _record_failure(email, error, now)
    # The ESP's id of the message, which its tracking events quote (0 is an id too).
    provider_id = getattr(getattr(message, "anymail_status", None), "message_id", None)
    sent = {
        "status": OutboxEmail.Status.SENT,
        "sent_at": now,
        "last_error": "",
        "provider_message_id": "" if provider_id is None else str(provider_id)[:200],
    }
    told = email.seat_id is not None and email.rendered_version is not None
    _record(email, told=_told(email) if told else (), **sent)
    return "sent"


# What the seat was told: its news start after an email, its talk after the newest
# line the email told; neither ever moved back.
_NEWS_TOLD = compiled.CompiledUpdate(
    Seat,
    ("notified_seq",),
    lambda seat, below: Seat.objects.filter(pk=seat, notified_seq__lt=below),
)
_TALK_TOLD = compiled.CompiledUpdate(
    Seat,
    ("talk_mailed_id",),
    lambda seat, below: Seat.objects.filter(pk=seat, talk_mailed_id__lt=below),
)


def _told(email: OutboxEmail) -> list:
    """The writes (CompiledUpdates) by which the seat's news now start
    after this email, and its talk after the newest line this email told."""
    seen_up_to = email.rendered_version
    writes = [
        (_NEWS_TOLD, {"notified_seq": seen_up_to}, {"seat": email.seat_id, "below": seen_up_to})
    ]
    told = email.params.get(TALK_TOLD, 0)
    if told:
        writes.append(
            (_TALK_TOLD, {"talk_mailed_id": told}, {"seat": email.seat_id, "below": told})
        )
    return writes


def _claim(pk: int, now) -> OutboxEmail | str:
    """Step 1: the row, rendered and marked ``sending``; or why it is not sent now."""
    with transaction.atomic():
        email, read = selectors.outbox_email_with_news(pk)
        if email is None:
            return "not pending"
        if email.status == OutboxEmail.Status.SENDING:
            if email.sending_at and email.sending_at > now - SENDING_GRACE:
                return "being sent"
            email.uncertain = True  # a worker died after handing it over, or before
        elif email.next_attempt_at and email.next_attempt_at > now:
            return "not due"
        seat, table = _with_seat_and_game(email, read)
        if seat is not None and seat.undeliverable_at and seat.email.lower() == email.to.lower():
            email.status, email.last_error = OutboxEmail.Status.FAILED, "Address undeliverable"
            email.save()
            return "undeliverable"
        if email.uncertain and _provider_has_it(email):
            email.status, email.uncertain, email.sent_at = OutboxEmail.Status.SENT, False, now
            email.save()
            return "sent"  # the provider's tracking says it took it: nothing to resend
        if email.uncertain:
            email.uncertain = False
            _count_in_doubt(email, "sent again")
        elif email.rendered_at is None and (email.seat_id is not None or not email.text):
            # (An alert owed before alerts were rendered when sent has its body
            # already: it is sent as it is.)
            if email.kind == notifications.OFFER and not _offers_to_tell(email, table):
                email.delete()  # another email told them first (e.g. "Round N is over")
                return "dropped"
            if email.kind == notifications.TALK and not _talk_to_tell(seat, table):
                email.delete()  # read on the page, or told by another email, meanwhile
                return "dropped"
            render(email, now, table)
            if _talk_perhaps_told(email, seat):
                _count_in_doubt(email, "tells talk another email may have told")
        email.status = OutboxEmail.Status.SENDING
        email.sending_at = now
        email.attempts += 1
        _CLAIM.run({f: getattr(email, f) for f in CLAIMED}, pk=email.pk)
    return email


_CLAIM = compiled.CompiledUpdate(OutboxEmail, CLAIMED, lambda pk: OutboxEmail.objects.filter(pk=pk))


# A seat's email's params: the newest line of table talk it told (0: none), and the
# phase it was written in (notifications.PHASE_SINCE: a move by reply to it is judged
# stale once the game is in another phase, as a page's is).
TALK_TOLD = "talk_told"
PHASE_SINCE = notifications.PHASE_SINCE

# What an offer email is about: offers made, changed, closed or turned into deals.
OFFER_EVENTS = frozenset(
    {
        "offer_made",
        "offer_revised",
        "offer_agreed",
        "offer_withdrawn",
        "offer_refused",
        "offers_lapsed",
        "deal_made",
    }
)


def _offers_to_tell(email: OutboxEmail, table: emails.Table | None) -> bool:
    """Has a gathered offer email still something to tell when it is due: an offer
    event its reader has not been told of (how an offer went, if it is closed)?
    An email sent meanwhile (the round's end, a new phase) may have told them all:
    this one would then say "Offers that concern you" over nothing."""
    news = table.news if table else selectors.events_since(email.game_id, email.seat.notified_seq)
    return any(e["type"] in OFFER_EVENTS for e in news)


def _talk_to_tell(seat: Seat | None, table: emails.Table | None) -> bool:
    """Has a gathered talk email still a line to tell when it is due? Its reader may
    have read them all on the table meanwhile: it would then tell nothing."""
    if table is not None:
        return bool(table.talk)
    return seat is not None and talk.unread(seat).exists()


def _count_in_doubt(email: OutboxEmail, why: str) -> None:
    """An email that may repeat what its reader already has: counted, and said."""
    email.in_doubt += 1
    log.warning("email %s %s, possibly a duplicate (%d)", email.key, why, email.in_doubt)


def _talk_perhaps_told(email: OutboxEmail, seat: Seat | None) -> bool:
    """Does this email, just rendered, tell a line of talk that another email of its
    seat may have told? That one's send may have reached the reader (sent, being
    sent, its answer lost) before the seat's talk was moved on after it (a worker
    killed between the two, a lost answer): this one then tells its lines again."""
    told = email.params.get(TALK_TOLD, 0) if seat is not None else 0
    if not told:
        return False
    since = max(seat.talk_read_id, seat.talk_mailed_id)  # this email tells the lines after
    may_have_reached = Q(status__in=(OutboxEmail.Status.SENT, OutboxEmail.Status.SENDING)) | Q(
        uncertain=True
    )
    others = OutboxEmail.objects.filter(may_have_reached, seat_id=seat.pk).exclude(pk=email.pk)
    return others.filter(**{f"params__{TALK_TOLD}__gt": since}).exists()


def _with_seat_and_game(email: OutboxEmail, read: tuple) -> tuple:
    """Attach the email's seat and game to it, read (``read``: seat_news's, with the
    email's row) with what a seat's email is rendered from (emails.Table: the game's
    seats, the news it has not been told, its unread talk): (its seat, that table),
    (None, None) for an email to no seat."""
    if email.seat_id is None:
        return email.seat, None
    seat, seats, news, unread_talk = read
    if seat is None:
        return email.seat, None
    email.seat, email.game = seat, seat.game
    return seat, emails.Table(seats, news, unread_talk)


def _provider_has_it(email: OutboxEmail) -> bool:
    """Did the ESP's tracking webhook (games.mail.tracking) report this email taken?"""
    return email.events.filter(event_type__in=TAKEN).exists()


def _record(email: OutboxEmail, told: list | tuple = (), **fields) -> bool:
    """Step 3, compare-and-set: only the attempt that claimed the row records its
    answer; ``told``: what its seat was told (_told's writes), in the same commit."""
    answer = (_record_of(tuple(fields)), fields, {"pk": email.pk, "attempts": email.attempts})
    return compiled.run_in_one_commit([answer, *told]) == 1


def _record_of(fields: tuple) -> compiled.CompiledUpdate:
    """The compare-and-set UPDATE of ``fields`` (a handful of sets: sent, failed, retried)."""
    return compiled.updates_of(OutboxEmail, fields, _still_sending)


def _still_sending(pk, attempts):
    """The email as this attempt claimed it."""
    return OutboxEmail.objects.filter(pk=pk, status=OutboxEmail.Status.SENDING, attempts=attempts)


def _record_failure(email: OutboxEmail, error: Exception, now) -> str:
    text = describe(error)
    lost = answer_lost(error)
    if is_permanent(error) or email.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
        _record(email, status=OutboxEmail.Status.FAILED, last_error=text, uncertain=lost)
        log.error("email %s failed for good: %s", email.key, text)
        return "failed"
    fields = {
        "status": OutboxEmail.Status.PENDING,
        "last_error": text,
        "next_attempt_at": now + backoff(email.attempts),
        "uncertain": lost,
    }
    if not lost and email.seat_id is not None:
        fields["rendered_at"] = None  # not delivered: the retry tells the game as it is then
    _record(email, **fields)
    return "failed"


def describe(error: Exception) -> str:
    try:
        said = str(error)
    except Exception:  # an exception that cannot describe itself still gets recorded
        said = repr(getattr(error, "args", ()))
    return f"{type(error).__name__}: {said}"[:2000]


# Raised by anymail while it builds the request, before anything is sent.
BEFORE_SENDING = (
    AnymailConfigurationError,
    AnymailInvalidAddress,
    AnymailSerializationError,
    AnymailUnsupportedFeature,
)
# The connection was never made: nothing reached the ESP.
NEVER_CONNECTED = (ConnectionRefusedError, socket.gaierror, requests.exceptions.ConnectTimeout)


def answer_lost(error: Exception) -> bool:
    """Did the ESP perhaps take the message, its answer lost on the way back?

    Yes, unless the answer proves it did not: a gateway's 502/504, a TLS error or
    an exception while reading the answer can all come after the ESP queued it."""
    return not refused_before_taking(error)


def refused_before_taking(error: Exception) -> bool:
    """The ESP's own answer (or a connection never made) says it has not the message."""
    if isinstance(error, (AnymailRecipientsRefused, smtplib.SMTPRecipientsRefused)):
        return True
    if isinstance(error, smtplib.SMTPResponseException):
        # A reply code to a command or to the end of the data: not accepted (RFC 5321).
        return True
    if isinstance(error, AnymailAPIError):
        status = getattr(error, "status_code", None)
        if status is not None and 400 <= status < 500:
            return True  # the ESP read the request and refused it
    return isinstance(error, BEFORE_SENDING + NEVER_CONNECTED)


def is_permanent(error: Exception) -> bool:
    """The ESP refused this message for good (a bad address, a rejected request)."""
    if isinstance(error, (AnymailRecipientsRefused, smtplib.SMTPRecipientsRefused)):
        return True
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code >= 500
    status = getattr(error, "status_code", None)
    return status in PERMANENT_STATUS and status not in RETRYABLE_STATUS


def due(now=None, limit: int = 200) -> list:
    """Emails the sweep should send now: pending ones whose own task is late or
    whose retry is due, and rows a dead worker left ``sending``."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=SWEEP_GRACE_SECONDS)
    pending = Q(status=OutboxEmail.Status.PENDING) & (
        Q(next_attempt_at__lte=now) | Q(next_attempt_at=None, created_at__lte=grace)
    )
    abandoned = Q(status=OutboxEmail.Status.SENDING, sending_at__lte=now - SENDING_GRACE)
    return list(
        OutboxEmail.objects.filter(pending | abandoned)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
