"""``{% email_card c %}``: a card in an email, inline-styled as mail apps need (an
email shows dozens, and the worker renders a table's worth for each player). The
pages' cards are games/markup.py's."""

import functools

from django import template
from django.utils.html import format_html

register = template.Library()

EMAIL_CARD_BACKGROUNDS = {"legal": "#e6f2e3", "royal": "#efe4f5"}  # contraband: #f7e1de


@register.simple_tag
def email_card(c) -> str:
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
