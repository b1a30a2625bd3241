"""The ESP's tracking webhooks, as Mailgun and Postmark post them: stored once,
matched to the outbox; a hard bounce stops mail to the address and alerts the
organizer; deliveries and auto-replies show on the seat."""

import base64
import hashlib
import hmac
import json
import time

import pytest
from django.core import mail
from django.test import Client

from games import outbox, services
from games.models import DeliveryEvent, OutboxEmail, Seat
from tests.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

SECRET = "hook:s3cret"
SIGNING_KEY = "mailgun-signing-key"
PLAYERS = [services.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


@pytest.fixture(autouse=True)
def webhook_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def client() -> Client:
    auth = base64.b64encode(SECRET.encode()).decode()
    return Client(HTTP_AUTHORIZATION=f"Basic {auth}")


def started(organizer_email="org@example.org"):
    game = services.create_game(
        name="Post office",
        players=PLAYERS,
        config={"edition": 2},
        organizer_email=organizer_email,
    )
    deliver_pending()
    mail.outbox.clear()
    email = OutboxEmail.objects.get(game=game, seat__index=1)
    return game, email


def postmark(record: dict):
    return client().post(
        "/anymail/postmark/tracking/", json.dumps(record), content_type="application/json"
    )


def postmark_bounce(email: OutboxEmail, bounce_id: int = 4323372036854775807) -> dict:
    return {
        "RecordType": "Bounce",
        "ID": bounce_id,
        "Type": "HardBounce",
        "TypeCode": 1,
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "Email": email.to,
        "BouncedAt": "2026-11-23T10:00:00Z",
        "Description": "The server was unable to deliver your message (ex: unknown user).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "Inactive": True,
        "CanActivate": True,
        "Metadata": {"game": str(email.game_id), "key": email.key},
    }


def mailgun(event_data: dict):
    timestamp, token = str(int(time.time())), "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0"
    signature = hmac.new(
        SIGNING_KEY.encode(), (timestamp + token).encode(), hashlib.sha256
    ).hexdigest()
    body = {
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": event_data,
    }
    return client().post(
        "/anymail/mailgun/tracking/", json.dumps(body), content_type="application/json"
    )


def mailgun_event(email: OutboxEmail, event: str, **extra) -> dict:
    return {
        "event": event,
        "id": f"{event}-{email.pk}-{extra.pop('n', 0)}",
        "timestamp": 1795435200.0,
        "recipient": email.to,
        "message": {"headers": {"message-id": email.provider_message_id or "x@mg"}},
        "user-variables": {"game": str(email.game_id), "key": email.key},
        **extra,
    }


def test_a_postmark_hard_bounce_stops_mail_and_alerts_the_organizer_once():
    game, email = started()
    owed = OutboxEmail.objects.create(
        game=game, seat=email.seat, key="later", kind="reminder", to=email.to, subject="s"
    )
    assert postmark(postmark_bounce(email)).status_code == 200
    assert postmark(postmark_bounce(email)).status_code == 200  # Postmark retries
    assert DeliveryEvent.objects.count() == 1
    stored = DeliveryEvent.objects.get()
    assert (stored.event_type, stored.email_id, stored.esp) == ("bounced", email.pk, "Postmark")
    ben = Seat.objects.get(pk=email.seat_id)
    assert ben.undeliverable_at is not None and ben.last_failure.startswith("bounced:")
    owed.refresh_from_db()
    assert owed.status == "failed" and "undeliverable" in owed.last_error
    # The organizer is told once, with the game's admin page.
    deliver_pending()
    [alert] = [m for m in mail.outbox if m.to == ["org@example.org"]]
    assert alert.subject.endswith("— email to Ben does not arrive")
    assert "550 5.1.1" in alert.body or "unknown user" in alert.body
    assert f"/admin/games/game/{game.pk}/change/" in alert.body
    # Nothing more is sent to the address.
    more = OutboxEmail.objects.create(
        game=game, seat=email.seat, key="even-later", kind="reminder", to=email.to, subject="s"
    )
    assert outbox.deliver(more.pk) == "undeliverable"
    assert not [m for m in mail.outbox if m.to == [email.to]]


def test_a_new_address_for_the_seat_starts_clean():
    game, email = started()
    postmark(postmark_bounce(email))
    game.refresh_from_db()
    services.replace_player(
        email.seat_id, expected_version=game.version, name="Ben", email="ben@new.example.org"
    )
    ben = Seat.objects.get(pk=email.seat_id)
    assert ben.undeliverable_at is None and ben.last_failure == ""


def test_postmark_delivery_and_mailgun_events_show_on_the_seat_and_in_the_admin(admin_client):
    game, email = started()
    delivered = {
        "RecordType": "Delivery",
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "Recipient": email.to,
        "DeliveredAt": "2026-11-23T10:00:00Z",
        "Details": "Test delivery webhook details",
        "Metadata": {"key": email.key},
        "ServerID": 23,
        "Tag": "",
    }
    assert postmark(delivered).status_code == 200
    autoreply = mailgun_event(email, "failed", severity="temporary", reason="generic", n=1)
    autoreply["delivery-status"] = {"code": 452, "message": "Mailbox full"}
    assert mailgun(autoreply).status_code == 200
    ben = Seat.objects.get(pk=email.seat_id)
    assert ben.last_delivered_at is not None
    assert ben.last_failure.startswith("deferred:") and ben.undeliverable_at is None
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Last delivered Mon 23 Nov 2026, 10:00 (UTC)" in page
    assert "Last failure" in page


def test_a_mailgun_permanent_failure_is_a_bounce():
    _, email = started()
    event = mailgun_event(email, "failed", severity="permanent", reason="bounce")
    event["delivery-status"] = {"code": 550, "message": "No such user"}
    assert mailgun(event).status_code == 200
    assert mailgun(event).status_code == 200  # the same event again: stored once
    assert DeliveryEvent.objects.count() == 1
    assert Seat.objects.get(pk=email.seat_id).undeliverable_at is not None


def test_a_webhook_without_the_secret_or_signature_is_refused():
    _, email = started()
    anonymous = Client().post(
        "/anymail/postmark/tracking/",
        json.dumps(postmark_bounce(email)),
        content_type="application/json",
    )
    assert anonymous.status_code in (400, 401, 403)
    forged = mailgun_event(email, "failed", severity="permanent")
    body = {"signature": {"timestamp": "1", "token": "t", "signature": "0" * 64}}
    response = client().post(
        "/anymail/mailgun/tracking/",
        json.dumps({**body, "event-data": forged}),
        content_type="application/json",
    )
    assert response.status_code in (400, 401, 403)
    assert DeliveryEvent.objects.count() == 0
    assert Seat.objects.get(pk=email.seat_id).undeliverable_at is None


def test_an_event_about_an_old_address_says_nothing_of_the_new_one():
    _, email = started()
    Seat.objects.filter(pk=email.seat_id).update(email="ben@new.example.org")
    postmark(postmark_bounce(email))
    assert Seat.objects.get(pk=email.seat_id).undeliverable_at is None
    assert DeliveryEvent.objects.get().email_id == email.pk  # still stored, for the record


def test_an_email_whose_answer_was_lost_is_not_sent_again_once_the_esp_reports_it(monkeypatch):
    _, email = started()
    OutboxEmail.objects.filter(pk=email.pk).update(status="pending", uncertain=True)
    delivered = {
        "RecordType": "Delivery",
        "MessageID": "0a1b2c3d-lost-answer",
        "Recipient": email.to,
        "DeliveredAt": "2026-11-23T10:00:00Z",
        "Details": "delivered",
        "Metadata": {"key": email.key},
    }
    assert postmark(delivered).status_code == 200
    mail.outbox.clear()
    assert outbox.deliver(email.pk) == "sent"
    email.refresh_from_db()
    assert email.status == "sent" and email.in_doubt == 0 and not mail.outbox


def test_the_anymail_test_backends_send_and_tracking_signal_match_by_message_id(settings):
    """anymail's test backend gives each message an id, as an ESP does; a tracking
    event that carries only that id (no metadata) still finds its email."""
    from anymail.signals import AnymailTrackingEvent, tracking

    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    game = services.create_game(name="Test ESP", players=PLAYERS, config={"edition": 2})
    deliver_pending()
    email = OutboxEmail.objects.get(game=game, seat__index=2)
    assert email.status == "sent" and email.provider_message_id
    event = AnymailTrackingEvent(
        event_type="bounced",
        message_id=email.provider_message_id,
        recipient=email.to,
        description="550 5.1.1 no such user",
        esp_event={},
    )
    tracking.send(sender=object(), event=event, esp_name="Test")
    tracking.send(sender=object(), event=event, esp_name="Test")  # delivered twice
    stored = DeliveryEvent.objects.get(esp="Test")
    assert stored.email == email
    seat = Seat.objects.get(pk=email.seat_id)
    assert seat.undeliverable_at is not None and "no such user" in seat.last_failure
