"""The seat pages in the reader's language: the engine's refusals by code, the pages
no seat stands behind (the browser's language), dates, and the English unchanged."""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.engine import EngineError
from games.models import Seat
from games.present import cards, clock, presenters, seat_table
from games.web import forms
from games.words import refusal_messages
from games.words.narrate import Narrator, listed
from tests.support.fixtures_pages import path_of, start_game


def sample(template: str) -> str:
    return re.sub(r"%\(\w+\)s", "7", template)


def test_every_code_has_a_general_meaning():
    section = read("docs/engine.md").split("## 7. Error codes")[1].split("## 8.")[0]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    codes = {key.split(".")[0] for key in refusal_messages.MESSAGES}
    for code in documented | codes:
        assert refusal_messages.meaning(code) != refusal_messages.REFUSED, code
    assert refusal_messages.meaning("bag_size") == refusal_messages.MESSAGES["bag_size"]
    assert refusal_messages.meaning("no_such_code") == refusal_messages.REFUSED


def read(path: str) -> str:
    return (Path(settings.BASE_DIR) / path).read_text()


def values_of(template: str) -> dict:
    return {name: "7" for name in re.findall(r"%\((\w+)\)s", template)}


def test_in_english_the_engine_says_it_in_its_own_words():
    with translation.override("en"):
        for key, template in refusal_messages.MESSAGES.items():
            assert refusal_messages.text(key, values_of(template)) == sample(template)
        refused = EngineError("stale_revision", inspection_stale_template(), revision=4)
        assert refusal_messages.message(refused) == inspection_stale(4)
        # A message the table does not know yet: the engine's own words, not a general one.
        new = EngineError("bag_size", "A new message.", detail="new")
        assert refusal_messages.message(new) == "A new message."
        other = EngineError("no_such_code", "Something else.")
        assert refusal_messages.message(other) == "Something else."


def inspection_stale_template() -> str:
    return (
        "That offer has changed (it is now revision %(revision)s); read it again before accepting."
    )


def inspection_stale(revision: int) -> str:
    return (
        f"That offer has changed (it is now revision {revision}); read it again before accepting."
    )


def test_a_message_s_values_are_put_into_the_translation():
    refused = EngineError("stale_revision", inspection_stale_template(), revision=12)
    assert refused.message == inspection_stale(12)
    assert refused.params == {"revision": 12}
    with translation.override("es"):
        worded = refusal_messages.message(refused)
    assert "12" in worded and worded != inspection_stale(12)


# --- dates and numbers ---------------------------------------------------------------------


def test_deadlines_read_as_before_in_english():
    with translation.override("en"):
        shown = clock.deadline(datetime(2025, 3, 3, 14, 5, tzinfo=UTC), "Europe/Madrid")
        assert shown["local"] == "Mon 03 Mar 2025, 15:05 (Europe/Madrid)"
        assert shown["short"] == "Mon 03 Mar, 15:05"
        assert shown["utc"] == "Mon 03 Mar, 14:05 UTC"
        assert clock.deadline(None, "UTC") is None
        assert clock.deadline(datetime(2025, 3, 3, tzinfo=UTC), "Nowhere/Else")["is_utc"]


def test_a_number_too_large_is_said_with_the_language_s_separators():
    post = {"move": "withdraw_offer", "version": "1", "key": "k", "offer": "9999999"}
    with translation.override("en"), pytest.raises(forms.FormError) as refused:
        forms.parse_move(as_query(post))
    assert refused.value.message == "The offer number must be a whole number up to 1,000,000."


def as_query(data: dict):
    from django.http import QueryDict

    query = QueryDict(mutable=True)
    query.update(data)
    return query


def test_the_legend_and_the_ordinals_are_read_when_shown():
    with translation.override("en"):
        assert str(cards.KINDS_LEGEND) == cards.kinds_legend()
        assert [seat_table.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)] == [
            "1st",
            "2nd",
            "3rd",
            "4th",
            "11th",
            "12th",
            "21st",
        ]


def test_three_names_read_as_a_list_in_both_languages():
    """ "Bob, Carol and Dave", never "Bob and Carol and Dave": who won, on the page
    and in the log (one way of joining names for every sentence)."""
    view = {"me": {"seat": 0}, "scores": [{"seat": s, "winner": s > 0} for s in range(4)]}
    names = ["Alice", "Bob", "Carol", "Dave"]
    ended = {"type": "game_ended", "scores": view["scores"], "seed": "ab"}
    narrator = Narrator(names, 0, piles=2)
    for language, joined in (("en", "Bob, Carol and Dave"), ("es", "Bob, Carol y Dave")):
        with translation.override(language):
            assert joined in presenters.game_over_hint(view, names)
            assert joined in narrator.line(ended)
            assert listed(["Ann"]) == "Ann"


# --- pages with no seat: the browser's language ---------------------------------------------


@pytest.mark.django_db
def test_pages_with_no_seat_are_in_the_browser_s_language():
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5")
    home = spanish.get("/")
    assert '<html lang="es">' in home.content.decode()
    assert "Accept-Language" in home["Vary"]  # caches keep the languages apart
    assert '<html lang="es">' in spanish.get("/play/nonsense/").content.decode()
    other = Client(HTTP_ACCEPT_LANGUAGE="xx")
    assert '<html lang="en">' in other.get("/play/nonsense/").content.decode()
    assert "This link is not valid" in other.get("/play/nonsense/").content.decode()


@pytest.mark.django_db
def test_a_refused_form_to_a_seat_speaks_the_seat_s_language():
    game = start_game()
    seat = game.seats.get(index=1)
    Seat.objects.filter(pk=seat.pk).update(language="es")
    browser = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    response = browser.post(path_of(seat), {"move": "say_no_offer"})
    assert response.status_code == 403
    assert '<html lang="es">' in response.content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="es")
    page = english.get(path_of(game.seats.get(index=2))).content.decode()
    assert '<html lang="en">' in page  # the seat's language, not the browser's


@pytest.mark.django_db
def test_a_deal_with_one_deputy_names_that_deputy():
    from tests.support.fixtures_pages import form_for, forms_of, fresh, post_form
    from tests.web.six_seat_pages import SIX, page, start, to_inspection

    game = to_inspection(start(players=SIX))
    first, _ = game.engine_state().deputies
    merchant = game.engine_state().merchants()[0]
    client, path, html = page(game, merchant)
    [to_first] = [
        f for f in forms_of(html) if f.move == "make_offer" and f.value("to") == str(first)
    ]
    post_form(client, path, to_first, gold="2", promise="", **{f"action_{merchant}": "pass"})
    client, path, html = page(fresh(game), first)
    post_form(client, path, form_for(html, "accept_offer"))
    _, _, html = page(fresh(game), merchant)
    deals = html.split("Deals this round")[1].split("</ul>")[0]
    assert f"you paid 2 gold; {SIX[first]} will let your bag pass." in deals
    assert "both Deputies" not in deals


def test_numbers_read_alike_in_every_language_so_the_page_prints_them_as_they_are():
    """The pages (Jinja) print numbers as they are, unlocalized: right only while
    the site groups no thousands and the page shows no fractions."""
    from django.conf import settings
    from django.utils import formats, translation

    assert not settings.USE_THOUSAND_SEPARATOR
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            assert [formats.localize(n) for n in (0, 7, 999, 12345)] == ["0", "7", "999", "12345"]


@pytest.mark.django_db
def test_a_spanish_reader_s_own_row_says_te_toca():
    """In the market every merchant is to play: the others' rows say "le toca", the
    reader's own "te toca" (Spanish tells "you" from "them")."""
    game = start_game()
    ben = game.seats.get(index=1)
    Seat.objects.filter(pk=ben.pk).update(language="es")
    html = Client().get(path_of(ben)).content.decode()
    rows = re.findall(r'<li class="player[^"]*">.*?</li>', html, re.S)
    own = [row for row in rows if 'class="player me' in row]
    assert len(own) == 1 and "te toca" in own[0] and "le toca" not in own[0]
    assert any("le toca" in row for row in rows if row not in own)
