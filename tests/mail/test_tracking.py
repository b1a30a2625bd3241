"""The ESP's tracking webhooks, as Mailgun and Postmark post them: stored once,
matched to the outbox; a hard bounce stops mail to the address and alerts the
organizer; deliveries and auto-replies show on the seat. Only a secured webhook of
an ESP we send through is answered, an event names its email by the ESP's id or
our signed key *and* the recipient, and a body that cannot be read is a 400."""

import base64
import hashlib
import hmac
import json
import time

import pytest
from django.core import mail
from django.test import Client

from games.core import controls, game_setup
from games.mail import outbox, tracking
from games.models import DeliveryEvent, OutboxEmail, Seat
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

SECRET = "hook:s3cret"
SIGNING_KEY = "mailgun-signing-key"
PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


@pytest.fixture(autouse=True)
def webhook_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    settings.TRACKING_ESPS = ["postmark", "mailgun"]


def client() -> Client:
    auth = base64.b64encode(SECRET.encode()).decode()
    # A 500 is an answer here, not an exception in the test.
    return Client(HTTP_AUTHORIZATION=f"Basic {auth}", raise_request_exception=False)


def started(organizer_email="org@example.org"):
    game = game_setup.create_game(
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
        "Metadata": {"game": str(email.game_id), "key": tracking.signed_key(email.key)},
    }


def mailgun(event_data: dict | None):
    timestamp, token = str(int(time.time())), "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0"
    signature = hmac.new(
        SIGNING_KEY.encode(), (timestamp + token).encode(), hashlib.sha256
    ).hexdigest()
    body = {"signature": {"timestamp": timestamp, "token": token, "signature": signature}}
    if event_data is not None:
        body["event-data"] = event_data
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
        "user-variables": {"game": str(email.game_id), "key": tracking.signed_key(email.key)},
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
    # The organizer is told once, with their page of the game.
    deliver_pending()
    [alert] = [m for m in mail.outbox if m.to == ["org@example.org"]]
    assert alert.subject.endswith("— email to Ben does not arrive")
    assert "550 5.1.1" in alert.body or "unknown user" in alert.body
    assert f"/organize/{game.pk}/" in alert.body and "/admin/" not in alert.body
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
    controls.replace_player(
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
        "Metadata": {"key": tracking.signed_key(email.key)},
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
        "Metadata": {"key": tracking.signed_key(email.key)},
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
    game = game_setup.create_game(name="Test ESP", players=PLAYERS, config={"edition": 2})
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


# -- what a forger can and cannot do (issue 31) ------------------------------------------


def ben_is_deliverable(email: OutboxEmail) -> bool:
    return Seat.objects.get(pk=email.seat_id).undeliverable_at is None


def test_without_the_secret_an_unsigned_bounce_is_refused(settings):
    """A site that forgot ANYMAIL_WEBHOOK_SECRET: anymail alone would believe anyone."""
    settings.ANYMAIL = {}
    _, email = started()
    forged = Client(raise_request_exception=False).post(
        "/anymail/postmark/tracking/",
        json.dumps(postmark_bounce(email)),
        content_type="application/json",
    )
    assert forged.status_code == 400
    assert DeliveryEvent.objects.count() == 0 and ben_is_deliverable(email)


def test_a_signed_webhook_naming_a_guessed_key_touches_no_seat():
    """A player reads their own key in their Message-ID and guesses another seat's;
    even through the ESP's signed webhook that key (unsigned) names no email."""
    _, email = started()
    bounce = postmark_bounce(email)
    bounce["MessageID"] = "not-one-of-ours"
    bounce["Metadata"] = {"game": str(email.game_id), "key": email.key}  # not signed
    assert postmark(bounce).status_code == 200
    assert DeliveryEvent.objects.get().email is None  # kept, matched to nothing
    assert ben_is_deliverable(email)


def test_a_replayed_event_counts_once_and_cannot_be_retargeted():
    game, email = started()
    ann = OutboxEmail.objects.get(game=game, seat__index=0)
    bounce = mailgun_event(ann, "failed", severity="permanent", reason="bounce")
    bounce["delivery-status"] = {"code": 550, "message": "No such user"}
    assert mailgun(bounce).status_code == 200
    assert mailgun(bounce).status_code == 200  # the same event, replayed
    assert DeliveryEvent.objects.count() == 1
    deliver_pending()
    assert len([m for m in mail.outbox if m.to == ["org@example.org"]]) == 1
    # Mailgun signs a timestamp and a token, not the event: a captured request's
    # signature carried over to an event about Ben (the token is the event's id).
    retargeted = {**bounce, "id": "replayed-about-ben", "recipient": email.to}
    assert mailgun(retargeted).status_code == 200
    assert DeliveryEvent.objects.count() == 1 and ben_is_deliverable(email)
    # Nor can the same words through Postmark name Ben's email with Ann's signed key.
    about_ben = {**postmark_bounce(ann), "Email": email.to, "ID": 77}
    assert postmark(about_ben).status_code == 200
    assert DeliveryEvent.objects.get(esp="Postmark").email is None
    assert ben_is_deliverable(email)


def test_an_event_for_another_games_message_stays_with_that_game():
    """Ben plays two games at one address; a bounce of the second game's email (by the
    ESP's id), whatever key it carries, says nothing of the first game's email."""
    _, first = started()
    second_game = game_setup.create_game(name="Other", players=PLAYERS, config={"edition": 2})
    deliver_pending()
    second = OutboxEmail.objects.get(game=second_game, seat__index=1)
    OutboxEmail.objects.filter(pk=second.pk).update(provider_message_id="pm-second")
    OutboxEmail.objects.filter(pk=first.pk).update(provider_message_id="pm-first")
    bounce = postmark_bounce(first)  # the first game's signed key in the metadata...
    bounce["MessageID"] = "pm-second"  # ...on the second game's message
    assert postmark(bounce).status_code == 200
    assert DeliveryEvent.objects.get().email_id == second.pk
    assert ben_is_deliverable(first)
    assert not ben_is_deliverable(second)


@pytest.mark.parametrize(
    "path, body, content_type",
    [
        ("/anymail/postmark/tracking/", "", "application/json"),
        ("/anymail/postmark/tracking/", "{not json", "application/json"),
        ("/anymail/postmark/tracking/", '["a list"]', "application/json"),
        ("/anymail/postmark/tracking/", "RecordType=Bounce", "application/x-www-form-urlencoded"),
        ("/anymail/mailgun/tracking/", "", "application/json"),
        ("/anymail/mailgun/tracking/", "{}", "application/json"),
        ("/anymail/sparkpost/tracking/", "[]", "application/json"),  # not an ESP of ours
        ("/anymail/mailjet/tracking/", "{not json", "application/json"),
    ],
)
def test_a_malformed_body_or_an_esp_we_do_not_use_is_a_400(path, body, content_type):
    started()
    response = client().post(path, body, content_type=content_type)
    assert response.status_code == 400
    assert DeliveryEvent.objects.count() == 0


def test_a_signed_mailgun_post_without_its_event_is_a_400():
    started()
    assert mailgun(None).status_code == 400


def test_an_esp_without_its_signing_key_is_not_answered(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}  # no MAILGUN_WEBHOOK_SIGNING_KEY
    _, email = started()
    event = mailgun_event(email, "failed", severity="permanent", reason="bounce")
    assert mailgun(event).status_code == 400
    assert ben_is_deliverable(email)


def test_failing_to_store_a_real_event_is_a_500_the_esp_retries(monkeypatch):
    from django.db import DatabaseError

    _, email = started()

    def broken(esp, event):
        raise DatabaseError("the database went away")

    monkeypatch.setattr(tracking, "record", broken)
    assert postmark(postmark_bounce(email)).status_code == 500
