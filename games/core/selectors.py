"""The reads each request and each email makes, one function per need: a link's
seat with its game and table, the game's row under its lock, the log a batch at
a time (or the news since an email, or the last round), an outbox row to send.

Plain querysets, each one statement, so that a view or an email reads what it
needs in a known number of statements (tests/web/test_query_counts.py counts them)
rather than through lazy relations; the reads of a seat's page and of a move
before its lock are hand-written for their bounds (games/core/page_reads.py). A
seat comes with ``record_opened``: whether the game's record was ever opened
(every page says so).
"""

from django.db.models import Exists, Subquery
from django.db.models.functions import Coalesce

from games.core import page_reads
from games.models import Game, GameEvent, RecordOpening, Seat


def _seats_with_game(game_id: int):
    """The game's seats with their game joined and ``record_opened``."""
    opened = Exists(RecordOpening.objects.filter(game_id=game_id))
    return (
        Seat.objects.filter(game_id=game_id).select_related("game").annotate(record_opened=opened)
    )


def seat_with_game(seat_id: int, game_id: int) -> Seat | None:
    """The seat ``seat_id`` of game ``game_id`` with its game attached and
    ``record_opened``; None if there is no such seat."""
    try:
        return _seats_with_game(game_id).get(pk=seat_id)
    except Seat.DoesNotExist:
        return None


seat_page = page_reads.seat_page
seat_at_table = page_reads.seat_at_table
unread_talk = page_reads.unread_talk
seat_news = page_reads.seat_news


game_locked = page_reads.locked_game
outbox_email_to_send = page_reads.outbox_email_to_send
outbox_email_with_news = page_reads.outbox_email_with_news


def seats_of(game: Game) -> list:
    """The game's seats in seat order, each with the game attached."""
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    for seat in seats:
        seat.game = game
    return seats


def _event_data(events) -> list:
    return list(events.values_list("data", flat=True))


def event_data(game_id: int, newest_first: bool, bound: int | None, limit: int) -> list:
    """Up to ``limit`` of the game's events (their data), newest or oldest first,
    from before (newest first) or after ``bound``, a seq (None: from the end)."""
    events = GameEvent.objects.filter(game_id=game_id)
    if bound is not None:
        events = events.filter(**{"seq__lt" if newest_first else "seq__gt": bound})
    return _event_data(events.order_by("-seq" if newest_first else "seq")[:limit])


EVENTS_BATCH = 80  # a page's recent log (LOG_LINES lines) most often fits in one batch


def events_in_batches(
    game_id: int, newest_first: bool, after: int | None = None, first: list | None = None
):
    """The game's events (their data), newest or oldest first, read EVENTS_BATCH at
    a time only as the reader asks for more: keyset batches on (game, seq), so the
    cost of a log does not grow with the game's length. ``after``: a seq to start
    past (older than it when ``newest_first``; None: from the end). ``first``: the
    first batch, read already with the same bound and EVENTS_BATCH (seat_page's).

    Every event since N, oldest first: ``events_in_batches(game.pk, newest_first=False,
    after=N)``."""
    bound, batch = after, first
    while True:
        if batch is None:
            batch = event_data(game_id, newest_first, bound, EVENTS_BATCH)
        yield from batch
        if len(batch) < EVENTS_BATCH:
            return
        bound, batch = batch[-1]["seq"], None


def round_at(game_id: int, seq: int) -> int:
    """The round the event ``seq`` falls in (0: before the first round)."""
    begun = (
        GameEvent.objects.filter(game_id=game_id, type="round_started", seq__lte=seq)
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    return begun["round"] if begun else 0


def events_since(game_id: int, seq: int) -> list:
    """The game's events (their data) from ``seq`` on, newest first: what a seat
    has not been told yet."""
    return _event_data(GameEvent.objects.filter(game_id=game_id, seq__gte=seq).order_by("-seq"))


def _last_seq(game_id: int, kind: str, **before):
    """The seq of the game's last event of ``kind``, as a subquery."""
    events = GameEvent.objects.filter(game_id=game_id, type=kind, **before)
    return Subquery(events.order_by("-seq").values("seq")[:1])


def last_round_events(game_id: int) -> list:
    """The events (their data) of the last round that ended, oldest first, from
    its round_started (the first event, if there is none) to its round_ended;
    [] while no round has ended."""
    ended = _last_seq(game_id, "round_ended")
    started = _last_seq(game_id, "round_started", seq__lt=ended)
    events = GameEvent.objects.filter(game_id=game_id, seq__lte=ended)
    return _event_data(events.filter(seq__gte=Coalesce(started, 0)).order_by("seq"))


def events_between(game_id: int, first: int, before: int | None, limit: int) -> list:
    """Up to ``limit`` of the game's events (their data) from seq ``first`` on and
    before seq ``before`` (None: to the end), the newest first."""
    events = GameEvent.objects.filter(game_id=game_id, seq__gte=first)
    if before is not None:
        events = events.filter(seq__lt=before)
    return _event_data(events.order_by("-seq")[:limit])
