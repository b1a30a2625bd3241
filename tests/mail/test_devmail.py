"""The development mailbox: newest first, 50 a page, filtered by game and by
address, each email's attachments (the deadline's calendar file) listed and
downloadable as they were sent."""

import re
from datetime import timedelta

import pytest
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from games.core import game_setup
from games.mail.dev_backend import DevMailboxBackend
from games.models import DevMail, Game
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db


@pytest.fixture
def devmail(settings):
    settings.EMAIL_BACKEND = "games.mail.dev_backend.DevMailboxBackend"


def new_game(name: str, names=("Ann", "Ben", "Cid")) -> Game:
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@{name.lower()}.example") for n in names]
    return game_setup.create_game(
        name=name,
        players=players,
        config={"edition": 2},
        timing={"deadline_mode": "duration", "market_minutes": 1440},
    )


def subjects_on(html: str) -> list:
    return re.findall(r'<li><a href="/dev/mail/\d+/">([^<]*)</a>', html)


def test_attachments_are_kept_text_as_text_and_bytes_in_base64():
    message = EmailMultiAlternatives("Hi", "Body", to=["ann@example.org"])
    message.attach("deadline.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "text/calendar")
    message.attach("seal.png", b"\x89PNG\x00\xff", "image/png")
    DevMailboxBackend().send_messages([message])
    (ics, png) = DevMail.objects.get().attachments
    assert ics == {
        "filename": "deadline.ics",
        "mimetype": "text/calendar",
        "content": "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
    }
    assert png == {
        "filename": "seal.png",
        "mimetype": "image/png",
        "content": "iVBORwD/",
        "base64": True,
    }


def test_a_games_deadline_file_is_listed_and_downloads_as_a_calendar(client, devmail):
    new_game("Calendar")
    deliver_pending()
    mail = DevMail.objects.filter(to="ben@calendar.example").first()
    assert [a["filename"] for a in mail.attachments] == ["deadline.ics"]
    inbox = client.get("/dev/mail/").content.decode()
    assert "1 attachment" in inbox
    page = client.get(f"/dev/mail/{mail.pk}/").content.decode()
    link = f"/dev/mail/{mail.pk}/attachments/0/"
    assert f'href="{link}" download="deadline.ics">deadline.ics</a>' in page
    response = client.get(link)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="deadline.ics"'
    assert response.content.decode().startswith("BEGIN:VCALENDAR")
    assert client.get(f"/dev/mail/{mail.pk}/attachments/1/").status_code == 404


def test_the_binary_attachment_downloads_as_it_was_sent(client):
    message = EmailMultiAlternatives("Hi", "Body", to=["ann@example.org"])
    message.attach("seal.png", b"\x89PNG\x00\xff", "image/png")
    DevMailboxBackend().send_messages([message])
    response = client.get(f"/dev/mail/{DevMail.objects.get().pk}/attachments/0/")
    assert response["Content-Type"] == "image/png"
    assert response.content == b"\x89PNG\x00\xff"


def test_the_inbox_pages_fifty_at_a_time_newest_first(client):
    start = timezone.now()
    for n in range(120):
        mail = DevMail.objects.create(to="ann@example.org", subject=f"Mail {n}", text="")
        DevMail.objects.filter(pk=mail.pk).update(created_at=start + timedelta(seconds=n))
    first = client.get("/dev/mail/").content.decode()
    assert subjects_on(first) == [f"ann@example.org — Mail {n}" for n in range(119, 69, -1)]
    assert "Page 1 of 3" in first and 'href="?page=2">Older →' in first and "Newer" not in first
    last = client.get("/dev/mail/?page=3").content.decode()
    assert len(subjects_on(last)) == 20 and 'href="?page=2">← Newer' in last
    assert client.get("/dev/mail/?page=x").status_code == 200  # a bad page number: page 1
    assert subjects_on(client.get("/dev/mail/?page=99").content.decode()) == subjects_on(last)


def test_the_inbox_filters_by_game_and_by_address(client, devmail):
    first, second = new_game("First"), new_game("Second", names=("Ann", "Dee", "Eve"))
    deliver_pending()
    everything = DevMail.objects.count()
    html = client.get(f"/dev/mail/?game={second.pk}").content.decode()
    shown = subjects_on(html)
    assert len(shown) == 3 and all("Second" in s for s in shown)
    assert f'<option value="{second.pk}" selected>Second (#{second.pk})</option>' in html
    assert '<option value="ann@second.example">' in html  # the game's addresses to pick from
    assert '<option value="ann@first.example">' not in html
    html = client.get(f"/dev/mail/?game={first.pk}&to=ben@").content.decode()
    assert subjects_on(html) == ["ben@first.example — Your move — the game begins: First, round 1"]
    assert 'value="ben@"' in html and "Clear the filters" in html
    html = client.get("/dev/mail/?to=nobody").content.decode()
    assert subjects_on(html) == [] and "No email matches these filters." in html
    assert client.get("/dev/mail/?game=abc").status_code == 200  # a bad game: every game
    assert DevMail.objects.count() == everything  # reading the mailbox changes nothing


def test_paging_keeps_the_filters(client):
    for n in range(60):
        DevMail.objects.create(to="ann@example.org", subject=f"Mail {n}", text="")
    DevMail.objects.create(to="ben@example.org", subject="Other", text="")
    html = client.get("/dev/mail/?to=ann%40example.org").content.decode()
    assert 'href="?to=ann%40example.org&amp;page=2">Older →' in html
    assert "60 emails found, newest first." in html
