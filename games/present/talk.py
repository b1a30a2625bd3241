"""The "Table talk" panel of a seat page, and the organizer's view of reported
messages. Messages are shown as written: each line isolated by the templates
(``user_text``), never made into links."""

from django.utils.translation import gettext as _

from games.core import selectors, talk
from games.present import clock, game_log
from games.present.presenters import PHASE_NAMES
from games.words import user_text


def when_written(message, zone: str) -> dict:
    """ "Round 2 · Inspection" and the time in the reader's zone."""
    phase = str(PHASE_NAMES.get(message.phase_kind, message.phase_kind))
    where = _("Round %(round)s · %(phase)s") % {"round": message.round, "phase": phase}
    return {"where": where, "time": clock.deadline(message.created_at, zone)["short"]}


def lines(message) -> list:
    return message.text.split("\n")


EMAIL_MESSAGES = 20  # unread messages an email shows; the rest wait on the table


def unread_for_email(seat, seats: list) -> dict:
    """The talk ``seat`` has not read, for its email: the oldest EMAIL_MESSAGES, oldest
    first; how many more wait on the table; and the newest id told (0: none), which
    the seat's emails start after once this one is sent."""
    unread = talk.unread(seat).order_by("id")
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


SYSTEM_LINES = 40  # the game's own lines the panel shows among a page of talk, at most


def panel(game, seat, seats: list, state, before: int | None) -> dict:
    """What a seat's page shows of the talk: ``before`` is the id the older page
    starts below (``?talk_before=``). Unread messages are marked new; reading the
    page marks nothing (the page's script, or a button, posts what was read)."""
    rows, older = talk.page(seat, before)
    names = {s.pk: s.name for s in seats}
    since = max(seat.talk_read_id, seat.talk_mailed_id)
    phase_kind = state.phase.kind if state.phase else ""
    messages = [
        {
            "id": m.pk,
            "author": names.get(m.seat_id, ""),
            "mine": m.seat_id == seat.pk,
            "new": m.pk > since and m.seat_id != seat.pk and m.hidden_at is None,
            "hidden": m.hidden_at is not None,
            "lines": [] if m.hidden_at is not None else lines(m),
            "after_seq": m.after_seq,
            **when_written(m, seat.timezone),
        }
        for m in rows
    ]
    unread = sum(m["new"] for m in messages) if before is None else None
    if before is None and len(rows) == talk.PAGE and rows[-1].pk > since:
        unread = talk.unread(seat).count()  # more than this page holds
    return {
        "messages": _among_system_lines(messages, game, seat, seats, state, before),
        "older": older,
        "paged": before is not None,
        "unread": unread or 0,
        "newest": rows[0].pk if rows and before is None else 0,
        "system_lines": seat.talk_system_lines,
        "closed": talk.closed_reason(game, phase_kind),
        "muted": talk.muted_reason(seat),
        "max_text": talk.MAX_TEXT,
    }


def _among_system_lines(messages: list, game, seat, seats, state, before) -> list:
    """The messages (newest first) with, if the reader wants them, the game's own
    lines told among them where they happened, as this seat may know them (the
    log's own narration): from the oldest message shown on."""
    if not seat.talk_system_lines or not messages:
        return messages
    until = None if before is None else messages[0]["after_seq"]
    events = selectors.events_between(game.pk, messages[-1]["after_seq"], until, SYSTEM_LINES)
    names = user_text.names(s.name for s in seats)
    narrated, _more = game_log.log_lines(state, events, names, seat.index, None, game=game)
    told = [{"system": True, "text": line["text"], "seq": line["seq"]} for line in narrated]
    merged, pending = [], list(told)
    for message in messages:
        while pending and pending[0]["seq"] >= message["after_seq"]:
            merged.append(pending.pop(0))
        merged.append(message)
    return merged
