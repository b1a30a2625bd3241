"""The API's one instance: its routes, its schema (docs/openapi.json) and how every
error becomes JSON ``{"error": {"code", "message"}}`` in the reader's language
(the seat's when a token names one, else the browser's)."""

from django.http import Http404
from django.utils import translation
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.api import person_routes, seat_routes
from games.api.errors import (
    BAD_BODY,
    DEAD_TOKEN,
    NO_KEY,
    NO_TOKEN,
    NOT_FOUND,
    NOT_JSON,
    ApiError,
    body,
)
from games.present.page_language import browser_language
from games.words import i18n

api = NinjaAPI(
    title="Sheriff of Nottingham by email",
    version="1",
    description=(
        "Play a seat of a game with the seat's API token, as its page does: read the "
        "table, list the legal moves, make one, talk, read the log. See docs/api.md."
    ),
    urls_namespace="api",
    docs_url=None,  # the schema is served and kept in docs/openapi.json; no CDN page
)
api.add_router("", seat_routes.router)
api.add_router("", person_routes.router)


def _language(request) -> str:
    seat = getattr(request, "auth", None)
    if seat is not None and hasattr(seat, "language"):
        return i18n.language_of(seat)
    return browser_language(request)


def _answer(request, status: int, code: str, message, headers: dict | None = None):
    with translation.override(_language(request)):
        response = api.create_response(request, body(code, message), status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    response["Cache-Control"] = "no-store"
    return response


@api.exception_handler(ApiError)
def _api_error(request, error: ApiError):
    return _answer(request, error.status, error.code, error.message, error.headers)


@api.exception_handler(AuthenticationError)
def _unauthorized(request, error):
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return _answer(request, 401, "bad_token", DEAD_TOKEN, {"WWW-Authenticate": "Bearer"})
    return _answer(request, 401, "no_token", NO_TOKEN, {"WWW-Authenticate": "Bearer"})


@api.exception_handler(ValidationError)
def _invalid(request, error: ValidationError):
    if any(e.get("loc", ())[:1] == ("header",) for e in error.errors):
        return _answer(request, 400, "idempotency_key_missing", NO_KEY)
    problems = "; ".join(_problem(e) for e in error.errors[:5])
    with translation.override(_language(request)):
        message = BAD_BODY % {"problem": problems}
    return _answer(request, 400, "invalid_request", message)


def _problem(error: dict) -> str:
    """ "body.command.cards: Input should be a valid list", never the value sent."""
    where = ".".join(str(part) for part in error.get("loc", ()))
    return f"{where}: {error.get('msg', 'invalid')}"[:200]


@api.exception_handler(Http404)
def _not_found(request, error):
    return _answer(request, 404, "not_found", NOT_FOUND)


@api.exception_handler(HttpError)
def _http_error(request, error: HttpError):
    """The library's own refusals: a body that is not JSON, above all."""
    if error.status_code == 400:
        with translation.override(_language(request)):
            message = BAD_BODY % {"problem": NOT_JSON}
        return _answer(request, 400, "invalid_request", message)
    return _answer(request, error.status_code, "bad_request", str(error))
