"""A person's games, read in bulk: a person is their email address, so the seats
they hold are the seats at that address (in any case) and the games they
organize are those with it as the organizer's. No linking step, no account.

My games and the daily email read here in a fixed number of statements however
many games the person is in; the seat page asks only for the games in play.
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.core import talk
from games.models import Game, Invitation, Lobby, Person, Seat


def _shown(now) -> Q:
    """Games in play, finished games (their archive is kept for good), and cancelled
    games whose links still work (links.seat_if_link_current): a row never leads to
    a page that would refuse its reader."""
    since = now - timedelta(days=settings.LINK_VALID_DAYS_AFTER_END)
    finished = Q(status=Game.Status.FINISHED)
    return Q(status=Game.Status.ACTIVE) | finished | Q(finished_at__gte=since)


def seats_of(email: str, now=None, *, in_play_only: bool = False) -> list:
    """The seats at ``email``, each with its game attached (its state included)."""
    if not email.strip():  # an account with no address (an admin's) is nobody's seat
        return []
    now = now or timezone.now()
    games = Game.objects.filter(Q(status=Game.Status.ACTIVE) if in_play_only else _shown(now))
    seats = Seat.objects.filter(email__iexact=email, game__in=games).select_related("game")
    return list(talk.with_unread(seats).order_by("game_id", "index"))


def organized_by(email: str, now=None) -> list:
    """The games ``email`` organizes (whether or not they play in them)."""
    if not email.strip():  # a game with no organizer is not everyone-without-an-address's
        return []
    now = now or timezone.now()
    return list(Game.objects.filter(_shown(now), organizer_email__iexact=email).order_by("pk"))


def lobbies_of(email: str) -> list:
    """The games ``email`` is gathering (set up on the site, not started), each with
    its invitations, in two statements."""
    if not email.strip():
        return []
    found = Lobby.objects.filter(organizer_email=email.lower(), status=Lobby.Status.OPEN)
    return list(found.prefetch_related("invitations").order_by("pk"))


def invitations_of(email: str) -> list:
    """The invitations at ``email`` to games still being gathered by someone else:
    those awaiting an answer, and those accepted (the game has yet to start)."""
    if not email.strip():
        return []
    found = Invitation.objects.filter(
        email=email.lower(),
        status__in=(Invitation.Status.INVITED, Invitation.Status.ACCEPTED),
        lobby__status=Lobby.Status.OPEN,
    ).exclude(via=Invitation.Via.ORGANIZER)
    return list(found.select_related("lobby").order_by("lobby_id"))


def names_at(game_ids) -> dict:
    """Game id -> its seats' names in seat order, in one statement."""
    names: dict = {}
    seats = Seat.objects.filter(game_id__in=list(game_ids)).order_by("game_id", "index")
    for game_id, name in seats.values_list("game_id", "name"):
        names.setdefault(game_id, []).append(name)
    return names


def person(email: str) -> Person | None:
    """The person's choices across games, if they ever made any."""
    return Person.objects.filter(email=email.strip().lower()).first()


def choose_daily(email: str, hour: int | None, zone: str, language: str) -> Person:
    """One email a day across all their games at ``hour`` of ``zone`` (None: none);
    the row is made on the first choice (today's email, once sent, is not sent again)."""
    with transaction.atomic():
        chosen, _made = Person.objects.update_or_create(
            email=email.strip().lower(),
            defaults={"daily_hour": hour, "timezone": zone, "language": language},
        )
    return chosen


def zone_of(found: Person | None, seats: list) -> str:
    """The zone a person reads times in where no seat says: their own choice, else
    their first seat's, else UTC."""
    if found is not None and found.timezone:
        return found.timezone
    return seats[0].timezone if seats else "UTC"
