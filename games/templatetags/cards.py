"""A card and a goods mark, the pages' most repeated markup (a page shows dozens):
written here rather than as included templates, whose per-include cost made up
much of a page's rendering, and each distinct card drawn once per language and
kept. Emails have their own, inline-styled: ``{% email_card %}``."""

import functools

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from games.i18n import kept_per_language

register = template.Library()


@register.simple_tag
def mark(c) -> str:
    """The goods kind's mark, named for screen readers."""
    return _mark(c["kind_name"], c["mark"])


@register.simple_tag
def card(c) -> str:
    """A card: its mark, its name (or count and name) and its value/penalty."""
    text = c["text"] if c.get("count") else c["label"]
    return _card(c["kind"], c["kind_name"], c["mark"], text, c["value"], c["penalty"])


@functools.lru_cache(maxsize=64)  # the kind's name comes translated
def _mark(kind_name: str, symbol: str) -> str:
    return format_html(
        '<span class="mark" role="img" aria-label="{0}" title="{0}">{1}</span>',
        kind_name,
        symbol,
    )


@kept_per_language(maxsize=4096)
def _card(kind, kind_name, symbol, text, value, penalty) -> str:
    title = gettext("value %(value)s, penalty %(penalty)s") % {"value": value, "penalty": penalty}
    return format_html(
        '<span class="card k-{}">{}<span class="card-name">{}</span>'
        '<small class="vp" title="{}">{}<i>/</i>{}</small></span>',
        kind,
        _mark(kind_name, symbol),
        text,
        title,
        value,
        penalty,
    )


EMAIL_CARD_BACKGROUNDS = {"legal": "#e6f2e3", "royal": "#efe4f5"}  # contraband: #f7e1de


@register.simple_tag
def email_card(c) -> str:
    """A card in an email: inline-styled, as mail apps need (an email shows dozens,
    and the worker renders a table's worth for each player)."""
    text = c["text"] if c.get("count") else c["label"]
    return _email_card(c["kind"], c["kind_name"], c["mark"], text)


@functools.lru_cache(maxsize=4096)  # its arguments are already in the reader's language
def _email_card(kind, kind_name, symbol, text) -> str:
    return format_html(
        '<span style="display:inline-block;margin:2px 2px;padding:1px 7px;border-radius:6px;'
        'white-space:nowrap;background:{};"><span title="{}">{}</span> {}</span>',
        EMAIL_CARD_BACKGROUNDS.get(kind, "#f7e1de"),
        kind_name,
        symbol,
        text,
    )
