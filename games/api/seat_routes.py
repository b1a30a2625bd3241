"""A seat's operations, for the program holding the seat player's token: its view,
its legal moves, a command, its talk and its log. The seat is named in the path
(game and seat index) and must be the token's: any other answers the same 404 as a
seat that does not exist, so a token tells nothing of other seats."""

import re

from django.utils import timezone
from ninja import Header, Query, Router, Status

from games.api import legal_moves, payloads
from games.api.auth import SeatToken
from games.api.errors import KEY_REUSED, NO_SEAT, STALE, ApiError, documented
from games.api.schemas import (
    CommandIn,
    CommandOut,
    EventsOut,
    MovesOut,
    SeatViewOut,
    TalkIn,
    TalkMessageOut,
    TalkOut,
    TokenCheck,
)
from games.core import after_game, game_writes, moves, selectors, talk
from games.models import Submission
from games.present import move_done
from games.present.seat_page import seat_view
from games.words import i18n, user_text

router = Router(auth=SeatToken(), tags=["seat"])
SEAT = "/games/{game}/seats/{seat}"
KEY = re.compile(r"[A-Za-z0-9_.-]{1,40}")
EVENTS_PAGE = 200
# Every seat operation may answer these: a dead token, a closed game, another
# seat, a malformed request, too many requests.
ERRORS = (400, 401, 403, 404, 429)


def _own(request, game: int, seat: int):
    """The token's seat, if it is the one the path names; else 404 as for none."""
    mine = request.auth
    if mine.game_id != game or mine.index != seat:
        raise ApiError(404, "not_found", NO_SEAT)
    return mine


def _links() -> dict:
    """OpenAPI links from the token's answer to its seat's operations: a client (and
    the stateful tests) learns where its seat is from the first call."""
    seat = {"game": "$response.body#/game", "seat": "$response.body#/seat"}
    operations = ("view", "legal", "command", "events", "talk_read", "talk_post")
    return {name: {"operationId": f"seat_{name}", "parameters": seat} for name in operations}


@router.get(
    "/token",
    response={200: TokenCheck, **documented(*ERRORS)},
    summary="Whose token",
    operation_id="token",
    openapi_extra={"responses": {200: {"links": _links()}}},
)
def token(request):
    """The seat this token plays, and where its operations are."""
    seat = request.auth
    return {"game": seat.game_id, "seat": seat.index, "name": seat.name}


@router.get(
    SEAT,
    response={200: SeatViewOut, **documented(*ERRORS)},
    summary="The seat's view",
    operation_id="seat_view",
)
def view(request, game: int, seat: int):
    """Everything the seat may know of its game now, as its page shows it."""
    sv = seat_view(_own(request, game, seat), seats=request.api_seats)
    openings = sv.game.openings.all() if getattr(sv.seat, "record_opened", True) else []
    return {
        **payloads.seat_json(sv),
        # The rest of what the page shows: who is away, the organizer's openings of the
        # full record, and once the game is over its reveal and awards (none before).
        "away": payloads.away(sv.seats),
        "record_opened": [{"at": o.opened_at, "reason": o.reason} for o in openings],
        "after_game": after_game.told(sv.game, sv.state),
    }


@router.get(
    SEAT + "/moves",
    response={200: MovesOut, **documented(*ERRORS)},
    summary="Legal moves now",
    operation_id="seat_legal",
)
def legal(request, game: int, seat: int):
    """The moves the seat may make now, each with an example body the engine accepts."""
    mine = _own(request, game, seat)
    state = mine.game.engine_state()
    with i18n.as_seat(mine):
        return legal_moves.listed(state, mine.index)


@router.post(
    SEAT + "/commands",
    response={200: CommandOut, **documented(*ERRORS, 409, 422)},
    summary="Make a move",
    operation_id="seat_command",
)
def command(
    request,
    game: int,
    seat: int,
    body: CommandIn,
    idempotency_key: str = Header(
        ..., alias="Idempotency-Key", min_length=1, max_length=40, pattern=KEY.pattern
    ),
):
    """Make a move. The same Idempotency-Key sent again (a retry after a lost answer)
    changes nothing and answers as the first time: the move counts once. A phase that
    moved on since ``version`` answers 409; a move the rules refuse, 422 with the
    engine's refusal code (docs/engine.md)."""
    mine = _own(request, game, seat)
    chosen = body.command.as_command()
    seats = request.api_seats  # read with the seat: the emails the move owes, its message
    with i18n.as_seat(mine):
        try:
            key = f"{mine.pk}.api.{idempotency_key}"
            outcome = moves.submit(mine, chosen, version=body.version, key=key, seats=seats)
        except game_writes.ServiceError as error:
            raise ApiError(409, error.code, error.message) from None
        if outcome.code == "stale_page":
            raise ApiError(409, "stale_version", STALE)
        if outcome.code == "too_fast":
            retry = {"Retry-After": str(outcome.retry_after)}
            raise ApiError(429, "too_fast", outcome.message, retry)
        if not outcome.accepted:
            raise ApiError(422, outcome.code or "refused", outcome.message)
        if outcome.repeated and not _same_command(mine, key, chosen):
            raise ApiError(409, "idempotency_key_reused", KEY_REUSED)
        names = user_text.names(s.name for s in seats)
        message = move_done.told(mine, chosen["type"], outcome, names)
    return {
        "accepted": True,
        "repeated": outcome.repeated,
        "version": outcome.version,
        "message": message,
    }


def _same_command(seat, key: str, command: dict) -> bool:
    """Whether the move first made with ``key`` was ``command``: a key sent again with
    another move is a client's mistake, not a retry."""
    first = Submission.objects.filter(game_id=seat.game_id, key=key)
    first = first.values_list("command", flat=True).first()
    return first is None or first == {**command, "seat": seat.index}


@router.get(
    SEAT + "/events",
    response={200: EventsOut, **documented(*ERRORS)},
    summary="The log since N",
    operation_id="seat_events",
)
def events(request, game: int, seat: int, since: int = Query(0, ge=0, le=2**31 - 1)):
    """The game's events after ``since`` (a seq), oldest first, as this seat may know
    them: up to 200 at a time."""
    mine = _own(request, game, seat)
    found = selectors.event_data(mine.game_id, False, since, EVENTS_PAGE + 1)
    more = len(found) > EVENTS_PAGE
    found = found[:EVENTS_PAGE]
    state = mine.game.engine_state()
    projected = payloads.events_json(state, found, mine.index)
    return {"events": projected, "next_since": found[-1]["seq"] if more else None}


@router.get(
    SEAT + "/talk",
    response={200: TalkOut, **documented(*ERRORS)},
    summary="Read talk",
    operation_id="seat_talk_read",
)
def talk_read(request, game: int, seat: int, before: str = Query("", max_length=16)):
    """The table talk this seat may read, newest first, 20 at a time (``before``: the
    ref the previous page ended at)."""
    mine = _own(request, game, seat)
    start = talk.message_by_ref(mine, before) if before else None
    rows, next_one = talk.page(mine, start)
    by_pk = {s.pk: s.index for s in request.api_seats}
    return {
        "messages": [_message(row, by_pk) for row in rows],
        "next_before": next_one.ref if next_one else None,
    }


@router.post(
    SEAT + "/talk",
    response={201: TalkMessageOut, **documented(*ERRORS, 409)},
    summary="Say something",
    operation_id="seat_talk_post",
)
def talk_post(request, game: int, seat: int, body: TalkIn):
    """Post a message to the table (``to``: one seat only)."""
    mine = _own(request, game, seat)
    with i18n.as_seat(mine):
        try:
            message = talk.post(mine, body.text, timezone.now(), to_index=body.to, about=body.about)
        except talk.TooFast as error:
            retry = {"Retry-After": str(error.retry_after)}
            raise ApiError(429, "too_fast", error.message, retry) from None
        except game_writes.ServiceError as error:
            raise ApiError(409, error.code, error.message) from None
    by_pk = {s.pk: s.index for s in request.api_seats}
    return Status(201, _message(message, by_pk))


def _message(row, by_pk: dict) -> dict:
    return {
        "ref": row.ref,
        "seat": by_pk[row.seat_id],
        "to": by_pk.get(row.to_seat_id),
        "text": None if row.hidden_at else row.text,
        "at": row.created_at,
        "round": row.round,
        "answers": f"{row.quote_kind}-{row.quote_ref}" if row.quote_kind else "",
    }
