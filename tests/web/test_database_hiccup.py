"""A database connection lost in the middle of a request: the request runs once
more; if the connection is lost again, a clear 503 that asks to try again."""

import os
import sqlite3
from unittest import mock

import psycopg
import pytest
from django.db import OperationalError, connection

from games.models import Submission
from games.web import middleware, views
from tests.support.fixtures_pages import form_for, fresh, path_of, post_form, start_game

pytestmark = pytest.mark.django_db


def flaky(real, failures: int):
    """``real``, failing its first ``failures`` calls as a cut connection does."""
    calls = {"n": 0}

    def run(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] <= failures:
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    return run


@pytest.fixture
def lost_connection():
    # A connection that failed; closing it stands for opening a new one.
    with mock.patch.object(middleware, "_unusable_connections", return_value=[mock.Mock()]):
        yield


def page_failing(client, failures: int):
    """A seat's page, its database connection lost ``failures`` times."""
    path = path_of(start_game().seats.get(index=1))
    with mock.patch.object(views, "_show", flaky(views._show, failures=failures)):
        return client.get(path)


def test_a_page_whose_connection_was_lost_is_served_on_a_new_one(client, lost_connection):
    response = page_failing(client, failures=1)
    assert response.status_code == 200
    assert form_for(response.content.decode(), "set_aside")  # the seat's own page


def test_a_move_run_again_after_a_lost_connection_is_played_once(client, lost_connection):
    game = start_game()
    seat = game.seats.get(index=1)
    page = client.get(path_of(seat)).content.decode()
    form = form_for(page, "set_aside")
    # The move commits, then the connection is lost before the answer: run again,
    # the form's one-time key finds the first outcome.
    real_move = views._move
    calls = {"n": 0}

    def commit_then_fail(request, seat, seats):
        calls["n"] += 1
        response = real_move(request, seat, seats)
        if calls["n"] == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return response

    with mock.patch.object(views, "_move", commit_then_fail):
        response = post_form(client, path_of(seat), form)
    assert response.status_code in (200, 302, 303)
    assert calls["n"] == 2
    assert Submission.objects.filter(game=game).count() == 1
    assert fresh(game).version == game.version + 1  # one move's events, not two


def test_a_connection_lost_twice_gets_a_clear_503_and_changes_nothing(client, lost_connection):
    response = page_failing(client, failures=2)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    text = response.content.decode()
    assert "Please try again in a moment" in text and "Nothing you sent was lost" in text


def test_other_database_errors_are_not_run_again(client):
    client.raise_request_exception = False
    response = page_failing(client, failures=1)
    assert response.status_code == 500  # the connection is fine: not a hiccup


# --- a real cut, on PostgreSQL ---------------------------------------------------------

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"


@pytest.fixture
def postgresql():
    """PostgreSQL, or a skip where it is not there and not required (CI requires it)."""
    if connection.vendor != "postgresql":
        if REQUIRED:
            pytest.fail("REQUIRE_SERVICES=1 but the database is not PostgreSQL")
        pytest.skip("needs PostgreSQL (DATABASE_URL); always there under CI")


class CutInTransaction:
    """An execute wrapper that, after the first statement run inside a transaction,
    has a second connection terminate this one's server process: the next
    statement of that transaction finds its connection gone, as when the server
    restarts or a proxy drops it mid-move."""

    def __init__(self):
        self.cuts = 0

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        conn = context["connection"]
        if self.cuts == 0 and conn.in_atomic_block:
            self.cuts += 1
            pid = conn.connection.info.backend_pid
            other = conn.get_new_connection(conn.get_connection_params())
            try:
                other.autocommit = True
                other.execute("SELECT pg_terminate_backend(%s)", (pid,))
            finally:
                other.close()
        return result


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_connection_is_cut_inside_its_transaction_is_played_once(client, postgresql):
    game = start_game()
    seat = game.seats.get(index=1)
    form = form_for(client.get(path_of(seat)).content.decode(), "set_aside")
    cut = CutInTransaction()
    with connection.execute_wrapper(cut):
        response = post_form(client, path_of(seat), form)
    assert cut.cuts == 1  # the cut happened, inside the move's transaction
    assert response.status_code == 200, response.status_code
    assert Submission.objects.filter(game=game).count() == 1
    assert fresh(game).version == game.version + 1  # the move, played once


def django_error(cause: Exception) -> OperationalError:
    """Django's OperationalError wrapping a driver error, as Django raises it."""
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("cause", "lost"),
    [
        (psycopg.errors.AdminShutdown("terminating connection"), True),  # 57P01
        (psycopg.errors.ConnectionFailure("connection failure"), True),  # 08006
        (psycopg.OperationalError("the connection is closed"), True),  # libpq, no SQLSTATE
        (psycopg.errors.DeadlockDetected("deadlock detected"), False),  # would fail again
        (psycopg.errors.LockNotAvailable("lock timeout"), False),
        (sqlite3.OperationalError("database is locked"), False),
    ],
)
def test_a_lost_connection_is_known_by_the_error_itself(cause, lost):
    assert middleware.is_lost_connection(django_error(cause)) is lost


def test_a_talk_line_whose_connection_was_lost_is_posted_once(client, lost_connection):
    """Lost as the line marks what its writer has read: that is in the line's own
    commit, so the request run again posts it once, not twice."""
    from games.core import talk
    from games.models import TalkMessage
    from tests.support.database_errors import failing_once
    from tests.support.database_errors import lost_connection as lost

    game = start_game()
    with mock.patch.object(talk, "mark_read", failing_once(talk.mark_read, lost())) as marking:
        response = client.post(path_of(game.seats.get(index=1)) + "talk/", {"text": "Honest!"})
    assert response.status_code == 302 and marking.calls == 2
    assert [m.text for m in TalkMessage.objects.filter(game=game)] == ["Honest!"]
