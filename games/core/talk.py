"""The table's talk: what a seat may write, to whom, about what, when, and how fast;
a player's report of a message; the organizer's hiding of one and muting of a seat.
A message is for the whole table, or (if the game allows it) private to one other
seat; it may answer an offer or a declaration the writer can see (``quotable_in``).

Talk is plain text, kept as typed: line breaks are allowed (a few lines), other
control characters are refused as in names and promises (the database refuses
NUL; the pages drop bidi controls and isolate each line when they show it). The
system writes nothing into talk, so talk cannot reveal what a seat may not know.
Every refusal raises ServiceError and saves nothing.
"""

import re
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.core import notifications, pacing
from games.core.game_writes import ServiceError, locked_seat, retried_on_deadlock

# Who reads what: talk.visible_to, talk.unread and talk.with_unread, kept below the
# emails a message owes.
from games.core.talk_reads import (  # noqa: F401
    EMAIL_MESSAGES,
    PAGE,
    unread,
    visible_to,
    with_unread,
)
from games.models import Game, Seat, TalkMessage, TalkReport
from games.words.typed_text import has_control

MAX_TEXT = 1000  # characters
MAX_LINES = 10
MAX_REASON = 200
REF_LENGTH = 16  # TalkMessage.ref's longest
REF_CHARACTERS = re.compile(rf"[A-Za-z0-9_-]{{1,{REF_LENGTH}}}")  # secrets.token_urlsafe's
LINE_BREAKS = "\r\n"
QUOTE_KINDS = ("offer", "declaration")  # what a message may answer, as "offer-2"


class TooFast(ServiceError):
    """Refused by the pacing: ``retry_after`` seconds to wait."""

    def __init__(self, wait: int):
        super().__init__("too_fast", too_fast_message(wait))
        self.retry_after = wait


def bucket() -> pacing.Bucket:
    return pacing.Bucket(settings.TALK_BURST, settings.TALK_REFILL_SECONDS)


def clean_text(raw: str) -> str:
    """The message as it is kept (line breaks as \\n, no blank edges); ServiceError
    if it is not one talk may hold."""
    text = "\n".join(line.rstrip() for line in raw.replace("\r\n", "\n").split("\n")).strip()
    if has_control(raw, LINE_BREAKS) or any(_unstorable(c) for c in raw):
        raise ServiceError(
            "bad_text", _("A message may hold line breaks, but no other control characters.")
        )
    if not text:
        raise ServiceError("empty", _("Write something first: the message was empty."))
    if len(text) > MAX_TEXT:
        raise ServiceError(
            "too_long",
            _("A message can be at most %(count)s characters; yours has %(length)s.")
            % {"count": MAX_TEXT, "length": len(text)},
        )
    if text.count("\n") >= MAX_LINES:
        raise ServiceError(
            "too_many_lines",
            _("A message can be at most %(count)s lines.") % {"count": MAX_LINES},
        )
    return text


def _unstorable(char: str) -> bool:
    """A lone surrogate cannot be stored as UTF-8."""
    return "\ud800" <= char <= "\udfff"


def closed_reason(game: Game, phase_kind: str) -> str:
    """Why nobody may write now ("" when they may), for the page and the refusal."""
    if game.status != Game.Status.ACTIVE or phase_kind == "game_over":
        return _("The game is over: the table's talk is closed.")
    if game.talk == Game.Talk.OFF:
        return _("The organizer turned the table's talk off for this game.")
    if game.talk == Game.Talk.INSPECTION and phase_kind != "inspection":
        return _("The table talks during the inspection only, as the organizer set it.")
    return ""


def muted_reason(seat: Seat) -> str:
    if seat.talk_muted_at is not None:
        return _("The organizer muted your talk for the rest of this game.")
    return ""


@retried_on_deadlock
def post(
    seat: Seat,
    raw: str,
    now: datetime,
    to_index: int | None = None,
    about: str = "",
    seen: str = "",
) -> TalkMessage:
    """A message from ``seat``, as the game stands ``now``; ServiceError if refused.
    ``to_index``: the one seat that reads it (None: the whole table); ``about``: what
    it answers, as ``quotable_in`` names it ("" for nothing); ``seen``: the ref of the
    newest message the writer's page showed, marked read in the same commit (who
    answers has read what they answer). Nothing is written after that commit, so a
    request run again after a lost connection (games.web.middleware) finds its first
    run rolled back, not a message kept."""
    text = clean_text(raw)
    quote = read_about(about)
    with transaction.atomic():
        seat = locked_seat(seat)  # the game's row first, as moves and deadlines take it
        game = seat.game
        state = game.engine_state()
        kind = state.phase.kind if state.phase else ""
        reason = closed_reason(game, kind) or muted_reason(seat)
        if reason:
            raise ServiceError("closed", reason)
        to_seat = _reader(game, seat, to_index)
        quote = _answered(state, seat.index, quote)
        allowance = pacing.Allowance(
            seat.talk_tokens if seat.talk_counted_at else 0.0, seat.talk_counted_at
        )
        after, wait = pacing.take(allowance, now, bucket())
        if after is None:
            raise TooFast(wait)
        Seat.objects.filter(pk=seat.pk).update(talk_tokens=after.moves, talk_counted_at=after.at)
        message = TalkMessage.objects.create(
            game=game,
            seat=seat,
            to_seat=to_seat,
            text=text,
            quote_kind=quote[0] if quote else "",
            quote_ref=quote[1] if quote else None,
            round=state.round,
            phase_kind=kind,
            after_seq=state.seq,
            created_at=now,
        )
        notifications.record_talk(game, message, state)  # the readers' talk emails
        mark_read(seat, seen)
        return message


def read_target(raw: str) -> int | None:
    """The ``to`` field of the talk form: "" for the whole table, or a seat's index."""
    if raw == "":
        return None
    if raw.isascii() and raw.isdigit() and len(raw) <= 2:
        return int(raw)
    raise ServiceError("bad_to", _("Choose whom the message is for from the list."))


def read_about(raw: str) -> tuple[str, int] | None:
    """The ``about`` field: "" for nothing, else "offer-2" or "declaration-1"."""
    if raw == "":
        return None
    kind, _dash, ref = raw.partition("-")
    if kind in QUOTE_KINDS and ref.isascii() and ref.isdigit() and len(ref) <= 4:
        return kind, int(ref)
    raise ServiceError("bad_about", _("Choose what your message answers from the list."))


def quotable_in(view: dict) -> list[tuple[str, int]]:
    """What a seat's ``view`` lets it answer: each declaration on the table and each
    offer (or demand) of this inspection, as the "About" list names them."""
    declared = [("declaration", p["seat"]) for p in view["players"] if p.get("declaration")]
    offers = [("offer", o["id"]) for o in sorted(view.get("offers", []), key=lambda o: o["id"])]
    return declared + offers


def quote_kind(view: dict, kind: str, ref: int) -> str:
    """How a message answering ``kind`` ``ref`` keeps it: a demand (an offer the
    inspector made the merchant) as "demand", so that it is named so for good."""
    demands = {o["id"] for o in view.get("offers", []) if o["proposer"] != o["payer"]}
    return "demand" if kind == "offer" and ref in demands else kind


def _answered(state, index: int, quote):
    """``quote`` as kept, if seat ``index`` may answer it now; ServiceError if not."""
    if quote is None:
        return None
    view = engine.view_for(state, index)
    if quote not in quotable_in(view):
        raise ServiceError(
            "bad_about", _("What your message answers is not on the table now: choose it again.")
        )
    return quote_kind(view, *quote), quote[1]


def _reader(game: Game, seat: Seat, to_index: int | None) -> Seat | None:
    """A private message's reader (None: the whole table); ServiceError if refused."""
    if to_index is None:
        return None
    if not game.talk_private:
        raise ServiceError(
            "no_private",
            _(
                "This game's talk is open to the whole table: the organizer did not allow "
                "private messages."
            ),
        )
    reader = Seat.objects.filter(game=game, index=to_index).first()
    if reader is None or reader.pk == seat.pk:
        raise ServiceError("bad_to", _("A private message goes to one other player at this table."))
    return reader


def too_fast_message(wait: int) -> str:
    return ngettext(
        "Too many messages in a short time: this one was not posted. Try again in "
        "%(count)s second.",
        "Too many messages in a short time: this one was not posted. Try again in "
        "%(count)s seconds.",
        wait,
    ) % {"count": wait}


def report(message: TalkMessage, seat: Seat, now: datetime) -> bool:
    """``seat`` reports ``message`` to the organizer: True if it is new (a seat
    reports a message once; its own messages are not its to report)."""
    if message.seat_id == seat.pk or message.game_id != seat.game_id:
        raise ServiceError("not_reportable", _("You cannot report this message."))
    if not visible_to(seat).filter(pk=message.pk).exists():  # another pair's private one
        raise ServiceError("no_message", _("There is no such message at this table."))
    try:
        with transaction.atomic():
            TalkReport.objects.create(message=message, seat=seat, created_at=now)
    except IntegrityError:
        return False
    return True


def hide(message: TalkMessage, by_email: str, reason: str, now: datetime) -> None:
    """The organizer hides ``message``: it stays in the record with who and why."""
    reason = " ".join(reason.split())
    if has_control(reason) or any(_unstorable(c) for c in reason):
        raise ServiceError("bad_text", _("The reason holds characters it should not."))
    if len(reason) > MAX_REASON:
        raise ServiceError(
            "too_long",
            _("A reason can be at most %(count)s characters.") % {"count": MAX_REASON},
        )
    TalkMessage.objects.filter(pk=message.pk, hidden_at__isnull=True).update(
        hidden_at=now, hidden_by=by_email.lower(), hidden_reason=reason
    )


def mute(seat: Seat, by_email: str, now: datetime) -> None:
    """The organizer mutes ``seat``'s talk for the rest of the game."""
    Seat.objects.filter(pk=seat.pk, talk_muted_at__isnull=True).update(talk_muted_at=now)


def unmute(seat: Seat) -> None:
    """The organizer lets a muted seat talk again."""
    Seat.objects.filter(pk=seat.pk).update(talk_muted_at=None)


def set_policy(game: Game, talk: str) -> None:
    if talk not in Game.Talk.values:
        raise ServiceError("bad_policy", _("No such setting for the table's talk."))
    Game.objects.filter(pk=game.pk).update(talk=talk)
    game.talk = talk


def message_by_ref(seat: Seat, ref: str) -> TalkMessage | None:
    """The message ``seat`` may read whose ref is ``ref`` (any string: None if none
    is); another pair's private message is none, as one that never was."""
    if not is_ref(ref):
        return None
    return visible_to(seat).filter(ref=ref).first()


def is_ref(ref) -> bool:
    """Could ``ref`` name a message? (Anything else is looked up nowhere: a NUL byte
    is more than some databases will compare.)"""
    return isinstance(ref, str) and REF_CHARACTERS.fullmatch(ref) is not None


def mark_read(seat: Seat, upto_ref: str) -> None:
    """The player has read the messages up to the one named ``upto_ref`` on the page
    (a message it may read; anything else marks nothing)."""
    newest = message_by_ref(seat, upto_ref)
    if newest is not None:
        Seat.objects.filter(pk=seat.pk, talk_read_id__lt=newest.pk).update(talk_read_id=newest.pk)


def show_system_lines(seat: Seat, shown: bool) -> None:
    """Whether the seat's panel shows the game's own lines among the talk."""
    Seat.objects.filter(pk=seat.pk).update(talk_system_lines=shown)
    seat.talk_system_lines = shown


def page(
    seat: Seat, before: TalkMessage | None, newest: list | None = None
) -> tuple[list, TalkMessage | None]:
    """The newest PAGE messages ``seat`` may read (older than ``before``, if given),
    newest first, in one statement; and the message the next page starts below
    (None: no more). ``newest``: the newest PAGE + 1, read with the seat's page
    (selectors.seat_page), for the first page."""
    if before is None and newest is not None:
        rows = newest
    else:
        rows = visible_to(seat)
        if before is not None:
            rows = rows.filter(pk__lt=before.pk)
        rows = list(rows.order_by("-id")[: PAGE + 1])
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    return rows, rows[-1] if more else None
