"""Operators hear when the service falls behind: /healthz/backlog and
`manage.py health` report how late the oldest deadline is, how long the oldest
due email has waited and each queue's depth, past thresholds answer 503 (exit 1),
and tell nothing about any game; a check beat runs off the email queue logs when
mail is backed up; the outbox sweep never runs long enough to be delivered twice."""

import json
import logging
import re
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import tasks
from games.core import backlog as health
from games.core import game_setup
from games.mail import outbox, sending
from games.models import Game, OutboxEmail
from sheriff_pbem.celery import app as celery_app
from tests.support.fixtures_pages import link_stem

pytestmark = pytest.mark.django_db

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
SHALLOW = {"celery": 0, "deadlines": 0, "push": 0}
BROKER_QUEUE_DEPTHS = health.queue_depths  # the real one, before any test replaces it
ROOT = Path(__file__).resolve().parents[2]
CHECK_MAIL_BACKLOG = "games.tasks.check_mail_backlog"


@pytest.fixture(autouse=True)
def queues():
    """The broker's answer, as a test sets it (one test asks the real broker)."""
    with mock.patch.object(health, "queue_depths", return_value=dict(SHALLOW)) as depths:
        yield depths


def new_game(name="Secret Table"):
    return game_setup.create_game(
        name=name,
        players=PLAYERS,
        config={"edition": 2},
        timing={"deadline_mode": "duration", "market_minutes": 60},
    )


def overdue_by(game, seconds: float) -> None:
    Game.objects.filter(pk=game.pk).update(
        phase_deadline=timezone.now() - timedelta(seconds=seconds)
    )


def all_sent() -> None:
    OutboxEmail.objects.update(status=OutboxEmail.Status.SENT)


def backlog(client):
    response = client.get("/healthz/backlog")
    return response, json.loads(response.content)


def test_nothing_behind_answers_200(client):
    new_game()
    all_sent()
    response, found = backlog(client)
    assert response.status_code == 200 and found["ok"] and found["problems"] == []
    assert found["deadlines"] == {
        "overdue": 0,
        "oldest_overdue_seconds": None,
        "unclaimed": 0,
        "safety_sweep": 0,
    }
    assert found["mail"] == {"owed": 0, "oldest_owed_seconds": None}
    assert found["queues"] == SHALLOW
    assert "no-cache" in response["Cache-Control"]


def test_a_deadline_late_past_the_threshold_answers_503(client, settings):
    settings.HEALTH_DEADLINE_LATE_SECONDS = 30
    game = new_game()
    all_sent()
    overdue_by(game, 20)  # late, but not yet past the threshold
    response, found = backlog(client)
    assert response.status_code == 200 and found["deadlines"]["overdue"] == 1
    overdue_by(game, 45)
    response, found = backlog(client)
    assert response.status_code == 503
    assert found["problems"] == ["deadlines late"]
    assert 45 <= found["deadlines"]["oldest_overdue_seconds"] < 50


def test_a_paused_game_past_its_deadline_is_not_late(client):
    game = new_game()
    all_sent()
    overdue_by(game, 3600)
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now())
    assert backlog(client)[0].status_code == 200


def test_mail_backed_up_past_the_threshold_answers_503(client, settings):
    settings.HEALTH_MAIL_LATE_SECONDS = 120
    new_game()  # three emails owed, just written
    response, found = backlog(client)
    assert response.status_code == 200 and found["mail"]["owed"] == 3
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(seconds=300))
    response, found = backlog(client)
    assert response.status_code == 503 and found["problems"] == ["mail backed up"]
    assert found["mail"]["owed"] == 3 and found["mail"]["oldest_owed_seconds"] >= 300


def test_a_retry_not_yet_due_waits_on_purpose(client):
    """An email whose retry (or offer's quiet time) is ahead is not late, whatever its
    age, nor is a retry read as old by the send its last attempt began."""
    new_game()
    long_ago = timezone.now() - timedelta(hours=1)
    OutboxEmail.objects.update(
        created_at=long_ago,
        sending_at=long_ago,
        attempts=2,
        next_attempt_at=timezone.now() + timedelta(minutes=2),
    )
    response, found = backlog(client)
    assert response.status_code == 200 and found["mail"]["owed"] == 0
    OutboxEmail.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=5))
    found = backlog(client)[1]
    assert found["mail"]["owed"] == 3 and 5 <= found["mail"]["oldest_owed_seconds"] < 10


def test_a_deep_queue_or_a_silent_broker_answers_503(client, queues, settings):
    settings.HEALTH_QUEUE_DEPTH = 100
    all_sent()
    queues.return_value = {"celery": 101, "deadlines": 3}
    response, found = backlog(client)
    assert response.status_code == 503 and found["problems"] == ["queue celery too deep"]
    queues.return_value = {"celery": None, "deadlines": None}
    response, found = backlog(client)
    assert response.status_code == 503 and len(found["problems"]) == 2


def test_the_report_tells_ages_and_counts_only(client):
    game = new_game(name="Secret Table")
    overdue_by(game, 3600)
    response, found = backlog(client)
    text = response.content.decode()
    seat = game.seats.first()
    for secret in ("Secret Table", "example.org", link_stem(seat), "Ann"):
        assert secret not in text
    numbers = [found["deadlines"], found["mail"], found["queues"], found["thresholds"]]
    for figures in numbers:
        assert all(v is None or isinstance(v, (int, float)) for v in figures.values())
    assert set(found) == {"ok", "problems", "deadlines", "mail", "queues", "thresholds"}
    assert not re.search(r"\bgame\s*\d", text)


def test_healthz_stays_the_cheap_liveness_check(client):
    game = new_game()
    overdue_by(game, 3600)
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"


def test_the_queue_depths_come_from_the_broker():
    depths = BROKER_QUEUE_DEPTHS()  # the file-system broker here, Redis under CI
    assert set(depths) == set(SHALLOW)
    assert all(isinstance(depth, int) and depth >= 0 for depth in depths.values())


def test_a_broker_that_does_not_answer_is_said_so_quickly():
    from kombu import Connection

    from sheriff_pbem.celery import app

    def nowhere(**options):
        return Connection("redis://127.0.0.1:1/0", **options)  # nothing listens on port 1

    started = time.monotonic()
    with mock.patch.object(app, "connection_for_read", nowhere):
        depths = BROKER_QUEUE_DEPTHS()
    assert depths == {"celery": None, "deadlines": None, "push": None}
    assert time.monotonic() - started < 10


# --- manage.py health ---------------------------------------------------------------------


def test_the_command_reports_and_exits_1_when_behind(settings):
    settings.HEALTH_DEADLINE_LATE_SECONDS = 30
    game = new_game()
    all_sent()
    out = StringIO()
    call_command("health", stdout=out)
    assert "0 overdue" in out.getvalue() and out.getvalue().rstrip().endswith("ok")
    overdue_by(game, 90)
    out = StringIO()
    with pytest.raises(CommandError, match="deadlines late"):
        call_command("health", stdout=out)
    assert "1 overdue, the oldest by 90 s" in out.getvalue()
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("health", "--json", stdout=out)
    assert json.loads(out.getvalue())["deadlines"]["overdue"] == 1


# --- the backlog warning and the outbox sweep -----------------------------------------------------


def test_the_sweep_says_once_in_a_while_that_mail_is_backed_up(caplog, settings):
    settings.HEALTH_MAIL_LATE_SECONDS = 120
    new_game()
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(seconds=600))
    said = health.BackedUpMail(every=300)
    with caplog.at_level(logging.WARNING, logger="games.core.backlog"):
        assert said.check() is True
        assert said.check() is False  # not again within five minutes
        with mock.patch("games.core.backlog.time.monotonic", return_value=said.said_at + 301):
            assert said.check() is True
    lines = [r.getMessage() for r in caplog.records if "backed up" in r.getMessage()]
    assert len(lines) == 2
    assert "3 emails due and unsent, the oldest waiting 600 s" in lines[0]
    assert "example.org" not in lines[0]
    all_sent()
    assert health.BackedUpMail(every=300).check() is False  # caught up: nothing to say


def test_the_backlog_check_runs_from_beat_on_the_deadlines_queue():
    """Not on the email queue, where it would wait behind the very emails that are late."""
    entry = next(
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == CHECK_MAIL_BACKLOG
    )
    assert entry["schedule"] < settings.HEALTH_MAIL_LATE_SECONDS
    assert 0 < entry["options"]["expires"] <= 30  # checks do not pile up either
    queue = celery_app.amqp.router.route({}, CHECK_MAIL_BACKLOG)["queue"].name
    assert queue == settings.DEADLINES_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE


def test_the_backlog_check_warns_while_the_email_queue_is_backed_up(caplog, settings):
    """The email worker is stuck behind a pile of sends: the outbox sweep never runs,
    and the check, on the other queue, still says so."""
    settings.HEALTH_MAIL_LATE_SECONDS = 120
    new_game()
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(seconds=600))
    with (
        mock.patch.object(tasks, "BACKED_UP_MAIL", health.BackedUpMail(every=300)),
        mock.patch.object(outbox, "deliver") as deliver,
        caplog.at_level(logging.WARNING, logger="games.core.backlog"),
    ):
        assert celery_app.tasks[CHECK_MAIL_BACKLOG].apply().get() is True
    deliver.assert_not_called()  # it only looks
    assert any("mail is backed up" in r.getMessage() for r in caplog.records)


def test_a_sweep_stops_taking_emails_well_before_the_visibility_timeout():
    """A slow provider: each send takes 5 s. The sweep stops once its time is up, and
    is stopped outright before the broker would deliver it again to another worker."""
    new_game()
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(minutes=1))
    clock = {"now": 1000.0}

    def slow_send(pk, now=None):
        clock["now"] += 5.0

    with (
        mock.patch.object(sending, "SWEEP_OUTBOX_SECONDS", 8.0),
        mock.patch("games.mail.sending.time.monotonic", side_effect=lambda: clock["now"]),
        mock.patch.object(outbox, "deliver", side_effect=slow_send) as deliver,
    ):
        done = tasks.sweep_outbox()
    assert deliver.call_count == 2 and done == 2  # 0 s, 5 s; at 10 s its time was up
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    assert sending.SWEEP_OUTBOX_SECONDS < tasks.sweep_outbox.time_limit < visibility


def test_one_email_that_fails_does_not_stop_the_sweep():
    new_game()
    OutboxEmail.objects.update(created_at=timezone.now() - timedelta(minutes=1))
    with (
        mock.patch.object(outbox, "deliver", side_effect=[RuntimeError("boom"), "sent", "sent"]),
    ):
        assert tasks.sweep_outbox() == 3


def test_the_sweeps_expire_instead_of_piling_up_behind_stopped_workers():
    for entry in ("sweep-deadlines", "sweep-outbox"):
        assert 0 < settings.CELERY_BEAT_SCHEDULE[entry]["options"]["expires"] <= 30


# --- Compose ------------------------------------------------------------------------------


def test_compose_runs_scalable_deadline_processes_and_checks_the_backlog():
    compose = (ROOT / "docker" / "compose.yaml").read_text()
    services_ = re.findall(r"^  ([a-z0-9-]+):", compose, flags=re.M)
    assert "deadlines" in services_ and "timers" in services_, services_
    deadlines = compose[compose.index("\n  deadlines:") :]
    assert "run_deadlines" in deadlines.split("\n  timers:")[0]
    assert "replicas: ${DEADLINE_PROCESSES:-2}" in compose
    assert "/healthz/backlog" in compose
