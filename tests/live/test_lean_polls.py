"""The site's WSGI application answers the polls ahead of Django's request cycle
(games.web.live.LeanPolls): the same answers as the views, the same refusals of
a wrong host or scheme, and a 503 (never a 500) when the database is gone."""

import io
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client

from games.core import controls, links, live
from sheriff_pbem.wsgi import application
from tests.live.test_fingerprints import first_move
from tests.support.fixtures_pages import start_game

# The application manages the database connection as a request does: no test
# transaction around it.
pytestmark = pytest.mark.django_db(transaction=True)


def call(
    path: str, method: str = "GET", host: str = "testserver", scheme: str = "http", **headers
) -> tuple:
    """(status, headers, body) of the site's application."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": host,
        "wsgi.url_scheme": scheme,
        "wsgi.input": io.BytesIO(b""),
        **{f"HTTP_{k.upper()}": v for k, v in headers.items()},
    }
    started = {}
    body = application(environ, lambda status, heads: started.update(s=status, h=dict(heads)))
    content = b"".join(body)
    if hasattr(body, "close"):
        body.close()
    return int(started["s"].split()[0]), started["h"], content


def test_the_site_answers_as_the_views_do():
    game = start_game()
    path = links.seat_path(game.seats.get(index=0)) + "live/"
    person = "/live/" + live.token_for(live.PERSON, "ann@example.org") + "/"
    for poll in (path, person):
        status, headers, body = call(poll)
        view = Client().get(poll)
        assert (status, headers["ETag"], body) == (200, view["ETag"], view.content)
        tag = headers["ETag"]
        status, headers, body = call(poll, if_none_match=tag)
        assert (status, body) == (304, b"") and headers["ETag"] == tag
        assert headers["Cache-Control"] == "private, no-cache"
    first_move(game)
    assert call(path, if_none_match=tag)[0] == 200
    assert call("/live/nothing-signed/")[0] == 404
    assert call("/play/nothing-signed/live/")[0] == 404
    dee = game.seats.get(index=3)
    gone = links.seat_path(dee) + "live/"
    game.refresh_from_db()
    controls.replace_player(dee.pk, expected_version=game.version, name="Eve", email="e@x.org")
    assert call(gone)[0] == 410
    assert call(path, method="HEAD")[2] == b""


def test_what_is_not_a_poll_goes_to_django(settings):
    game = start_game()
    path = links.seat_path(game.seats.get(index=0)) + "live/"
    assert call(path, method="POST")[0] == 403  # Django's: a POST without its CSRF token
    assert call(path, host="elsewhere.example")[0] == 400  # not an allowed host
    settings.SECURE_SSL_REDIRECT = True  # plain HTTP: Django's, which redirects it
    with mock.patch.object(application, "app", wraps=application.app) as django:
        call(path)
        assert call(path, scheme="https")[0] == 200  # the site's own answer
    assert django.call_count == 1


def test_a_lost_database_answers_503_and_drops_the_connection():
    game = start_game()
    path = links.seat_path(game.seats.get(index=0)) + "live/"
    with (
        mock.patch.object(live, "seat", side_effect=OperationalError("server closed")),
        mock.patch("games.web.live.connection") as conn,
    ):
        status, headers, _ = call(path)
    assert status == 503 and headers["Retry-After"] == "10"
    conn.close.assert_called_once()
