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
