"""Which conversation a player's email belongs to, and the subject that says so.

A player scanning an inbox must tell "your move" from news without opening
anything, so each seat's emails run in three kinds of conversation:

- "Your move …: <game>, round 3": the emails that ask this seat for a move in
  that round (their turn, an offer or a demand to answer, a reminder);
- "News …: <game>, round 3": everything else that round (who moved, the round's end);
- "Game over: <game>" (or "Cancelled: <game>"): the last email.

After "Your move" or "News", a few words say what this email is (a reminder, a
demand, the loading, a pause...: ``SUBJECT_WORDS``), so that emails of one round
differ in the inbox list and two sent in the same second never look alike.

Every email of a conversation refers to the same root Message-ID, which depends on
the round and the kind of conversation only. Mail apps thread differently: Apple
Mail and Thunderbird follow References, so they keep one conversation per round and
kind, as before; Gmail and Outlook also need the subject to match, so they join the
emails of one round that say the same words (every reminder of round 3). A
conversation per round keeps each short (a round brings a seat a few emails of each
kind), where one per game grew past a hundred and buried the email that asked a
move under the news.
"""

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

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


# What an email is, in the subject after "Your move" or "News": by kind, and for an
# email that asks a move (a new phase, a Black Market claim), by what it asks.
DEMAND = "demand"  # an offer email that brings a demand its reader must answer
CLAIM = "claim"  # a merchant's Black Market claim, asked while the inspection goes on
SUBJECT_WORDS = {
    "start": pgettext_lazy("email subject", "the game begins"),
    "round_over": pgettext_lazy("email subject", "how the round went"),
    "reminder": pgettext_lazy("email subject", "reminder"),
    "offer": pgettext_lazy("email subject", "an offer"),
    DEMAND: pgettext_lazy("email subject", "a demand"),
    "deal": pgettext_lazy("email subject", "your offer accepted"),
    "demand_deal": pgettext_lazy("email subject", "your demand accepted"),
    "decide": pgettext_lazy("email subject", "decide the bags"),
    "welcome": pgettext_lazy("email subject", "welcome"),
    "resend": pgettext_lazy("email subject", "your link again"),
    "paused": pgettext_lazy("email subject", "game paused"),
    "resumed": pgettext_lazy("email subject", "game resumed"),
    "extended": pgettext_lazy("email subject", "deadline extended"),
    "paused_itself": pgettext_lazy("email subject", "paused for want of moves"),
    "digest": pgettext_lazy("email subject", "daily summary"),
    "talk": pgettext_lazy("email subject", "table talk"),
    "reply_done": pgettext_lazy("email subject", "your message posted"),
    "reply_moved": pgettext_lazy("email subject", "your move by reply made"),
    "reply_refused": pgettext_lazy("email subject", "reply not used"),
    "replaced": pgettext_lazy("email subject", "you were replaced"),
    # A new phase with a move to make, by the phase (neutral words: by the time it is
    # sent, the move may be made, and the email is news).
    "market": pgettext_lazy("email subject", "the market"),
    "market_turn": pgettext_lazy("email subject", "the market turn"),
    "load": pgettext_lazy("email subject", "the loading"),
    "inspection": pgettext_lazy("email subject", "the inspection"),
    "black_market": pgettext_lazy("email subject", "the Black Market"),
    CLAIM: pgettext_lazy("email subject", "a Black Market claim"),
}


def subject_words(kind: str, phase_kind: str = "", cause: str = "") -> str:
    """The words that tell this email from the others of its conversation: its
    kind's, or for a new phase ("your_move") what it asks, by the phase or the
    cause it was owed for."""
    if kind == "your_move":
        key = CLAIM if cause.startswith(CLAIM) else phase_kind
        return str(SUBJECT_WORDS.get(key, ""))
    return str(SUBJECT_WORDS.get(kind, ""))


def subject(game_name: str, stream_: str, round_: int, kind: str = "", what: str = "") -> str:
    """The subject of an email, in the active language: its conversation's, and
    ``what`` it is (``subject_words``)."""
    values = {"game": user_text.isolate(game_name), "round": round_, "what": what}
    if stream_ == MOVE and what:
        return _("Your move — %(what)s: %(game)s, round %(round)s") % values
    if stream_ == MOVE:
        return _("Your move: %(game)s, round %(round)s") % values
    if stream_ == NEWS and what:
        return _("News — %(what)s: %(game)s, round %(round)s") % values
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
