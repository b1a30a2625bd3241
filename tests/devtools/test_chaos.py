"""The fault drill's own parts: its forms are the pages' forms, and its flaky ESP
takes, refuses and loses as configured (``manage.py chaos`` runs the whole)."""

import json
import random
from itertools import islice

import pytest

from games.present.moves import form_fields
from games.web import forms
from tests.support import random_commands as support
from tests.support.random_commands import as_post


def random_commands(count: int):
    """Commands the drill's random players choose, over random games of both editions."""
    games = [{"players": 4, "edition": edition} for edition in (1, 2) * 20]
    return islice(support.random_commands(random.Random(7), games, steps=200), count)


def test_the_drills_forms_read_back_as_the_commands_it_meant():
    kinds = set()
    for state, command in random_commands(600):
        move = forms.parse_move(as_post(form_fields(command, state.phase.since)))
        meant = {k: v for k, v in command.items() if k != "seat"}
        if meant["type"] == "market_turn" and meant["cards"]:
            # The form names the top card; the others keep hand order below it.
            top = meant["order"][-1]
            meant["order"] = [c for c in meant["cards"] if c != top] + [top]
            meant["draws"] = sorted(meant["draws"], key=["discard:0", "discard:1", "deck"].index)
        elif meant["type"] == "market_turn":
            meant = {"type": "market_turn", "cards": [], "draws": []}
        if meant["type"] in ("make_offer", "revise_offer"):
            meant["terms"] = {
                "gold": 0,
                "stand_goods": [],
                "bag_goods": {},
                "promise": "",
                **meant["terms"],
            }
        assert move.command == meant
        assert move.version == state.phase.since
        kinds.add(meant["type"])
    assert kinds >= {"set_aside", "load_bag", "make_offer", "pass_bag", "inspect_bag"}
    assert kinds >= {"market_turn", "say_no_offer", "accept_offer"}


@pytest.mark.django_db
def test_the_flaky_esp_logs_what_it_took_and_loses_answers_as_told(tmp_path, monkeypatch, settings):
    from games.mail import outbox
    from games.models import OutboxEmail
    from tests.support.clock_games import new_game

    log = tmp_path / "mail.jsonl"
    monkeypatch.setenv("FLAKY_MAIL_LOG", str(log))
    monkeypatch.setenv("FLAKY_MAIL_LOSE", "1")
    settings.EMAIL_BACKEND = "games.devtools.flaky_esp.EmailBackend"
    game = new_game()
    email = OutboxEmail.objects.filter(game=game).first()
    assert outbox.deliver(email.pk) == "failed"  # taken, but the answer was lost
    [line] = [json.loads(x) for x in log.read_text().splitlines()]
    assert line["key"] == email.key
    email.refresh_from_db()
    assert email.uncertain and email.status == "pending"

    monkeypatch.setenv("FLAKY_MAIL_LOSE", "0")
    monkeypatch.setenv("FLAKY_MAIL_FAIL", "1")
    refused = []
    for other in OutboxEmail.objects.filter(game=game).exclude(pk=email.pk):
        assert outbox.deliver(other.pk) == "failed"  # refused: not taken, not in doubt
        other.refresh_from_db()
        assert not other.uncertain
        refused.append(other.last_error)
    assert len(log.read_text().splitlines()) == 1
    assert all("451" in error or "429" in error for error in refused)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kind, said",
    [
        ("timeout", "TimeoutError"),
        ("504", "504"),
        ("tls", "SSLEOFError"),
        ("crash", "RuntimeError"),
    ],
)
def test_each_way_the_flaky_esp_loses_an_answer_leaves_the_email_in_doubt(
    tmp_path, monkeypatch, settings, kind, said
):
    """The ways an HTTP ESP's answer is lost after it queued the message (issue 31):
    the outbox counts every one of them as a possible duplicate."""
    from django.core import mail

    from games.mail import outbox
    from games.models import OutboxEmail
    from tests.support.clock_games import new_game

    log = tmp_path / "mail.jsonl"
    monkeypatch.setenv("FLAKY_MAIL_LOG", str(log))
    monkeypatch.setenv("FLAKY_MAIL_LOSE", "1")
    monkeypatch.setenv("FLAKY_MAIL_LOSE_KINDS", kind)
    settings.EMAIL_BACKEND = "games.devtools.flaky_esp.EmailBackend"
    email = OutboxEmail.objects.filter(game=new_game()).first()
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    assert email.uncertain and said in email.last_error
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.deliver(email.pk, now=email.next_attempt_at) == "sent"
    email.refresh_from_db()
    assert email.in_doubt == 1  # the copy the player may get twice is counted
    [line] = [json.loads(x) for x in log.read_text().splitlines()]
    assert line["key"] == email.key
    assert mail.outbox[0].extra_headers["Message-ID"] == line["message_id"]


def drill_lines():
    from games.devtools import drill_talk

    return [drill_talk.new_line(channel, n) for n, channel in enumerate(["page", "webhook"] * 5)]


def test_a_talk_line_the_site_took_or_failed_and_did_not_keep_is_counted_lost():
    from collections import Counter

    from games.devtools.drill_talk import NO_ANSWER, POSTED, tally

    lines = drill_lines()
    page_kept, page_lost, page_refused, page_failed, page_unanswered = lines[0:10:2]
    reply_kept, reply_lost, reply_refused, reply_failed, reply_no_row = lines[1:10:2]
    for line, answers in [
        (page_kept, [302]),
        (page_lost, [302]),
        (page_refused, [429]),
        (page_failed, [500]),
        (page_unanswered, [NO_ANSWER]),
        (reply_kept, [502, 200]),  # an ESP posts it again after a 5xx
        (reply_lost, [200]),
        (reply_refused, [200]),
        (reply_failed, [500, 500, 500]),
        (reply_no_row, [200]),
    ]:
        line.answers = answers
    kept = Counter([page_kept.text, reply_kept.text, reply_kept.text])
    outcomes = {
        reply_kept.message_id: POSTED,
        reply_lost.message_id: POSTED,
        reply_refused.message_id: "refused",
        reply_failed.message_id: POSTED,  # its row is there, its line is not
    }
    counts = tally(lines, kept, outcomes)
    assert counts["lost"] == 5  # page_lost, page_failed, reply_lost, reply_failed, reply_no_row
    assert (counts["kept"], counts["doubled"], counts["refused"]) == (2, 1, 2)
    assert counts["unanswered, not kept"] == 1 and counts["5xx answered"] == 3
    assert (counts["sent by page"], counts["sent by webhook"]) == (5, 5)


@pytest.mark.django_db
def test_the_drills_talk_reaches_the_table_by_page_and_by_webhook(settings, client):
    """The drill's two ways to talk, through the site as it posts them, and counted."""
    import base64
    from collections import Counter

    from games.core import links
    from games.devtools import drill_talk
    from games.management.commands import chaos
    from games.models import InboundMessage, TalkMessage
    from tests.support.fixtures_pages import start_game

    settings.INBOUND_DOMAIN = chaos.REPLY_DOMAIN
    settings.INBOUND_ESPS = ["postmark"]
    settings.ANYMAIL = {"WEBHOOK_SECRET": "drill:secret"}
    game = start_game()
    seat = game.seats.get(index=1)
    by_page, by_reply = drill_lines()[:2]
    answer = client.post(links.seat_path(seat) + "talk/", {"text": by_page.text})
    by_page.answers.append(answer.status_code)
    payload = drill_talk.reply_payload(
        by_reply, seat.name, seat.email, seat.reply_key, chaos.REPLY_DOMAIN
    )
    auth = "Basic " + base64.b64encode(b"drill:secret").decode()
    answer = client.post(
        "/anymail/postmark/inbound/", payload, "application/json", HTTP_AUTHORIZATION=auth
    )
    by_reply.answers.append(answer.status_code)
    kept = Counter(TalkMessage.objects.filter(game=game).values_list("text", flat=True))
    outcomes = dict(InboundMessage.objects.values_list("message_id", "outcome"))
    assert outcomes == {by_reply.message_id: drill_talk.POSTED}  # talk, not read as a move
    counts = drill_talk.tally([by_page, by_reply], kept, outcomes)
    assert (counts["kept"], counts["lost"], counts["refused"]) == (2, 0, 0)


@pytest.mark.django_db
def test_the_drill_prints_its_three_counts_that_must_be_zero(tmp_path):
    """The lines the fault drill is judged by, as its report prints them."""
    from collections import Counter

    from games.management.commands import chaos

    command = chaos.Command()
    command.http = Counter({"5xx": 2, "requests": 9})
    command.lines = drill_lines()[:1]
    command.lines[0].answers = [302]  # taken, and not in the database
    command.deadlines = {}
    out = []
    command.say = out.append
    options = {"fail": 0.3, "lose": 0.05, "lose_kinds": "timeout"}
    command.report([], tmp_path, Counter(), options, deadlocked=3)
    assert "deadlocks: 3" in out
    assert "5xx: 2" in out
    assert "talk lines lost: 1" in out
