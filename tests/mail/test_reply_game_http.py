"""A whole four-player game (2nd edition) played by replies alone, every reply sent
over HTTP as it reaches the site: typed into the dev mailbox's Reply form under
the seat's latest email (its page read for the form and its CSRF token), and every
third move posted instead by Postmark's signed inbound webhook, quoting that same
email. Each reply makes its move, none is talk, and each answer email in the
mailbox says the move is made."""

import collections
import itertools
import random

import pytest
from django.test import Client
from django.urls import reverse

from games.core import timers
from games.models import DevMail, Game, InboundMessage, OutboxEmail, Seat, TalkMessage
from tests.mail.test_inbound import DOMAIN, SECRET, postmark, postmark_payload
from tests.support.fixtures_pages import forms_of, fresh, start_game
from tests.support.mailplay import deliver_pending
from tests.support.reply_players import next_reply

pytestmark = pytest.mark.django_db

Outcome = InboundMessage.Outcome
POSTMARK_EVERY = 3  # every third move comes through the webhook, the others the mailbox
IDS = itertools.count(1)


@pytest.fixture
def game(settings):
    settings.EMAIL_BACKEND = "games.mail.dev_backend.DevMailboxBackend"  # DevMail rows
    settings.INBOUND_DOMAIN = DOMAIN
    settings.INBOUND_ESPS = ["postmark"]
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    game = start_game()
    deliver_pending()
    return game


def latest_mail(seat: Seat) -> DevMail:
    """The seat's newest email in the mailbox: the one a player answers."""
    mail = DevMail.objects.filter(to=seat.email).first()  # newest first
    assert mail is not None and mail.headers.get("Reply-To") == f"play+{seat.reply_key}@{DOMAIN}"
    return mail


def reply_in_mailbox(browser: Client, mail: DevMail, text: str) -> None:
    """Open the email's page, type the reply in its form and press Reply."""
    page = browser.get(reverse("devmail:message", args=[mail.pk]))
    [form] = [form for form in forms_of(page.content.decode()) if form.method == "post"]
    assert form.action == reverse("devmail:reply", args=[mail.pk])
    response = browser.post(form.action, {**form.hidden(), "text": text})
    assert response.status_code == 302, response.content[:300]


def reply_by_postmark(seat: Seat, mail: DevMail, text: str) -> None:
    """The reply as Postmark posts it: signed, answering ``mail`` and quoting it."""
    ours = mail.headers["Message-ID"]
    quoted = "\n".join(f"> {line}" for line in mail.text.splitlines())
    payload = postmark_payload(
        seat,
        f"{text}\n\nOn Mon, 23 Nov 2026 at 18:00, Sheriff of Nottingham wrote:\n{quoted}",
        headers=[("In-Reply-To", ours), ("References", f"{mail.headers['References']} {ours}")],
        message_id=f"<postmark{next(IDS)}@mail.example>",
    )
    assert postmark(payload).status_code == 200


def answer_to(seat: Seat, row: InboundMessage) -> DevMail:
    """The site's answer to one reply, as it arrived in the seat's mailbox: it says
    the move is made, and what was done ("Your market choice is recorded.")."""
    email = OutboxEmail.objects.get(key=f"g{seat.game_id}:s{seat.index}:reply{row.pk}")
    answer = DevMail.objects.get(**{"headers__Message-ID": email.headers["Message-ID"]})
    assert "Your move by reply is made" in answer.subject + answer.text
    assert email.params["reason"] and email.params["reason"] in answer.text
    return answer


def test_a_whole_game_played_by_replies_over_http(game):
    rnd = random.Random(11)
    browser = Client(enforce_csrf_checks=True)
    seats = {s.index: s for s in Seat.objects.filter(game=game)}
    names = [seats[i].name for i in sorted(seats)]
    moves = 0
    for _step in range(600):
        current = fresh(game)
        if current.status != Game.Status.ACTIVE:
            break
        state = current.engine_state()
        chosen = next_reply(state, names, rnd)
        if chosen is None:  # the bargaining time ends
            timers.advance(game.pk, force=True)
            deliver_pending()
            continue
        seat, text = seats[chosen[0]], chosen[1]
        mail = latest_mail(seat)
        if moves % POSTMARK_EVERY == POSTMARK_EVERY - 1:
            reply_by_postmark(seat, mail, text)
        else:
            reply_in_mailbox(browser, mail, text)
        deliver_pending()
        row = InboundMessage.objects.latest("pk")
        assert (row.seat_id, row.outcome) == (seat.pk, Outcome.MOVE_MADE), (text, row.detail)
        assert answer_to(seat, row).to == seat.email
        moves += 1
    assert fresh(game).status == Game.Status.FINISHED
    assert moves > 50 and not TalkMessage.objects.exists()
    by_path = collections.Counter(InboundMessage.objects.values_list("esp", flat=True))
    assert by_path == {
        "devmail": moves - moves // POSTMARK_EVERY,
        "Postmark": moves // POSTMARK_EVERY,  # anymail's name for it
    }
    assert set(InboundMessage.objects.values_list("outcome", flat=True)) == {Outcome.MOVE_MADE}
