"""The log's lines for time running out, the organizer moving the game on, and
notes (the organizer's, and the game's own when it pauses itself)."""

from datetime import UTC, datetime

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.words.narration.narrator_base import NarratorBase
from games.words.narration.phrases import idle_for, listed
from games.words.user_text import isolate, one_line

# What the missed-move defaults did (docs/engine.md section 10), by phase and by who
# missed them (Narrator.forms): the organizer's "advance now" says it, where a passed
# deadline just says "timed out". "deputies": the inspection of a six-player game.
DEFAULT_MOVES = {
    "market": {
        "you": gettext_lazy("you set nothing aside (the default move)"),
        "one": gettext_lazy("%(who)s set nothing aside (the default move)"),
        "several": pgettext_lazy("several players", "%(who)s set nothing aside (the default move)"),
        "several_with_you": pgettext_lazy(
            "several players, you among them", "%(who)s set nothing aside (the default move)"
        ),
    },
    "market_turn": {
        "you": gettext_lazy("you set nothing aside and drew nothing (the default move)"),
        "one": gettext_lazy("%(who)s set nothing aside and drew nothing (the default move)"),
        "several": pgettext_lazy(
            "several players", "%(who)s set nothing aside and drew nothing (the default move)"
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "%(who)s set nothing aside and drew nothing (the default move)",
        ),
    },
    "load": {  # "whose": "Ben's, Cid's and Dee's"; with the reader, the others' only
        "you": gettext_lazy("your bag was loaded with the default move"),
        "one": gettext_lazy("%(who)s's bag was loaded with the default move"),
        "several": gettext_lazy("%(whose)s bags were loaded with the default move"),
        "several_with_you": gettext_lazy(
            "%(whose)s and your bags were loaded with the default move"
        ),
    },
    "inspection": {
        "you": gettext_lazy("the bags you had not decided pass unopened (the default move)"),
        "one": gettext_lazy("the bags %(who)s had not decided pass unopened (the default move)"),
        "several": pgettext_lazy(
            "several players", "the bags %(who)s had not decided pass unopened (the default move)"
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "the bags %(who)s had not decided pass unopened (the default move)",
        ),
    },
    "deputies": {
        "you": gettext_lazy("the calls you had not made count as “let pass” (the default move)"),
        "one": gettext_lazy(
            "the calls %(who)s had not made count as “let pass” (the default move)"
        ),
        "several": pgettext_lazy(
            "several players",
            "the calls %(who)s had not made count as “let pass” (the default move)",
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "the calls %(who)s had not made count as “let pass” (the default move)",
        ),
    },
    "black_market": {
        "you": gettext_lazy("you made no Black Market claim (the default move)"),
        "one": gettext_lazy("%(who)s made no Black Market claim (the default move)"),
        "several": pgettext_lazy(
            "several players", "%(who)s made no Black Market claim (the default move)"
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "%(who)s made no Black Market claim (the default move)",
        ),
    },
}
# The same, when a deadline passed, for the phases the 3-5 player games never had
# (theirs keep the plain "the default move was made").
DEADLINE_MOVES = {
    "deputies": gettext_lazy("the calls not made count as “let pass”"),
    "black_market": gettext_lazy("no Black Market claim"),
}

# The notes the service writes itself (games.core.timers and controls), by their code: each
# reader reads one in their own language from its params, never from its English
# ``text``, which the event keeps for the records.
PAUSED_ITSELF = "paused_itself"  # params: "phases" nobody moved in a row
SEAT_REPLACED = "seat_replaced"  # params: "new" and "old" (names), "seat" (from 1)
# The replacement's note in English, stored as the event's text beside its code.
REPLACED = "{new} takes over seat {seat} from {old}."
# The organizer's controls (games.core.controls): each stores its English text too.
GAME_PAUSED = "game_paused"
GAME_RESUMED = "game_resumed"
DEADLINE_EXTENDED = "deadline_extended"  # params: "until", the new deadline (ISO 8601, UTC)
GAME_CANCELLED = "game_cancelled"
LINK_RESENT = "link_resent"  # params: "name", the player's
# Said from their code alone (gettext_lazy: in the reader's language).
PLAIN_NOTES = {
    GAME_PAUSED: gettext_lazy("The game is paused."),
    GAME_RESUMED: gettext_lazy("The game resumes."),
    GAME_CANCELLED: gettext_lazy("The organizer cancelled the game."),
}


def coded_note(code: str, params: dict) -> str | None:
    """A note the service wrote, in the reader's language, from its code and params;
    None for a code this narration does not know."""
    if code == PAUSED_ITSELF:
        idle = idle_for(params["phases"])
        return _("The game paused itself: nobody moved for %(idle)s.") % {"idle": idle}
    if code == SEAT_REPLACED:
        return _("%(new)s takes over seat %(seat)s from %(old)s.") % {
            "new": isolate(params["new"]),
            "seat": params["seat"],
            "old": isolate(params["old"]),
        }
    if code in PLAIN_NOTES:
        return str(PLAIN_NOTES[code])
    if code == DEADLINE_EXTENDED:
        return _("The deadline is extended to %(when)s.") % {"when": utc_moment(params["until"])}
    if code == LINK_RESENT:
        name = isolate(params["name"])
        return _("The organizer sent %(name)s their link again.") % {"name": name}
    return None


def utc_moment(iso: str) -> str:
    """'Fri 27 Nov, 05:45 UTC' in the reader's language: a log line is the same for
    every reader, so in no one's zone."""
    when = datetime.fromisoformat(iso).astimezone(UTC)
    short = pgettext("a deadline, without its year", "D d M, H:i")
    return _("%(when)s UTC") % {"when": date_format(when, short)}


class NoteLines(NarratorBase):
    """Deadlines passed, the organizer's moves on, and notes."""

    def _default_kind(self, e) -> str:
        """The DEFAULT_MOVES row of a timed-out phase."""
        return "deputies" if e["phase"] == "inspection" and self.deputies else e["phase"]

    def _timed_out(self, e):
        if e.get("by") == "organizer":
            return self._moved_on_by_the_organizer(e)
        kind = self._default_kind(e)
        done = (
            str(DEADLINE_MOVES[kind]) if kind in DEADLINE_MOVES else _("the default move was made")
        )
        if e["seats"] == [self.viewer]:
            return _("Time ran out for you: %(done)s (timed out).") % {"done": done}
        who = [
            self.names[s] if s != self.viewer else pgettext("after a preposition", "you")
            for s in e["seats"]
        ]
        if len(who) > 1:  # "Ann, Ben, Cid": every player, in seat order
            text = pgettext("the last two of the players whose time ran out", "%(first)s, %(last)s")
            who = [text % {"first": ", ".join(who[:-1]), "last": who[-1]}]
        text = _("Time ran out for %(who)s: %(done)s (timed out).")
        return text % {"who": "".join(who), "done": done}

    def _moved_on_by_the_organizer(self, e):
        # "Ben's, Cid's and your bags": the reader comes last.
        seats = sorted(e["seats"], key=lambda seat: seat == self.viewer)
        if not seats:  # every move was in: nobody got a default
            return _("The organizer moved the game on.")
        others = [
            pgettext("a player's, before a noun", "%(name)s's") % {"name": self.names[s]}
            for s in seats
            if s != self.viewer
        ]
        whose = ", ".join(others) if self.viewer in seats else listed(others)
        done = self.forms(seats, DEFAULT_MOVES[self._default_kind(e)], whose=whose)
        return _("The organizer moved the game on: %(done)s.") % {"done": done}

    def _noted(self, e):
        # Old games hold notes written before notes carried a code: only their
        # English text, shown as it was stored.
        translated = coded_note(e["code"], e["params"]) if "code" in e else None
        if e.get("by") == "game":
            # A game note names players as they were stored: kept on one line.
            return translated or one_line(e["text"])
        return _("Organizer: %(note)s") % {"note": translated or isolate(e["text"])}
