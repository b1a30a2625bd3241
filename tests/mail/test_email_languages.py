"""Emails in the reader's language: a seat's email and its calendar event say
which language they are written in; the farewell to a replaced player is in that
player's language; the organizer reads the language of their own seat when they
play, else the site's, whatever language was active when the alert was written."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone, translation

from games.mail import emails
from games.models import Seat
from games.words import i18n
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


def seat(game, index: int, language: str) -> Seat:
    found = game.seats.get(index=index)
    found.language = language
    return found


def test_a_seats_email_and_its_calendar_event_name_the_seats_language():
    game = start_game()
    game.phase_deadline = timezone.now() + timedelta(days=1)
    for language in ("en", "es"):
        reader = seat(game, 1, language)
        with i18n.as_seat(reader):
            message = emails.render(game, reader, game.engine_state(), "your_move")
        assert f'<html lang="{language}">' in message["html"]
        [event] = message["attachments"]
        unfolded = event["content"].replace("\r\n ", "")
        assert f"\r\nSUMMARY;LANGUAGE={language}:" in unfolded
        assert f"\r\nDESCRIPTION;LANGUAGE={language}:" in unfolded
        # Ben is a merchant, awaited in the market: his subject says it is his move.
        subject = {
            "en": "Your move — the market: Pages test, round 1",
            "es": "Te toca — el mercado: Pages test, ronda 1",
        }
        assert message["subject"] == subject[language]


def test_the_replaced_player_is_told_in_their_own_language():
    game = start_game()
    message = emails.render_replaced(game, seat(game, 2, "es"), "k")
    assert '<html lang="es">' in message["html"]
    assert message["subject"] == "Novedades — te han sustituido: Pages test, ronda 1"
    english = emails.render_replaced(game, seat(game, 2, "en"), "k")
    assert '<html lang="en">' in english["html"]
    assert english["text"].startswith('Your seat in "Pages test" was given to someone else')


def test_the_organizers_alerts_are_in_the_sites_language_whatever_is_active():
    game = start_game()
    game.organizer_email = "org@example.org"
    ben = seat(game, 1, "es")

    def alerts() -> list:
        return [
            emails.render_miss_alert(game, ben, "k"),
            emails.render_idle_alert(game, "k"),
            emails.render_undeliverable_alert(game, ben, "bounced: no such user", "k"),
        ]

    with translation.override(settings.LANGUAGE_CODE):
        expected = alerts()
    with translation.override("es"):
        assert alerts() == expected
    assert all(f'<html lang="{settings.LANGUAGE_CODE}">' in a["html"] for a in expected)
    assert expected[0]["subject"].endswith("— Ben is missing deadlines")


def test_an_organizer_who_plays_reads_the_alerts_in_their_seats_language():
    game = start_game()
    cid = game.seats.get(index=2)
    Seat.objects.filter(pk=cid.pk).update(language="es")
    game.organizer_email = cid.email.upper()  # an address is matched whatever its case
    alert = emails.render_idle_alert(game, "k")
    assert '<html lang="es">' in alert["html"]
    assert "se ha pausado" in alert["subject"], alert["subject"]
