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


EMAIL_MESSAGES = 20  # unread messages an email shows; the rest wait on the table


def unread_for_email(game, seat, seats: list) -> dict:
    """The talk ``seat`` has not read, for its email: the oldest EMAIL_MESSAGES, oldest
    first; how many more wait on the table; and the newest id told (0: none), which
    the seat's emails start after once this one is sent."""
    unread = talk.unread(seat, game).order_by("id")
    rows = list(unread[: EMAIL_MESSAGES + 1])
    shown = rows[:EMAIL_MESSAGES]
    more = unread.count() - len(shown) if len(rows) > len(shown) else 0
    names = {s.pk: s.name for s in seats}
    messages = [
        {
            "author": names.get(m.seat_id, ""),
            # Another seat's private message is only ever read once the game reveals them.
            "private_to": None if m.to_seat_id is None else names.get(m.to_seat_id, ""),
            "to_me": m.to_seat_id == seat.pk,
            "lines": lines(m),
            **when_written(m, seat.timezone),
        }
        for m in shown
    ]
    return {"messages": messages, "more": more, "told": shown[-1].pk if shown else 0}


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
