"""What an open page polls for (games.web.live): a fingerprint of everything on
that page which someone else can change, read in one statement and sent as an
ETag. The page's script asks "still this?" every few seconds; an unchanged page
costs the site one indexed read and a 304, and a changed one is read again whole,
as the reader's own GET would read it, so an update never carries more than the
page shows.

A fingerprint is built only from what its reader may see: a seat's counts the
table talk that seat may read (``talk_reads``), never a private line between two
others; the game's version moves with every accepted move, and every move is
shown to every seat (who is still awaited, the log), so a poll tells nothing a
reload would not.

Each fingerprint's statement is written by the ORM once per database and kept
prepared (``compiled.CompiledRows``): compiling the queryset, and planning it, cost
more than running it.
"""

import hashlib
from dataclasses import dataclass

from django.core import signing
from django.db.models import Count, Max, Min, OuterRef, Q, Subquery, Sum, TextField, Value
from django.db.models.functions import Cast, Concat, Lower

from games.core import compiled, talk_reads
from games.models import Game, Invitation, Lobby, RecordOpening, Seat, TalkMessage, TalkReport

# A person's page and an organizer's carry a token of their own (a seat's page
# polls with its own link): who it is for, signed, so the poll reads no session.
SALT = "games.live"
PERSON, ORGANIZER = "p", "o"


def etag(row) -> str:
    """A short digest of a fingerprint's rows: the ETag's value."""
    return hashlib.blake2b(repr(row).encode(), digest_size=9).hexdigest()


def _per_game(rows, *aggregates):
    """One subquery over ``rows``, which all belong to one game: its aggregates,
    as text joined by "|" (one subquery, not one each: the database's work)."""
    if len(aggregates) == 1:
        joined = aggregates[0]
    else:
        parts = [part for a in aggregates for part in (Cast(a, TextField()), Value("|"))]
        joined = Concat(*parts[:-1], output_field=TextField())
    return Subquery(rows.order_by().values("game_id").annotate(n=joined).values("n"))


# How many of the lines counted the organizer hid.
HIDDEN = Count("pk", filter=Q(hidden_at__isnull=False))


def _talk_readable(reader, game):
    return TalkMessage.objects.filter(talk_reads.readable_by(reader), game_id=game)


def _seat_fingerprint(seat, game):
    """What a seat's page shows that others change: the game's row, the seats'
    names and absences, the talk the seat may read and its moderation, the
    record's openings, the seat's own talk read."""
    reader, at = OuterRef("pk"), OuterRef("game_id")
    seats = Seat.objects.filter(game_id=at)
    return (
        Seat.objects.filter(pk=seat, game_id=game)
        .annotate(
            talk_seen=_per_game(_talk_readable(reader, at), Max("pk"), HIDDEN),
            seats_seen=_per_game(seats, Sum("link_version"), Max("away_from"), Min("away_until")),
            openings=_per_game(RecordOpening.objects.filter(game_id=at), Count("pk")),
        )
        .values_list(
            "link_version",
            "talk_read_id",
            "talk_muted_at",
            "game__version",
            "game__status",
            "game__paused_at",
            "game__phase_deadline",
            "game__bargaining_until",
            "game__bots_due_at",
            "game__rematch_id",
            "game__talk",
            "game__finished_at",
            "talk_seen",
            "seats_seen",
            "openings",
        )
    )


SEAT = compiled.CompiledRows(_seat_fingerprint)


@dataclass(frozen=True)
class Seen:
    """A poll's answer: the fingerprint, or that the page is gone (its link no
    longer opens it, and a reload shows why). ``finished_at``: the game's end, for
    the caller to tell whether its links still work (games.core.links)."""

    tag: str = ""
    gone: bool = False
    finished_at: object = None


def seat(link) -> Seen:
    """The fingerprint of the page a seat's link (links.Token) opens."""
    return seat_seen(SEAT.rows(seat=link.seat, game=link.game), link.version)


def seat_seen(rows: list, version: int) -> Seen:
    """``Seen`` from the rows of SEAT (read alone, or with the seat's page)."""
    if not rows or rows[0][0] != version:
        return Seen(gone=True)
    return Seen(tag=etag(rows[0]), finished_at=compiled.stored_time(rows[0][11]))


def _organizer_fingerprint(game, email):
    """What an organizer's page shows that others change: the game's row, its
    seats (who, how their mail goes, who keeps missing), all its talk and its
    reports."""
    at = OuterRef("pk")
    seats = Seat.objects.filter(game_id=at)
    talk = TalkMessage.objects.filter(game_id=at)
    return (
        Game.objects.alias(organizer=Lower("organizer_email"))
        .filter(pk=game, organizer=email)
        .annotate(
            seats_seen=_per_game(
                seats,
                Sum("link_version"),
                Sum("missed_in_a_row"),
                Max("last_failure_at"),
                Max("last_delivered_at"),
                Max("away_from"),
                Min("away_until"),
            ),
            talk_seen=_per_game(talk, Max("pk"), HIDDEN),
            reports=Subquery(
                TalkReport.objects.filter(message__game_id=at)
                .order_by()
                .values("message__game_id")
                .annotate(n=Count("pk"))
                .values("n")
            ),
        )
        .values_list(
            "version",
            "status",
            "paused_at",
            "phase_deadline",
            "bargaining_until",
            "rematch_id",
            "talk",
            "finished_at",
            "seats_seen",
            "talk_seen",
            "reports",
        )
    )


ORGANIZED = compiled.CompiledRows(_organizer_fingerprint, texts=("email",))


def _person_fingerprint(email):
    """What My games shows: the person's seats (their games' versions and the
    talk each may read), the games they organize, the tables they gather and
    the invitations they have. One statement: the four reads, one after another."""
    reader, at = OuterRef("pk"), OuterRef("game_id")
    seats = (
        Seat.objects.alias(address=Lower("email"))
        .filter(address=email)
        .annotate(
            kind=Value("s"),
            talk_newest=_per_game(_talk_readable(reader, at), Max("pk")),
        )
        .values_list(
            "kind",
            "pk",
            "link_version",
            "talk_read_id",
            "game__version",
            "game__status",
            "talk_newest",
        )
    )
    organized = (
        Game.objects.alias(organizer=Lower("organizer_email"))
        .filter(organizer=email)
        .annotate(kind=Value("g"), none=Value(0), again=Value(0))
        .values_list("kind", "pk", "version", "none", "rematch_id", "status", "again")
    )
    gathering = (
        Lobby.objects.filter(organizer_email=email)
        .annotate(
            kind=Value("l"),
            taken=_accepted(OuterRef("pk")),
            invited=Subquery(
                Invitation.objects.filter(lobby_id=OuterRef("pk"))
                .order_by()
                .values("lobby_id")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            none=Value(0),
        )
        .values_list("kind", "pk", "taken", "invited", "none", "status", "none")
    )
    invited = (
        Invitation.objects.filter(email=email)
        .annotate(kind=Value("i"), taken=_accepted(OuterRef("lobby_id")))
        .values_list("kind", "pk", "lobby_id", "taken", "sends", "status", "lobby__game_id")
    )
    parts = (organized, gathering, invited)
    return seats.order_by().union(*(part.order_by() for part in parts), all=True)


def _accepted(lobby):
    """How many of a lobby's seats are taken."""
    taken = Invitation.objects.filter(lobby_id=lobby, status=Invitation.Status.ACCEPTED)
    return Subquery(taken.order_by().values("lobby_id").annotate(n=Count("pk")).values("n"))


PERSON_PAGE = compiled.CompiledRows(_person_fingerprint, texts=("email",))


def person(email: str) -> Seen:
    """The fingerprint of an address's My games."""
    return Seen(tag=etag(sorted(PERSON_PAGE.rows(email=email.strip().lower()))))


def organized(game_id: int, email: str) -> Seen:
    """The fingerprint of a game's organizer's page; gone once ``email`` no longer
    organizes it."""
    found = ORGANIZED.rows(game=game_id, email=email.strip().lower())
    return Seen(tag=etag(found[0])) if found else Seen(gone=True)


def token_for(kind: str, email: str, game_id: int = 0) -> str:
    """The poll's token of a person's page (``PERSON``) or an organizer's (``ORGANIZER``)."""
    # No time in it: the page's words stay the same from one read to the next.
    return signing.Signer(salt=SALT).sign_object([kind, email.strip().lower(), game_id])


def read_token(token: str) -> tuple | None:
    """(kind, email, game id) of a poll's token, or None for any other bytes."""
    try:
        kind, email, game_id = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    if kind not in (PERSON, ORGANIZER) or not isinstance(email, str):
        return None
    if not isinstance(game_id, int):
        return None
    return kind, email, game_id


def seen_by_token(token: str) -> Seen | None:
    """The fingerprint a poll's token asks for; None for a token that is none."""
    read = read_token(token)
    if read is None:
        return None
    kind, email, game_id = read
    return person(email) if kind == PERSON else organized(game_id, email)
