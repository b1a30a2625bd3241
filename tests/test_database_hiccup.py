"""A database connection lost in the middle of a request: the request runs once
more; if the connection is lost again, a clear 503 that asks to try again."""

from unittest import mock

import pytest
from django.db import OperationalError
from fixtures_pages import form_for, fresh, path_of, post_form, start_game

from games import middleware, views
from games.models import Submission

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
    with mock.patch.object(middleware, "_lost_connections", return_value=[mock.Mock()]):
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
