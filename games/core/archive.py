"""A finished game's archive: who may read it, its public address, and the rounds
its replay steps through.

The archive is its players' and its organizer's alone until one of the players
makes it public: then a random token names it, and anyone given that address may
read it. Made private again, the token is dropped, so the address shared before
stops working; the next time it is made public a new one is drawn.

Nothing of a game is told before its end: every read here answers None for a game
in play or cancelled, the same as for a game that does not exist, and the public
switch does nothing to it.
"""

import re
import secrets

from django.db import transaction

from games.core import after_game, selectors
from games.engine import reveal
from games.models import Game, Seat

# secrets.token_urlsafe(24): 32 characters of the URL-safe base64 alphabet. A token
# is checked against this before any query (a NUL byte is refused by PostgreSQL).
PUBLIC_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
MAX_ID = 2**31 - 1  # a larger number in an address names no game (and overflows SQLite)


def new_public_token() -> str:
    return secrets.token_urlsafe(24)


def is_finished(game: Game) -> bool:
    return game.status == Game.Status.FINISHED


def for_person(pk: int, email: str) -> tuple | None:
    """(game, seat) of the finished game ``pk`` if ``email`` holds a seat in it (in
    any case; ``seat`` is their first) or organizes it (``seat`` None); None for any
    other game, a game not finished, and a game that does not exist."""
    email = (email or "").strip()
    if not email or not 0 < pk <= MAX_ID:
        return None
    game = Game.objects.filter(pk=pk, status=Game.Status.FINISHED).first()
    if game is None:
        return None
    seat = Seat.objects.filter(game=game, email__iexact=email).order_by("index").first()
    if seat is not None:
        seat.game = game
        return game, seat
    if game.organizer_email.strip().lower() == email.lower():
        return game, None
    return None


def public_game(token: str) -> Game | None:
    """The finished game whose archive was made public under ``token``; None for any
    other token, whatever it holds."""
    if not PUBLIC_TOKEN.fullmatch(token or ""):
        return None
    return Game.objects.filter(archive_token=token, status=Game.Status.FINISHED).first()


def share(game_id: int, public: bool) -> Game | None:
    """Make the finished game's archive public (its token kept if it is already, so a
    form sent twice gives one address) or private (the token dropped: the address
    given out before stops working). The game as it now is; None, and nothing
    changed, for a game not finished."""
    with transaction.atomic():
        game = selectors.game_locked(game_id)
        if not is_finished(game):
            return None
        token = (game.archive_token or new_public_token()) if public else None
        if token != game.archive_token:
            Game.objects.filter(pk=game.pk).update(archive_token=token)
            game.archive_token = token
    return game


def rounds(game: Game, state) -> list | None:
    """The replay's steps, one a round, in order: {"number", "first", "last" (the
    seqs of its first and last events: from its round_started, the game's setup
    with the first round, to the next round's, the game's end with the last),
    "table" (reveal.round_ends: the table as the round left it)}; None while the
    game is played. Kept in the cache once worked out, as games.core.after_game
    keeps the reveal: a finished game's log never changes."""
    return after_game.from_the_log(game, state, "archive-rounds", _steps)


def _steps(events: list) -> list:
    starts = [e["seq"] for e in events if e["type"] == "round_started"]
    firsts = [0, *starts[1:]]
    lasts = [seq - 1 for seq in starts[1:]] + [events[-1]["seq"]]
    return [
        {"number": table["round"], "first": first, "last": last, "table": table}
        for table, first, last in zip(reveal.round_ends(events), firsts, lasts, strict=True)
    ]


def round_events(game: Game, step: dict) -> list:
    """The events (their data) of one step of the replay, newest first."""
    count = step["last"] - step["first"] + 1
    return selectors.events_between(game.pk, step["first"], step["last"] + 1, count)
