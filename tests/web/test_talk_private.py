"""The table talk's private messages and quotes (games/core/talk.py, games/present/talk.py):
who reads a private message (its two seats; everyone after the game if it reveals them),
what it looks like, its report, the organizer's thread; a message answering an offer or a
declaration; the settings chosen at set-up; any bytes in the new fields; and a property
test that a third party's page never depends on a private message."""

import re
import uuid
from urllib.parse import quote_from_bytes

import hypothesis
import pytest
from django.contrib.messages import get_messages
from django.db import transaction
from django.utils import timezone
from hypothesis import strategies as st

from games.core import lobbies, talk
from games.core.game_writes import ServiceError
from games.engine import apply
from games.models import Game, Seat, TalkMessage, TalkReport
from games.organizer import talk_moderation
from tests.support.builders import offer, play_out, to_inspection
from tests.support.email_players import SIGNED_LINK, VOLATILE
from tests.support.fixtures_pages import fresh, path_of, start_game
from tests.web.test_lobbies import accept, create, invitation_path, mails_to
from tests.web.test_lobbies import signed_in as signed_in_as
from tests.web.test_talk import FUZZ

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return private_game()


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def private_game(reveal: bool = True, **config) -> Game:
    game = start_game(**config)
    Game.objects.filter(pk=game.pk).update(talk_private=True, reveal_private=reveal)
    return fresh(game)


def store(game, state) -> Game:
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    return fresh(game)


def in_inspection(game) -> Game:
    """The inspection, Ben's offer #1 to the Sheriff (Ann) on the table."""
    state = to_inspection(game.engine_state(), {1: (["cheese", "cheese"], "cheese")})
    state, _offer_id = offer(state, 1, state.sheriff, gold=2, passes=[1])
    return store(game, state)


def finished(game) -> Game:
    state, _events = play_out(game.engine_state())
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), status=Game.Status.FINISHED)
    return fresh(game)


def say(client, game, index: int, text: str, **fields):
    return client.post(path_of(seat(game, index)) + "talk/", {"text": text, **fields})


def said(response) -> list:
    return [str(m) for m in get_messages(response.wsgi_request)]


def page(client, game, index: int, query: str = "") -> str:
    return client.get(path_of(seat(game, index)) + query).content.decode()


def talk_html(client, game, index: int, query: str = "") -> str:
    html = page(client, game, index, query)
    return html[html.index('id="talk"') : html.index("</section>", html.index('id="talk"'))]


def record(game) -> tuple:
    rows = list(TalkMessage.objects.filter(game=game).values())
    seats = list(Seat.objects.filter(game=game).order_by("index").values())
    after = fresh(game)
    return rows, seats, list(TalkReport.objects.values()), after.version, after.state


# --- private messages -----------------------------------------------------------------------


def test_a_private_message_is_read_by_its_two_seats_only(client):
    game = private_game()
    response = say(client, game, 1, "Cid, inspect Dee and I pay you.", to="2")
    assert response.status_code == 302
    assert said(response) == ["Your private message is sent: only Cid reads it."]
    message = TalkMessage.objects.get()
    assert (message.seat.index, message.to_seat.index) == (1, 2)
    ben, cid = talk_html(client, game, 1), talk_html(client, game, 2)
    assert "Cid, inspect Dee" in ben and "privately to Cid" in ben
    assert "Cid, inspect Dee" in cid and "privately to you" in cid
    assert re.search(r'class="talk-message[^"]* private"', cid)  # its own look, beside the words
    for third in (0, 3):
        html = page(client, game, third)
        assert "Cid, inspect Dee" not in html and "privately" not in html


def test_the_to_list_and_the_help_say_whether_private_messages_are_on(client):
    public = start_game()
    html = talk_html(client, public, 1)
    assert 'name="to"' not in html and "Everyone at the table reads everything" in html
    game = private_game(reveal=False)
    html = talk_html(client, game, 1)
    options = re.findall(r'<option value="(\d*)"[^>]*>([^<]*(?:<bdi>[^<]*</bdi>)?[^<]*)', html)
    assert [value for value, _label in options] == ["", "0", "2", "3"]  # not oneself
    assert "Everyone at the table" in html and "Only Ann (private)" in html
    assert "only the two of you read it, even after the game" in html
    assert "revealed" in talk_html(client, private_game(reveal=True), 1)


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"to": "1"}, "one other player at this table"),  # oneself
        ({"to": "4"}, "one other player at this table"),
        ({"to": "99"}, "one other player at this table"),
        ({"to": "-1"}, "Choose whom the message is for"),
        ({"to": "Cid"}, "Choose whom the message is for"),
        ({"to": "\u0662"}, "Choose whom the message is for"),  # an Arabic-Indic digit
        ({"about": "offer-1"}, "not on the table now"),  # no offer in the market
        ({"about": "declaration"}, "Choose what your message answers"),
        ({"about": "bag-1"}, "Choose what your message answers"),
    ],
)
def test_a_refused_target_or_quote_says_why_and_changes_nothing(client, fields, why):
    game = private_game()
    before = record(game)
    response = say(client, game, 1, "hello", **fields)
    assert response.status_code == 400
    assert any(why in m for m in said(response)), said(response)
    assert record(game) == before
    assert "hello</textarea>" in response.content.decode()  # what was typed, kept


def test_a_refused_private_message_comes_back_to_the_same_reader_and_quote(client):
    game = in_inspection(private_game())
    response = say(client, game, 2, "x" * 1001, to="3", about="offer-1")
    html = response.content.decode()
    assert response.status_code == 400
    assert '<option value="3" selected>' in html and '<option value="offer-1" selected>' in html


def test_private_messages_are_refused_where_the_game_does_not_allow_them(client):
    game = start_game()
    before = record(game)
    response = say(client, game, 1, "just us", to="2")
    assert response.status_code == 400 and record(game) == before
    assert any("did not allow private messages" in m for m in said(response))
    with pytest.raises(ServiceError):
        talk.post(seat(game, 1), "just us", timezone.now(), to_index=2)


def test_the_reader_may_report_a_private_message_and_only_the_reader(client):
    game = private_game()
    before = talk.post(seat(game, 0), "a public line before", timezone.now())
    secret = talk.post(seat(game, 3), "another pair's secret", timezone.now(), to_index=0)
    message = talk.post(seat(game, 1), "Cid, you are a fool.", timezone.now(), to_index=2)
    talk.post(seat(game, 0), "a public line after", timezone.now())
    third = client.post(f"{path_of(seat(game, 3))}talk/{message.ref}/report/", follow=True)
    assert "There is no such message at this table." in " ".join(said(third))
    assert not TalkReport.objects.exists()  # as if it never was
    reader = client.post(f"{path_of(seat(game, 2))}talk/{message.ref}/report/", follow=True)
    assert "the organizer will look at this message" in " ".join(said(reader))
    section = talk_moderation.section(game, "UTC")
    [flagged] = section["flagged"]
    thread = [m["id"] for m in flagged["thread"]]
    assert message.ref in thread and before.ref in thread and secret.ref not in thread
    [line] = [m for m in flagged["thread"] if m["id"] == message.ref]
    assert "privately from" in line["privately"] and "Ben" in line["privately"]
    assert section["count"] == 2  # the table's messages: private ones are not counted


def test_the_organizers_page_shows_the_settings():
    game = private_game(reveal=False)
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    html = signed_in_as("org@example.org").get(f"/organize/{game.pk}/").content.decode()
    assert "Private messages between two players: on." in html
    assert "They stay private after the game." in html


# --- quotes ---------------------------------------------------------------------------------


def test_a_message_answers_an_offer_or_a_declaration_and_links_to_it(client):
    game = in_inspection(private_game())
    html = talk_html(client, game, 2)
    assert '<option value="offer-1">Offer #1</option>' in html
    assert re.search(r'<option value="declaration-1">Ben’s declaration: 2 ', html)
    assert say(client, game, 2, "Don't take it, Ann.", about="offer-1").status_code == 302
    assert say(client, game, 3, "Liar.", about="declaration-1").status_code == 302
    first, second = TalkMessage.objects.order_by("id")
    assert (first.quote_kind, first.quote_ref) == ("offer", 1)
    assert (second.quote_kind, second.quote_ref) == ("declaration", 1)
    html = page(client, game, 0)
    assert 'id="offer-1"' in html and 'id="declaration-1"' in html
    assert '<a href="#offer-1">re: Offer #1</a>' in html
    assert '<a href="#declaration-1">re: Ben’s declaration</a>' in html
    # Once the inspection is over, the quote is words without a link.
    state = apply(game.engine_state(), {"type": "timeout"})[0]
    html = talk_html(client, store(game, state), 0)
    assert "re: Offer #1" in html and 'href="#offer-1"' not in html


def test_a_demand_is_answered_as_a_demand(client):
    game = private_game()
    state = to_inspection(game.engine_state(), {1: (["cheese", "cheese"], "cheese")})
    state, demand = offer(state, state.sheriff, 1, gold=3, passes=[1])  # Ann asks Ben
    game = store(game, state)
    assert f'<option value="offer-{demand}">Demand #{demand}</option>' in talk_html(client, game, 2)
    assert say(client, game, 2, "Pay her, Ben.", about=f"offer-{demand}").status_code == 302
    assert TalkMessage.objects.get().quote_kind == "demand"
    html = talk_html(client, game, 3)
    assert f'<a href="#offer-{demand}">re: Demand #{demand}</a>' in html


def test_answer_in_the_talk_preselects_and_changes_nothing(client):
    game = in_inspection(private_game())
    html = page(client, game, 0)
    assert 'href="?talk_about=offer-1#talk"' in html
    assert 'href="?talk_about=declaration-1#talk"' in html
    before = record(game)
    chosen = talk_html(client, game, 0, "?talk_about=offer-1")
    assert '<option value="offer-1" selected>' in chosen
    for odd in ("offer-9", "\x00", "x" * 5000, "declaration-"):
        assert '" selected>' not in talk_html(client, game, 0, f"?talk_about={odd}")
    assert record(game) == before


def test_a_quote_of_something_the_seat_cannot_answer_is_refused(client):
    game = in_inspection(private_game())
    before = record(game)
    for about in ("offer-2", "declaration-0", "declaration-9"):  # Ann is the Sheriff: no bag
        response = say(client, game, 2, "about nothing", about=about)
        assert response.status_code == 400 and record(game) == before
        assert any("not on the table now" in m for m in said(response))


def test_a_spanish_reader_sees_private_and_quote_words_in_spanish(client):
    game = in_inspection(private_game())
    Seat.objects.filter(game=game, index=2).update(language="es")
    talk.post(seat(game, 1), "Trust me.", timezone.now(), to_index=2, about="offer-1")
    html = talk_html(client, game, 2)
    assert "en privado para ti" in html and "re: Oferta n.º 1" in html and "Trust me." in html


# --- after the game -------------------------------------------------------------------------


@pytest.mark.parametrize("reveal", [True, False])
def test_the_final_page_reveals_private_messages_if_the_game_says_so(client, reveal):
    game = private_game(reveal=reveal)
    talk.post(seat(game, 1), "My bag is honest, Cid.", timezone.now(), to_index=2)
    game = finished(game)
    html = talk_html(client, game, 3)
    assert "talk is closed" in html and "<textarea" not in html  # read-only
    if reveal:
        assert "My bag is honest, Cid." in html
        assert "privately from Ben to Cid" in html
        assert "every private message is revealed" in html
    else:
        assert "My bag is honest, Cid." not in html and "privately from" not in html
        assert "each of you sees only your own" in html
        assert "My bag is honest, Cid." in talk_html(client, game, 2)


# --- the settings at set-up -----------------------------------------------------------------


def test_the_private_settings_chosen_at_set_up_are_the_games():
    organizer = signed_in_as("alice@example.org")
    form = organizer.get("/new/").content.decode()
    assert re.search(r'<input type="checkbox" name="talk_private"(?![^>]*checked)', form)
    assert re.search(r'<input type="checkbox" name="reveal_private"[^>]*checked', form)
    assert "Private messages between two players" in form
    lobby = create(organizer, players="3", talk_private="on", reveal_private="")
    for address, name in (("bob@example.org", "Bob"), ("carol@example.org", "Carol")):
        accept(invitation_path(mails_to(address)[0]), name)
    game = lobbies.start(lobby.pk)
    assert (game.talk_private, game.reveal_private) == (True, False)
    plain = create(organizer, name="Open table", players="3", reveal_private="on")
    assert (plain.timing["talk_private"], plain.timing["reveal_private"]) == (False, True)


# --- any bytes ------------------------------------------------------------------------------

NEAR = [b"", b"0", b"2", b"1", b"9", b"offer-1", b"declaration-0", b"offer-", b"-1"]


@hypothesis.settings(FUZZ, max_examples=60)
@hypothesis.given(
    to=st.one_of(st.sampled_from(NEAR), st.binary(max_size=40)),
    about=st.one_of(st.sampled_from(NEAR), st.binary(max_size=40)),
)
def test_any_bytes_in_to_and_about(client, settings, game, to, about):
    settings.TALK_BURST = 10_000
    body = b"text=hello&to=" + quote_from_bytes(to).encode()
    body += b"&about=" + quote_from_bytes(about).encode()
    before = record(game)
    response = client.post(
        path_of(seat(game, 1)) + "talk/", body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code in (302, 400), response.status_code
    if response.status_code == 400:
        assert record(game) == before and "msg-error" in response.content.decode()
    else:  # only the whole table or another seat, never a quote (nothing to answer)
        message = TalkMessage.objects.filter(game=game).latest("id")
        assert message.to_seat is None or message.to_seat.index in (0, 2, 3)
        assert message.quote_kind == ""


# --- no leak: a third party's page never depends on a private message -----------------------

NO_LEAK = hypothesis.settings(FUZZ, max_examples=15)

STEP = st.one_of(
    st.tuples(st.just("say"), st.integers(0, 3), st.none() | st.integers(0, 3)),
    st.tuples(st.just("timeout"), st.just(0), st.none()),
)


def stable(html: str) -> str:
    """A page without what changes from one rendering to the next (CSRF tokens, form
    keys, the signed links' timestamps)."""
    return SIGNED_LINK.sub("/play/LINK/", VOLATILE.sub("", html))


def pages_without(client, game, index: int, doomed: list) -> str:
    """The seat's page as if the messages ``doomed`` had never been written."""
    with transaction.atomic():
        TalkMessage.objects.filter(pk__in=doomed).delete()
        html = stable(page(client, game, index))
        transaction.set_rollback(True)
    return html


@NO_LEAK
@hypothesis.given(steps=st.lists(STEP, min_size=1, max_size=12), reveal=st.booleans())
def test_a_third_party_never_sees_a_private_message_nor_its_existence(
    client, settings, steps, reveal
):
    settings.TALK_BURST = 10_000
    game = private_game(reveal=reveal)
    written = []  # (message, its text)
    for kind, author, reader in steps:
        if kind == "timeout":
            game = store(game, apply(game.engine_state(), {"type": "timeout"})[0])
            continue
        text = f"sentinel-{uuid.uuid4().hex}"
        to = reader if reader != author else None
        written.append((talk.post(seat(game, author), text, timezone.now(), to_index=to), text))
    privates = [(m, text) for m, text in written if m.to_seat_id is not None]
    for index in range(4):
        me = seat(game, index).pk
        html = stable(page(client, game, index))
        for message, text in written:
            ours = message.to_seat_id is None or me in (message.seat_id, message.to_seat_id)
            assert (text in html) == ours
        others = [m.pk for m, _text in privates if me not in (m.seat_id, m.to_seat_id)]
        if others:  # the page is the same as if they had never been written: no count, no mark
            assert html == pages_without(client, game, index, others)
        if not any(me in (m.seat_id, m.to_seat_id) for m, _text in privates):
            assert "privately" not in html
    game = finished(game)
    for index in range(4):
        me = seat(game, index).pk
        html = page(client, game, index)
        for message, text in privates:
            assert (text in html) == (reveal or me in (message.seat_id, message.to_seat_id))
