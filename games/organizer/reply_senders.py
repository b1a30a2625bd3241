"""Whose replies by email a seat takes, on the organizer's page: only its own
address's (the default), or any address's, for a player who writes from a second
one (work and home). Shown only while the site reads replies (INBOUND_DOMAIN) and
the game is in play, with a reply held lately from another address, so the
organizer sees why a player asks.

Like the talk's controls, the switch touches no game state: it needs the page's
version to be a whole number but does not refuse a page a move has overtaken, and
each button says what it wants (from anyone, or own address only), so a form sent
twice changes nothing more. A change goes into the game's admin history, where the
admin's own change of the same setting goes."""

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import replies
from games.models import Game, InboundMessage, Seat
from games.organizer.control_actions import NO_SUCH_SEAT, Outcome, whole_number
from games.present import clock

log = logging.getLogger(__name__)

ANYONE, OWN_ONLY = "replies_anyone", "replies_own"
ACTIONS = (ANYONE, OWN_ONLY)
# How long a held reply is worth telling the organizer about.
HELD_RECENT = timedelta(days=14)


def replies_read() -> bool:
    """Does the site read replies by email? (The emails say so the same way:
    games.mail.emails.reply_to_headers.)"""
    return bool(settings.INBOUND_DOMAIN)


def perform(game: Game, data, user, now=None) -> Outcome:
    """The switch ``data`` (a POST) asks for, made by the signed-in ``user``."""
    if whole_number(data.get("version")) is None:
        return Outcome(False, _("The form was incomplete; nothing was done."), 400)
    if not replies_read():
        return Outcome(False, _("This site does not read replies by email; nothing was done."), 409)
    if game.status != Game.Status.ACTIVE:
        return Outcome(False, _("This game is no longer in play; nothing was done."), 409)
    seat_id = whole_number(data.get("seat"))
    seat = Seat.objects.filter(game=game, pk=seat_id).first() if seat_id is not None else None
    if seat is None:
        return Outcome(False, str(NO_SUCH_SEAT), 400)
    anyone = data.get("action") == ANYONE
    with transaction.atomic():
        if replies.take_replies_from_anyone(seat, anyone):
            _record(game, seat, anyone, user)
    said = {"name": seat.name, "email": seat.email}
    if not anyone:
        text = _("%(name)s’s replies by email are now taken only from %(email)s.")
        return Outcome(True, text % said)
    text = _("%(name)s’s replies by email are now taken from any address.")
    if _held_at(seat, now or timezone.now()) is not None:
        text += " " + _("The reply held before was not used: %(name)s can send it again.")
    return Outcome(True, text % said)


def _record(game: Game, seat: Seat, anyone: bool, user) -> None:
    """In the game's admin history (in English, as the admin reads it) and the log."""
    taken = "from any address" if anyone else f"only from {seat.email}"
    message = f"On the organizer's page: {seat}'s replies by email taken {taken}."
    LogEntry.objects.log_actions(
        user_id=user.pk,
        queryset=[game],
        action_flag=CHANGE,
        change_message=message,
        single_object=True,
    )
    log.info("game %s: %s (by user %s)", game.pk, message, user.pk)


def section(game: Game, zone: str, now=None) -> dict | None:
    """Each seat's setting and its reply held lately, by seat id; None when the site
    reads no replies (the page then says nothing of them)."""
    if not replies_read():
        return None
    now = now or timezone.now()
    return {
        seat.pk: {"anyone": seat.reply_from_anyone, "held": _held(seat, zone, now)}
        for seat in game.seats.all()
    }


def _held_at(seat: Seat, now):
    """When a reply from another address was last held for ``seat``, if lately and
    still worth saying (a seat that takes any address holds no more)."""
    held_at = seat.reply_held_at
    if seat.reply_from_anyone or held_at is None or held_at < now - HELD_RECENT:
        return None
    return held_at


def _held(seat: Seat, zone: str, now) -> dict | None:
    """The reply held lately: when, in ``zone``, and from which address (as its
    From said), so the organizer can tell whether it is the player's."""
    held_at = _held_at(seat, now)
    if held_at is None:
        return None
    row = (
        InboundMessage.objects.filter(
            seat=seat, outcome=InboundMessage.Outcome.HELD_SENDER, received_at__lte=held_at
        )
        .order_by("-received_at")
        .first()
    )
    return {
        "when": clock.deadline(held_at, zone)["local"],
        "sender": row.from_address if row else "",
    }
