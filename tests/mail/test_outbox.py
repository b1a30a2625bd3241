"""The outbox's states under ESP failures: what is known is retried or given up,
what is not known is sent again under the same Message-ID and counted. Only an
answer that proves the ESP did not take the message is known."""

import smtplib
import socket
import ssl
from datetime import timedelta

import pytest
import requests
from anymail.exceptions import AnymailAPIError, AnymailInvalidAddress, AnymailRecipientsRefused
from django.core import mail
from django.utils import timezone

from games.core import game_setup, game_writes, moves, notifications
from games.mail import outbox, sending
from games.models import Game, OutboxEmail, Seat

pytestmark = pytest.mark.django_db

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


def api_error(status: int) -> AnymailAPIError:
    """What anymail raises when the ESP answered with an HTTP error."""
    response = requests.Response()
    response.status_code, response.reason, response._content = status, "Refused", b"{}"
    return AnymailAPIError("refused", status_code=status, response=response)


def new_game():
    return game_setup.create_game(
        name="Post", players=PLAYERS, config={"edition": 2}, seed="e7" * 32
    )


def first_email(game) -> OutboxEmail:
    return OutboxEmail.objects.filter(game=game, seat__index=1).get()


def esp_fails(monkeypatch, error):
    def send(self, *args, **kwargs):
        raise error

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", send)


def esp_works(monkeypatch):
    monkeypatch.undo()


def test_a_sent_email_moves_the_seats_news_on_and_a_failed_one_does_not(monkeypatch):
    game = new_game()
    email = first_email(game)
    esp_fails(monkeypatch, api_error(429))
    assert outbox.deliver(email.pk) == "failed"
    assert Seat.objects.get(pk=email.seat_id).notified_seq == 0  # not told anything yet
    esp_works(monkeypatch)
    assert outbox.deliver(email.pk, now=timezone.now() + timedelta(hours=1)) == "sent"
    email.refresh_from_db()
    assert email.status == "sent" and email.in_doubt == 0 and email.attempts == 2
    assert Seat.objects.get(pk=email.seat_id).notified_seq == email.rendered_version


@pytest.mark.parametrize(
    "error",
    [
        api_error(429),
        smtplib.SMTPDataError(451, b"try again later"),
        smtplib.SMTPSenderRefused(421, b"busy", "sheriff@localhost"),
        ConnectionRefusedError("nothing listens there"),
        socket.gaierror("no such host"),
        requests.exceptions.ConnectTimeout("the connection was never made"),
        AnymailInvalidAddress("not an address"),
    ],
)
def test_a_known_failure_is_retried_with_the_game_as_it_is_then(monkeypatch, error):
    game = new_game()
    email = first_email(game)
    esp_fails(monkeypatch, error)
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    assert email.status == "pending" and not email.uncertain and email.rendered_at is None
    first_version = email.rendered_version
    cid = game.seats.get(index=2)
    since = game.engine_state().phase.since
    assert moves.submit(cid, {"type": "set_aside", "cards": []}, version=since, key="c").accepted
    esp_works(monkeypatch)
    assert outbox.deliver(email.pk, now=email.next_attempt_at) == "sent"
    email.refresh_from_db()
    now_version = Game.objects.get(pk=game.pk).version
    assert email.rendered_version == now_version > first_version  # Cid's move is told
    assert "Cid" in mail.outbox[-1].body and email.in_doubt == 0


@pytest.mark.parametrize(
    "error",
    [
        TimeoutError("read timed out"),
        AnymailAPIError("no answer"),  # a lost connection: no status, no response
        smtplib.SMTPServerDisconnected("gone after DATA"),
        # A gateway in front of the ESP, after the ESP queued the message (issue 31).
        api_error(504),
        api_error(502),
        api_error(500),
        api_error(503),
        api_error(200),  # "invalid JSON in the ESP's answer": it answered, with success
        ssl.SSLEOFError(8, "EOF occurred in violation of protocol"),
        requests.exceptions.ReadTimeout("the answer did not come"),
        RuntimeError("the answer could not be read"),
        KeyError("id"),
    ],
)
def test_a_lost_answer_is_sent_again_as_it_was_and_counted(monkeypatch, error):
    game = new_game()
    email = first_email(game)
    esp_fails(monkeypatch, error)
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    first_body, first_id = email.text, email.headers["Message-ID"]
    assert email.uncertain and email.rendered_at is not None
    esp_works(monkeypatch)
    assert outbox.deliver(email.pk, now=email.next_attempt_at) == "sent"
    email.refresh_from_db()
    assert email.in_doubt == 1 and not email.uncertain
    [sent] = mail.outbox
    assert sent.body == first_body and sent.extra_headers["Message-ID"] == first_id


@pytest.mark.parametrize(
    "error",
    [
        AnymailRecipientsRefused("bounced before"),
        api_error(422),
        smtplib.SMTPRecipientsRefused({"ben@example.org": (550, b"no such user")}),
        smtplib.SMTPResponseException(554, b"rejected"),
    ],
)
def test_a_permanent_refusal_is_not_retried(monkeypatch, error):
    email = first_email(new_game())
    esp_fails(monkeypatch, error)
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    assert email.status == "failed" and email.attempts == 1
    assert outbox.deliver(email.pk, now=timezone.now() + timedelta(days=1)) == "not pending"


@pytest.mark.parametrize(
    "error",
    [api_error(429), smtplib.SMTPResponseException(451, b"later")],
)
def test_a_temporary_refusal_is_retried(monkeypatch, error):
    email = first_email(new_game())
    esp_fails(monkeypatch, error)
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    assert email.status == "pending" and not email.uncertain


def test_a_row_a_dead_worker_left_sending_is_sent_again_and_counted():
    game = new_game()
    email = first_email(game)
    now = timezone.now()
    outbox.render(email, now)
    email.status, email.sending_at, email.attempts = "sending", now, 1
    email.save()
    assert email.pk not in outbox.due(now + timedelta(seconds=60))
    assert outbox.deliver(email.pk, now=now + timedelta(seconds=60)) == "being sent"
    later = now + outbox.SENDING_GRACE
    assert email.pk in outbox.due(later)
    assert outbox.deliver(email.pk, now=later) == "sent"
    email.refresh_from_db()
    assert email.status == "sent" and email.in_doubt == 1 and email.attempts == 2
    assert mail.outbox[0].extra_headers["Message-ID"] == email.headers["Message-ID"]


def test_an_answer_recorded_late_by_a_stale_attempt_changes_nothing():
    email = first_email(new_game())
    claimed = outbox._claim(email.pk, timezone.now())
    OutboxEmail.objects.filter(pk=email.pk).update(attempts=claimed.attempts + 1)  # taken over
    assert not outbox._record(claimed, status="sent")
    assert OutboxEmail.objects.get(pk=email.pk).status == "sending"


def test_one_email_that_cannot_be_rendered_does_not_hold_up_the_others(monkeypatch):
    game = new_game()
    pks = list(OutboxEmail.objects.filter(game=game).order_by("pk").values_list("pk", flat=True))
    real_render = outbox.render

    def render(email, now, table=None):
        if email.pk == pks[0]:
            raise RuntimeError("a template bug")
        real_render(email, now, table)

    monkeypatch.setattr(outbox, "render", render)
    assert sending.send(pks) == len(pks) - 1
    assert OutboxEmail.objects.get(pk=pks[0]).status == "pending"  # the sweep tries it again


class Deadlock(Exception):
    sqlstate = "40P01"


def test_a_deadlock_victim_is_run_again_and_other_errors_are_not():
    from django.db import OperationalError

    calls = []

    @game_writes.retried_on_deadlock
    def write(fail_with):
        calls.append(fail_with)
        if len(calls) == 1:
            raise OperationalError("deadlock detected") from fail_with
        return "done"

    assert write(Deadlock()) == "done" and len(calls) == 2
    calls.clear()
    with pytest.raises(OperationalError):
        write(Exception("connection lost"))
    assert len(calls) == 1


def test_an_alert_is_a_row_until_it_is_sent_and_tells_the_seat_as_it_was_when_owed():
    game = new_game()
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    game.refresh_from_db()
    seat = game.seats.get(index=1)
    [owed] = notifications.record_undeliverable_alert(game, seat, "bounced: no such user")
    assert (owed.text, owed.subject, owed.rendered_at) == ("", "", None)  # a row only
    Seat.objects.filter(pk=seat.pk).update(name="Someone Else")  # the seat changes hands
    mail.outbox.clear()
    assert outbox.deliver(owed.pk) == "sent"
    [alert] = mail.outbox
    assert alert.to == ["org@example.org"] and seat.name in alert.subject
    assert "Someone Else" not in alert.body


def test_an_alert_owed_before_alerts_were_rendered_when_sent_goes_as_it_was_written():
    game = new_game()
    written = {"to": "org@example.org", "subject": "Written then", "text": "Body then"}
    email = OutboxEmail.objects.create(game=game, seat=None, key="legacy-alert", **written)
    mail.outbox.clear()
    assert outbox.deliver(email.pk) == "sent"
    [sent] = mail.outbox
    assert (sent.subject, sent.body) == ("Written then", "Body then")
