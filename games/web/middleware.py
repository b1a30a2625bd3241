"""A database connection lost in the middle of a request (the server restarted,
the connection was cut) is not the player's fault: the request runs once more on
a new connection, and if that fails too, the player is told to try again.

Running a request again is safe: a GET changes nothing, and a move carries its
form's one-time key, so a move whose first run did commit finds its first
outcome (moves.submit) instead of playing twice.
"""

import logging

from django.conf import settings
from django.db import OperationalError, connections
from django.http import Http404, JsonResponse
from django.http.request import split_domain_port, validate_host
from django.shortcuts import render

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


# SQLSTATEs that say the connection itself was lost: class 08 (connection exception)
# and the server shutting down or restarting (57P01 admin_shutdown, 57P02
# crash_shutdown, 57P03 cannot_connect_now).
LOST_CONNECTION_STATES = ("57P01", "57P02", "57P03")


def is_lost_connection(error: BaseException) -> bool:
    """Does this error say the connection was lost, rather than that a query failed?

    By what the error is, not by the connection's state afterwards: a connection
    that dies inside ``transaction.atomic()`` fails its rollback too, and Django
    closes it on the way out, so nothing unusable is left to find. A deadlock, a
    lock timeout or a bad statement would fail the same way again: not retried.
    """
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    state = getattr(cause, "sqlstate", None)
    if state:
        return state.startswith("08") or state in LOST_CONNECTION_STATES
    try:
        import psycopg
    except ImportError:  # SQLite only: its errors are not lost connections
        return False
    # libpq's own failures carry no SQLSTATE: "server closed the connection
    # unexpectedly", "the connection is closed", "consuming input failed".
    return isinstance(cause, psycopg.OperationalError)


def _unusable_connections() -> list:
    """The open connections that no longer answer. Only these are closed; the next
    query opens a new one."""
    return [
        conn
        for conn in connections.all(initialized_only=True)
        if conn.connection is not None and not conn.is_usable()
    ]


class DatabaseHiccupMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError):
            return None
        broken = _unusable_connections()
        if not broken and not is_lost_connection(exception):
            return None
        for conn in broken:
            conn.close()
        if not getattr(request, "_database_retried", False):
            request._database_retried = True
            log.warning("database connection lost during %s; running it again", request.path)
            return self.get_response(request)
        log.error("database connection lost twice during %s", request.path)
        if request.path.startswith("/api/"):  # a program reads JSON (games.api.errors)
            response = JsonResponse(
                {"error": {"code": "unavailable", "message": "Try again in a moment."}},
                status=503,
            )
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return response
        response = render(
            request,
            "link_error.html",
            {
                "title": "Please try again in a moment",
                "message": "The game could not be reached just now. Nothing you sent was "
                "lost or played twice: send it again, or reload the page.",
            },
            status=503,
            using="jinja",
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response


class PermissionsPolicyMiddleware:
    """Adds Permissions-Policy (settings.PERMISSIONS_POLICY), which Django has no
    setting for: a page that is compromised still gets no camera, location..."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = getattr(settings, "PERMISSIONS_POLICY", "")

    def __call__(self, request):
        response = self.get_response(request)
        if self.policy:
            response.headers.setdefault("Permissions-Policy", self.policy)
        return response


class AdminHostsMiddleware:
    """With settings.ADMIN_HOSTS set, the admin answers on those hosts only: on any
    other (the public site's), its address is a plain 404, as if there were no admin
    at all. Empty, the admin answers on every allowed host."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        hosts = settings.ADMIN_HOSTS
        if hosts and self._is_admin(request.path_info) and not self._on_admin_host(request):
            raise Http404("No such page.")
        return self.get_response(request)

    @staticmethod
    def _is_admin(path: str) -> bool:
        # "/admin" too: it would only be redirected to "/admin/".
        return (path + "/").startswith("/" + settings.ADMIN_PATH)

    @staticmethod
    def _on_admin_host(request) -> bool:
        domain, _ = split_domain_port(request.get_host())
        return bool(domain) and validate_host(domain, settings.ADMIN_HOSTS)
