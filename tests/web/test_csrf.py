"""A refused form says which cause the CSRF check found and leads back to the
seat's table; the pages' Referrer-Policy keeps the link's secret from other
sites without making the browser send "Origin: null" with its own forms."""

import pytest
from django.test import Client

from tests.support.fixtures_pages import form_for, fresh, path_of, start_game

pytestmark = pytest.mark.django_db

ORIGIN = "http://testserver"


@pytest.fixture
def game():
    return start_game()


def seat_path(game, index=1):
    return path_of(game.seats.get(index=index))


def page_and_form(client, path):
    response = client.get(path)
    return response, form_for(response.content.decode(), "set_aside")


def test_pages_send_their_origin_but_no_referer_to_other_sites(game):
    response = Client().get(seat_path(game))
    assert response["Referrer-Policy"] == "same-origin"
    assert '<meta name="referrer" content="same-origin">' in response.content.decode()
    assert "no-referrer" not in response.content.decode()


def test_a_same_origin_post_with_origin_is_accepted(game):
    browser = Client(enforce_csrf_checks=True)
    path = seat_path(game)
    _, form = page_and_form(browser, path)
    response = browser.post(path, form.hidden(), HTTP_ORIGIN=ORIGIN)
    assert response.status_code == 302
    assert fresh(game).version > game.version


def test_origin_null_is_refused_as_another_address_with_a_way_back(game):
    """What a browser sends under "Referrer-Policy: no-referrer"."""
    browser = Client(enforce_csrf_checks=True)
    path = seat_path(game)
    _, form = page_and_form(browser, path)
    response = browser.post(path, form.hidden(), HTTP_ORIGIN="null")
    html = response.content.decode()
    assert response.status_code == 403
    assert "This form came from another address" in html
    assert f'href="{path}"' in html and "Open my table" in html
    assert fresh(game).version == game.version


def test_a_missing_cookie_says_cookies(game):
    browser = Client(enforce_csrf_checks=True)
    path = seat_path(game)
    _, form = page_and_form(browser, path)
    browser.cookies.clear()
    response = browser.post(path, form.hidden(), HTTP_ORIGIN=ORIGIN)
    html = response.content.decode()
    assert response.status_code == 403
    assert "did not send this site" in html and f'href="{path}"' in html
    assert fresh(game).version == game.version


def test_a_token_from_an_older_cookie_says_expired(game):
    browser = Client(enforce_csrf_checks=True)
    path = seat_path(game)
    _, form = page_and_form(browser, path)
    other = Client(enforce_csrf_checks=True)
    page_and_form(other, path)  # a second browser: a cookie of its own
    browser.cookies["csrftoken"] = other.cookies["csrftoken"].value
    response = browser.post(path, form.hidden(), HTTP_ORIGIN=ORIGIN)
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()
    assert fresh(game).version == game.version


def test_no_way_back_from_a_revoked_or_foreign_link(game):
    seat = game.seats.get(index=1)
    path = seat_path(game)
    seat.link_version += 1
    seat.save()
    browser = Client(enforce_csrf_checks=True)
    html = browser.post(path, {"move": "set_aside"}).content.decode()
    assert "did not send this site" in html and "Open my table" not in html
    response = browser.post("/admin/login/", {"username": "x"})
    assert response.status_code == 403 and "Open my table" not in response.content.decode()
