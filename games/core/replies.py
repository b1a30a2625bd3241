"""Replies by email: a seat's emails say ``Reply-To: play+<key>@INBOUND_DOMAIN``,
and what a player writes above the quoted email is posted to the table talk in
the seat's name, by the same rules as the page (games.core.talk.post).

The defences, in order: an unknown key is recorded and nothing more; a message
seen before (by Message-ID) does nothing twice; automated mail (auto-replies,
bounces, lists) is recorded and never answered, so that no mail loop can start;
a reply from an address that is not the seat's is held, and its sender told
(unless the organizer allows the seat replies from anyone). Every answer that
says "not used" is paced: one an hour per seat at most, to it and to strangers
apart. Whatever the bytes, this never raises on bad input: each message leaves
one InboundMessage row (a duplicate none), and only a valid reply changes
anything else.

The new text is cut from the quoted email by games.words.reply_text. Pure
decisions (``reply_keys``, ``automated_reason``, ``talk_text``...) take
plain values, so they are tested without anymail (games.mail.inbound adapts its
messages to ``Received``).
"""

import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parseaddr

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import moves, notifications, talk
from games.core.game_writes import Outcome as MoveOutcome
from games.core.game_writes import ServiceError, locked_seat, retried_on_deadlock
from games.models import InboundMessage, OutboxEmail, Seat
from games.words import i18n, reply_text

log = logging.getLogger(__name__)

REPLY_KEY = re.compile(r"play\+([a-z0-9]{8,32})@", re.IGNORECASE)
# At most one "your reply was not used" an hour per seat (to it or to a stranger).
REFUSAL_PACE = timedelta(hours=1)
MAX_STORED_TEXT = 4000  # characters of a reply's new text kept for operators
MAX_MESSAGE_ID = 255
AUTOMATED_PRECEDENCE = {"bulk", "junk", "list"}
# Headers whose mere presence marks automated mail.
AUTOMATED_HEADERS = ("x-autoreply", "x-autorespond", "list-id", "list-unsubscribe")
# An optional prefix that says "this is talk" (the commands, later, need none).
SAY_PREFIX = re.compile(r"^\s*(say|di)\s*:\s*", re.IGNORECASE)

Outcome = InboundMessage.Outcome


@dataclass(frozen=True)
class Received:
    """An inbound email as this module reads it. ``envelope_sender``: the SMTP
    return path as the ESP gives it (None when it gives none, "" for ``<>``)."""

    esp: str = ""
    message_id: str = ""
    recipients: tuple = ()
    from_header: str = ""
    headers: tuple = ()  # (name, value) pairs, as received
    envelope_sender: str | None = None
    date: str = ""
    text: str = ""
    html: str = ""  # read only when the text part is empty


def reply_keys(recipients) -> list:
    """The reply keys of the ``play+<key>@`` addresses among the recipients, lowercased."""
    keys = []
    for recipient in recipients:
        for found in REPLY_KEY.findall(str(recipient or "")):
            if found.lower() not in keys:
                keys.append(found.lower())
    return keys


def automated_reason(headers, envelope_sender: str | None) -> str:
    """Why this mail is automated ("" when a person seems to have written it)."""
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return "empty return path"
    for name, value in headers:
        name, value = str(name).strip().lower(), str(value or "").strip().lower()
        if name == "auto-submitted" and value.split(";")[0].strip() not in ("no", ""):
            return f"Auto-Submitted: {value[:40]}"
        if name in AUTOMATED_HEADERS:
            return f"{name} present"
        if name == "precedence" and value in AUTOMATED_PRECEDENCE:
            return f"Precedence: {value}"
        if name == "return-path" and value in ("", "<>"):
            return "empty return path"
    return ""


def dedup_id(received: Received) -> str:
    """What makes a message the same one again: its Message-ID, or without one (or
    with one too long to keep) a hash of its sender, date and body."""
    message_id = _storable(received.message_id).strip()
    if message_id and len(message_id) <= MAX_MESSAGE_ID:
        return message_id
    basis = "\n".join([message_id, received.from_header, received.date, received.text])
    return "sha256:" + hashlib.sha256(basis.encode("utf-8", "replace")).hexdigest()


def talk_text(new: str) -> str:
    """The new text as talk: without a leading "say:" ("di:")."""
    return SAY_PREFIX.sub("", new, count=1).strip()


def sender_allowed(seat: Seat, from_header: str) -> bool:
    """The seat's own address, or anyone's if the organizer allows it for the seat."""
    address = parseaddr(from_header or "")[1].strip().lower()
    return seat.reply_from_anyone or (bool(address) and address == seat.email.strip().lower())


def take_replies_from_anyone(seat: Seat, anyone: bool) -> bool:
    """The organizer's choice for ``seat``: its replies taken from any address, or
    from its own only. True if that changed it (a form sent twice changes nothing)."""
    changed = Seat.objects.filter(pk=seat.pk).exclude(reply_from_anyone=anyone)
    return bool(changed.update(reply_from_anyone=anyone))


@dataclass(frozen=True)
class ReplyMove:
    """A move a reply's first line asks for: the engine command, and what the seat
    is told once it is made (from its outcome, as the page tells it)."""

    command: dict
    told: Callable[[MoveOutcome], str]


@retried_on_deadlock
def handle(received: Received, now: datetime | None = None, read_move=None) -> str:
    """Do what an inbound email asks, at most once; returns its outcome. Never raises
    on bad input (a failure of our own, like the database being down, still does,
    so that the ESP tries again; a deadlock's victim is run again here, and a request
    whose connection was lost by games.web.middleware). ``read_move(seat, text)``: the
    ReplyMove the new text asks for, None if it is talk, ServiceError if it cannot be
    one (the layer that reads commands passes it; without it every reply is talk)."""
    now = now or timezone.now()
    message_id = dedup_id(received)
    if InboundMessage.objects.filter(message_id=message_id).exists():
        return Outcome.DUPLICATE
    try:
        with transaction.atomic():
            return _handle(received, message_id, now, read_move)
    except IntegrityError:
        if InboundMessage.objects.filter(message_id=message_id).exists():
            return Outcome.DUPLICATE  # the same message, handled meanwhile by another request
        raise


def _handle(received: Received, message_id: str, now: datetime, read_move) -> str:
    keys = reply_keys(received.recipients)
    seat = Seat.objects.filter(reply_key__in=keys).first()
    if seat is not None:  # locked as talk and moves lock it: its game's row first
        seat = locked_seat(seat)
    sender = parseaddr(_storable(received.from_header))[1]
    row = InboundMessage.objects.create(
        message_id=message_id,
        esp=_storable(received.esp)[:30],
        received_at=now,
        seat=seat,
        from_address=_storable(sender)[:254],
        outcome=Outcome.UNKNOWN_KEY,
    )
    if seat is None:
        return _done(row, Outcome.UNKNOWN_KEY, f"keys: {', '.join(keys)[:250] or 'none'}")
    automated = automated_reason(received.headers, received.envelope_sender)
    if not automated and not _answerable(sender):
        automated = "from our own address"  # our own email come back: never answered
    if automated:
        return _done(row, Outcome.IGNORED_AUTOMATED, automated)
    if not sender_allowed(seat, received.from_header):
        if "@" in sender and _may_answer(seat, now, "reply_held_at"):
            notifications.record_reply_held(seat, sender, row.pk)
            return _done(row, Outcome.HELD_SENDER, "not the seat's address; sender told")
        why = "paced" if "@" in sender else "no address to tell"
        return _done(row, Outcome.HELD_SENDER, f"not the seat's address; not told ({why})")
    new = reply_text.new_text(_storable(received.text), _storable(received.html))
    text = talk_text(new)
    row.text = new[:MAX_STORED_TEXT]
    with i18n.as_seat(seat):
        try:
            move = read_move(seat, new) if read_move is not None and new else None
        except ServiceError as refusal:
            return _refused(row, seat, now, refusal.code, str(refusal.message))
        if move is not None:
            return _move(row, seat, move, received, now)
        if not text:
            reason = _("Your reply had no new text above the quoted email: nothing was posted.")
            return _refused(row, seat, now, "nothing to read", reason)
        try:
            talk.post(seat, text, now)
        except ServiceError as refusal:
            return _refused(row, seat, now, refusal.code, str(refusal.message))
    notifications.record_reply_answer(seat, notifications.REPLY_DONE, row.pk)
    return _done(row, Outcome.TALK_POSTED, "")


def _move(row: InboundMessage, seat: Seat, move: ReplyMove, received: Received, now) -> str:
    """A move by reply, the page's way: judged against the phase of the email it
    answers (a reply to an email of an earlier phase is stale, as an old page is)."""
    answered = answered_email(seat, received.headers)
    if answered is None or notifications.PHASE_SINCE not in answered.params:
        reason = _(
            "A move by reply must answer one of this game's emails to you: reply to the "
            "latest one. Nothing was done."
        )
        return _refused(row, seat, now, "no_email_answered", reason)
    since = answered.params[notifications.PHASE_SINCE]
    key = f"reply:{row.message_id}"[:120]
    outcome = moves.submit(seat, move.command, version=since, key=key, now=now)
    if not outcome.accepted:
        reason = outcome.message
        if outcome.code == "stale_page":
            reason = _(
                "The game moved on since the email you answered: nothing was done. "
                "Here is the table as it is now."
            )
        return _refused(row, seat, now, outcome.code, reason)
    notifications.record_reply_answer(seat, notifications.REPLY_MOVED, row.pk, move.told(outcome))
    return _done(row, Outcome.MOVE_MADE, move.command["type"])


# Our emails' Message-IDs: <thread token.g<game>.s<seat>.<cause>@domain> (games.mail.threads).
_OUR_ID = re.compile(r"<([^<>@\s]+)@[^<>\s]*>")


def answered_email(seat: Seat, headers) -> OutboxEmail | None:
    """The seat's email a reply answers, from its In-Reply-To and References (the
    newest of ours they name); None if they name none of this seat's."""
    keys = []
    for name, value in headers:
        if str(name).strip().lower() not in ("in-reply-to", "references"):
            continue
        for local in _OUR_ID.findall(str(value or "")):
            token, _dot, rest = local.partition(".")
            parts = rest.split(".", 2)
            if token == seat.game.thread_token and len(parts) == 3:
                keys.append(":".join(parts))
    if not keys:
        return None
    sent = OutboxEmail.objects.filter(seat=seat, key__in=keys[:50])
    return sent.order_by("-pk").first()


def _refused(row: InboundMessage, seat: Seat, now: datetime, code: str, reason: str) -> str:
    """Nothing posted: the seat is told why, unless it was told of a refusal within the hour."""
    told = _may_answer(seat, now, "reply_refused_at")
    if told:
        notifications.record_reply_answer(seat, notifications.REPLY_REFUSED, row.pk, reason)
    return _done(row, Outcome.REFUSED, f"{code}; {'told' if told else 'not told (paced)'}")


def _may_answer(seat: Seat, now: datetime, last: str) -> bool:
    """Take the hour's one "not used" answer of a kind (the seat's timestamp field
    ``last``), compare-and-set."""
    due = Q(**{f"{last}__isnull": True}) | Q(**{f"{last}__lte": now - REFUSAL_PACE})
    return bool(Seat.objects.filter(due, pk=seat.pk).update(**{last: now}))


def _answerable(address: str) -> bool:
    """Not one of our own addresses (the reply domain, the site's sender): mail
    from ours is our own come back, and answering it could start a loop. (An empty
    or odd From passes here: the seat's address check holds it, untold.)"""
    address = address.strip().lower()
    domain = settings.INBOUND_DOMAIN.lower()
    ours = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower()
    return not address or not ((domain and address.endswith("@" + domain)) or address == ours)


def _done(row: InboundMessage, outcome: str, detail: str) -> str:
    row.outcome, row.detail = outcome, _storable(detail)[:300]
    row.save(update_fields=["outcome", "detail", "text"])
    log.info("inbound %s: %s (%s)", row.pk, outcome, row.detail)
    return outcome


def _storable(value) -> str:
    """Text any database keeps: no NUL, no lone surrogate."""
    text = value if isinstance(value, str) else str(value or "")
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "")
