"""What a screen reader, a keyboard and weak eyes need from the pages and emails
(WCAG 2.2 AA), beyond what axe-core checks on every screen of the browser suite
(tests/browser/chromium.py): the result of a move said first, buttons named after their
bag or offer, errors tied to their fields, colours that contrast, text large
enough, and emails that follow the device's dark mode."""

import html as html_text
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.template import engines
from django.test import Client
from django.utils import translation

from games.core.links import settings_url
from games.mail import emails
from tests.support.fixtures_pages import decide_buttons, form_for, path_of, post_form, start_game

ROOT = Path(settings.BASE_DIR)
SITE_CSS = ROOT / "games" / "static" / "games" / "site.css"
EMAILS = ROOT / "templates" / "emails"
MIN_TEXT_PX = 14  # reading text at a phone's 390 px


# --- contrast, as WCAG 2.2 computes it -------------------------------------------------
def luminance(colour: str) -> float:
    hexa = colour.lstrip("#")
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    channels = [int(hexa[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def css_variables() -> dict:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;", SITE_CSS.read_text()))


def test_the_contrast_formula():
    assert round(contrast("#ffffff", "#000000"), 1) == 21.0
    assert round(contrast("#ffffff", "#a87a12"), 2) == 3.85  # the former Winner badge


def test_the_winner_badge_and_rank_read_at_4_5_to_1():
    css = SITE_CSS.read_text()
    assert re.search(r"\.badge-winner \{ background: var\(--gold\); color: #fff; \}", css)
    assert contrast("#ffffff", css_variables()["gold"]) >= 4.5


def test_our_own_focus_ring_contrasts_3_to_1_with_every_background_it_lies_on():
    css = SITE_CSS.read_text()
    ring = re.search(r":focus-visible \{ outline: (\d+)px solid var\(--focus\); outline-off", css)
    assert ring and int(ring.group(1)) >= 2
    colours = css_variables()
    # Set off from the element, the ring lies on the page, a panel or a card's tint.
    for ground in ("bg", "panel", "legal-bg", "contraband-bg", "royal-bg"):
        assert contrast(colours["focus"], colours[ground]) >= 3, ground
    assert contrast(colours["focus"], "#f3faf3") >= 3  # the panel of "your move"


def test_no_reading_text_below_14px_on_the_pages():
    sizes = re.findall(r"font-size:\s*(\d+)px", SITE_CSS.read_text())
    assert sizes and min(int(s) for s in sizes) >= MIN_TEXT_PX, sizes


def test_no_reading_text_below_14px_in_the_emails():
    sources = [p.read_text() for p in EMAILS.glob("*.html")]  # their cards: _parts.html
    small = [s for text in sources for s in re.findall(r"font-size:(\d+)px", text)]
    assert small and min(int(s) for s in small) >= MIN_TEXT_PX, small


# --- a card's value and penalty ---------------------------------------------------------
CARD = {"kind": "legal", "kind_name": "legal goods", "mark": "✓", "label": "Apples"}
CARDS = '{% import "_cards.html" as cards %}{{ cards.card(c) }}'


@pytest.mark.parametrize(
    ("language", "words"), [("en", "value 2, penalty 3"), ("es", "valor 2, sanción 3")]
)
def test_a_cards_value_and_penalty_are_words_for_a_screen_reader(language, words):
    with translation.override(language):  # a template is compiled in its language
        html = engines["jinja"].from_string(CARDS).render({"c": {**CARD, "value": 2, "penalty": 3}})
    assert '<span aria-hidden="true"' in html and "2<i>/</i>3</span>" in html
    assert f'<span class="visually-hidden"> ({words})</span>' in html


# --- pages: the result of a move, names of the buttons, the settings' errors ------------
class Focusable(HTMLParser):
    """The elements with an id, their attributes, in page order."""

    def __init__(self):
        super().__init__()
        self.by_id: dict[str, dict] = {}
        self.order: list[str] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self._in_title = tag == "title"
        if "id" in attributes:
            self.by_id[attributes["id"]] = {"tag": tag, **attributes}
            self.order.append(attributes["id"])

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def parsed(html: str) -> Focusable:
    parser = Focusable()
    parser.feed(html)
    return parser


@pytest.mark.django_db
def test_the_result_of_a_move_is_the_titles_first_words_and_takes_the_focus(client):
    game = start_game()
    seat = game.seats.get(index=1)
    page = client.get(path_of(seat)).content.decode()
    response = post_form(client, path_of(seat), form_for(page, "set_aside"))
    html = response.content.decode()
    page = parsed(html)
    assert page.title.strip().startswith("Your market choice is recorded"), page.title
    region = page.by_id["messages"]
    assert region["role"] == "status" and region["tabindex"] == "-1" and "autofocus" in region
    # Without a message, nothing is focused and the title is the table's.
    again = parsed(client.get(path_of(seat)).content.decode())
    assert "messages" not in again.by_id and again.title.strip().startswith("Pages test")


@pytest.mark.django_db
def test_a_refused_move_is_an_alert(client):
    game = start_game()
    seat = game.seats.get(index=1)
    page = client.get(path_of(seat)).content.decode()
    form = form_for(page, "set_aside")
    response = post_form(client, path_of(seat), form, cards=["999999"])
    page = parsed(response.content.decode())
    assert page.by_id["messages"]["role"] == "alert"


@pytest.mark.django_db
def test_each_decision_button_names_its_merchant(client):
    from games.core import timers

    game = start_game()
    for _ in range(2):  # the market's and the loading's defaults
        timers.advance(game.pk, force=True)
    for index in (1, 2, 3):  # each merchant has no offer
        path = path_of(game.seats.get(index=index))
        page = client.get(path).content.decode()
        post_form(client, path, form_for(page, "say_no_offer"))
    sheriff = game.seats.get(index=0)
    html = client.get(path_of(sheriff)).content.decode()
    assert len(decide_buttons(html)) == 6, "three bags, two buttons each"
    plain = html.replace("&#39;", "'")
    for name in ("Ben", "Cid", "Dee"):
        assert f'aria-label="Let pass {name}\'s bag…">Let pass…</button>' in plain
        assert f'aria-label="Inspect {name}\'s bag…">Inspect…</button>' in plain


@pytest.mark.django_db
def test_each_accept_button_names_whose_offer_it_is(client):
    from games.core import timers

    game = start_game()
    for _ in range(2):
        timers.advance(game.pk, force=True)
    for index in (1, 2):
        seat = game.seats.get(index=index)
        page = client.get(path_of(seat)).content.decode()
        offer = form_for(page, "make_offer")
        post_form(client, path_of(seat), offer, gold="2", action_1="pass", action_2="pass")
    html = client.get(path_of(game.seats.get(index=0))).content.decode()
    hidden = r"Accept this offer <span class=\"visually-hidden\">\((.*?)\)</span>"
    accepts = re.findall(hidden, html)
    assert sorted(html_text.unescape(re.sub(r"</?bdi>", "", a)) for a in accepts) == [
        "Ben's offer #1",
        "Cid's offer #2",
    ], accepts


def bad_settings(**changes) -> dict:
    data = {"name": "", "timezone": "Mars/Olympus", "language": "en", "notify": "results"}
    return {**data, "digest_hour": "", **changes}


@pytest.mark.django_db
def test_settings_errors_are_tied_to_their_fields_and_listed_first():
    game = start_game()
    client = Client()
    url = urlparse(settings_url(game.seats.get(index=1))).path
    html = client.post(url, bad_settings(away_from="2030-01-02")).content.decode()
    page = parsed(html)
    assert page.title.strip().startswith("Your settings are not saved.")
    for name, fields in (
        ("name", ["field-name"]),
        ("timezone", ["field-timezone"]),
        ("away", ["field-away_from", "field-away_until"]),
    ):
        error = page.by_id[f"error-{name}"]
        assert error["tag"] == "p" and "msg-error" in error["class"]
        for field in fields:
            assert page.by_id[field]["aria-invalid"] == "true", field
            assert page.by_id[field]["aria-describedby"] == f"error-{name}", field
    # The summary comes first, takes the focus, and links to each field in error.
    summary = page.by_id["error-summary"]
    assert summary["role"] == "alert" and "autofocus" in summary
    assert page.order.index("error-summary") < page.order.index("settings")
    links = re.findall(r'<li><a href="#(field-[\w]+)">', html)
    assert links == ["field-name", "field-timezone", "field-away_from"]
    assert page.by_id["field-language"].get("aria-invalid") is None


@pytest.mark.django_db
def test_a_valid_settings_page_has_no_error_marks():
    game = start_game()
    url = urlparse(settings_url(game.seats.get(index=1))).path
    html = Client().get(url).content.decode()
    assert "aria-invalid" not in html and "error-summary" not in html


# --- emails: dark mode ------------------------------------------------------------------
@pytest.mark.django_db
def test_every_email_follows_the_devices_dark_mode():
    game = start_game()
    seat = game.seats.get(index=1)
    game.organizer_email = "org@example.org"
    rendered = [
        emails.render(game, seat, game.engine_state(), "start")["html"],
        emails.render_miss_alert(game, seat, "k1")["html"],
        emails.render_replaced(game, seat, "k2")["html"],
    ]
    for html in rendered:
        assert '<meta name="color-scheme" content="light dark">' in html
        dark = re.search(r"@media \(prefers-color-scheme: dark\) \{(.*?)\n\}", html, re.S)
        assert dark, html[:400]
        assert 'class="em-body"' in html and 'class="em-panel"' in html
    # Each dark pair of colours reads at 4.5:1 or more.
    rules = dict(re.findall(r"\.(em-[\w-]+)[^{]*\{([^}]*)\}", dark.group(1)))
    panel = re.search(r"background: (#\w+)", rules["em-panel"]).group(1)
    for name, rule in rules.items():
        for colour in re.findall(r"(?<!-)color: (#\w+)", rule):
            assert contrast(colour, panel) >= 4.5, (name, colour)
