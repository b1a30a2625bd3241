"""A line of table talk told twice is counted as a possible duplicate, as a resent
email is: an email that may have reached its reader (killed after the send, its
answer lost) leaves the seat's talk where it was, and the next email tells the
same lines again. A failure the provider's answer proves (nothing sent) counts
nothing, and neither does a send that went as it should."""

import contextlib

import pytest
import requests
from anymail.exceptions import AnymailAPIError
from django.core.mail import EmailMultiAlternatives

from games.core import notifications, talk
from games.mail import outbox
from games.models import OutboxEmail, Seat
from tests.support.fixtures_pages import start_game
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

ANN, BEN, CID = range(3)
FIRST, SECOND = "Ann, my bag is all apples.", "Cid here: I saw Ben load cheese."
REALLY_SEND = EmailMultiAlternatives.send


class Killed(BaseException):
    """The worker dies on the spot (not an error the outbox could catch)."""


def killed_before_the_answer_is_recorded(monkeypatch):
    def record(*args, **kwargs):
        raise Killed

    monkeypatch.setattr(outbox, "_record", record)


def answer_lost(monkeypatch):
    def send(self, *args, **kwargs):
        REALLY_SEND(self, *args, **kwargs)
        raise requests.exceptions.ReadTimeout("the answer did not come")

    monkeypatch.setattr(EmailMultiAlternatives, "send", send)


def killed_before_the_talk_moves_on(monkeypatch):
    """The worker dies while it writes the answer ("sent") and the seat's news and
    talk moving on after the email: they are one commit, so neither is written."""

    def told(*args, **kwargs):
        raise Killed

    monkeypatch.setattr(outbox, "_told", told)


def refused(monkeypatch):
    def send(self, *args, **kwargs):
        response = requests.Response()
        response.status_code, response._content = 429, b"{}"
        raise AnymailAPIError("slow down", status_code=429, response=response)

    monkeypatch.setattr(EmailMultiAlternatives, "send", send)


def sent_as_it_should(monkeypatch):
    pass


@pytest.fixture
def table(settings, clock, mailoutbox):
    """Three players at the market, Ann told of every line; talk emails wait 600 s."""
    settings.TALK_EMAIL_QUIET_SECONDS, settings.TALK_EMAIL_MAX_WAIT_SECONDS = 600, 3600
    settings.TALK_BURST = 1000
    game = start_game(players=("Ann", "Ben", "Cid"))
    deliver_pending()
    mailoutbox.clear()
    Seat.objects.filter(game=game).update(notify=Seat.Notify.EVERY_EVENT)
    return game


def say(game, index: int, text: str, now) -> None:
    talk.post(Seat.objects.get(game=game, index=index), text, now)


def anns_talk_email(game) -> OutboxEmail:
    return OutboxEmail.objects.get(game=game, seat__index=ANN, kind=notifications.TALK, attempts=0)


def after_a_failure(game, clock, mailoutbox, monkeypatch, failure):
    """Ben's line, Ann's talk email sent with ``failure`` forced on it, then Cid's
    line and Ann's next talk email sent: (that email's row, what Ann got)."""
    say(game, BEN, FIRST, clock.now)
    first = anns_talk_email(game)
    clock.at(700)
    failure(monkeypatch)
    with contextlib.suppress(Killed):
        outbox.deliver(first.pk, now=first.next_attempt_at)
    monkeypatch.undo()
    reached = [FIRST in m.body for m in mailoutbox]
    clock.at(800)
    say(game, CID, SECOND, clock.now)
    second = anns_talk_email(game)
    mailoutbox.clear()
    assert outbox.deliver(second.pk, now=second.next_attempt_at) == "sent"
    (mail,) = mailoutbox
    assert SECOND in mail.body
    second.refresh_from_db()
    return second, mail, reached


@pytest.mark.parametrize(
    "failure",
    [killed_before_the_answer_is_recorded, answer_lost, killed_before_the_talk_moves_on],
)
def test_talk_told_again_after_an_email_that_may_have_reached_its_reader_is_counted(
    table, clock, mailoutbox, monkeypatch, failure
):
    second, mail, reached = after_a_failure(table, clock, mailoutbox, monkeypatch, failure)
    assert reached == [True]  # the first email reached Ann
    assert FIRST in mail.body  # and the next one tells its line again
    assert second.in_doubt == 1


@pytest.mark.parametrize("failure", [refused, sent_as_it_should])
def test_talk_told_after_an_email_that_did_not_reach_or_was_recorded_counts_nothing(
    table, clock, mailoutbox, monkeypatch, failure
):
    second, mail, reached = after_a_failure(table, clock, mailoutbox, monkeypatch, failure)
    assert reached == ([] if failure is refused else [True])
    assert (FIRST in mail.body) == (failure is refused)  # told once, either way
    assert second.in_doubt == 0
