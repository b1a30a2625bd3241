"""The table talk on the seat page (games/core/talk.py, games/web/talk.py): posting,
every refusal changing nothing, pacing, the organizer's talk windows, mute, hide,
report, paging, and text shown as written (isolated, never a link)."""

import re
from datetime import timedelta
from urllib.parse import quote, quote_from_bytes

import hypothesis
import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone
from hypothesis import strategies as st

from games.core import talk
from games.core.game_writes import ServiceError
from games.models import Game, Seat, TalkMessage, TalkReport
from tests.support.builders import to_inspection
from tests.support.fixtures_pages import fresh, path_of, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return start_game()


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def in_inspection(game) -> Game:
    state = to_inspection(game.engine_state(), {})
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    return fresh(game)


def say(client, game, index: int, text: str, follow: bool = False):
    return client.post(path_of(seat(game, index)) + "talk/", {"text": text}, follow=follow)


def said(response) -> list:
    return [str(m) for m in get_messages(response.wsgi_request)]


def record(game) -> tuple:
    rows = list(TalkMessage.objects.filter(game=game).values())
    seats = list(Seat.objects.filter(game=game).order_by("index").values())
    reports = list(TalkReport.objects.values())
    after = fresh(game)
    return rows, seats, reports, after.version, after.state, after.talk


def talk_html(client, game, index: int, query: str = "") -> str:
    html = client.get(path_of(seat(game, index)) + query).content.decode()
    return html[html.index('id="talk"') : html.index("</section>", html.index('id="talk"'))]


def test_a_message_is_on_every_seats_page_with_its_round_and_phase(client, game):
    game = in_inspection(game)
    response = say(client, game, 1, "Open Cid's bag, Ann, and I pay you 5.")
    assert response.status_code == 302 and re.fullmatch(r"/play/[^/]+/#talk", response["Location"])
    assert said(response) == ["Your message is on the table for everyone to read."]
    message = TalkMessage.objects.get()
    assert (message.seat.index, message.round, message.phase_kind) == (1, 1, "inspection")
    for index in range(4):
        html = talk_html(client, game, index)
        assert "Open Cid&#39;s bag, Ann, and I pay you 5." in html
        assert "Round 1 · Inspection" in html
        assert ("Report" in html) == (index != 1)  # one's own message is not one's to report


def test_every_form_of_a_page_carries_the_same_csrf_token(client, game):
    """One mask a page (jinja_env.one_csrf_field): the talk panel's forms and the
    moves' forms alike."""
    game = in_inspection(game)
    say(client, game, 1, "Open Cid's bag, Ann, and I pay you 5.")
    html = client.get(path_of(seat(game, 0))).content.decode()
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert html.count("<form") >= 3 and len(tokens) == html.count('name="csrfmiddlewaretoken"')
    assert len(tokens) >= 3 and len(set(tokens)) == 1


def test_the_time_is_in_the_readers_zone(client, game):
    game = in_inspection(game)
    Seat.objects.filter(game=game, index=2).update(timezone="Asia/Tokyo")
    talk.post(seat(game, 1), "hello", timezone.now())
    local = timezone.now().astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    assert local.strftime("%H:%M") in talk_html(client, game, 2)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the message was empty"),
        ("   \r\n  ", "the message was empty"),
        ("x" * 1001, "at most 1000 characters"),
        ("\n".join(["line"] * 11), "at most 10 lines"),
        ("nul\x00here", "no other control characters"),
        ("bell\x07", "no other control characters"),
    ],
)
def test_a_refused_message_changes_nothing_and_keeps_what_was_typed(client, game, text, why):
    before = record(game)
    response = say(client, game, 1, text)
    assert response.status_code == 400
    assert any(why in m for m in said(response)), said(response)
    assert record(game) == before
    if "\x00" not in text and text.strip():
        assert "<textarea" in response.content.decode()
        # The page is shown at the seat's own address: its links and forms start there.
        assert re.search(r'action="/play/[^/"]+/talk/"', response.content.decode())


def test_a_seat_posting_in_a_loop_is_paced(client, game, settings):
    settings.TALK_BURST, settings.TALK_REFILL_SECONDS = 3, 30
    for number in range(3):
        assert say(client, game, 1, f"line {number}").status_code == 302
    before = record(game)
    refused = say(client, game, 1, "one more")
    assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert any("Too many messages in a short time" in m for m in said(refused))
    assert record(game) == before
    assert say(client, game, 2, "another seat is not paced by Ben").status_code == 302
    later = timezone.now() + timedelta(seconds=31)
    talk.post(seat(game, 1), "after the wait", later)  # a message earned back
    with pytest.raises(ServiceError) as refusal:
        talk.post(seat(game, 1), "and again at once", later)
    assert refusal.value.code == "too_fast"


def test_the_organizers_windows(client, game):
    Game.objects.filter(pk=game.pk).update(talk=Game.Talk.INSPECTION)
    before = record(game)
    response = say(client, game, 1, "in the market")
    assert response.status_code == 400 and record(game) == before
    assert any("during the inspection only" in m for m in said(response))
    html = talk_html(client, game, 1)
    assert "during the inspection only" in html and "<textarea" not in html
    game = in_inspection(game)
    assert say(client, game, 1, "now we may").status_code == 302
    Game.objects.filter(pk=game.pk).update(talk=Game.Talk.OFF)
    before = record(game)
    assert say(client, game, 2, "off").status_code == 400 and record(game) == before
    html = talk_html(client, game, 2)
    assert "talk off for this game" in html and "now we may" in html


def test_a_finished_game_closes_the_talk(client, game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
    before = record(game)
    assert say(client, game, 1, "too late").status_code == 400
    assert record(game) == before


def test_a_muted_seat_cannot_talk_and_is_told_so(client, game):
    talk.mute(seat(game, 3), "org@example.org", timezone.now())
    before = record(game)
    response = say(client, game, 3, "let me speak")
    assert response.status_code == 400 and record(game) == before
    assert "muted your talk" in talk_html(client, game, 3)
    assert say(client, game, 2, "others still may").status_code == 302


def test_a_hidden_message_shows_as_hidden_to_players(client, game):
    message = talk.post(seat(game, 1), "something rude", timezone.now())
    talk.hide(message, "Org@Example.org", "rude", timezone.now())
    message.refresh_from_db()
    assert (message.hidden_by, message.hidden_reason, message.text) == (
        "org@example.org",
        "rude",
        "something rude",
    )
    for index in (1, 2):
        html = talk_html(client, game, index)
        assert "something rude" not in html and "A message hidden by the organizer" in html
        assert "rude" not in html.replace("something rude", "")


def test_a_report_counts_once_per_seat_and_not_for_ones_own(client, game):
    message = talk.post(seat(game, 1), "Ann is a cheat", timezone.now())
    url = f"{path_of(seat(game, 2))}talk/{message.ref}/report/"
    first = client.post(url, follow=True)
    assert "the organizer will look at this message" in " ".join(said(first))
    again = client.post(url, follow=True)
    assert "You already reported this message." in " ".join(said(again))
    assert TalkReport.objects.filter(message=message).count() == 1
    own = client.post(f"{path_of(seat(game, 1))}talk/{message.ref}/report/", follow=True)
    assert "You cannot report this message." in " ".join(said(own))
    other_game = start_game()
    elsewhere = client.post(
        f"{path_of(seat(other_game, 2))}talk/{message.ref}/report/", follow=True
    )
    assert "no such message" in " ".join(said(elsewhere))
    odd = client.post(f"{path_of(seat(game, 2))}talk/a%00b/report/", follow=True)
    assert odd.status_code == 200 and "no such message" in " ".join(said(odd))
    assert TalkReport.objects.count() == 1


def test_get_changes_nothing_and_the_forms_need_post(client, game):
    talk.post(seat(game, 1), "hello", timezone.now())
    before = record(game)
    assert client.get(path_of(seat(game, 2)) + "talk/").status_code == 405
    message = TalkMessage.objects.get()
    assert client.get(f"{path_of(seat(game, 2))}talk/{message.ref}/report/").status_code == 405
    assert record(game) == before


def test_the_forms_are_csrf_checked(game):
    client = Client(enforce_csrf_checks=True)
    before = record(game)
    assert say(client, game, 1, "no token").status_code == 403
    assert record(game) == before


def test_older_messages_a_page_at_a_time(client, game, settings):
    settings.TALK_BURST = 100
    now = timezone.now()
    for number in range(45):
        talk.post(seat(game, number % 4), f"message number {number}.", now)
    newest = talk_html(client, game, 0)
    assert "message number 44." in newest and "message number 25." in newest
    assert "message number 24." not in newest
    older = re.search(r'href="\?talk_before=([\w-]+)#talk"', newest).group(1)
    second = talk_html(client, game, 0, f"?talk_before={older}")
    assert "message number 24." in second and "message number 5." in second
    assert "message number 25." not in second and "message number 4." not in second
    last = re.search(r'href="\?talk_before=([\w-]+)#talk"', second).group(1)
    third = talk_html(client, game, 0, f"?talk_before={last}")
    assert "message number 0." in third and "talk_before=" not in third
    for odd in ("abc", "9" * 40, "-1", "\u0661", "%00", "a%00b"):  # read as no bound at all
        assert client.get(path_of(seat(game, 0)) + f"?talk_before={odd}").status_code == 200


def test_text_is_shown_as_written_isolated_and_never_a_link(client, game):
    text = "See https://evil.example/x <a href=x>here</a>\nעברית \u202eevil\u202c done"
    talk.post(seat(game, 1), text, timezone.now())
    assert TalkMessage.objects.get().text == text  # kept as typed
    html = talk_html(client, game, 2)
    assert "https://evil.example/x" in html
    assert '<a href="https://evil' not in html and "<a href=x>" not in html
    assert "&lt;a href=x&gt;here&lt;/a&gt;" in html
    assert "\u202e" not in html and "\u202c" not in html  # bidi controls dropped
    assert "<bdi>עברית evil done</bdi>" in html  # each line in its own isolate
    assert "<br>" in html


def test_a_spanish_reader_sees_the_panel_in_spanish_and_the_message_as_written(client, game):
    Seat.objects.filter(game=game, index=2).update(language="es")
    talk.post(seat(game, 1), "Open your bag, or else.", timezone.now())
    html = talk_html(client, game, 2)
    assert "Charla de la mesa" in html and "Dilo" in html
    assert "Open your bag, or else." in html and "Ronda 1" in html


# --- any bytes ------------------------------------------------------------------------------

ODD = [
    b"text=\x00",
    b"text=nul%00inside",
    b"text=%ED%A0%80lone",  # a lone surrogate, as raw UTF-8 bytes
    b"text=%FF%FE%FD",  # not UTF-8 at all
    b"text=" + b"x" * 200_000,
    b"text=" + b"%0D%0A" * 5000,
    b"text=a%0D%0Ab%0D%0A%0D%0A%0D%0A%0D%0A%0D%0A%0D%0A%0D%0A%0D%0A%0D%0A%0D%0A%0D%0Ac",
    b"text=%E2%80%AEreversed",
    b"text=hi&text=twice",
    b"texto=wrong+name",
    b"",
    b"%%%%&&&==",
]


def post_bytes(client, game, body: bytes, index: int = 1):
    path = path_of(seat(game, index)) + "talk/"
    return client.post(path, body, content_type="application/x-www-form-urlencoded")


def check_bytes(client, game, body: bytes) -> None:
    before = record(game)
    response = post_bytes(client, game, body)
    assert response.status_code < 500
    if response.status_code != 302:  # refused: nothing changed
        assert record(game) == before
        assert "msg-error" in response.content.decode()
    else:
        [message] = TalkMessage.objects.filter(game=game).order_by("-id")[:1]
        assert "\x00" not in message.text and len(message.text) <= talk.MAX_TEXT
        message.text.encode("utf-8")  # storable as UTF-8, as PostgreSQL needs


@pytest.mark.parametrize("body", ODD)
def test_odd_bytes_get_an_answer_and_change_nothing_when_refused(client, game, body, settings):
    settings.TALK_BURST = 1000
    check_bytes(client, game, body)


FUZZ = hypothesis.settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[
        hypothesis.HealthCheck.function_scoped_fixture,
        hypothesis.HealthCheck.too_slow,
    ],
)


@FUZZ
@hypothesis.given(raw=st.binary(max_size=3000), text=st.text(max_size=1200))
def test_any_bytes_in_the_talk_form(client, game, settings, raw, text):
    settings.TALK_BURST = 10_000
    check_bytes(client, game, b"text=" + quote_from_bytes(raw).encode())
    check_bytes(client, game, b"text=" + quote(text, errors="surrogatepass").encode())


def test_a_line_whose_transaction_was_a_deadlocks_victim_is_posted_once(client, game, monkeypatch):
    """The database chose the post as a deadlock's victim and rolled it back whole:
    it is run again, as a move is, and the player never sees a 500."""
    from games.core import notifications
    from tests.support.database_errors import deadlock, failing_once

    record = failing_once(notifications.record_talk, deadlock())
    monkeypatch.setattr(notifications, "record_talk", record)
    response = say(client, game, 1, "Nothing to see in my bag.")
    assert response.status_code == 302 and record.calls == 2
    assert [m.text for m in TalkMessage.objects.filter(game=game)] == ["Nothing to see in my bag."]
