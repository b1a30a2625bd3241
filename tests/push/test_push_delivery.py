"""Sending the push outbox (games.push.delivery) to the test push service, which checks
every push's VAPID signature and decrypts it: sent and recorded; a device gone (404,
410) deleted; a refusal tried again, then given up; a sender that died after the push
service took a push, or an answer lost, sent again and counted in doubt; and each
change's pushes handed to the workers once committed, or held with the emails."""

import logging
from datetime import timedelta
from unittest import mock

import pytest
from django.db import transaction

from games import tasks
from games.core import outbox_handoff, push_devices, pushes
from games.models import OutboxPush, PushSubscription
from games.push import delivery, sending, vapid
from sheriff_pbem.celery import app
from tests.support.clock import T0
from tests.support.fixtures_pages import start_game
from tests.support.push_service import CONTACT

pytestmark = pytest.mark.django_db


def device_of(service, email: str = "ben@example.org"):
    """A device of Ben's (seat 1, who must act at the start) at the push service."""
    fake = service.new_device()
    push_devices.subscribe(
        email, push_devices.read_device(fake.subscription()), list(pushes.BODIES), "en", "Test"
    )
    return fake


def owed_push(service, clock) -> tuple:
    """(the fake device, its push owed by a new game's start)."""
    fake = device_of(service)
    game = start_game()
    (push,) = OutboxPush.objects.filter(game=game)
    return fake, push


def test_a_push_reaches_the_device_signed_and_encrypted_and_is_recorded(push_service, clock):
    fake, push = owed_push(push_service, clock)
    clock.at(2)
    assert delivery.deliver(push.pk) == "sent"
    (received,) = push_service.to(fake)
    assert push_service.errors() == []
    assert received.payload == push.payload
    assert received.headers["Topic"] == push.topic == push.payload["tag"]
    assert received.headers["Urgency"] == "high"  # your move
    assert int(received.headers["TTL"]) == pushes.TTL_SECONDS - 2
    assert received.claims["sub"] == CONTACT and received.claims["aud"] == push_service.origin
    push.refresh_from_db()
    assert (push.status, push.attempts, push.in_doubt) == ("sent", 1, 0)
    assert push.sent_at == clock.now and push.accepted_at is not None
    assert PushSubscription.objects.get().last_sent_at is not None
    assert delivery.deliver(push.pk) == "not pending"  # once
    assert len(push_service.to(fake)) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_device_is_deleted_with_its_pushes_not_yet_sent(push_service, clock, status):
    fake, push = owed_push(push_service, clock)
    second = start_game()  # another push owed to the same device
    (waiting,) = OutboxPush.objects.filter(game=second)
    push_service.plan(fake, status)
    assert delivery.deliver(push.pk) == "gone"
    assert not PushSubscription.objects.exists()
    for row in (push, waiting):
        row.refresh_from_db()
        assert row.status == "gone" and row.subscription_id is None  # kept, to be counted
    assert delivery.deliver(waiting.pk) == "not pending"
    assert len(push_service.to(fake)) == 1


def test_a_refusal_is_tried_again_later_then_sent(push_service, clock, settings):
    fake, push = owed_push(push_service, clock)
    push_service.plan(fake, 500, 429)
    assert delivery.deliver(push.pk, now=clock.at(0)) == "retry"
    push.refresh_from_db()
    first = settings.OUTBOX_FIRST_RETRY_SECONDS
    assert push.status == "pending" and push.next_attempt_at == T0 + timedelta(seconds=first)
    assert not push.uncertain and push.last_error.startswith("HTTP 500")
    assert delivery.deliver(push.pk, now=clock.at(first - 1)) == "not due"
    assert delivery.deliver(push.pk, now=clock.at(first)) == "retry"  # 429: later still
    push.refresh_from_db()
    assert push.next_attempt_at == clock.now + timedelta(seconds=2 * first)
    assert delivery.deliver(push.pk, now=clock.at(3 * first)) == "sent"
    push.refresh_from_db()
    assert (push.status, push.attempts, push.in_doubt) == ("sent", 3, 0)
    assert [r.status for r in push_service.to(fake)] == [500, 429, 201]


def test_a_push_refused_every_time_fails_after_the_last_attempt(push_service, clock, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    fake, push = owed_push(push_service, clock)
    push_service.plan(fake, 503, 503)
    assert delivery.deliver(push.pk, now=clock.at(0)) == "retry"
    assert delivery.deliver(push.pk, now=clock.at(3600)) == "failed"
    push.refresh_from_db()
    assert push.status == "failed" and push.attempts == 2
    assert delivery.due(clock.at(7200)) == []


def test_a_refusal_of_the_request_itself_fails_at_once(push_service, clock):
    fake, push = owed_push(push_service, clock)
    push_service.plan(fake, 403)  # e.g. the site's keys are not the device's
    assert delivery.deliver(push.pk) == "failed"
    assert PushSubscription.objects.exists()  # not gone: perhaps the site's mistake


def test_a_sender_that_died_after_sending_is_followed_by_the_sweep_counted_in_doubt(
    push_service, clock, settings, caplog
):
    fake, push = owed_push(push_service, clock)
    with (
        mock.patch.object(delivery, "_record", side_effect=RuntimeError("killed")),
        pytest.raises(RuntimeError),
    ):
        delivery.deliver(push.pk, now=clock.at(0))  # the push service took it; nothing said so
    push.refresh_from_db()
    assert push.status == "sending" and len(push_service.to(fake)) == 1
    grace = settings.OUTBOX_SENDING_GRACE_SECONDS
    clock.at(grace - 1)
    assert push.pk not in delivery.due() and delivery.deliver(push.pk) == "being sent"
    clock.at(grace + 1)
    assert delivery.due() == [push.pk]
    with caplog.at_level(logging.INFO):
        assert sending.sweep() == 1
    push.refresh_from_db()
    assert (push.status, push.attempts, push.in_doubt) == ("sent", 2, 1)
    assert len(push_service.taken()) == 2  # the copy is counted, never hidden
    assert "possible duplicate (1)" in caplog.text
    assert "pushes: 1 sent" in caplog.text


def test_an_answer_lost_on_the_way_back_is_sent_again_counted_in_doubt(push_service, clock):
    fake, push = owed_push(push_service, clock)
    push_service.plan(fake, (201, 1.0))  # taken, but answered after the sender gave up
    with mock.patch.object(delivery, "TIMEOUT_SECONDS", 0.3):
        assert delivery.deliver(push.pk, now=clock.at(0)) == "retry"
    push.refresh_from_db()
    assert push.uncertain and push.last_error.startswith("ReadTimeout")
    assert delivery.deliver(push.pk, now=clock.at(3600)) == "sent"
    push.refresh_from_db()
    assert (push.in_doubt, push.uncertain) == (1, False)
    push_service.wait_for(2)


def test_a_connection_never_made_is_tried_again_without_doubt(push_service, clock):
    _fake, push = owed_push(push_service, clock)
    dead = "http://127.0.0.1:9/push/nobody"  # the discard port: nothing listens
    PushSubscription.objects.update(endpoint=dead)
    assert delivery.deliver(push.pk, now=clock.at(0)) == "retry"
    push.refresh_from_db()
    assert not push.uncertain and push.status == "pending"


def test_a_device_turned_off_meanwhile_gets_nothing(push_service, clock):
    fake, push = owed_push(push_service, clock)
    push_devices.unsubscribe("ben@example.org", fake.endpoint)
    assert delivery.deliver(push.pk) == "gone"
    push.refresh_from_db()
    assert push.status == "gone" and push_service.received == []


def test_a_push_past_its_time_to_live_is_not_sent(push_service, clock):
    _fake, push = owed_push(push_service, clock)
    assert delivery.deliver(push.pk, now=clock.at(pushes.TTL_SECONDS)) == "failed"
    push.refresh_from_db()
    assert push.last_error.startswith("Expired") and push_service.received == []


def test_push_turned_off_on_the_site_sends_nothing_more(push_service, clock, settings):
    _fake, push = owed_push(push_service, clock)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    assert delivery.deliver(push.pk) == "failed"
    assert push_service.received == []


def test_the_sweep_sends_a_push_whose_task_was_lost(push_service, clock):
    _fake, push = owed_push(push_service, clock)
    clock.at(delivery.SWEEP_GRACE_SECONDS - 1)
    assert delivery.due() == []  # its own task has a moment yet
    clock.at(delivery.SWEEP_GRACE_SECONDS)
    assert tasks.sweep_pushes() == 1
    push.refresh_from_db()
    assert push.status == "sent"


def test_the_task_sends_a_changes_pushes_and_says_what_became_of_them(push_service, clock, caplog):
    fake, push = owed_push(push_service, clock)
    second = start_game()
    (other,) = OutboxPush.objects.filter(game=second)
    push_service.plan(fake, 201, 410)
    with caplog.at_level(logging.INFO, logger="games.push.sending"):
        assert tasks.send_pushes([push.pk, other.pk]) == 1
    assert "pushes: 1 device gone, 1 sent" in caplog.text


def test_a_changes_pushes_go_to_the_workers_once_committed_or_are_held(
    push_service, django_capture_on_commit_callbacks
):
    device_of(push_service)
    task = app.tasks[outbox_handoff.SEND_PUSHES]
    with mock.patch.object(task, "delay") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            game = start_game()
        ids = list(OutboxPush.objects.filter(game=game).values_list("pk", flat=True))
        queued.assert_called_once_with(ids)
        queued.reset_mock()
        held: list = []
        with (
            outbox_handoff.sends_held(held),
            django_capture_on_commit_callbacks(execute=True),
            transaction.atomic(),
        ):
            start_game()
        assert queued.call_count == 0
        pushed = [batch for batch in held if isinstance(batch, outbox_handoff.HeldPushes)]
        assert len(pushed) == 1 and len(held) == 2  # the emails' batch beside it
        outbox_handoff.send_held(held)
        queued.assert_called_once_with(pushed[0])


def test_the_admin_lists_pushes_with_their_possible_duplicates_never_their_payload(
    push_service, clock, organizer
):
    fake, push = owed_push(push_service, clock)
    OutboxPush.objects.filter(pk=push.pk).update(in_doubt=2)
    listed = organizer.get("/admin/games/outboxpush/").content.decode()
    one = organizer.get(f"/admin/games/outboxpush/{push.pk}/change/").content.decode()
    for html in (listed, one):
        assert "Test of ben@example.org" in html
        assert push.payload["url"].split("/play/")[1] not in html  # the seat's link
    assert "Possible duplicates" in listed
    push_devices.unsubscribe("ben@example.org", fake.endpoint)
    assert "gone" in organizer.get(f"/admin/games/outboxpush/{push.pk}/change/").content.decode()


def test_the_push_service_refuses_a_push_signed_by_another_key(push_service, clock, settings):
    """The test service's checks are real: a site whose keys are not the ones the
    device subscribed with is refused (401), and the push fails for good."""
    _fake, push = owed_push(push_service, clock)
    settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY = vapid.new_pair()
    assert delivery.deliver(push.pk) == "failed"
    (refused,) = push_service.received
    assert refused.status == 401 and "another key" in refused.error
    assert push_service.taken() == []
