"""A game's full record: its seed, its events as stored, its emails as sent and
the moves as received. Together they tell every hand, every closed bag and the
deck's order, so while the game runs the admin shows none of them: in friend
groups the organizer usually plays too.

- Once the game is over (finished or cancelled), the record is open to every
  organizer: that is when they check the fairness fingerprint against the seed
  and settle a dispute.
- While it runs, a superuser may open it for a stated reason (support, a
  dispute): ``open_record`` stores who, when and why (a ``RecordOpening``), adds
  a line to the game's admin history and to the log, and every player's page
  says so from then on. The record is then open to that superuser only, for
  ``OPEN_FOR`` (an hour) rather than for a single page: it spans the game's
  page, its events and its emails, which a dispute needs side by side. After
  the hour, looking again is a new opening, with its own reason, that the
  players see too.

Seat links stay out even of the open record (``email_text``): whoever holds one
plays that seat.
"""

import json
import logging
from datetime import timedelta

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone

from games.models import Game, RecordOpening
from games.words.typed_text import unfit_for_a_name
from sheriff_pbem.security import redact

log = logging.getLogger(__name__)

OPEN_FOR = timedelta(hours=1)
MAX_REASON = 200


def is_over(game: Game) -> bool:
    return game.status != Game.Status.ACTIVE


def open_until(game: Game, user, now=None):
    """Until when ``user`` has the record of the running ``game`` open, or None."""
    if not getattr(user, "is_superuser", False):
        return None
    now = now or timezone.now()
    last = (
        RecordOpening.objects.filter(game=game, user=user, opened_at__gt=now - OPEN_FOR)
        .order_by("-opened_at")
        .first()
    )
    return last.opened_at + OPEN_FOR if last else None


def is_open(game: Game, user, now=None) -> bool:
    """May ``user`` read the full record of ``game`` now?"""
    return is_over(game) or open_until(game, user, now) is not None


def check_reason(raw: str) -> str:
    """The reason for opening a record, as the players will read it; ValueError if
    it cannot be one."""
    reason = (raw or "").strip()
    if not reason:
        raise ValueError("Say why you open the record: the players will read it.")
    if len(reason) > MAX_REASON:
        raise ValueError(f"The reason can be at most {MAX_REASON} characters.")
    if unfit_for_a_name(reason):
        raise ValueError(
            "The reason must be one line of plain text, without line breaks or control characters."
        )
    return reason


def open_record(game: Game, user, reason: str, now=None) -> RecordOpening:
    """Opens the running ``game``'s record to the superuser ``user``, and says so:
    a RecordOpening (on every player's page), the admin history, the log."""
    if not getattr(user, "is_superuser", False):
        raise PermissionError("Only a superuser can open the full record of a game in play.")
    reason = check_reason(reason)
    with transaction.atomic():
        opening = RecordOpening.objects.create(
            game=game,
            user=user,
            username=user.get_username(),
            reason=reason,
            opened_at=now or timezone.now(),
        )
        LogEntry.objects.log_actions(
            user_id=user.pk,
            queryset=[game],
            action_flag=CHANGE,
            change_message=f"Opened the full record while the game is in play. Reason: {reason}",
            single_object=True,
        )
    log.warning(
        "full record of game %s opened by %s (opening %s), reason: %r",
        game.pk,
        opening.username,
        opening.pk,
        reason,
    )
    return opening


def pretty_json(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True)


def email_text(text: str) -> str:
    """An email's text part with its seat link taken out."""
    return redact(text)
