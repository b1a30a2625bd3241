"""What the API answers, as the schema (docs/openapi.json) documents it. The
commands a client sends are the registry's own models (games.present.move_schemas),
one per move: the API adds nothing to them."""

from datetime import date, datetime
from typing import Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field

from games.present.move_schemas import INTEGRAL
from games.present.moves import command_models

# One of the registry's command models, told apart by "type".
Command = Annotated[Union[command_models()], Field(discriminator="type")]  # noqa: UP007


class CommandIn(BaseModel):
    """A move, made against the phase version the client read (``version`` of the
    seat's view or its moves): a phase that moved on since refuses it (409)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: Annotated[int, Field(ge=0, le=2**31 - 1), INTEGRAL]
    command: Command


class CommandOut(BaseModel):
    accepted: bool
    repeated: bool = Field(description="This Idempotency-Key was used: it counted once.")
    version: int = Field(
        description="The seq of the game's newest event after it: /events?since= reads on "
        "from there. The next command's version is read anew (the view's or the moves')."
    )
    message: str


class GameOut(BaseModel):
    id: int
    name: str
    status: str
    edition: int
    players: int
    black_market: bool


class AwayOut(BaseModel):
    seat: int
    first_day: date
    last_day: date = Field(description="Included.")


class OpeningOut(BaseModel):
    at: datetime
    reason: str


class SeatViewOut(BaseModel):
    """All the seat may know of its game: the seat page's data. ``view`` is the
    engine's view for this seat (docs/engine.md, "Views"): the table, the seat's own
    hand and stand, the phase and the moves open to it."""

    game: GameOut
    seat: int
    names: list[str]
    version: int = Field(description="The phase version a command is made against.")
    deadline: datetime | None
    bargaining_until: datetime | None
    halted: bool = Field(description="Paused or cancelled: nothing moves until resumed.")
    view: dict[str, Any]
    away: list[AwayOut] = Field(description="Players away, as they said on their settings.")
    record_opened: list[OpeningOut] = Field(
        description="Each time the organizer opened the game's full record while in play."
    )
    after_game: dict[str, Any] | None = Field(
        description="Once the game is over: every bag as it really was, every deal, and the "
        "awards. None while it is played."
    )


class MoveOut(BaseModel):
    type: str
    label: str
    options: dict[str, Any] = Field(description="What the engine allows, as it describes it.")
    example: dict[str, Any] | None = Field(
        description="A command body the engine accepts now (the bot's random choice)."
    )


class MovesOut(BaseModel):
    version: int
    must_act: bool = Field(description="The phase waits for this seat.")
    moves: list[MoveOut]


class EventsOut(BaseModel):
    events: list[dict[str, Any]] = Field(description="Oldest first, as this seat may know them.")
    next_since: int | None = Field(description="Ask again with since=this for more; None: none.")


class TalkIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(min_length=1, max_length=4000)
    to: Annotated[int, Field(ge=0, le=5), INTEGRAL] | None = Field(
        default=None, description="A seat; none: the table."
    )
    about: str = Field(default="", max_length=30, description='What it answers: "offer-2".')


class TalkMessageOut(BaseModel):
    ref: str
    seat: int
    to: int | None
    text: str | None = Field(description="None when the organizer hid it.")
    at: datetime
    round: int
    answers: str = Field(description='What it answers ("offer-2"), or "".')


class TalkOut(BaseModel):
    messages: list[TalkMessageOut] = Field(description="Newest first.")
    next_before: str | None = Field(description="Ask again with before=this for older ones.")


class LinkOut(BaseModel):
    label: str
    url: str


class MyGameOut(BaseModel):
    name: str
    badge: str
    line: str
    details: list[str]
    section: str
    links: list[LinkOut]
    talk_unread: int


class MyGamesOut(BaseModel):
    your_move: int
    games: list[MyGameOut]


class TokenCheck(BaseModel):
    """Who a token plays: where its seat's operations are."""

    game: int
    seat: int
    name: str
