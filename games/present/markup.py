"""A page's most repeated markup: a card and a goods mark (a page shows dozens),
an offer form's goods fields, the log's lines. Written here rather than as
included templates, each distinct card drawn once per language and kept. Page
templates use them as filters (games/present/jinja_env.py). Emails have their own,
inline-styled card: ``email_card``."""

import functools

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.templatetags.usertext import bdi
from games.words.i18n import kept_per_language


def mark(c) -> str:
    """The goods kind's mark, named for screen readers."""
    return _mark(c["kind_name"], c["mark"])


def card(c) -> str:
    """A card: its mark, its name (or count and name) and its value/penalty."""
    return _card(c["kind"], c["kind_name"], c["mark"], _words(c), c["value"], c["penalty"])


def _words(c) -> str:
    """A card's name, or its count and name when the card stands for several."""
    return c["text"] if c.get("count") else c["label"]


@functools.lru_cache(maxsize=64)  # the kind's name comes translated
def _mark(kind_name: str, symbol: str) -> str:
    return format_html(
        '<span class="mark" role="img" aria-label="{0}" title="{0}">{1}</span>',
        kind_name,
        symbol,
    )


@kept_per_language(maxsize=4096)
def _card(kind, kind_name, symbol, text, value, penalty) -> str:
    # "2/2" on screen; a screen reader says what it means, as a title alone does not.
    words = gettext("value %(value)s, penalty %(penalty)s") % {"value": value, "penalty": penalty}
    return format_html(
        '<span class="card k-{}">{}<span class="card-name">{}</span>'
        '<small class="vp"><span aria-hidden="true" title="{}">{}<i>/</i>{}</span>'
        '<span class="visually-hidden"> ({})</span></small></span>',
        kind,
        _mark(kind_name, symbol),
        text,
        words,
        value,
        penalty,
        words,
    )


def stand_goods_choice(c) -> str:
    """A card of a stand an offer may give: a checkbox chip (an offer's form shows a
    whole stand, in each of its forms)."""
    return _stand_goods_choice(
        c["kind"], c["kind_name"], c["mark"], c["label"], c["id"], c["checked"]
    )


@functools.lru_cache(maxsize=4096)  # its words come translated
def _stand_goods_choice(kind, kind_name, symbol, label, card_id, checked) -> str:
    return format_html(
        '<label class="chip k-{}"><input type="checkbox" name="stand_goods" value="{}"{}>'
        " {} {}</label>",
        kind,
        card_id,
        " checked" if checked else "",
        _mark(kind_name, symbol),
        label,
    )


def bag_goods_field(t, most: int) -> str:
    """How many of one kind of goods from the bag an offer gives (up to ``most``):
    a Sheriff's page has one a kind of goods in each merchant's demand form."""
    return _bag_goods_field(
        t["kind"], t["kind_name"], t["mark"], t["label"], t["name"], most, t["value"]
    )


@functools.lru_cache(maxsize=4096)  # its words come translated
def _bag_goods_field(kind, kind_name, symbol, label, name, most, value) -> str:
    return format_html(
        '<label class="field compact k-{}">{} {} <input type="number" name="bag_{}" min="0"'
        ' max="{}" value="{}" inputmode="numeric"></label>',
        kind,
        _mark(kind_name, symbol),
        label,
        name,
        most,
        value,
    )


def log_items(lines) -> str:
    """``<li>{{ line.text|bdi }}</li>`` for each log line: a page's dozens of lines in
    one step rather than a template node each."""
    return mark_safe("".join(_log_item(line["text"]) for line in lines))


@functools.lru_cache(maxsize=20_000, typed=True)  # typed: a safe string is not escaped
def _log_item(text) -> str:
    """The same lines come back on every page of a game, and again on the next."""
    return f"<li>{bdi(text)}</li>"


# --- emails: cards inline-styled, as mail apps need (an email shows dozens, and
# the worker draws a table's worth for each player) ---
EMAIL_CARD_BACKGROUNDS = {"legal": "#e6f2e3", "royal": "#efe4f5"}  # contraband: #f7e1de


def email_card(c) -> str:
    return _email_card(c["kind"], c["kind_name"], c["mark"], _words(c))


@functools.lru_cache(maxsize=4096)  # its arguments are already in the reader's language
def _email_card(kind, kind_name, symbol, text) -> str:
    return format_html(
        '<span class="em-card em-k-{}" style="display:inline-block;margin:2px 2px;'
        'padding:1px 7px;border-radius:6px;white-space:nowrap;background:{};">'
        '<span title="{}">{}</span> {}</span>',
        kind,
        EMAIL_CARD_BACKGROUNDS.get(kind, "#f7e1de"),
        kind_name,
        symbol,
        text,
    )
