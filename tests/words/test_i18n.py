"""Each player reads the game in their own language.

The Spanish catalogue is complete (no entry untranslated or fuzzy) and matches
the code's strings; every page and email kind, rendered for a Spanish seat, holds
no English sentence of the catalogue, and an English seat's holds no Spanish one;
a whole game is played through the emails by two Spanish and two English seats.
"""

import html
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.mail import emails
from games.models import Game, Seat
from games.words import goods_names, i18n
from tests.support.email_kinds import KINDS
from tests.support.mailplay import seat_link

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
TAGS = re.compile(r"<[^>]+>")
MIN_CHUNK = 14  # shorter runs ("Deck: ", "gold") may be the same in both languages


def entries() -> list:
    return [e for e in polib.pofile(str(CATALOGUE)) if not e.obsolete]


def sentences(texts) -> set:
    """The literal runs of catalogue strings, between placeholders, long enough to
    be a language's own."""
    runs = set()
    for text in texts:
        for run in PLACEHOLDER.split(text):
            run = " ".join(run.split())
            if len(run) >= MIN_CHUNK and " " in run:
                runs.add(run)
    return runs


def english_runs() -> set:
    """English runs whose Spanish differs (names spelled alike are no sign of English)."""
    found = set()
    for entry in entries():
        spanish = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
        found |= sentences([entry.msgid, entry.msgid_plural or ""]) - sentences(spanish)
    return found


def spanish_runs() -> set:
    found = set()
    for entry in entries():
        spanish = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
        found |= sentences(spanish) - sentences([entry.msgid, entry.msgid_plural or ""])
    return found


def readable(text: str) -> str:
    return " ".join(html.unescape(TAGS.sub(" ", text)).split())


def leaks(text: str, runs: set) -> list:
    text = readable(text)
    return sorted(run for run in runs if run in text)


# --- the catalogue ---------------------------------------------------------------------


def test_the_spanish_catalogue_is_complete():
    catalogue = polib.pofile(str(CATALOGUE))
    assert not catalogue.untranslated_entries()
    assert not catalogue.fuzzy_entries()
    for entry in entries():  # every placeholder kept, none invented
        texts = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for text in texts:
            assert sorted(PLACEHOLDER.findall(text)) == wanted or entry.msgid_plural, entry.msgid


def test_goods_names_are_the_card_tables():
    assert goods_names.english_matches_the_card_table()
    with translation.override("es"):
        assert goods_names.counted(2, "chicken") == "2 Gallinas"
        assert goods_names.label("mead") == "Aguamiel"


def test_a_seat_reads_its_own_language_or_the_default():
    assert i18n.language_of(Seat(language="es")) == "es"
    assert i18n.language_of(Seat(language="es-MX")) == "es"
    assert i18n.language_of(Seat(language="xx")) == settings.LANGUAGE_CODE


# --- pages and emails --------------------------------------------------------------------

PAGES = ("", "?log=all", "settings/", "unsubscribe/")  # after the seat's link


def check_every_email_and_page(game: Game) -> None:
    english, spanish = english_runs(), spanish_runs()
    for seat in game.seats.all():
        foreign = english if seat.language == "es" else spanish
        with i18n.as_seat(seat):
            for kind in KINDS if not game.engine_state().is_over() else ("game_over",):
                message = emails.render(game, seat, game.engine_state(), kind)
                parts = [message[part] for part in ("subject", "text", "html")]
                parts += [event["content"] for event in message.get("attachments", [])]
                for part in parts:
                    assert not leaks(part, foreign), (seat.language, kind, part[:200])
        for page in PAGES:
            response = Client().get(seat_link_of(seat) + page)
            assert response.status_code == 200, page
            assert not leaks(response.content.decode(), foreign), (seat.language, page)


def seat_link_of(seat: Seat) -> str:
    from games.core import links

    return links.seat_path(seat)


@pytest.mark.django_db
def test_two_spanish_and_two_english_seats_play_a_whole_game_each_in_their_own_language():
    from tests.support.email_players import play_through_email

    checked = []

    def every_phase(game):
        kind = game.engine_state().phase.kind if not game.engine_state().is_over() else "over"
        if kind not in checked:
            checked.append(kind)
            check_every_email_and_page(game)

    game, players = play_through_email(
        4, 2, seed="e5" * 32, rnd_seed=3, languages=("es", "en", "es", "en"), watch=every_phase
    )
    assert game.engine_state().is_over()
    assert {"market", "load", "inspection", "over"} <= set(checked)
    english, spanish = english_runs(), spanish_runs()
    for player in players:
        foreign = english if player.seat.language == "es" else spanish
        for message in player.mails:
            assert seat_link(message)
            assert not leaks(message.body, foreign), (player.seat.language, message.body[:200])
    last = {p.seat.language: p.mails[-1].body for p in players}
    assert "La partida ha terminado" in last["es"] and "The game is over" in last["en"]
