"""The polls of an open page (static/games/live.js): "is my page still this?"
answered by the page's fingerprint (games.core.live) as an ETag — 304 when
unchanged, else 200 and the new one, for the script to read the page again as
its reader's GET would. Any gunicorn worker answers any poll: the state is all
in the database, so no sticky sessions.

``answer`` is the one place a poll is answered. In production it runs ahead of
Django's request cycle (``LeanPolls``, in sheriff_pbem/wsgi.py): an idle page
polls every few seconds, and through the whole stack (URL resolution, ten
middleware, the health check's extra round trip) one poll cost the site about
2 ms of CPU on the benchmark's machine, against a bound of 1 ms
(``manage.py bench_live``). The Django views below answer the same polls under
the test client, the test servers and any other WSGI server."""

import logging
import re

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.http import HttpResponse, HttpResponseNotModified
from django.http.request import split_domain_port, validate_host
from django.views.decorators.http import require_safe

from games.core import links, live
from games.models import Game

log = logging.getLogger(__name__)

# 410: the page no longer opens (a replaced player's link, a game long over); the
# script goes to the page, which says why. 404: bytes that were never a poll's token.
OK, NOT_MODIFIED, NOT_FOUND, GONE, UNAVAILABLE = 200, 304, 404, 410, 503
HEADERS = (
    # Every poll asks the site: no cache keeps an answer (the address is a secret).
    ("Cache-Control", "private, no-cache"),
    ("X-Robots-Tag", "noindex, nofollow"),
    ("X-Content-Type-Options", "nosniff"),
)
SEAT_POLL = re.compile(r"/play/(?P<token>[^/]+)/live/")
PAGE_POLL = re.compile(r"/live/(?P<token>[^/]+)/")


def answer(kind: str, token: str, if_none_match: str) -> tuple[int, str]:
    """(status, fingerprint) of a poll: ``kind`` "seat" (a seat's link) or "page"
    (My games', an organizer's page's token)."""
    if kind == "seat":
        try:
            seen = live.seat(links.read(token))
        except links.LinkError:
            return NOT_FOUND, ""
        if seen.finished_at is not None and not links.links_work(
            Game(finished_at=seen.finished_at)
        ):
            return GONE, ""
    else:
        seen = live.seen_by_token(token)
        if seen is None:
            return NOT_FOUND, ""
    if seen.gone:
        return GONE, ""
    if if_none_match == f'"{seen.tag}"':
        return NOT_MODIFIED, seen.tag
    return OK, seen.tag


def _headers(status: int, tag: str) -> list[tuple[str, str]]:
    """A poll's answer's headers, whichever way it is answered."""
    found = list(HEADERS)
    if tag:
        found.append(("ETag", f'"{tag}"'))
    if status == OK:
        found.append(("Content-Type", "text/plain; charset=utf-8"))
    if status == UNAVAILABLE:
        found.append(("Retry-After", "10"))
    return found


def _response(status: int, tag: str) -> HttpResponse:
    if status == NOT_MODIFIED:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(tag if status == OK else b"", status=status)
    for name, value in _headers(status, tag):
        response[name] = value
    return response


@require_safe
def seat(request, token: str):
    """A seat's page, polled with the seat's own link."""
    return _response(*answer("seat", token, request.headers.get("If-None-Match", "")))


@require_safe
def page(request, token: str):
    """My games or an organizer's page, polled with the token the page carries."""
    return _response(*answer("page", token, request.headers.get("If-None-Match", "")))


REASONS = {OK: "OK", NOT_MODIFIED: "Not Modified", NOT_FOUND: "Not Found", GONE: "Gone"}


class LeanPolls:
    """WSGI: answers the polls (GET and HEAD of SEAT_POLL and PAGE_POLL) without
    Django's request cycle, and hands every other request to ``app`` (Django's).
    What the cycle would give a poll is kept: the host is checked against
    ALLOWED_HOSTS, a plain-HTTP request where HTTPS is required goes to Django
    (which redirects it), the database connection is managed as a request's is
    (close_old_connections), and a lost connection answers 503 (the script waits
    and asks again) where the page's middleware would run the request again. No
    middleware adds a header a poll's answer needs: it is not a page."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD")
        if "/live/" not in path or method not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        seat_poll = SEAT_POLL.fullmatch(path)
        found = seat_poll or PAGE_POLL.fullmatch(path)
        if found is None or not self._may_answer(environ):
            return self.app(environ, start_response)
        close_old_connections()
        # No health check first (CONN_HEALTH_CHECKS' extra round trip): a poll whose
        # kept connection has died fails, answers 503, and drops the connection,
        # and the script asks again a little later, on a new one.
        connection.health_check_done = True
        try:
            status, tag = answer(
                "seat" if seat_poll else "page",
                found["token"],
                environ.get("HTTP_IF_NONE_MATCH", ""),
            )
        except DatabaseError:
            log.warning("a poll found the database unavailable", exc_info=True)
            connection.close()
            status, tag = UNAVAILABLE, ""
        finally:
            close_old_connections()
        body = tag.encode() if status == OK and method == "GET" else b""
        headers = [*_headers(status, tag), ("Content-Length", str(len(body)))]
        start_response(f"{status} {REASONS.get(status, 'Service Unavailable')}", headers)
        return [body]

    @staticmethod
    def _may_answer(environ) -> bool:
        """The host is one of ALLOWED_HOSTS, and the scheme is HTTPS where the site
        requires it: else Django answers (400, a redirect), as for any request."""
        if settings.SECURE_SSL_REDIRECT and not _secure(environ):
            return False
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        domain, _port = split_domain_port(host)
        allowed = settings.ALLOWED_HOSTS
        if settings.DEBUG and not allowed:
            allowed = [".localhost", "127.0.0.1", "[::1]"]
        return bool(domain) and validate_host(domain, allowed)


def _secure(environ) -> bool:
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if header:
        name, value = header
        return environ.get(name, "").split(",")[0].strip() == value
    return environ.get("wsgi.url_scheme") == "https"
