"""Resend my links, from the home page: the same answer for any address, one email
with a link to each seat in play (none for an address with none), paced with the
sign-ins, kept out of the admin, and a clear 400 for bad input."""

import re

import pytest
from django.core import mail
from django.test import Client

from games.core import links
from games.models import OutboxEmail, SignIn
from tests.support.mailplay import deliver_pending, html_of
from tests.support.person_games import PAT, cancelled, new_game, pats_seat, played_out

pytestmark = pytest.mark.django_db

ORIGIN = {"HTTP_ORIGIN": "http://testserver"}
ANSWER = "If that address plays here, an email with your links is on its way."


def ask(client, address, **headers):
    return client.post("/links/", {"email": address}, **ORIGIN, **headers)


def links_emails() -> list:
    deliver_pending()
    return [m for m in mail.outbox if m.extra_headers["Message-ID"].startswith("<links.")]


def test_the_answer_is_the_same_for_an_address_that_plays_and_one_that_does_not(client):
    new_game("Alpha", seat=1)
    for address in (PAT, "nobody@example.org"):
        answer = ask(client, address)
        assert (answer.status_code, answer["Location"]) == (302, "/")
        assert ANSWER in client.get("/").content.decode()
    assert SignIn.objects.filter(purpose=SignIn.Purpose.LINKS).count() == 2
    assert [e.to for e in OutboxEmail.objects.filter(kind="links")] == [PAT]


def test_the_answer_shows_once_on_the_home_page(client):
    response = ask(client, "nobody@example.org")
    html = client.get(response["Location"]).content.decode()
    assert ANSWER in html and 'class="msg msg-success"' in html
    assert ANSWER not in client.get("/").content.decode()


def test_one_email_with_every_seat_in_play_and_none_over():
    playing = [new_game(name, seat=1) for name in ("Alpha", "Bravo")]
    playing.append(new_game("Charlie", seat=None, players=4))  # Pat not there
    also = new_game("Delta", seat=2, players=4)
    over = played_out(new_game("Echo", seat=1))
    gone = cancelled(new_game("Foxtrot", seat=1))
    ask(Client(), "  Pat@Example.ORG ")
    [message] = links_emails()
    assert message.to == [PAT]
    seats = {pats_seat(game).pk for game in (playing[0], playing[1], also)}
    assert seats_linked(message.body) == seats == seats_linked(html_of(message))
    assert message.body.count("/play/") == 3
    for game in (playing[0], playing[1], also):
        assert game.name in message.body
    for game in (playing[2], over, gone):
        assert game.name not in message.body
    assert "You play as Pat." in message.body
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"


def seats_linked(text: str) -> set:
    """The seats whose pages the text links, each link checked as the site reads it."""
    tokens = re.findall(r"http://testserver/play/([^/\s\"]+)/", text)
    return {links.resolve(token).pk for token in tokens}


def test_the_email_reads_in_the_language_of_the_page_it_was_asked_from():
    new_game("Alpha", seat=1)
    response = ask(Client(), PAT, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 302
    [message] = links_emails()
    assert "Tus enlaces" in message.subject and "Abre tu mesa" in html_of(message)


def test_asking_is_paced_per_address_with_the_sign_ins(client, settings):
    settings.SIGN_IN_PER_ADDRESS_HOURLY = 2
    new_game("Alpha", seat=1)
    client.post("/sign-in/", {"email": PAT}, **ORIGIN)
    answers = [ask(client, PAT) for _ in range(3)]
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, "/")}
    assert OutboxEmail.objects.filter(kind="links").count() == 1
    # The same pace the other way: the sign-in is paced by the links asked for.
    client.post("/sign-in/", {"email": PAT}, **ORIGIN)
    assert OutboxEmail.objects.filter(kind="sign_in").count() == 1


def test_asking_is_paced_per_client(client, settings):
    settings.SIGN_IN_PER_CLIENT_HOURLY = 3
    for n in range(5):
        new_game(f"Game {n}", seat=None, players=3)  # others' games: p addresses below
    for n in range(5):
        ask(client, f"ann{n}@example.org")
    assert SignIn.objects.filter(purpose=SignIn.Purpose.LINKS).count() == 3


def test_asking_for_links_does_not_spoil_a_sign_in_code(client):
    new_game("Alpha", seat=1)
    client.post("/sign-in/", {"email": PAT}, **ORIGIN)
    deliver_pending()
    [sign_in] = [m for m in mail.outbox if m.to == [PAT]]
    code = re.search(r"\b(\d{6})\b", sign_in.body)[1]
    ask(Client(), PAT)  # e.g. from another device, meanwhile
    assert client.post("/sign-in/code/", {"code": code}, **ORIGIN)["Location"] == "/"
    row = SignIn.objects.get(purpose=SignIn.Purpose.LINKS)
    assert row.used_at is not None  # it never signs anyone in


@pytest.mark.parametrize(
    "bad",
    ["", "not an address", "\x00@example.org", "pat@example.org\x00", "a" * 10_000 + "@x.org"],
)
def test_bad_input_is_a_clear_400_that_changes_nothing(client, bad):
    new_game("Alpha", seat=1)
    refused = ask(client, bad)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Enter an email address" in html and 'id="error-links-email"' in html
    assert not SignIn.objects.exists()
    assert not OutboxEmail.objects.filter(kind="links").exists()


def test_no_field_or_a_get_changes_nothing(client):
    assert client.post("/links/", {}, **ORIGIN).status_code == 400
    assert client.get("/links/").status_code == 405
    assert not SignIn.objects.exists()


def test_the_admin_lists_no_links_email(organizer):
    new_game("Alpha", seat=1)
    ask(Client(), PAT)
    owed = OutboxEmail.objects.get(kind="links")
    listing = organizer.get("/admin/games/outboxemail/")
    assert listing.status_code == 200 and PAT not in listing.content.decode()
    assert organizer.get(f"/admin/games/outboxemail/{owed.pk}/change/").status_code == 302
