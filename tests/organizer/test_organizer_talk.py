"""The table talk on the organizer's page (games/organizer/talk_moderation.py):
reported messages with their thread, hiding (kept in the record with who and
why), muting a seat, the talk setting; refusals change nothing; nobody else may."""

import pytest
from django.utils import timezone

from games.core import talk
from games.models import Game, Seat, TalkMessage, TalkReport
from tests.organizer.organizer_games import fresh, new_game
from tests.organizer.organizer_page import html, post, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return new_game(edition=2)


@pytest.fixture
def org():
    return signed_in("org@example.org")


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def thread(game) -> list:
    """Five messages, the middle one reported by Cid."""
    now = timezone.now()
    said = [talk.post(seat(game, n % 3), f"line {n}", now) for n in range(5)]
    talk.report(said[2], seat(game, 2 if said[2].seat.index != 2 else 1), now)
    return said


def talk_section(page: str) -> str:
    start = page.index('class="panel talk"')
    return page[start : page.index("</section>", start)]


def record(game) -> tuple:
    after = fresh(game)
    messages = list(TalkMessage.objects.filter(game=game).values())
    seats = list(Seat.objects.filter(game=game).values())
    return after.talk, after.version, messages, seats, list(TalkReport.objects.values())


def test_a_report_is_shown_with_its_thread(game, org):
    thread(game)
    section = talk_section(html(org, game))
    assert "reported once" in section
    for n in range(5):  # two before and two after the reported one
        assert f"line {n}" in section
    assert 'value="talk_hide"' in section and 'value="talk_mute"' in section


def test_hiding_keeps_the_message_in_the_record_with_who_and_why(game, org, client):
    said = thread(game)
    status, messages, page = post(org, game, "talk_hide", message=said[2].ref, reason="Rude words")
    assert status == 302
    assert messages == ["The message is hidden from the players; it stays in the record."]
    hidden = TalkMessage.objects.get(pk=said[2].pk)
    assert (hidden.hidden_by, hidden.hidden_reason) == ("org@example.org", "Rude words")
    section = talk_section(page.content.decode())
    assert "line 2" in section and "Hidden by org@example.org" in section
    assert "Rude words" in section
    assert f'name="message" value="{said[2].pk}"' not in section  # hidden once


def test_muting_a_seat_stops_its_talk(game, org):
    said = thread(game)
    author = said[2].seat
    status, messages, _ = post(org, game, "talk_mute", seat=author.pk)
    assert status == 302
    assert messages == [
        f"{author.name} can no longer write in the table talk for the rest of this game."
    ]
    assert fresh_seat(author).talk_muted_at is not None
    with pytest.raises(talk.ServiceError):
        talk.post(fresh_seat(author), "still here?", timezone.now())


def test_the_organizer_lets_a_muted_seat_talk_again(game, org):
    author = thread(game)[2].seat
    post(org, game, "talk_mute", seat=author.pk)
    assert "talk again" in talk_section(html(org, game))
    status, messages, _ = post(org, game, "talk_unmute", seat=author.pk)
    assert status == 302
    assert messages == [f"{author.name} may write in the table talk again."]
    assert fresh_seat(author).talk_muted_at is None
    talk.post(fresh_seat(author), "I am back.", timezone.now())


def fresh_seat(s) -> Seat:
    return Seat.objects.get(pk=s.pk)


def test_the_talk_setting(game, org):
    status, messages, page = post(org, game, "talk_policy", talk="inspection")
    assert status == 302 and fresh(game).talk == Game.Talk.INSPECTION
    assert messages == ["The table talk is now: During the inspection only."]
    assert '<option value="inspection" selected>' in page.content.decode()


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("talk_policy", {"talk": "loud"}),
        ("talk_policy", {"talk": "off\x00"}),
        ("talk_hide", {"message": "999999", "reason": "x"}),
        ("talk_hide", {"message": "\u0661", "reason": "x"}),
        ("talk_hide", {"message": "ab\x00", "reason": "x"}),
        ("talk_hide", {"message": "FIRST", "reason": "x" * 201}),
        ("talk_hide", {"message": "FIRST", "reason": "bad\x00"}),
        ("talk_mute", {"seat": "999999"}),
        ("talk_mute", {"seat": "9" * 5000}),
    ],
)
def test_a_refused_control_changes_nothing(game, org, action, fields):
    said = thread(game)
    fields = {k: (said[0].ref if v == "FIRST" else v) for k, v in fields.items()}
    before = record(game)
    status, messages, _ = post(org, game, action, **fields)
    assert status == 400 and messages and "othing was done" in messages[0]
    assert record(game) == before


def test_a_form_without_its_version_changes_nothing(game, org):
    said = thread(game)
    before = record(game)
    status, _, _ = post(org, game, "talk_hide", version="", message=said[0].ref)
    assert status == 400 and record(game) == before


def test_nobody_else_may_moderate(game):
    said = thread(game)
    before = record(game)
    stranger = signed_in("ann@example.org")  # a player, not the organizer
    status, _, _ = post(stranger, game, "talk_hide", message=said[2].ref, reason="mine")
    assert status == 404 and record(game) == before


def test_another_games_message_is_not_this_organizers(game, org):
    other = new_game(edition=2)
    Game.objects.filter(pk=other.pk).update(organizer_email="someone@example.org")
    message = talk.post(seat(other, 0), "elsewhere", timezone.now())
    status, _, _ = post(org, game, "talk_hide", message=message.pk, reason="x")
    assert status == 400 and TalkMessage.objects.get(pk=message.pk).hidden_at is None
