"""The "Table talk" panel of a seat page, and the organizer's view of reported
messages. Messages are shown as written: each line isolated by the templates
(``user_text``), never made into links. The words for a private message
("privately to Bob") and for what a message answers ("re: Offer #2") are here,
for the pages and the emails alike (names isolated: print them with ``|bdi``)."""

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.core import selectors, talk
from games.present import clock, game_log
from games.present.cards import declaration_text
from games.present.presenters import PHASE_NAMES
from games.words import user_text


def when_written(message, zone: str) -> dict:
    """ "Round 2 · Inspection" and the time in the reader's zone."""
    phase = str(PHASE_NAMES.get(message.phase_kind, message.phase_kind))
    where = _("Round %(round)s · %(phase)s") % {"round": message.round, "phase": phase}
    return {"where": where, "time": clock.deadline(message.created_at, zone)["short"]}


def lines(message) -> list:
    return message.text.split("\n")


EXCERPT = 40  # characters of a message that name it to a screen reader


def excerpt(text: str, length: int = EXCERPT) -> str:
    """The start of a message on one line, cut with "…" past ``length`` characters."""
    said = user_text.one_line(text)
    return said if len(said) <= length else said[: length - 1].rstrip() + "…"


def privately(message, reader_id, names: dict) -> str:
    """How a private message is marked for the seat ``reader_id`` (a Seat's pk; None:
    the organizer): "privately to Bob", "privately to you", or, revealed or reported,
    "privately from Alice to Bob". "" for a message to the whole table. ``names``:
    Seat pk -> name."""
    if message.to_seat_id is None:
        return ""
    isolated = {pk: user_text.isolate(name) for pk, name in names.items()}
    reader = isolated.get(message.to_seat_id, "")
    if message.to_seat_id == reader_id:
        return _("privately to you")
    if message.seat_id == reader_id:
        return _("privately to %(reader)s") % {"reader": reader}
    author = isolated.get(message.seat_id, "")
    return _("privately from %(author)s to %(reader)s") % {"author": author, "reader": reader}


def quoted(kind: str, ref, names: list) -> str:
    """What a message answers: "Offer #2", "Bob's declaration" (``names``: by seat
    index); "" for nothing."""
    if kind == "offer":
        return pgettext("what a message answers", "Offer #%(number)s") % {"number": ref}
    if kind == "demand":
        return pgettext("what a message answers", "Demand #%(number)s") % {"number": ref}
    if kind == "declaration" and ref is not None and ref < len(names):
        return _("%(name)s’s declaration") % {"name": user_text.isolate(names[ref])}
    return ""


def answers(message, names: list) -> str:
    """ "re: Offer #2" under a message, or ""."""
    what = quoted(message.quote_kind, message.quote_ref, names)
    return _("re: %(what)s") % {"what": what} if what else ""


def anchor(message) -> str:
    """What a message answers as the "About" list names it ("offer-2", a demand too),
    which is also the id of the offer's card and of the declaration's line on the
    page; "" for nothing."""
    if not message.quote_kind:
        return ""
    kind = "offer" if message.quote_kind == "demand" else message.quote_kind
    return f"{kind}-{message.quote_ref}"


def about_choices(view: dict, names: list) -> list[tuple[str, str]]:
    """The "About" list of the talk form: (value, label) for each thing the seat
    may answer now, e.g. ("declaration-1", "Bob's declaration: 3 Apples")."""
    choices = []
    for kind, ref in talk.quotable_in(view):
        label = quoted(talk.quote_kind(view, kind, ref), ref, names)
        if kind == "declaration":
            said = declaration_text(view["players"][ref]["declaration"])
            label = _("%(whose)s: %(declared)s") % {"whose": label, "declared": said}
        choices.append((f"{kind}-{ref}", capfirst(label)))
    return choices


def posted(message) -> str:
    """The success message once a message is said."""
    if message.to_seat_id is None:
        return _("Your message is on the table for everyone to read.")
    name = user_text.isolate(message.to_seat.name)
    return _("Your private message is sent: only %(name)s reads it.") % {"name": name}


def kept(chosen: dict) -> dict:
    """A refused form's "to" and "about", to choose again if they are still choices
    (anything else in them is shown as nothing chosen)."""
    return {name: value[:20] for name, value in chosen.items()}


def form_choices(game, seat, seats: list, view: dict, chosen: dict) -> dict:
    """The talk form's lists: whom to write to (when the game allows private
    messages) and what to answer; ``chosen``: the values to preselect."""
    about = about_choices(view, [s.name for s in seats])
    closed = talk.closed_reason(game, view["phase"]["kind"]) or talk.muted_reason(seat)
    readers = []
    if game.talk_private:
        readers = [(str(s.index), user_text.isolate(s.name)) for s in seats if s.pk != seat.pk]
    return {
        "readers": readers,
        "about": about,
        "quotable": [value for value, _label in about],
        # What the page's offers and declarations link to the form to answer.
        "answerable": [] if closed else [value for value, _label in about],
        "to_chosen": chosen.get("to", ""),
        "about_chosen": chosen.get("about", ""),
    }


def help_line(game) -> str:
    """The panel's first line: who reads what is said."""
    if not game.talk_private:
        return _(
            "Everyone at the table reads everything said here. Threats, pleas and bluffs "
            "welcome; deals are made with offers."
        )
    if game.reveal_private:
        return _(
            "Messages are for the whole table, or private to one player: then only the two "
            "of you read it, until the game ends and every private message is revealed."
        )
    return _(
        "Messages are for the whole table, or private to one player: then only the two of "
        "you read it, even after the game."
    )


def revealed_line(game) -> str:
    """On the final page of a game with private messages: are they revealed?"""
    if not game.talk_private or game.status != game.Status.FINISHED:
        return ""
    if game.reveal_private:
        return _("Now that the game is over, every private message is revealed to the whole table.")
    return _("The private messages stay private: each of you sees only your own.")


EMAIL_MESSAGES = talk.EMAIL_MESSAGES


def unread_for_email(seat, seats: list, rows: list | None = None) -> dict:
    """The talk ``seat`` has not read, for its email: the oldest EMAIL_MESSAGES, oldest
    first; how many more wait on the table; and the newest id told (0: none), which
    the seat's emails start after once this one is sent. ``rows``: unread_talk's,
    if read with the seat."""
    if rows is None:
        rows = selectors.unread_talk(seat)
    shown = rows[:EMAIL_MESSAGES]
    more = talk.unread(seat).count() - len(shown) if len(rows) > len(shown) else 0
    names = {s.pk: s.name for s in seats}
    by_index = [s.name for s in seats]
    messages = [
        {
            "author": names.get(m.seat_id, ""),
            # Another seat's private message is only ever read once the game reveals them.
            "private_to": None if m.to_seat_id is None else names.get(m.to_seat_id, ""),
            "to_me": m.to_seat_id == seat.pk,
            "answers": answers(m, by_index),
            "lines": lines(m),
            **when_written(m, seat.timezone),
        }
        for m in shown
    ]
    return {"messages": messages, "more": more, "told": shown[-1].pk if shown else 0}


REVEALED_IN_EMAIL = 30  # private messages the final email reveals; the rest on the final page


def revealed_for_email(game, seat, seats: list) -> dict | None:
    """A finished game's private messages, every pair's, for the final email when the
    game reveals them: the oldest REVEALED_IN_EMAIL and how many more there are.
    None when the game has none to reveal (or keeps them private)."""
    if not (game.talk_private and game.reveal_private and game.status == game.Status.FINISHED):
        return None
    private = talk.visible_to(seat).filter(to_seat__isnull=False, hidden_at__isnull=True)
    rows = list(private.order_by("id")[: REVEALED_IN_EMAIL + 1])
    if not rows:
        return None
    shown = rows[:REVEALED_IN_EMAIL]
    names = {s.pk: s.name for s in seats}
    return {
        "messages": [
            {
                "said": privately(m, seat.pk, names),
                "author": names.get(m.seat_id, ""),
                "lines": lines(m),
                **when_written(m, seat.timezone),
            }
            for m in shown
        ],
        "more": private.count() - len(shown) if len(rows) > len(shown) else 0,
    }


SYSTEM_LINES = 40  # the game's own lines the panel reads for a page of talk, at most
GAP_LINES = 6  # and shows between two messages, at most


def panel(game, seat, seats: list, state, before, newest: list | None = None) -> dict:
    """What a seat's page shows of the talk: ``before`` is the message the older
    page starts below (``?talk_before=`` names it by its ref; None: the newest);
    ``newest``: the newest messages, if read with the page (talk.page).
    Unread messages are marked new; reading the page marks nothing (the page's
    script, or a button, posts what was read)."""
    rows, older = talk.page(seat, before, newest)
    names = {s.pk: s.name for s in seats}
    since = max(seat.talk_read_id, seat.talk_mailed_id)
    phase_kind = state.phase.kind if state.phase else ""
    by_index = [s.name for s in seats]
    now = (state.round, phase_kind)
    messages = [
        {
            "id": m.ref,
            "author": names.get(m.seat_id, ""),
            "mine": m.seat_id == seat.pk,
            "new": m.pk > since and m.seat_id != seat.pk and m.hidden_at is None,
            "hidden": m.hidden_at is not None,
            "lines": [] if m.hidden_at is not None else lines(m),
            # Names the message to a screen reader (its Report button says which).
            "excerpt": "" if m.hidden_at is not None else excerpt(m.text),
            "after_seq": m.after_seq,
            "privately": privately(m, seat.pk, names),
            "answers": answers(m, by_index),
            # Its quote links to the offer or declaration if it is still on the page.
            "anchor": anchor(m) if (m.round, m.phase_kind) == now else "",
            **when_written(m, seat.timezone),
        }
        for m in rows
    ]
    unread = sum(m["new"] for m in messages) if before is None else None
    if before is None and len(rows) == talk.PAGE and rows[-1].pk > since:
        unread = talk.unread(seat).count()  # more than this page holds
    return {
        "help": help_line(game),
        "revealed": revealed_line(game),
        "messages": _among_system_lines(messages, game, seat, seats, state),
        "older": older.ref if older else "",
        "paged": before is not None,
        "unread": unread or 0,
        "newest": rows[0].ref if rows and before is None else "",
        "system_lines": seat.talk_system_lines,
        "closed": talk.closed_reason(game, phase_kind),
        "muted": talk.muted_reason(seat),
        "max_text": talk.MAX_TEXT,
    }


def _among_system_lines(messages: list, game, seat, seats, state) -> list:
    """The messages (newest first) with, if the reader wants them, the game's own
    lines told between them where they happened, as this seat may know them (the
    log's own narration): what a message answered comes just before it. At most
    GAP_LINES between two messages, the latest; none after the newest message
    (the log below tells what happened since)."""
    if not seat.talk_system_lines or len(messages) < 2:
        return messages
    first, last = messages[-1]["after_seq"], messages[0]["after_seq"]
    events = selectors.events_between(game.pk, first, last, SYSTEM_LINES)
    names = user_text.names(s.name for s in seats)
    narrated, _more = game_log.log_lines(state, events, names, seat.index, None, game=game)
    merged, pending = [messages[0]], list(narrated)
    for message in messages[1:]:
        gap = []
        while pending and pending[0]["seq"] >= message["after_seq"]:
            gap.append(pending.pop(0))
        merged += [{"system": True, "text": line["text"]} for line in gap[:GAP_LINES]]
        merged.append(message)
    return merged
