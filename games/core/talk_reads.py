"""Who may read which line of the table's talk, and what a seat has not read yet:
the one place for both (the pages, the emails and the emails owed by a message ask
here; games.core.talk re-exports them)."""

from django.db.models import Q, QuerySet

from games.models import Game, Seat, TalkMessage


def visible_to(seat: Seat, game: Game | None = None) -> QuerySet:
    """The messages ``seat`` may read: the table's, and the private ones it wrote or
    was written; every one once the game is over, if the game reveals them then.
    The one place that decides who reads a private message."""
    game = game or seat.game
    rows = TalkMessage.objects.filter(game_id=seat.game_id)
    if game.status == Game.Status.FINISHED and game.reveal_private:
        return rows
    return rows.filter(Q(to_seat__isnull=True) | Q(to_seat_id=seat.pk) | Q(seat_id=seat.pk))


def unread(seat: Seat, game: Game | None = None) -> QuerySet:
    """What ``seat`` has neither read on the page nor been told by email: never its
    own messages, nor hidden ones."""
    since = max(seat.talk_read_id, seat.talk_mailed_id)
    return (
        visible_to(seat, game).filter(pk__gt=since, hidden_at__isnull=True).exclude(seat_id=seat.pk)
    )
