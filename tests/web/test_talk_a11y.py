"""The table talk for a screen reader: each Report button names the message it
reports (its author, time and first words), and a talk form comes back to the
talk panel, focusable, which says what the form did (not the top of the page)."""

import re
from html import unescape

import pytest
from django.utils import timezone

from games.core import talk
from games.models import Seat
from games.present import talk as talk_panel
from tests.support.fixtures_pages import path_of, start_game

pytestmark = pytest.mark.django_db

REPORT_LABEL = re.compile(r'<button type="submit" class="secondary small" aria-label="([^"]*)">')


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def panel_of(html: str) -> str:
    start = html.index('<section class="panel talk"')
    return html[start : html.index("</section>", start)]


def report_labels(client, game, index: int) -> list:
    html = client.get(path_of(seat(game, index))).content.decode()
    return [unescape(label) for label in REPORT_LABEL.findall(panel_of(html))]


def test_each_report_button_names_its_message(client):
    game = start_game()
    dee = seat(game, 3)
    for n in range(6):
        talk.post(dee, f"Line {n}: " + "word " * 20, timezone.now())
    labels = report_labels(client, game, 0)
    assert len(labels) == 6 and len(set(labels)) == 6, labels
    first = labels[-1]  # the oldest, at the bottom
    assert first.startswith("Report Dee’s message of ")
    assert first.endswith(" to the organizer: “Line 0: word word word word word word w…”")


def test_a_report_button_names_its_message_in_spanish(client):
    game = start_game()
    Seat.objects.filter(game=game, index=0).update(language="es")
    talk.post(seat(game, 1), "Abre la bolsa de Cid", timezone.now())
    (label,) = report_labels(client, game, 0)
    assert label.startswith("Denunciar al organizador el mensaje de Ben del ")
    assert label.endswith(": «Abre la bolsa de Cid»")


def test_an_excerpt_is_one_line_cut_with_an_ellipsis():
    assert talk_panel.excerpt("two\nlines") == "two lines"
    assert talk_panel.excerpt("x" * 50, 10) == "x" * 9 + "…"


def test_a_talk_form_comes_back_to_the_talk_panel_which_says_what_it_did(client):
    game = start_game()
    ann = path_of(seat(game, 0))
    response = client.post(ann + "talk/", {"text": "Hello table"})
    assert response.status_code == 302 and response["Location"].endswith("/#talk")
    html = client.get(response["Location"]).content.decode()
    panel = panel_of(html)
    assert 'id="talk" tabindex="-1" aria-labelledby="talk-title"' in panel
    assert 'role="status"' in panel and "Your message is on the table" in panel
    assert 'id="messages"' not in html  # not at the top of the page as well
    assert html.count("Your message is on the table") == 2  # the panel, and the title
    message = talk.post(seat(game, 1), "Ann cheats", timezone.now())
    response = client.post(f"{ann}talk/{message.ref}/report/")
    assert response["Location"].endswith("/#talk")
    panel = panel_of(client.get(response["Location"]).content.decode())
    assert "the organizer will look at this message" in panel
