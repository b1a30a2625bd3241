"""The API's per-seat tokens: minted and revoked by the seat's player on their
settings page, shown once, kept as a SHA-256 digest.

A token is random (32 bytes), so a fast digest is enough: nobody guesses it from
its hash, and finding it is one indexed read. It carries a recognisable prefix
(``shf_``) so that a secret scanner, or a player, knows one when they see it. It
works for one seat, while that seat's links do: a replaced player's token, or one
minted before the links were sent anew, is dead like their links.
"""

import functools
import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.core import compiled, links, selectors
from games.core.game_writes import ServiceError
from games.models import ApiToken, Seat

PREFIX = "shf_"
SHOWN_PREFIX = 10  # what the settings page shows of a token: "shf_Ab3dEf"
MAX_LIVE = 5  # live tokens a seat may hold at once
# last_used_at is written at most this often: a program polling every second does
# not write on every request.
USED_EVERY = timedelta(minutes=1)


class TokenError(Exception):
    """Not a working token (missing, unknown, revoked, or its seat's links are dead)."""


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def live(seat: Seat):
    """The seat's working tokens, newest first."""
    return ApiToken.objects.filter(
        seat=seat, revoked_at__isnull=True, link_version=seat.link_version
    ).order_by("-created_at")


def mint(seat: Seat, label: str = "", now=None) -> str:
    """A new token for ``seat``, returned once (only its digest is kept);
    ServiceError when the seat holds MAX_LIVE already."""
    raw = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        Seat.objects.select_for_update().filter(pk=seat.pk).first()  # one mint at a time
        if live(seat).count() >= MAX_LIVE:
            raise ServiceError("too_many_tokens", "")
        ApiToken.objects.create(
            seat=seat,
            game_id=seat.game_id,
            digest=digest(raw),
            prefix=raw[:SHOWN_PREFIX],
            label=label,
            link_version=seat.link_version,
            created_at=now or timezone.now(),
        )
    return raw


def revoke(seat: Seat, token_id: int, now=None) -> bool:
    """Revoke one of ``seat``'s tokens; False if it has no such live token."""
    done = live(seat).filter(pk=token_id).update(revoked_at=now or timezone.now())
    return bool(done)


def seat_of(raw: str, now=None) -> tuple:
    """The seat a token plays, with its game attached, and the game's seats in seat
    order (the emails a move owes are addressed from them), in two reads; TokenError
    if it plays none. A game whose links have stopped working (some days after its
    end) answers links.LinkError, as its pages do."""
    if not raw.startswith(PREFIX) or len(raw) > 100:
        raise TokenError
    token = _token_row(digest(raw))
    if token is None:
        raise TokenError
    token_id, seat_id, game_id, version, used = token
    seat, seats = selectors.seat_at_table(seat_id, game_id)
    if seat is None or version != seat.link_version:
        raise TokenError
    now = now or timezone.now()
    if used is None or now - used > USED_EVERY:
        ApiToken.objects.filter(pk=token_id).update(last_used_at=now)
    return links.seat_if_link_current(seat, seat.link_version), seats


def _token_row(found: str):
    """(id, seat, game, link version, last used) of the live token of digest
    ``found``, or None. Written once as SQL: compiling the queryset cost more than
    the rest of a request's reads together (manage.py bench_moves, "api POST")."""
    conn = compiled.connection()
    with conn.cursor() as cursor:
        cursor.execute(_token_sql(conn.vendor), [found])
        row = cursor.fetchone()
    if row is None:
        return None
    return (*row[:4], compiled.stored_time(row[4]))


@functools.cache
def _token_sql(vendor: str) -> str:
    """The queryset's SQL, its one parameter (the digest) left a placeholder."""
    query = ApiToken.objects.filter(digest="?", revoked_at__isnull=True).values_list(
        "pk", "seat_id", "game_id", "link_version", "last_used_at"
    )
    return query.query.sql_with_params()[0]
