"""With a real Celery worker on the machine's Redis and PostgreSQL: a move's push goes
from the move's commit to the push service through the broker, within two seconds;
and one whose task was lost, by the sweep."""

import time

import pytest
import redis
from django.conf import settings

from games.core import moves, push_devices, pushes
from games.models import OutboxPush
from games.tasks import sweep_pushes
from sheriff_pbem.celery import app
from tests.support.fixtures_pages import fresh, start_game
from tests.support.real_services import REAL_SERVICES

pytestmark = REAL_SERVICES


@pytest.fixture
def worker():
    from celery.contrib.testing.worker import start_worker

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.flushdb()
    with start_worker(
        app,
        pool="threads",
        concurrency=2,
        perform_ping_check=False,
        shutdown_timeout=20,
        queues=[settings.CELERY_TASK_DEFAULT_QUEUE, settings.PUSH_QUEUE],  # as the email worker
    ):
        yield
    broker.flushdb()


def test_a_move_s_push_reaches_the_push_service_within_two_seconds(push_service, worker):
    game = start_game()
    device = push_service.new_device()
    push_devices.subscribe(
        "ben@example.org", push_devices.read_device(device.subscription()), list(pushes.BODIES),
        "en", "",
    )  # fmt: skip
    seats = {seat.index: seat for seat in game.seats.all()}
    for index in (1, 2, 3):
        since = fresh(game).engine_state().phase.since
        command = {"type": "set_aside", "cards": []}
        outcome = moves.submit(seats[index], command, version=since, key=f"k{index}")
        assert outcome.accepted
    committed = time.time()
    (received,) = push_service.wait_for(1, seconds=10)
    assert received.at - committed < 2.0
    assert received.payload["body"] == "Your move" and push_service.errors() == []
    deadline = time.monotonic() + 5
    while OutboxPush.objects.get().status != "sent" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert OutboxPush.objects.get().status == "sent"


def test_the_sweep_sends_a_push_whose_task_was_lost(push_service, worker, monkeypatch):
    monkeypatch.setattr("games.push.delivery.SWEEP_GRACE_SECONDS", 0)
    device = push_service.new_device()
    push_devices.subscribe(
        "ben@example.org", push_devices.read_device(device.subscription()), list(pushes.BODIES),
        "en", "",
    )  # fmt: skip
    with monkeypatch.context() as lost:  # the broker down when the move commits
        lost.setattr(app.tasks["games.tasks.send_pushes"], "delay", lambda ids: None)
        start_game()
    assert OutboxPush.objects.get().status == "pending"
    sweep_pushes.delay()
    push_service.wait_for(1, seconds=10)
