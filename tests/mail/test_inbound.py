"""Replies by email through the ESPs' inbound webhooks, as Postmark (JSON) and
Mailgun (form fields, signed) post them: a reply posts talk in the seat's name and
is answered with the seat's own view; only a secured webhook of an ESP in
INBOUND_ESPS is answered; unsigned and forged posts store nothing; any bytes give
no 500 and post nothing unless valid."""

import base64
import hashlib
import hmac
import json
import time
from urllib.parse import quote_from_bytes

import hypothesis
import pytest
from django.core import mail
from django.test import Client
from hypothesis import strategies as st

from games import engine
from games.core import links, notifications
from games.mail import settings_checks
from games.models import Game, InboundMessage, OutboxEmail, Seat, TalkMessage
from tests.support.fixtures_pages import start_game
from tests.support.mailplay import deliver_pending, inbox
from tests.web.test_talk import FUZZ as TALK_FUZZ

pytestmark = pytest.mark.django_db

SECRET = "hook:s3cret"
SIGNING_KEY = "mailgun-signing-key"
DOMAIN = "in.example.org"


@pytest.fixture(autouse=True)
def inbound_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    settings.INBOUND_ESPS = ["postmark", "mailgun"]
    settings.INBOUND_DOMAIN = DOMAIN


@pytest.fixture
def game():
    game = start_game()
    deliver_pending()
    mail.outbox.clear()
    return game


def ben(game) -> Seat:
    return Seat.objects.get(game=game, index=1)


def client(secret: str = SECRET) -> Client:
    auth = base64.b64encode(secret.encode()).decode()
    return Client(HTTP_AUTHORIZATION=f"Basic {auth}", raise_request_exception=False)


def postmark_payload(seat: Seat, text: str, sender: str = "", headers=(), message_id="<r1@x>"):
    sender = sender or seat.email
    return {
        "FromName": seat.name,
        "From": sender,
        "FromFull": {"Email": sender, "Name": seat.name, "MailboxHash": ""},
        "To": f"play+{seat.reply_key}@{DOMAIN}",
        "ToFull": [{"Email": f"play+{seat.reply_key}@{DOMAIN}", "Name": "", "MailboxHash": ""}],
        "Cc": "",
        "CcFull": [],
        "OriginalRecipient": f"play+{seat.reply_key}@{DOMAIN}",
        "Subject": "Re: Sheriff of Nottingham",
        "MessageID": "22c74902-a0c1-4511-804f-341342852c90",
        "ReplyTo": "",
        "MailboxHash": seat.reply_key,
        "Date": "Thu, 26 Nov 2026 10:00:00 +0000",
        "TextBody": text,
        "HtmlBody": "",
        "StrippedTextReply": "",
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            {"Name": "Message-ID", "Value": message_id},
            *({"Name": n, "Value": v} for n, v in headers),
        ],
        "Attachments": [],
    }


def postmark(payload, secret: str = SECRET):
    return client(secret).post(
        "/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json"
    )


def mailgun_fields(seat: Seat, text: str, sender: str = "", key: str = SIGNING_KEY) -> dict:
    sender = sender or seat.email
    timestamp, token = str(int(time.time())), "0f3c5a9bb1d3a2f0c1e2d3b4a5968778695a4b3c2d1e0f"
    signature = hmac.new(key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    to = f"play+{seat.reply_key}@{DOMAIN}"
    headers = [
        ["From", f"{seat.name} <{sender}>"],
        ["To", to],
        ["Subject", "Re: Sheriff of Nottingham"],
        ["Message-Id", "<mg-r1@x>"],
        ["Date", "Thu, 26 Nov 2026 10:00:00 +0000"],
    ]
    return {
        "recipient": to,
        "sender": sender,
        "from": f"{seat.name} <{sender}>",
        "subject": "Re: Sheriff of Nottingham",
        "body-plain": text,
        "stripped-text": text,
        "message-headers": json.dumps(headers),
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
    }


def mailgun(fields: dict, path: str = "/anymail/mailgun/inbound/", secret: str = SECRET):
    return client(secret).post(path, fields)


def talk_of(game) -> list:
    return list(TalkMessage.objects.filter(game=game).values_list("seat__index", "text"))


def test_a_postmark_reply_posts_talk_and_the_seat_gets_its_own_view(game):
    seat = ben(game)
    text = (
        "Carol, I'll pay 3 gold to see Dave's bag.\n\n"
        "On Thu, 26 Nov 2026 at 10:00, Sheriff <s@x.org> wrote:\n> Your move"
    )
    assert postmark(postmark_payload(seat, text)).status_code == 200
    assert talk_of(game) == [(1, "Carol, I'll pay 3 gold to see Dave's bag.")]
    deliver_pending()
    [answer] = inbox(seat.email)
    assert "Your message is on the table" in answer.subject or "Your message is on the table" in (
        answer.body
    )
    assert answer.extra_headers["Reply-To"] == f"play+{seat.reply_key}@{DOMAIN}"
    assert "Reply to this email to talk to the table" in answer.body
    assert [m.to for m in mail.outbox] == [[seat.email]]  # the others get their talk later


def test_a_signed_mailgun_reply_posts_talk_once_on_both_urls(game):
    seat = ben(game)
    fields = mailgun_fields(seat, "No offer from me.\n> quoted")
    assert mailgun(fields).status_code == 200
    assert mailgun(fields, "/anymail/mailgun/inbound_mime/").status_code == 200  # same Message-ID
    assert talk_of(game) == [(1, "No offer from me.")]
    assert InboundMessage.objects.get().outcome == InboundMessage.Outcome.TALK_POSTED


def test_unsigned_forged_and_unknown_esp_posts_store_nothing(game, settings):
    seat = ben(game)
    anonymous = Client(raise_request_exception=False).post(
        "/anymail/postmark/inbound/",
        json.dumps(postmark_payload(seat, "forged")),
        content_type="application/json",
    )
    assert anonymous.status_code in (400, 401, 403)
    assert postmark(postmark_payload(seat, "forged"), "hook:wrong").status_code in (400, 401, 403)
    forged = mailgun_fields(seat, "forged", key="not-the-key")
    assert mailgun(forged).status_code in (400, 401, 403)
    no_signature = {k: v for k, v in mailgun_fields(seat, "x").items() if k != "signature"}
    assert mailgun(no_signature).status_code in (400, 401, 403)
    settings.INBOUND_ESPS = ["postmark"]
    assert mailgun(mailgun_fields(seat, "not ours")).status_code == 400
    assert not InboundMessage.objects.exists() and not talk_of(game)


def test_an_unsecured_inbound_webhook_is_a_400_naming_the_setting(game, settings):
    seat = ben(game)
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}  # no Mailgun signing key
    response = mailgun(mailgun_fields(seat, "hello"))
    assert response.status_code == 400
    assert b"ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY" in response.content
    settings.ANYMAIL = {}
    response = postmark(postmark_payload(seat, "hello"))
    assert response.status_code == 400 and b"ANYMAIL_WEBHOOK_SECRET" in response.content
    assert not InboundMessage.objects.exists()


def test_an_auto_reply_is_ignored_and_answered_with_nothing(game):
    seat = ben(game)
    payload = postmark_payload(seat, "I am out of the office.", headers=[("X-Autoreply", "yes")])
    assert postmark(payload).status_code == 200
    bounce = postmark_payload(seat, "Undeliverable", message_id="<r2@x>")
    bounce["Headers"][0]["Value"] = "<>"
    assert postmark(bounce).status_code == 200
    deliver_pending()
    assert not talk_of(game) and mail.outbox == []
    outcomes = set(InboundMessage.objects.values_list("outcome", flat=True))
    assert outcomes == {InboundMessage.Outcome.IGNORED_AUTOMATED}


def test_a_stranger_is_told_without_a_word_of_the_game(game):
    seat = ben(game)
    assert postmark(postmark_payload(seat, "hi", sender="eve@evil.example")).status_code == 200
    deliver_pending()
    [told] = mail.outbox
    assert told.to == ["eve@evil.example"]
    body = told.body + told.alternatives[0][0]
    assert seat.email not in body and seat.name not in body and game.name not in body
    assert told.extra_headers["Auto-Submitted"] == "auto-replied"
    assert "Reply-To" not in told.extra_headers
    assert not talk_of(game)


def test_the_answer_is_the_seats_own_view_only(game):
    seat = ben(game)
    assert postmark(postmark_payload(seat, "Hello table")).status_code == 200
    deliver_pending()
    [answer] = mail.outbox
    assert answer.to == [seat.email]
    everything = answer.body + answer.alternatives[0][0] + json.dumps(answer.extra_headers)
    assert links.make_token(seat) in everything
    for other in game.seats.exclude(pk=seat.pk):
        for secret in (other.reply_key, links.make_token(other), other.email):
            assert secret not in everything


def test_without_an_inbound_domain_the_emails_keep_the_old_line(game, settings):
    settings.INBOUND_DOMAIN = ""
    seat = ben(game)
    notifications.record_resend(game, seat)
    deliver_pending()
    [email] = mail.outbox
    assert "Reply-To" not in email.extra_headers
    assert "Reply-all is not read" in email.body


def test_the_checks_refuse_an_unsecured_inbound_esp_with_debug_off(settings):
    settings.DEBUG = False
    settings.TRACKING_ESPS = []
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    ids = [(e.id, e.msg) for e in settings_checks.inbound_webhooks_are_secured(None)]
    assert len(ids) == 1 and ids[0][0] == "games.E002" and "MAILGUN" in ids[0][1]
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": "k"}
    assert settings_checks.inbound_webhooks_are_secured(None) == []
    settings.INBOUND_ESPS = []
    [error] = settings_checks.inbound_webhooks_are_secured(None)
    assert error.id == "games.E003"
    settings.DEBUG = True
    assert settings_checks.inbound_webhooks_are_secured(None) == []


FUZZ = hypothesis.settings(TALK_FUZZ, max_examples=40)


@FUZZ
@hypothesis.given(
    body=st.binary(max_size=600),
    header=st.text(max_size=80),
    value=st.text(max_size=200),
    raw=st.binary(max_size=400),
)
def test_any_bytes_in_body_and_headers_give_no_500(game, settings, body, header, value, raw):
    settings.TALK_BURST = 10_000
    seat = ben(game)
    before = TalkMessage.objects.count()
    text = body.decode("utf-8", "surrogateescape")
    payload = postmark_payload(
        seat, text, headers=[(header, value)], message_id=f"<{hash((body, header, value))}@f>"
    )
    assert postmark(payload).status_code in (200, 400)
    posted = TalkMessage.objects.count() - before
    if posted:
        row = InboundMessage.objects.order_by("-pk").first()
        assert row.outcome == InboundMessage.Outcome.TALK_POSTED
    # A raw MIME body of any bytes, through Mailgun's inbound_mime.
    fields = mailgun_fields(seat, "")
    fields["body-mime"] = raw.decode("latin-1")
    response = mailgun(fields, "/anymail/mailgun/inbound_mime/")
    assert response.status_code in (200, 400)
    # Any bytes as the whole form.
    response = client().post(
        "/anymail/mailgun/inbound/",
        b"body-plain=" + quote_from_bytes(raw).encode(),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code in (400, 403)


def test_a_raw_mime_reply_in_spanish_through_mailgun(game):
    seat = ben(game)
    raw = (
        f"From: {seat.name} <{seat.email.upper()}>\r\n"
        f"To: Sheriff <play+{seat.reply_key}@{DOMAIN}>\r\n"
        "Subject: Re: Te toca\r\n"
        "Message-ID: <es-1@mail.example>\r\n"
        "Date: Thu, 26 Nov 2026 10:00:00 +0100\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: text/plain; charset="utf-8"\r\n'
        "Content-Transfer-Encoding: quoted-printable\r\n"
        "\r\n"
        "di: =C2=A1Te ofrezco 3 de oro, Carol!\r\n"
        "\r\n"
        "El jue, 26 nov 2026 a las 9:00, Sheriff <sheriff@example.org> escribi=C3=B3:\r\n"
        "> Te toca\r\n"
    )
    fields = mailgun_fields(seat, "")
    fields["body-mime"] = raw
    assert mailgun(fields, "/anymail/mailgun/inbound_mime/").status_code == 200
    assert talk_of(game) == [(1, "¡Te ofrezco 3 de oro, Carol!")]


def flowed_mime(seat, body: str, params: str, headers: str = "") -> str:
    """A reply as Thunderbird or Apple Mail sends it: text/plain, format=flowed."""
    return (
        f"From: {seat.name} <{seat.email}>\r\n"
        f"To: Sheriff <play+{seat.reply_key}@{DOMAIN}>\r\n"
        "Subject: Re: Your move\r\n"
        f"Message-ID: <flowed-{abs(hash(body))}@mail.example>\r\n"
        "Date: Thu, 26 Nov 2026 10:00:00 +0100\r\n"
        f"{headers}"
        "MIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=UTF-8; {params}\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        "\r\n" + body.replace("\n", "\r\n")
    )


def test_a_flowed_talk_line_arrives_whole_through_mailgun(game):
    seat = ben(game)
    body = (
        "Carol, I will pay you 3 gold to let my bag through, and I promise you \n"
        "a cheese from my stand next round if you do. \n"
        "Deal?\n"
        "\n"
        "On 26/11/2026 09:00, Sheriff of Nottingham wrote:\n"
        "> Carol is the Sheriff this round. Bags are loaded until Friday at \n"
        "> noon.\n"
    )
    fields = mailgun_fields(seat, "")
    fields["body-mime"] = flowed_mime(seat, body, "format=flowed")
    assert mailgun(fields, "/anymail/mailgun/inbound_mime/").status_code == 200
    said = (
        "Carol, I will pay you 3 gold to let my bag through, and I promise you "
        "a cheese from my stand next round if you do. Deal?"
    )
    assert talk_of(game) == [(1, said)]


def test_a_flowed_command_is_one_move_through_mailgun(game):
    seat = ben(game)
    answering = OutboxEmail.objects.filter(seat=seat, status="sent").latest("pk")
    ours = answering.headers["Message-ID"]
    hand = engine.view_for(Game.objects.get(pk=game.pk).engine_state(), 1)["me"]["hand"]
    fields = mailgun_fields(seat, "")
    fields["body-mime"] = flowed_mime(
        seat,
        "set aside 1 \n2\n\nOn 26/11/2026 09:00, Sheriff wrote:\n> Your move\n",
        'format="Flowed"; DelSp=No',
        headers=f"In-Reply-To: {ours}\r\nReferences: {ours}\r\n",
    )
    assert mailgun(fields, "/anymail/mailgun/inbound_mime/").status_code == 200
    assert InboundMessage.objects.get().outcome == InboundMessage.Outcome.MOVE_MADE
    pending = Game.objects.get(pk=game.pk).engine_state().phase.pending[1]
    assert set(pending) == {hand[0]["id"], hand[1]["id"]}  # both cards: one line, not "1"
    assert not talk_of(game)


def test_a_flowed_reply_with_delsp_through_postmarks_raw_email(game):
    seat = ben(game)
    body = "¡Carol, te ofrezco 3 de oro si dejas pasar mi bol \nsa!\n-- \nBen \nde Sherwood\n"
    payload = postmark_payload(seat, "this TextBody is not read when RawEmail is there")
    payload["RawEmail"] = flowed_mime(seat, body, "format=flowed; delsp=yes")
    assert postmark(payload).status_code == 200
    assert talk_of(game) == [(1, "¡Carol, te ofrezco 3 de oro si dejas pasar mi bolsa!")]


def test_text_not_said_to_be_flowed_keeps_its_line_ends(game):
    seat = ben(game)
    fields = mailgun_fields(seat, "")
    fields["body-mime"] = flowed_mime(seat, "Hello \ntable\n", "format=fixed")
    assert mailgun(fields, "/anymail/mailgun/inbound_mime/").status_code == 200
    assert talk_of(game) == [(1, "Hello\ntable")]


@FUZZ
@hypothesis.given(
    body=st.text(max_size=300), params=st.sampled_from(["", "; delsp=yes", "; DelSp"])
)
def test_any_flowed_body_gives_no_500(game, settings, body, params):
    settings.TALK_BURST = 10_000
    fields = mailgun_fields(ben(game), "")
    fields["body-mime"] = flowed_mime(ben(game), body, "format=flowed" + params)
    assert mailgun(fields, "/anymail/mailgun/inbound_mime/").status_code in (200, 400)


def test_a_reply_whose_connection_was_lost_is_handled_once_on_a_new_one(game, monkeypatch):
    """The webhook runs again on a new connection (games.web.middleware): the reply's
    first run was rolled back whole, so the ESP gets a 200 and the line is posted once."""
    from games.web import middleware
    from tests.support.database_errors import failing_once, lost_connection

    answer = failing_once(notifications.record_reply_answer, lost_connection())
    monkeypatch.setattr(notifications, "record_reply_answer", answer)
    monkeypatch.setattr(middleware, "_unusable_connections", lambda: [])
    assert postmark(postmark_payload(ben(game), "I am honest, Ann.")).status_code == 200
    assert answer.calls == 2
    assert talk_of(game) == [(1, "I am honest, Ann.")]
    assert InboundMessage.objects.count() == 1
