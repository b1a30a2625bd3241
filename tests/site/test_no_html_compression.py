"""HTML responses stay uncompressed (docs/operations.md, "Configuration"): every page holds the
seat's token and a CSRF token beside text other players choose, which compressed
together leak the secrets through the response's length (BREACH)."""

import pytest
from django.conf import settings

from tests.support.fixtures_pages import path_of, start_game


def test_no_middleware_compresses_the_pages():
    assert not [m for m in settings.MIDDLEWARE if "gzip" in m.lower()]


@pytest.mark.django_db
def test_a_seat_page_asked_for_gzip_comes_plain(client):
    game = start_game()
    response = client.get(path_of(game.seats.get(index=1)), HTTP_ACCEPT_ENCODING="gzip, br")
    assert response.status_code == 200
    assert "Content-Encoding" not in response
    assert response.content.lstrip().startswith(b"<!doctype html>")
