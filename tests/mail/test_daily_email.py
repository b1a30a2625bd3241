"""One email a day across all a person's games, on a fixed clock: owed once a day
at the hour of their zone, only while they have a game in play and their mail
arrives; it tells what My games tells, with a link to each seat; their seats'
own daily summaries stop, the emails that ask for a move do not."""

import re
from datetime import UTC, datetime

import pytest
from django.core import mail

from games.core import daily_emails, links, notifications, people
from games.models import OutboxEmail, Person, Seat
from sheriff_pbem.celery import app
from tests.support.mailplay import deliver_pending, html_of
from tests.support.person_games import (
    PAT,
    cancelled,
    market_move,
    new_game,
    pats_seat,
    played_out,
)

pytestmark = pytest.mark.django_db

MERCHANT = 1
MORNING = datetime(2026, 11, 24, 7, 30, tzinfo=UTC)  # 08:30 in Madrid


def daily_at(hour=8, zone="Europe/Madrid", language="en") -> Person:
    return people.choose_daily(PAT, hour, zone, language)


def test_owed_once_a_day_from_the_chosen_hour_of_the_persons_zone():
    new_game("Alpha", seat=MERCHANT)
    daily_at(8)
    assert daily_emails.record_daily(datetime(2026, 11, 24, 6, 55, tzinfo=UTC)) == []
    [owed] = daily_emails.record_daily(MORNING)
    assert (owed.to, owed.kind, owed.game, owed.seat) == (PAT, "daily", None, None)
    assert owed.key.endswith(":20261124")
    assert daily_emails.record_daily(datetime(2026, 11, 24, 22, 5, tzinfo=UTC)) == []
    [tomorrow] = daily_emails.record_daily(datetime(2026, 11, 25, 7, 1, tzinfo=UTC))
    assert tomorrow.key.endswith(":20261125")


def test_missed_at_its_hour_it_goes_later_that_day():
    new_game("Alpha", seat=MERCHANT)
    daily_at(8)
    [late] = daily_emails.record_daily(datetime(2026, 11, 24, 15, 0, tzinfo=UTC))
    assert late.key.endswith(":20261124")


def test_not_owed_when_off_with_no_game_in_play_or_when_mail_bounces():
    daily_at(None)
    new_game("Alpha", seat=MERCHANT)
    assert daily_emails.record_daily(MORNING) == []
    daily_at(8)
    Seat.objects.filter(email__iexact=PAT).update(undeliverable_at=MORNING)
    assert daily_emails.record_daily(MORNING) == []
    people.choose_daily("ann@example.org", 7, "UTC", "en")  # Ann plays Alpha
    Person.objects.filter(email=PAT).update(last_daily_on=None)
    assert [e.to for e in daily_emails.record_daily(MORNING)] == ["ann@example.org"]


def test_a_person_whose_games_are_over_gets_none():
    cancelled(new_game("Alpha", seat=MERCHANT))
    daily_at(8)
    assert daily_emails.record_daily(MORNING) == []


def test_a_game_only_organized_is_enough():
    new_game("Alpha", seat=None, organizer=PAT)
    daily_at(8)
    assert len(daily_emails.record_daily(MORNING)) == 1


def test_the_email_tells_what_my_games_tells_with_a_link_to_each_seat(settings):
    mine = new_game("Alpha", seat=MERCHANT, deadline_mode="duration", market_minutes=600)
    moved = new_game("Bravo", seat=MERCHANT)
    market_move(pats_seat(moved))
    over = played_out(new_game("Charlie", seat=MERCHANT))
    daily_at(8)
    daily_emails.record_daily(MORNING)
    deliver_pending()
    [message] = [m for m in mail.outbox if m.extra_headers["Message-ID"].startswith("<daily.")]
    assert message.to == [PAT]
    assert message.subject == "Your games today: 1 waits for your move"
    text, html = message.body, html_of(message)
    for said in ("Alpha [Your move]", "Choose the cards to set aside", "Bravo [Waiting]"):
        assert said in text
    assert "Waiting for: Ben" in text and "(Europe/Madrid)" in text
    assert "The game is over." in text and "Charlie [Finished]" in text
    seats = {pats_seat(game).pk for game in (mine, moved, over)}
    assert seats_linked(text, settings.SITE_URL) == seats == seats_linked(html, settings.SITE_URL)
    assert text.index("Alpha") < text.index("Bravo") < text.index("Charlie")
    assert "Your move" in html and "Open your table" in html
    assert "My games" in html and settings.SITE_URL + "/my/" in html
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"


def seats_linked(text: str, site: str) -> set:
    """The seats whose pages the text links on the site's address."""
    return {links.resolve(token).pk for token in re.findall(rf"{site}/play/([^/\s\"]+)/", text)}


def test_the_email_reads_in_the_persons_language():
    new_game("Alpha", seat=MERCHANT)
    daily_at(8, language="es")
    daily_emails.record_daily(MORNING)
    deliver_pending()
    [message] = [m for m in mail.outbox if m.extra_headers["Message-ID"].startswith("<daily.")]
    assert message.subject.startswith("Tus partidas hoy")
    assert "Abre tu mesa" in html_of(message)


def test_with_the_daily_email_on_the_seats_daily_summaries_stop_but_not_their_moves():
    game = new_game("Alpha", seat=MERCHANT)
    Seat.objects.filter(game=game).update(digest_hour=8, timezone="Europe/Madrid")
    daily_at(8)
    summaries = notifications.record_digests(MORNING)
    assert PAT not in {s.to.lower() for s in summaries}
    assert {s.to for s in summaries} == {"ann@example.org", "ben@example.org"}
    # A move asked for is still emailed to Pat's seat: the load phase's.
    market_move(pats_seat(game))
    market_move(game.seats.get(index=2))
    assert OutboxEmail.objects.filter(seat=pats_seat(game), kind="your_move").exists()


def test_the_beat_task_is_registered_by_its_name():
    task = app.tasks["games.tasks.send_daily_emails"]
    new_game("Alpha", seat=MERCHANT)
    daily_at(0, zone="UTC")
    assert task() == 1
    assert task() == 0
