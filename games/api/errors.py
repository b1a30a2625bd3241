"""Every API error is JSON: ``{"error": {"code": ..., "message": ...}}``, the code a
stable machine key (the engine's refusal codes for a refused move, docs/engine.md),
the message in the reader's language."""

from django.utils.translation import gettext_lazy
from pydantic import BaseModel


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class ApiError(Exception):
    """An answer other than success: its HTTP status, code and message."""

    def __init__(self, status: int, code: str, message, headers: dict | None = None):
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


NO_TOKEN = gettext_lazy(
    "This needs a seat's API token, as “Authorization: Bearer shf_…”. Make one on your "
    "seat's settings page."
)
DEAD_TOKEN = gettext_lazy(
    "This token does not work: it was revoked, or the seat's links were renewed or given "
    "to another player. Make a new one on your seat's settings page."
)
NO_SEAT = gettext_lazy("There is no such seat, or your token does not play it.")
SIGN_IN = gettext_lazy("Sign in on this site first: this asks for your own games.")
TOO_MANY = gettext_lazy("Too many requests: wait %(seconds)s seconds, then try again.")
BAD_BODY = gettext_lazy("The request is not one this operation takes: %(problem)s")
NOT_JSON = gettext_lazy("the body is not JSON (UTF-8)")
NO_KEY = gettext_lazy(
    "A command needs an Idempotency-Key header: letters, digits, “-”, “_” or “.”, "
    "at most 40, a new one for each command."
)
KEY_REUSED = gettext_lazy(
    "This Idempotency-Key was used for another move: send each move with a key of its own."
)
STALE = gettext_lazy(
    "The game has moved on since the version you sent: read the seat again and "
    "choose your move from what it shows now."
)
NOT_FOUND = gettext_lazy("There is nothing at this address.")


def body(code: str, message) -> dict:
    return {"error": {"code": code, "message": str(message)}}


def documented(*statuses: int) -> dict:
    """An operation's error answers, for the schema."""
    return dict.fromkeys(statuses, ErrorBody)
