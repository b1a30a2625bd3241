"""Who calls, and how often: a seat's token (``Authorization: Bearer shf_…``),
counted against its rate before anything is read for it."""

import logging
import time

from django.conf import settings
from django.core.cache import caches
from ninja.security import HttpBearer

from games.api.errors import TOO_MANY, ApiError
from games.core import api_tokens, links

log = logging.getLogger(__name__)


class SeatToken(HttpBearer):
    """The seat a token plays (request.auth), or a 401 for a dead one. A game past
    the days its links work after its end answers 403 (``game_closed``). Errors raised
    here reach the API's handlers (games.api.app), so a 429 is JSON like any other."""

    openapi_description = "A seat's API token, made on the seat's settings page."

    def authenticate(self, request, token: str):
        counted(api_tokens.digest(token))
        try:
            seat, request.api_seats = api_tokens.seat_of(token)
            return seat
        except api_tokens.TokenError:
            return None  # 401
        except links.LinkError as error:
            raise ApiError(403, "game_closed", error.message) from None


def counted(token_digest: str, now: float | None = None) -> None:
    """Count one request of a token: settings.API_RATE_REQUESTS a window of
    API_RATE_SECONDS, kept in the "api_rate" cache (Redis in production, so that every
    worker counts together); ApiError 429 with Retry-After past it. A cache that does
    not answer lets the request through: moves keep their own pacing under the game's
    lock (games.core.pacing), and the API must not stop with Redis."""
    period = settings.API_RATE_SECONDS
    now = time.time() if now is None else now
    window = int(now // period)
    key = f"api-rate:{token_digest[:32]}:{window}"
    cache = caches["api_rate"]
    try:
        cache.add(key, 0, period + 1)
        used = cache.incr(key)
    except Exception:
        log.warning("API request not counted: the rate cache does not answer", exc_info=True)
        return
    if used > settings.API_RATE_REQUESTS:
        wait = max(1, int((window + 1) * period - now + 0.999))
        raise ApiError(429, "too_many_requests", TOO_MANY % {"seconds": wait}, _retry(wait))


def _retry(wait: int) -> dict:
    return {"Retry-After": str(wait)}
