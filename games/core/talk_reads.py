"""Who may read which line of the table's talk, and what a seat has not read yet:
the one place for both (the pages, the emails and the emails owed by a message ask
here; games.core.talk re-exports them)."""

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest

from games.models import Game, Seat, TalkMessage

PAGE = 20  # messages a page shows at a time
EMAIL_MESSAGES = 20  # unread messages an email shows; the rest wait on the table


def readable_by(reader) -> Q:
    """Messages the seat ``reader`` (a pk, or an OuterRef to one) may read: the
    table's, and the private ones it wrote or was written; every one once the game
    is over, if the game reveals them then. The one place that decides who reads
    a private message."""
    revealed = Q(game__status=Game.Status.FINISHED, game__reveal_private=True)
    return Q(to_seat__isnull=True) | Q(to_seat_id=reader) | Q(seat_id=reader) | revealed


def visible_to(seat: Seat) -> QuerySet:
    """The messages ``seat`` may read."""
    return TalkMessage.objects.filter(readable_by(seat.pk), game_id=seat.game_id)


def unread(seat: Seat, since=None) -> QuerySet:
    """What ``seat`` has neither read on the page nor been told by email: never its
    own messages, nor hidden ones. ``since``: the newest line it read or was told
    (by default, as the instance has it)."""
    if since is None:
        since = max(seat.talk_read_id, seat.talk_mailed_id)
    return visible_to(seat).filter(pk__gt=since, hidden_at__isnull=True).exclude(seat_id=seat.pk)


def unread_as_stored(seat_id: int, game_id: int) -> QuerySet:
    """``unread`` of the seat as its row stands, read in the same statement (an
    email reads it in the round trip that reads its seat)."""
    stored = Seat.objects.filter(pk=seat_id).values(
        since=Greatest("talk_read_id", "talk_mailed_id")
    )
    return unread(Seat(pk=seat_id, game_id=game_id), since=Subquery(stored[:1]))


def with_unread(seats: QuerySet) -> QuerySet:
    """``seats``, each annotated with ``talk_unread``, its count of ``unread``, in
    the same statement (My games counts every seat's at once)."""
    since = Greatest(OuterRef("talk_read_id"), OuterRef("talk_mailed_id"))
    rows = (
        TalkMessage.objects.filter(
            readable_by(OuterRef("pk")),
            game_id=OuterRef("game_id"),
            pk__gt=since,
            hidden_at__isnull=True,
        )
        .exclude(seat_id=OuterRef("pk"))
        .values("game_id")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return seats.annotate(talk_unread=Coalesce(Subquery(rows), 0))
