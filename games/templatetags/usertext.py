"""``{{ text|bdi }}``: any text that may hold player-typed words, for HTML."""

import functools

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games.usertext import FSI, PDI, isolate, one_line

register = template.Library()


@register.filter
def bdi(text) -> str:
    """Escaped, with each isolate (from ``usertext.isolate``) as a ``<bdi>``
    element, which HTML mail clients honour more widely than the characters."""
    escaped = str(conditional_escape(text))
    return mark_safe(escaped.replace(FSI, "<bdi>").replace(PDI, "</bdi>"))


@register.filter
def isolated(text) -> str:
    """Raw user text for a plain-text template: one line, isolated if need be."""
    return isolate(text)


@register.filter
def user_text(text) -> str:
    """Raw user text (a name, a promise) on one line, in its own ``<bdi>``."""
    return mark_safe(f"<bdi>{conditional_escape(one_line(text))}</bdi>")


@register.filter
def log_items(lines) -> str:
    """``<li>{{ line.text|bdi }}</li>`` for each log line: a page's dozens of lines in
    one step rather than a template node each."""
    return mark_safe("".join(_log_item(line["text"]) for line in lines))


@functools.lru_cache(maxsize=20_000, typed=True)  # typed: a safe string is not escaped
def _log_item(text) -> str:
    """The same lines come back on every page of a game, and again on the next."""
    return f"<li>{bdi(text)}</li>"
