"""Which conversation a player's email belongs to, and the subject that says so.

A player scanning an inbox must tell "your move" from news without opening
anything, so each seat's emails run in three kinds of conversation:

- "Your move: <game>, round 3": the emails that ask this seat for a move in that
  round (their turn, an offer or a demand to answer, a reminder);
- "News: <game>, round 3": everything else that round (who moved, the round's end);
- "Game over: <game>" (or "Cancelled: <game>"): the last email.

One subject per conversation, and every email of a conversation refers to the
same root Message-ID. Mail apps thread differently: Gmail joins emails only when
their subjects match (a changed subject starts a new conversation) and they
refer to each other; Apple Mail follows References; Outlook groups by subject.
With exactly one subject per root, all three show the same conversations. A
conversation per round keeps each short (a round brings a seat a few emails of
each kind), where one per game grew past a hundred and buried the email that
asked a move under the news.
"""

from django.conf import settings
from django.utils.translation import gettext as _

from games.words import user_text

MOVE, NEWS, END = "move", "news", "end"
ENDS = ("game_over", "cancelled")
# Emails that ask nothing even when the seat is awaited: the table's talk.
ONLY_NEWS = ("talk",)
# RFC 3834: every email here is sent by the site itself (no auto-replies to it).
AUTOMATIC = {"Auto-Submitted": "auto-generated"}


def stream(kind: str, asks_a_move: bool) -> str:
    """The kind of conversation of an email ``kind``; ``asks_a_move``: the seat is
    awaited and the game runs (a paused or cancelled game asks nothing)."""
    if kind in ENDS:
        return END
    if kind in ONLY_NEWS:
        return NEWS
    return MOVE if asks_a_move else NEWS


def subject(game_name: str, stream_: str, round_: int, kind: str = "") -> str:
    """The subject of a conversation, in the active language."""
    values = {"game": user_text.isolate(game_name), "round": round_}
    if stream_ == MOVE:
        return _("Your move: %(game)s, round %(round)s") % values
    if stream_ == NEWS:
        return _("News: %(game)s, round %(round)s") % values
    if kind == "cancelled":
        return _("Cancelled: %(game)s") % values
    return _("Game over: %(game)s") % values


def domain() -> str:
    sender = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ")
    return sender or "localhost"


def headers(token: str, seat_index: int, key: str, stream_: str, round_: int) -> dict:
    """Message-ID per email (from its key: sent again, it keeps its id); In-Reply-To
    and References name the conversation's root, which is never sent itself. The
    game's token is in every id (the dev mailbox finds a game's emails by it)."""
    where = "end" if stream_ == END else f"r{round_}.{stream_}"
    root = f"<{token}.s{seat_index}.{where}@{domain()}>"
    message_id = f"<{token}.{key.replace(':', '.')}@{domain()}>"
    return {"Message-ID": message_id, "In-Reply-To": root, "References": root, **AUTOMATIC}
