"""The "Table talk" panel of a seat page, and the organizer's view of reported
messages. Messages are shown as written: each line isolated by the templates
(``user_text``), never made into links."""

from django.utils.translation import gettext as _

from games.core import talk
from games.present import clock
from games.present.presenters import PHASE_NAMES


def when_written(message, zone: str) -> dict:
    """ "Round 2 · Inspection" and the time in the reader's zone."""
    phase = str(PHASE_NAMES.get(message.phase_kind, message.phase_kind))
    where = _("Round %(round)s · %(phase)s") % {"round": message.round, "phase": phase}
    return {"where": where, "time": clock.deadline(message.created_at, zone)["short"]}


def lines(message) -> list:
    return message.text.split("\n")


def panel(game, seat, seats: list, phase_kind: str, before: int | None) -> dict:
    """What a seat's page shows of the talk: ``before`` is the id the older page
    starts below (``?talk_before=``)."""
    rows, older = talk.page(seat, game, before)
    names = {s.pk: s.name for s in seats}
    messages = [
        {
            "id": m.pk,
            "author": names.get(m.seat_id, ""),
            "mine": m.seat_id == seat.pk,
            "hidden": m.hidden_at is not None,
            "lines": [] if m.hidden_at is not None else lines(m),
            **when_written(m, seat.timezone),
        }
        for m in rows
    ]
    return {
        "messages": messages,
        "older": older,
        "paged": before is not None,
        "closed": talk.closed_reason(game, phase_kind),
        "muted": talk.muted_reason(seat),
        "max_text": talk.MAX_TEXT,
    }
