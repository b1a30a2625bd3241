"""Table talk by email (issue 28, 3): who gets a talk email by their setting, the
lines that concern a "my turn and results" reader, one gathered email per reader
however fast the table talks, and the "Table talk" section every seat email has:
the reader's unread lines, never their own, a hidden one or another's private one,
and never the same line twice."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.core import moves, notifications, talk, timers
from games.mail import outbox, person_emails
from games.models import OutboxEmail, Seat, TalkMessage
from tests.support.clock import T0
from tests.support.fixtures_pages import fresh, start_game
from tests.support.mailplay import deliver_pending, html_of, preheader

pytestmark = pytest.mark.django_db

QUIET, LONGEST = timedelta(seconds=600), timedelta(seconds=3600)
ANN, BEN, CID, DEE = range(4)


@pytest.fixture
def market(settings, clock, mailoutbox):
    """A four-player game at its market; talk emails wait 600 s of quiet, 3600 s at
    most; every email owed so far sent."""
    settings.TALK_EMAIL_QUIET_SECONDS, settings.TALK_EMAIL_MAX_WAIT_SECONDS = 600, 3600
    settings.TALK_BURST = 1000
    game = start_game()
    deliver_pending()
    mailoutbox.clear()
    return game


@pytest.fixture
def game(market, mailoutbox):
    """The same game in its inspection (Ann is the Sheriff)."""
    timers.advance(market.pk, force=True)
    timers.advance(market.pk, force=True)
    game = fresh(market)
    assert game.engine_state().phase.kind == "inspection"
    deliver_pending()
    mailoutbox.clear()
    return game


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def notify(game, **settings) -> None:
    """Each named seat's choice of emails: ann="all", cid="turn", ..."""
    for index, name in enumerate(("ann", "ben", "cid", "dee")):
        if name in settings:
            Seat.objects.filter(game=game, index=index).update(notify=settings[name])


def say(game, index: int, text: str, clock) -> TalkMessage:
    return talk.post(seat(game, index), text, clock.now)


def written(game, index: int, text: str, **fields) -> TalkMessage:
    """A line as the talk form will write it (a private one, a quote), with the
    emails it owes."""
    message = TalkMessage.objects.create(
        game=game,
        seat=seat(game, index),
        text=text,
        round=1,
        phase_kind=game.engine_state().phase.kind,
        created_at=timezone.now(),
        **fields,
    )
    notifications.record_talk(fresh(game), message, fresh(game).engine_state())
    return message


def talk_emails(game, index: int | None = None):
    emails = OutboxEmail.objects.filter(game=game, kind=notifications.TALK)
    return emails if index is None else emails.filter(seat__index=index)


def readers(game) -> set:
    return set(talk_emails(game).values_list("seat__index", flat=True))


def send(email: OutboxEmail, mailoutbox, at: datetime) -> object:
    mailoutbox.clear()
    assert outbox.deliver(email.pk, now=at) == "sent"
    (sent,) = mailoutbox
    return sent


def test_every_event_gets_every_line_results_only_lines_that_concern_them(game, clock):
    notify(game, ann="results", ben="all", cid="results", dee="turn")
    say(game, ANN, "Nice weather for smuggling.", clock)
    assert readers(game) == {BEN}  # Cid is not named; Dee waits for her move
    say(game, BEN, "Cid, I saw you load cheese. Ann, open his bag!", clock)
    assert readers(game) == {ANN, BEN, CID}  # Ann and Cid are named; Ben's own line owes him none
    assert talk_emails(game, BEN).count() == 1  # gathered with Ann's line


def test_a_line_that_quotes_a_declaration_or_an_offer_concerns_those_it_is_about(game, clock):
    notify(game, ann="results", ben="results", cid="results", dee="results")
    written(game, DEE, "Liar.", quote_kind="declaration", quote_ref=CID)
    assert readers(game) == {CID}
    terms = {"gold": 2, "sheriff": [{"bag": BEN, "action": "pass"}]}
    command = {"type": "make_offer", "to": ANN, "terms": terms}
    version = fresh(game).engine_state().phase.since
    assert moves.submit(seat(game, BEN), command, version=version, key="offer").accepted
    offer = fresh(game).engine_state().phase.next_offer - 1
    OutboxEmail.objects.all().delete()
    written(game, DEE, "Don't take it.", quote_kind="offer", quote_ref=offer)
    assert readers(game) == {ANN, BEN}  # its recipient, and its proposer whose bag it is


def test_outside_the_inspection_naming_a_reader_is_no_reason_for_an_email(market, clock):
    notify(market, ann="results", ben="results", cid="results", dee="results")
    say(market, ANN, "Cid, Ben, Dee: good luck at the market.", clock)
    assert readers(market) == set()


def test_a_private_message_owes_an_email_to_its_one_reader_only(game, clock):
    notify(game, ann="all", ben="all", cid="results", dee="all")
    written(game, BEN, "Psst, Cid: split the bribe?", to_seat=seat(game, CID))
    assert readers(game) == {CID}  # private to her: it concerns her


def test_no_talk_email_to_an_address_that_takes_no_more_mail(game, clock):
    notify(game, ann="all", ben="all", cid="all", dee="all")
    Seat.objects.filter(pk=seat(game, CID).pk).update(undeliverable_at=clock.now)
    say(game, ANN, "Hello all", clock)
    assert readers(game) == {BEN, DEE}


def test_a_seat_talking_in_a_loop_is_paced_and_others_get_one_email_each(game, clock, settings):
    """The flooding test: 30 lines by Ben, one every 150 s, with his pace raised."""
    notify(game, ann="all", ben="all", cid="all", dee="all")
    due = []
    for i in range(30):
        clock.at(i * 150)
        say(game, BEN, f"Line {i}: pay up or else", clock)
        assert talk_emails(game).count() == 3  # one each for Ann, Cid and Dee
        (when,) = set(talk_emails(game).values_list("next_attempt_at", flat=True))
        due.append(when)
    assert due[0] == T0 + QUIET
    assert due[1] == T0 + timedelta(seconds=150) + QUIET  # put off after each line
    assert due[-1] == T0 + LONGEST  # but never past the longest wait
    assert due == sorted(due)
    # With the pace as it is by default, a seat cannot post like that.
    settings.TALK_BURST, settings.TALK_REFILL_SECONDS = 6, 20
    Seat.objects.filter(game=game).update(talk_counted_at=None, talk_tokens=0)
    with pytest.raises(talk.TooFast):
        for i in range(settings.TALK_BURST + 1):
            say(game, CID, f"Spam {i}", clock)


def test_the_email_tells_exactly_the_unread_lines_and_never_twice(game, clock, mailoutbox):
    notify(game, ann="all", ben="all", cid="all", dee="all")
    say(game, BEN, "Ann, my bag is all apples.", clock)
    clock.at(10)
    say(game, ANN, "We'll see about that.", clock)  # Ann's own: never unread for her
    clock.at(20)
    hidden = say(game, DEE, "something rude", clock)
    talk.hide(hidden, "org@example.org", "rude", clock.now)
    clock.at(30)
    written(game, BEN, "Cid: half of my bribe if you keep quiet", to_seat=seat(game, CID))
    clock.at(40)
    say(game, CID, "Visit evil.example.com <b>now</b>\nsecond line", clock)
    (email,) = talk_emails(game, ANN)
    sent = send(email, mailoutbox, email.next_attempt_at)
    body, html = sent.body, html_of(sent)
    assert "New table talk" in body
    # The round's news, even on her turn.
    assert sent.subject == "News — table talk: Pages test, round 1"
    table_talk = body[body.index("TABLE TALK") :]
    assert "Ben · Round 1 · Inspection" in table_talk
    assert "  Ann, my bag is all apples." in table_talk
    assert "  Visit evil.example.com <b>now</b>\n  second line" in table_talk
    for kept_out in ("We'll see about that.", "something rude", "half of my bribe"):
        assert kept_out not in body and kept_out not in html
    assert "&lt;b&gt;now&lt;/b&gt;" in html
    assert "evil<span>.</span>example<span>.</span>com" in html  # no link made of it
    assert preheader(sent).startswith("Ben: Ann, my bag is all apples.")
    ann = seat(game, ANN)
    assert ann.talk_mailed_id == TalkMessage.objects.filter(game=game).latest("id").pk
    assert not talk.unread(ann).exists()
    # A new line: the next email tells it alone.
    clock.at(700)
    say(game, DEE, "Fine, I pay.", clock)
    (later,) = talk_emails(game, ANN).filter(status=OutboxEmail.Status.PENDING)
    again = send(later, mailoutbox, later.next_attempt_at)
    assert "Fine, I pay." in again.body
    assert "apples" not in again.body and "evil" not in again.body


def test_a_private_message_to_the_reader_is_marked_so(game, clock, mailoutbox):
    notify(game, cid="results")
    written(game, BEN, "Psst: split the bribe?", to_seat=seat(game, CID))
    (email,) = talk_emails(game, CID)
    sent = send(email, mailoutbox, email.next_attempt_at)
    assert "Talk that concerns you" in sent.body
    assert "· privately to you\n  Psst: split the bribe?" in sent.body


def test_a_talk_email_with_nothing_left_unread_is_not_sent(game, clock, mailoutbox):
    notify(game, ann="all")
    message = say(game, BEN, "Ann, open Cid's bag", clock)
    Seat.objects.filter(pk=seat(game, ANN).pk).update(talk_read_id=message.pk)  # read it
    (email,) = talk_emails(game, ANN)
    assert outbox.deliver(email.pk, now=email.next_attempt_at) == "dropped"
    assert mailoutbox == []


def test_my_turn_only_gets_the_talk_in_the_next_email_that_asks_a_move(market, clock, mailoutbox):
    notify(market, dee="turn")
    say(market, ANN, "Dee, load something nice for me.", clock)
    say(market, BEN, "Don't listen to her", clock)
    assert readers(market) == set()  # the others choose "results": nothing concerns them yet
    timers.advance(market.pk, force=True)  # the market's end: everyone loads a bag
    deliver_pending()
    (sent,) = [m for m in mailoutbox if m.to == ["dee@example.org"]]
    assert "Your move" in sent.subject
    table_talk = sent.body[sent.body.index("TABLE TALK") :]
    assert "Dee, load something nice for me." in table_talk
    assert "Don't listen to her" in table_talk
    assert seat(market, DEE).talk_mailed_id == TalkMessage.objects.latest("id").pk


def test_many_unread_lines_show_twenty_and_how_many_more(game, clock, mailoutbox):
    notify(game, ann="all")
    for i in range(25):
        say(game, BEN, f"Line number {i}.", clock)
    (email,) = talk_emails(game, ANN)
    sent = send(email, mailoutbox, email.next_attempt_at)
    assert "Line number 0." in sent.body and "Line number 19." in sent.body
    assert "Line number 20." not in sent.body
    assert "… and 5 more messages on your table" in sent.body
    assert talk.unread(seat(game, ANN)).count() == 5  # the email told the first twenty


def test_a_daily_summary_counts_unread_talk_as_news(game, clock):
    ben = seat(game, BEN)
    last = fresh(game).events.order_by("-seq").first().seq
    Seat.objects.filter(pk=ben.pk).update(digest_hour=0, notified_seq=last + 1)
    assert notifications.record_digests(clock.at(3600)) == []  # no news
    Seat.objects.filter(pk=ben.pk).update(last_digest_on=None)
    say(game, ANN, "Ben, you're next", clock)
    [digest] = notifications.record_digests(clock.at(3700))
    assert digest.seat_id == ben.pk


def test_a_spanish_reader_reads_the_talk_with_spanish_labels(game, clock, mailoutbox):
    Seat.objects.filter(pk=seat(game, BEN).pk).update(language="es", notify="all")
    say(game, ANN, "Ben, open your bag, please", clock)
    (email,) = talk_emails(game, BEN)
    sent = send(email, mailoutbox, email.next_attempt_at)
    assert "Novedades en la charla de la mesa" in sent.body
    assert "CHARLA DE LA MESA" in sent.body
    assert "Ronda 1 · Registro" in sent.body
    assert "Ben, open your bag, please" in sent.body  # as written


def test_the_persons_daily_email_counts_the_unread_talk_of_each_game(game, clock):
    say(game, ANN, "Ben, Cid: who pays first?", clock)
    written(game, CID, "Psst, Dee", to_seat=seat(game, DEE))  # not Ben's to read
    daily = person_emails.render_daily("ben@example.org", "daily:test")
    assert "1 new message in the table talk: http://testserver/play/" in daily["text"]
    assert "who pays" not in daily["text"] and "Psst" not in daily["text"]
