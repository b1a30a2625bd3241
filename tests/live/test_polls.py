"""The polls an open page makes (games/web/live.py): 304 from one statement while
nothing changed, the new fingerprint once something has, and a plain refusal for
anything else — never a 500, never a session read, never a change."""

import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import controls, links, live
from games.models import Game
from tests.live.test_fingerprints import first_move
from tests.support.fixtures_pages import link_stem, path_of, start_game

pytestmark = pytest.mark.django_db

TAG = re.compile(r'data-tag="([^"]*)"')
URL = re.compile(r'data-url="([^"]*)"')


def poll_of(html: str) -> tuple[str, str]:
    """The poll's address and the fingerprint a page was made from."""
    return URL.search(html).group(1), TAG.search(html).group(1)


def test_a_seat_page_polls_304_in_one_statement_until_a_move(django_assert_num_queries):
    game = start_game()
    client = Client()
    url, tag = poll_of(client.get(path_of(game.seats.get(index=0))).content.decode())
    assert url.startswith(link_stem(game.seats.get(index=0))) and url.endswith("/live/")
    with django_assert_num_queries(1):
        answer = client.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"')
    assert answer.status_code == 304 and answer["ETag"] == f'"{tag}"'
    assert not answer.cookies and "private" in answer["Cache-Control"]
    assert client.get(url).content.decode() == tag  # no ETag sent: the tag itself
    first_move(game)
    moved = client.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"')
    assert moved.status_code == 200 and moved.content.decode() != tag
    # The page read again carries what the poll said.
    again = client.get(path_of(game.seats.get(index=0))).content.decode()
    assert poll_of(again)[1] == moved.content.decode()


def test_my_games_and_the_organizers_page_poll_too(organizer, django_assert_num_queries):
    game = start_game()
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    for page in (reverse("games:my-games"), reverse("games:organize", args=[game.pk])):
        url, tag = poll_of(organizer.get(page).content.decode())
        with django_assert_num_queries(1):
            answer = Client().get(url, HTTP_IF_NONE_MATCH=f'"{tag}"')  # no session needed
        assert answer.status_code == 304, page
    first_move(game)
    for page in (reverse("games:my-games"), reverse("games:organize", args=[game.pk])):
        url, tag = poll_of(organizer.get(page).content.decode())
        assert Client().get(url, HTTP_IF_NONE_MATCH=f'"{tag}"').status_code == 304


def test_a_replaced_players_page_is_told_it_is_gone():
    game = start_game()
    dee = game.seats.get(index=3)
    url = path_of(dee) + "live/"
    controls.replace_player(dee.pk, expected_version=game.version, name="Eve", email="e@x.org")
    assert Client().get(url).status_code == 410


def test_a_poll_changes_nothing_and_takes_no_post():
    game = start_game()
    url = path_of(game.seats.get(index=0)) + "live/"
    before = Game.objects.get(pk=game.pk).version
    assert Client().post(url).status_code == 405
    assert Client().head(url).status_code == 200
    assert Game.objects.get(pk=game.pk).version == before


@settings(max_examples=60, deadline=None)
@given(junk=st.text(min_size=1, max_size=80))
def test_any_bytes_as_a_token_get_404_never_a_500(junk):
    token = quote(junk, safe="")
    for url in (f"/live/{token}/", f"/play/{token}/live/"):
        try:
            answer = Client().get(url)
        except ValueError:  # not a path at all (a NUL): the test client refuses it
            continue
        assert answer.status_code in (403, 404), (url, answer.status_code)


def test_a_seats_link_and_a_pages_token_cannot_stand_for_each_other():
    game = start_game()
    seat_token = links.make_token(game.seats.get(index=0))
    assert Client().get(f"/live/{seat_token}/").status_code == 404
    person = live.token_for(live.PERSON, "ann@example.org")
    assert Client().get(f"/play/{person}/live/").status_code == 404
