"""Signing in by email: the same answer for any address, a link whose GET uses
nothing up, a code for the asking device, each once and for a while, and pacing."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from games.models import OutboxEmail, SignIn
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

ORIGIN = {"HTTP_ORIGIN": "http://testserver"}


def ask(client, address):
    return client.post("/sign-in/", {"email": address}, **ORIGIN)


def the_email(address):
    deliver_pending()
    [message] = [m for m in mail.outbox if m.to == [address]]
    mail.outbox.clear()
    code = re.search(r"\b(\d{6})\b", message.body)[1]
    link = re.search(r"http://testserver(/sign-in/[^/\s]+/)", message.body)[1]
    return code, link


def signed_in_as(client):
    page = client.get("/").content.decode()
    found = re.search(r"You are signed in as ([^<.]+@[^<]+)\.", page)
    return found and found[1]


def test_the_form_answers_alike_for_any_address_and_owes_one_email(client):
    first = ask(client, "Ann@Example.org")
    assert first.status_code == 302 and first["Location"] == "/sign-in/code/"
    page = client.get("/sign-in/code/").content.decode()
    assert "If ann@example.org can receive email" in page
    other = ask(client, "nobody-here@example.org")
    assert other.status_code == 302 and other["Location"] == "/sign-in/code/"
    assert OutboxEmail.objects.filter(kind="sign_in").count() == 2
    code, link = the_email("ann@example.org")
    assert len(code) == 6 and link.startswith("/sign-in/")


def test_a_scanners_get_of_the_link_uses_nothing_and_the_button_signs_in_once(client):
    ask(client, "ann@example.org")
    _code, link = the_email("ann@example.org")
    scanner = type(client)()
    for _ in range(3):
        page = scanner.get(link)
        assert page.status_code == 200 and "Sign me in" in page.content.decode()
    assert not SignIn.objects.filter(used_at__isnull=False).exists()
    device = type(client)()
    assert device.post(link, **ORIGIN).status_code == 302
    assert signed_in_as(device) == "ann@example.org"
    again = type(client)()
    assert again.post(link, **ORIGIN).status_code == 410
    assert signed_in_as(again) is None
    assert get_user_model().objects.filter(email="ann@example.org").count() == 1


def test_the_code_signs_in_the_asking_device_and_wrong_codes_use_it_up(client):
    ask(client, "ben@example.org")
    code, _link = the_email("ben@example.org")
    wrong = "000000" if code != "000000" else "111111"
    refused = client.post("/sign-in/code/", {"code": wrong}, **ORIGIN)
    assert refused.status_code == 400 and "does not work" in refused.content.decode()
    spaced = code[:3] + " " + code[3:]  # as some mail apps show it
    assert client.post("/sign-in/code/", {"code": spaced}, **ORIGIN).status_code == 302
    assert signed_in_as(client) == "ben@example.org"
    # Another device, five wrong guesses: the right code no longer works.
    other = type(client)()
    ask(other, "cid@example.org")
    code, _link = the_email("cid@example.org")
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        other.post("/sign-in/code/", {"code": wrong}, **ORIGIN)
    assert other.post("/sign-in/code/", {"code": code}, **ORIGIN).status_code == 400


def test_signing_in_goes_back_to_the_page_that_asked_for_it(client):
    """The organizer's page sends a newcomer to sign in with ?next=; the form carries
    it, and the code (or the link, on the same browser) comes back there."""
    form = client.get("/sign-in/?next=/organize/7/").content.decode()
    assert '<input type="hidden" name="next" value="/organize/7/">' in form
    client.post("/sign-in/", {"email": "ann@example.org", "next": "/organize/7/"}, **ORIGIN)
    code, _link = the_email("ann@example.org")
    done = client.post("/sign-in/code/", {"code": code}, **ORIGIN)
    assert done.status_code == 302 and done["Location"] == "/organize/7/"
    browser = type(client)()
    browser.post("/sign-in/?next=/organize/8/", {"email": "ben@example.org"}, **ORIGIN)
    _code, link = the_email("ben@example.org")
    done = browser.post(link, **ORIGIN)
    assert done.status_code == 302 and done["Location"] == "/organize/8/"
    # Once used, it is forgotten: the next sign-in goes home.
    ask(browser, "ben@example.org")
    code, _link = the_email("ben@example.org")
    assert browser.post("/sign-in/code/", {"code": code}, **ORIGIN)["Location"] == "/"


@pytest.mark.parametrize(
    "elsewhere",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\evil.example",
        "http://testserver@evil.example/",
        "javascript:alert(1)",
        "organize/7/",
        "/organize/7/\x00",
        "/organize/\r\nSet-Cookie: x=1",
        "/" + "a" * 600,
        "/аdmin/",
    ],
)
def test_a_next_page_elsewhere_or_odd_is_ignored(client, elsewhere):
    form = client.get("/sign-in/", {"next": elsewhere}).content.decode()
    assert 'name="next"' not in form
    client.post("/sign-in/", {"email": "cid@example.org", "next": elsewhere}, **ORIGIN)
    code, _link = the_email("cid@example.org")
    done = client.post("/sign-in/code/", {"code": code}, **ORIGIN)
    assert done.status_code == 302 and done["Location"] == "/"


def test_a_link_works_only_for_a_while(client, settings):
    ask(client, "dee@example.org")
    _code, link = the_email("dee@example.org")
    too_old = timezone.now() - timedelta(minutes=settings.SIGN_IN_MINUTES + 1)
    SignIn.objects.update(created_at=too_old)
    page = client.get(link)
    assert page.status_code == 410 and "no longer works" in page.content.decode()
    assert client.post(link, **ORIGIN).status_code == 410


def test_asking_is_paced_per_address_and_the_page_does_not_say_so(client, settings):
    settings.SIGN_IN_PER_ADDRESS_HOURLY = 2
    answers = [ask(client, "eve@example.org") for _ in range(4)]
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, "/sign-in/code/")}
    assert OutboxEmail.objects.filter(kind="sign_in", to="eve@example.org").count() == 2


def test_asking_is_paced_per_client(client, settings):
    settings.SIGN_IN_PER_CLIENT_HOURLY = 3
    for n in range(5):
        ask(client, f"p{n}@example.org")
    assert OutboxEmail.objects.filter(kind="sign_in").count() == 3


def test_a_bad_address_or_bad_bytes_get_a_clear_message_and_change_nothing(client):
    for bad in ["", "not an address", "a@b@c", "\x00@example.org", "ann@example.org\r\nBcc: x@y"]:
        page = ask(client, bad)
        assert page.status_code == 400 and "Enter an email address" in page.content.decode()
    assert not SignIn.objects.exists()
    assert client.get("/sign-in/%00%ff/").status_code == 410


def test_sign_out_is_a_post(client):
    ask(client, "fay@example.org")
    code, _link = the_email("fay@example.org")
    client.post("/sign-in/code/", {"code": code}, **ORIGIN)
    assert client.get("/sign-out/").status_code == 405
    assert signed_in_as(client) == "fay@example.org"
    client.post("/sign-out/", **ORIGIN)
    assert signed_in_as(client) is None


def test_the_admin_lists_no_sign_in_email_and_its_code_is_nowhere_there(organizer):
    ask(type(organizer)(), "gil@example.org")
    owed = OutboxEmail.objects.get(kind="sign_in")
    listing = organizer.get("/admin/games/outboxemail/")
    assert listing.status_code == 200 and "gil@example.org" not in listing.content.decode()
    assert organizer.get(f"/admin/games/outboxemail/{owed.pk}/change/").status_code == 302
