"""Unread table talk (games/core/talk.py unread, mark_read, with_unread): the seat
page and My games count it, one's own messages never, reading a page marks
nothing (a POST does), and the game's own lines among the talk, as the reader
prefers."""

import pytest
from django.test import Client
from django.utils import timezone

from games.core import talk
from games.models import Seat, TalkMessage
from tests.support.fixtures_pages import path_of, start_game
from tests.support.person_games import market_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return start_game()


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def post(game, index: int, text: str, to=None) -> TalkMessage:
    message = talk.post(seat(game, index), text, timezone.now())
    if to is not None:  # a private message, as the table's option would allow
        TalkMessage.objects.filter(pk=message.pk).update(to_seat=seat(game, to))
    return message


def page(client, game, index: int) -> str:
    return client.get(path_of(seat(game, index))).content.decode()


def panel(html: str) -> str:
    start = html.index('id="talk"')
    return html[start : html.index("</section>", start)]


def read(client, game, index: int, upto, quiet: bool = True):
    data = {"upto": upto, **({"quiet": "1"} if quiet else {})}
    return client.post(path_of(seat(game, index)) + "talk/read/", data)


def test_others_messages_are_new_and_ones_own_never(client, game):
    post(game, 1, "Ann, open Cid's bag.")
    post(game, 2, "Don't listen to Ben.")
    html = page(client, game, 0)
    assert "2 new messages in the table talk" in html  # the jump link at the top
    assert "2 new" in panel(html) and panel(html).count('class="talk-message new"') == 2
    ben = page(client, game, 1)
    assert "1 new message in the table talk" in ben  # Cid's; his own is not unread
    assert 'talk-message mine"' in panel(ben)


def test_opening_the_page_marks_nothing_read(client, game):
    post(game, 1, "hello")
    for _ in range(3):  # a mail scanner opens every link
        assert "1 new message" in page(client, game, 0)
    assert seat(game, 0).talk_read_id == 0


def test_reading_is_a_post_and_later_messages_are_new_again(client, game):
    first = post(game, 1, "one")
    assert read(client, game, 0, first.ref).status_code == 204
    assert seat(game, 0).talk_read_id == first.pk
    html = page(client, game, 0)
    assert "new message" not in html and "Mark as read" not in html
    post(game, 2, "two")
    assert "1 new message in the table talk" in page(client, game, 0)


def test_the_mark_as_read_button_works_without_the_script(client, game):
    message = post(game, 1, "one")
    response = read(client, game, 0, message.ref, quiet=False)
    assert response.status_code == 302 and response["Location"].endswith("#talk")
    assert seat(game, 0).talk_read_id == message.pk


def test_only_a_message_the_reader_may_read_marks_anything(client, game):
    elsewhere = post(start_game(), 1, "another table")
    whisper = post(game, 1, "psst, Cid", to=2)
    for ref in (elsewhere.ref, whisper.ref):
        read(client, game, 0, ref)
        assert seat(game, 0).talk_read_id == 0
    read(client, game, 2, whisper.ref)  # its reader has read it
    assert seat(game, 2).talk_read_id == whisper.pk


def test_the_page_names_messages_by_refs_that_tell_no_order(client, game):
    """No number on a page counts the messages between two others (a private
    message in between would show as a gap)."""
    first, second = post(game, 1, "one"), post(game, 2, "two")
    html = panel(page(client, game, 0))
    assert f'id="talk-{first.ref}"' in html and f'id="talk-{second.ref}"' in html
    assert f"talk-{first.pk}" not in html and f'value="{second.pk}"' not in html


@pytest.mark.parametrize("upto", ["", "abc", "-3", "1e9", "\x00", "9" * 40, "١٢"])
def test_any_bytes_as_what_was_read_change_nothing(client, game, upto):
    post(game, 1, "one")
    assert read(client, game, 0, upto).status_code == 204
    assert seat(game, 0).talk_read_id == 0


def test_reading_needs_the_pages_csrf_token(game):
    message = post(game, 1, "one")
    strict = Client(enforce_csrf_checks=True)
    assert read(strict, game, 0, message.ref).status_code == 403
    assert seat(game, 0).talk_read_id == 0


def test_answering_marks_read_what_the_page_showed(client, game):
    message = post(game, 1, "Who opens Cid's bag?")
    url = path_of(seat(game, 0)) + "talk/"
    client.post(url, {"text": "Not me.", "seen": message.ref})
    assert seat(game, 0).talk_read_id == message.pk


def test_hidden_messages_and_others_private_ones_are_not_counted(client, game):
    hidden = post(game, 1, "rude")
    talk.hide(hidden, "org@example.org", "rude", timezone.now())
    post(game, 1, "psst, Cid", to=2)
    assert "new message" not in page(client, game, 0)
    assert "1 new message in the table talk" in page(client, game, 2)


def test_my_games_counts_each_seats_unread_talk(client, game):
    post(game, 1, "one")
    post(game, 2, "two")
    client.force_login(_person("ann@example.org"))
    before = path_of(seat(game, 0))
    html = client.get("/my/").content.decode()
    after = path_of(seat(game, 0))  # a link is signed with its second: one may tick over
    assert "2 new messages in the table talk" in html
    assert before + "#talk" in html or after + "#talk" in html
    read(client, game, 0, TalkMessage.objects.order_by("-id").first().ref)
    assert "new message" not in client.get("/my/").content.decode()


def test_my_games_counts_in_one_statement_whatever_the_number_of_seats(
    client, django_assert_max_num_queries
):
    games = [start_game() for _ in range(3)]
    for game in games:
        post(game, 1, "hello")
    client.force_login(_person("ann@example.org"))
    with django_assert_max_num_queries(12):
        html = client.get("/my/").content.decode()
    assert html.count("1 new message in the table talk") == 3


def _person(email: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=email, email=email)


def test_the_games_own_lines_come_among_the_talk_where_they_happened(client, game):
    post(game, 1, "Before the market.")
    market_move(seat(game, 2))
    post(game, 3, "After Cid's market move.")
    html = panel(page(client, game, 0))
    before, system, after = (
        html.index("Before the market."),
        html.index('class="talk-system"'),
        html.index("After Cid"),
    )
    assert after < system < before  # newest first, the game's line between the two
    assert "Hide the game" in html


def test_the_reader_may_hide_the_games_lines(client, game):
    post(game, 1, "Before.")
    market_move(seat(game, 2))
    post(game, 3, "After.")
    response = client.post(path_of(seat(game, 0)) + "talk/lines/", {"shown": "0"})
    assert response.status_code == 302
    html = panel(page(client, game, 0))
    assert 'class="talk-system"' not in html and "Show the game" in html
    assert 'class="talk-system"' in panel(page(client, game, 1))  # Ben's own preference
    client.post(path_of(seat(game, 0)) + "talk/lines/", {"shown": "1"})
    assert 'class="talk-system"' in panel(page(client, game, 0))


def test_no_talk_no_game_lines_in_the_panel(client, game):
    market_move(seat(game, 2))
    assert 'class="talk-system"' not in panel(page(client, game, 0))
