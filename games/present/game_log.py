"""The game log as a seat reads it: events narrated for that seat (kept per
process, since an event never changes once written), newest first, a page at a
time for the whole log, and grouped by round as pages and emails tell it.
"""

import threading

from cachetools import LRUCache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engine
from games.words.narrate import Narrator

LOG_LINES = 40
LOG_PAGE_LINES = 100  # the whole log is read a page at a time: a page stays small


class _Narrated:
    """Log lines as a seat reads them, kept per process (a page shows dozens, and
    narrating them was a fifth of a page's cost). An event never changes once
    written, and its line depends only on the game, who reads it, in which
    language, and the players' names: all of them are in the key."""

    SIZE = 50_000  # lines, about 10 MB

    def __init__(self):
        self.lines = LRUCache(maxsize=self.SIZE)
        self.lock = threading.Lock()  # LRUCache is not thread-safe; gunicorn may run threads

    def narrator(self, game: tuple | None, names: list, seat: int | None, state):
        """event -> its line, for this seat of this game (``game``: its ``narration_cache_key``;
        None: nothing kept)."""
        narrator = Narrator.of_game(names, seat, state.config)

        def narrated(event) -> str:
            return narrator.line(engine.project_event(state, event, seat))

        if game is None:
            return narrated
        reader = (game, seat, get_language(), tuple(narrator.names))

        def narrated_line(event) -> str:
            key = (reader, event["seq"])
            with self.lock:
                text = self.lines.get(key)
            if text is None:
                text = narrated(event)
                with self.lock:
                    self.lines[key] = text
            return text

        return narrated_line


NARRATED = _Narrated()


def narration_cache_key(game) -> tuple:
    """A game, as kept lines name it: its id and its time of creation, since a
    database may give a deleted game's id again (SQLite does)."""
    return (game.pk, game.created_at)


def log_lines(
    state, events, names: list, seat: int, limit: int | None, game=None
) -> tuple[list, bool]:
    """Narrated log lines, newest first, from events given newest first, each with
    the round it belongs to (0: before the first round). Returns (lines, more)
    where ``more`` says whether older lines were left out. With ``game`` (a Game),
    lines narrated before are reused."""
    narrated = NARRATED.narrator(game and narration_cache_key(game), names, seat, state)
    lines = []
    current = state.round  # the newest events belong to the round in play
    for event in events:
        line_round = current
        if event["type"] == "round_started":  # older events belong to the round before
            line_round, current = event["round"], event["round"] - 1
        text = narrated(event)
        if not text:
            continue
        if limit is not None and len(lines) >= limit:
            return lines, True
        lines.append({"seq": event["seq"], "text": text, "round": line_round})
    return lines, False


def log_page(
    state, events, names: list, seat: int, first_round: int, game=None
) -> tuple[list, int | None]:
    """A page of the whole log, from events given oldest first, starting in round
    ``first_round``: up to LOG_PAGE_LINES narrated lines, newest first (as
    ``log_lines``), and the seq to continue after (None on the last page)."""
    narrated = NARRATED.narrator(game and narration_cache_key(game), names, seat, state)
    lines = []
    current = first_round
    for event in events:
        if event["type"] == "round_started":
            current = event["round"]
        text = narrated(event)
        if not text:
            continue
        if len(lines) == LOG_PAGE_LINES:
            return lines[::-1], lines[-1]["seq"]
        lines.append({"seq": event["seq"], "text": text, "round": current})
    return lines[::-1], None


def by_round(lines: list) -> list:
    """Log lines given newest first -> one group per round, in the order of play
    (the page's log and the emails tell the story the same way)."""
    groups: list = []
    for line in reversed(lines):
        if not groups or groups[-1]["round"] != line["round"]:
            number = line["round"]
            title = (
                _("Round %(number)s") % {"number": number}
                if number
                else _("Before the first round")
            )
            groups.append({"round": number, "title": title, "lines": []})
        groups[-1]["lines"].append(line)
    return groups
