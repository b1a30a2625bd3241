"""The organizer's side of the table talk: the reported (and hidden) messages
with a few messages around each, and the controls to hide a message, mute a
seat's talk and set when the table may talk (games.core.talk does the writes).
A private message reaches the organizer only when its reader reports it: the
thread around a reported message holds public messages only, and the count too.

The controls post the page's version like the others, but do not refuse a page
a move has since overtaken: they touch no game state, and hiding a message
should not wait for a quiet table. Any bytes in a field give a message and
change nothing."""

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import talk
from games.core.game_writes import ServiceError
from games.models import Game, Seat, TalkMessage
from games.organizer.control_actions import Outcome, whole_number
from games.present.talk import lines, privately, when_written

AROUND = 2  # messages shown before and after a reported one
ACTIONS = ("talk_hide", "talk_mute", "talk_unmute", "talk_policy")


def perform(game: Game, data, by_email: str) -> Outcome:
    if whole_number(data.get("version")) is None:
        return Outcome(False, _("The form was incomplete; nothing was done."), 400)
    action = data.get("action", "")
    try:
        if action == "talk_hide":
            return _hide(game, data, by_email)
        if action in ("talk_mute", "talk_unmute"):
            return _mute(game, data, by_email, action == "talk_mute")
        return _policy(game, data)
    except ServiceError as error:
        return Outcome(False, _("%(error)s Nothing was done.") % {"error": error.message}, 400)


def _hide(game, data, by_email):
    ref = data.get("message", "")
    message = TalkMessage.objects.filter(game=game, ref=ref).first() if talk.is_ref(ref) else None
    if message is None:
        return Outcome(False, _("No such message at this table; nothing was done."), 400)
    talk.hide(message, by_email, data.get("reason", ""), timezone.now())
    return Outcome(True, _("The message is hidden from the players; it stays in the record."))


def _mute(game, data, by_email, muted: bool):
    seat_id = whole_number(data.get("seat"))
    seat = Seat.objects.filter(game=game, pk=seat_id).first() if seat_id is not None else None
    if seat is None:
        return Outcome(False, _("No such seat in this game; nothing was done."), 400)
    if muted:
        talk.mute(seat, by_email, timezone.now())
        text = _("%(name)s can no longer write in the table talk for the rest of this game.")
    else:
        talk.unmute(seat)
        text = _("%(name)s may write in the table talk again.")
    return Outcome(True, text % {"name": seat.name})


def _policy(game, data):
    talk.set_policy(game, data.get("talk", ""))
    return Outcome(
        True, _("The table talk is now: %(setting)s.") % {"setting": game.get_talk_display()}
    )


def section(game: Game, zone: str) -> dict:
    """What the page's "Table talk" section shows: each reported or hidden
    message with the messages around it, the muted seats and the setting."""
    names = {s.pk: s.name for s in game.seats.all()}
    flagged = list(
        TalkMessage.objects.filter(game=game)
        .annotate(report_count=Count("reports"))
        .filter(Q(report_count__gt=0) | Q(hidden_at__isnull=False, to_seat__isnull=True))
        .order_by("-id")
    )
    return {
        "flagged": [_flagged(game, m, names, zone) for m in flagged],
        "muted": [s for s in game.seats.all() if s.talk_muted_at is not None],
        "setting": game.talk,
        "settings": Game.Talk.choices,
        "count": _public(game).count(),
        "private": game.talk_private,
        "reveal": game.reveal_private,
    }


def _public(game: Game):
    return TalkMessage.objects.filter(game=game, to_seat__isnull=True)


def _flagged(game, message, names: dict, zone: str) -> dict:
    before = _public(game).filter(pk__lt=message.pk).order_by("-id")[:AROUND]
    after = _public(game).filter(pk__gt=message.pk).order_by("id")[:AROUND]
    thread = [*reversed(list(before)), message, *after]
    return {
        "message": _line(message, names, zone),
        "reports": message.report_count,
        "seat": message.seat_id,
        "thread": [{**_line(m, names, zone), "this": m.pk == message.pk} for m in thread],
    }


def _line(message, names: dict, zone: str) -> dict:
    """A message as the organizer reads it: hidden ones too, with who hid them and why."""
    hidden = None
    if message.hidden_at is not None:
        hidden = {"by": message.hidden_by, "reason": message.hidden_reason}
    return {
        "id": message.ref,
        "author": names.get(message.seat_id, ""),
        "privately": privately(message, None, names),
        "lines": lines(message),
        "hidden": hidden,
        **when_written(message, zone),
    }
