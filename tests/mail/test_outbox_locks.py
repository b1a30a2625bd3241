"""Sending an email holds no lock a move or a deadline needs, on PostgreSQL.

The reproduction: an ESP that accepts a message and holds its answer. While
it holds, a move by the same seat must go through at once. (Before, the
outbox's transaction held the seat row from rendering to the ESP's answer; a
move holding the game row waited for it, and the commit that followed needed
the game row: a deadlock.) Runs whenever the database is PostgreSQL (always
under CI)."""

import threading

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection

from games.core import game_setup, moves, notifications
from games.mail import outbox
from games.models import OutboxEmail, Seat
from tests.support.mailplay import deliver_pending

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


class HeldAnswerBackend(BaseEmailBackend):
    """An ESP that takes the message, then holds its answer until released."""

    called = threading.Event()
    release = threading.Event()

    def send_messages(self, messages):
        type(self).called.set()
        assert type(self).release.wait(20), "the test never released the ESP"
        mail.outbox.extend(messages)
        return len(messages)


def in_thread(call) -> tuple[threading.Thread, dict]:
    result: dict = {}

    def run():
        try:
            result["value"] = call()
        except Exception as error:  # reported by the test, not lost in the thread
            result["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


def test_a_move_goes_through_while_the_esp_holds_an_email_of_the_same_seat(settings):
    game = game_setup.create_game(name="Locks", players=PLAYERS, config={"edition": 2})
    deliver_pending()
    ben = game.seats.get(index=1)
    Seat.objects.filter(pk=ben.pk).update(missed_in_a_row=1)  # a move then updates the seat
    ben.refresh_from_db()
    [email] = notifications.record_resend(game, ben)
    settings.EMAIL_BACKEND = f"{__name__}.HeldAnswerBackend"
    HeldAnswerBackend.called.clear()
    HeldAnswerBackend.release.clear()

    sending, sent = in_thread(lambda: outbox.deliver(email.pk))
    try:
        assert HeldAnswerBackend.called.wait(10), "the email was never handed to the ESP"
        since = game.engine_state().phase.since
        move = {"type": "set_aside", "cards": []}
        moving, moved = in_thread(lambda: moves.submit(ben, move, version=since, key="k1"))
        moving.join(5)
        assert not moving.is_alive(), "the move waited for the ESP's answer"
    finally:
        HeldAnswerBackend.release.set()
        sending.join(20)
        moving.join(20)
    assert "error" not in moved and "error" not in sent, (moved, sent)
    assert moved["value"].accepted and sent["value"] == "sent"
    assert OutboxEmail.objects.get(pk=email.pk).status == OutboxEmail.Status.SENT
    assert Seat.objects.get(pk=ben.pk).missed_in_a_row == 0
