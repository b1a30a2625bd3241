"""Signed links: one per seat, carrying the seat and its link version.

Rotating a seat's ``link_version`` revokes every link sent before, and its reply
address with them (``rotated_secrets``). Links stop working some days after the
game ends (LINK_VALID_DAYS_AFTER_END).
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.core import selectors
from games.models import Game, Seat, new_reply_key

SEAT_LINK_SALT = "sheriff_pbem.links.seat"


class LinkError(Exception):
    """A link that cannot be seat_if_link_current. ``status`` is the HTTP status to answer;
    ``title`` and ``message`` are lazy: they read in the language active when the
    page is rendered (no seat is known then: the browser's)."""

    def __init__(self, status: int, title: str, message: str, archive: bool = False):
        super().__init__(message)
        self.status = status
        self.title = title
        self.message = message
        self.archive = archive  # the link still opens the finished game's archive


def rotated_secrets() -> dict:
    """The seat's fields that revoke what was sent to it before, as a queryset's
    ``update`` takes them: every link, and the reply address (games.core.replies)."""
    return {"link_version": F("link_version") + 1, "reply_key": new_reply_key()}


def make_token(seat: Seat) -> str:
    return signing.dumps(
        {"g": seat.game_id, "s": seat.pk, "v": seat.link_version}, salt=SEAT_LINK_SALT
    )


def seat_path(seat: Seat) -> str:
    """The seat's page on this site, without the site's address."""
    return reverse("games:seat", args=[make_token(seat)])


def seat_url(seat: Seat) -> str:
    return settings.SITE_URL + seat_path(seat)


def settings_url(seat: Seat) -> str:
    """The seat's settings page (games/web/seat_settings.py)."""
    return settings.SITE_URL + reverse("games:settings", args=[make_token(seat)])


def unsubscribe_url(seat: Seat) -> str:
    """Where a mail app's one-click unsubscribe posts (RFC 8058)."""
    return settings.SITE_URL + reverse("games:unsubscribe", args=[make_token(seat)])


def organize_url(game: Game) -> str:
    """The organizer's own page for the game (games.organizer.page): it asks them to
    sign in with the game's organizer address."""
    return settings.SITE_URL + reverse("games:organize", args=[game.pk])


def admin_url(game: Game) -> str:
    """The game's page in the admin (it asks for a staff login), on the admin's own
    host when it has one: where the site's operators change a game's settings."""
    base = settings.ADMIN_SITE_URL or settings.SITE_URL
    return base + reverse("admin:games_game_change", args=[game.pk])


NOT_VALID = (_("This link is not valid"), _("Please use the latest link from your email."))


@dataclass(frozen=True)
class Token:
    """What a seat's link says: its game, its seat, and the seat's link version."""

    game: int
    seat: int
    version: int


def read(token: str) -> Token:
    """The signed token's contents, or LinkError (never saying what a bad token
    might have named)."""
    try:
        data = signing.loads(token, salt=SEAT_LINK_SALT)
        return Token(int(data["g"]), int(data["s"]), int(data["v"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise LinkError(403, *NOT_VALID) from None


def resolve(token: str) -> Seat:
    """The seat a token stands for, or LinkError."""
    link = read(token)
    # With it, whether the game's record was ever opened (shown on every page):
    # almost never, so the page reads the openings only when there are some.
    return seat_if_link_current(selectors.seat_with_game(link.seat, link.game), link.version)


def resolve_at_table(token: str) -> tuple:
    """What a move reads before it takes the game's lock: the seat a token
    stands for (or LinkError), its game's state left unread (the move reads it
    again under the lock), and the game's seats in seat order, in one statement."""
    link = read(token)
    seat, seats = selectors.seat_at_table(link.seat, link.game)
    return seat_if_link_current(seat, link.version), seats


def resolve_for_archive(token: str) -> Seat:
    """The seat a token stands for, or LinkError, even once the game's links have
    stopped working after its end: a finished game's archive is kept for good, and
    an old email's link still opens it (games.web.archive). A link a replaced
    player held opens nothing."""
    link = read(token)
    return _seat_of_link(selectors.seat_with_game(link.seat, link.game), link.version)


def _seat_of_link(seat: Seat | None, version: int) -> Seat:
    if seat is None:
        raise LinkError(403, *NOT_VALID)
    if version != seat.link_version:
        # Only the organizer's "replace a player" rotates a seat's links.
        raise LinkError(
            410,
            _("This seat has been given to another player"),
            _(
                "The organizer of this game replaced the player at this seat, so this link "
                "no longer works. If you think this is a mistake, ask the organizer."
            ),
        )
    return seat


def links_work(game: Game, now=None) -> bool:
    """Do the game's seat links still open its pages? Until some days after its end
    (a cancelled game stays readable, its page says so, as long as a finished one)."""
    if game.finished_at is None:
        return True
    valid_until = game.finished_at + timedelta(days=settings.LINK_VALID_DAYS_AFTER_END)
    return (now or timezone.now()) <= valid_until


def archive_path(seat: Seat) -> str:
    """The seat's way into its finished game's archive (games.web.archive)."""
    return reverse("games:seat-archive", args=[make_token(seat)])


def seat_if_link_current(seat: Seat | None, version: int) -> Seat:
    """``seat``, read for a token of link ``version``, if the link still works;
    otherwise LinkError."""
    seat = _seat_of_link(seat, version)
    game = seat.game
    if not links_work(game):
        raise LinkError(
            410,
            _("This game is over"),
            _("Links stop working some days after the end."),
            archive=game.status == Game.Status.FINISHED,
        )
    return seat
