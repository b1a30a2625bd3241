"""``{{ text|bdi }}``: any text that may hold player-typed words, for HTML."""

import re

from django import template

# MarkupSafe's C escape and Markup, not Django's conditional_escape and mark_safe:
# the same rule (what has __html__ is safe, anything else is escaped), as the rest
# of the page is escaped, without Django's lazy-aware wrapper around each (a seat
# page makes 50-odd calls, one a log line). Quotes come out as &#34; and &#39;.
from markupsafe import Markup, escape

from games.words.user_text import FSI, PDI, isolate, one_line

register = template.Library()


@register.filter
def bdi(text) -> str:
    """Escaped, with each isolate (from ``usertext.isolate``) as a ``<bdi>``
    element, which HTML mail clients honour more widely than the characters."""
    escaped = str(escape(text))
    return Markup(escaped.replace(FSI, "<bdi>").replace(PDI, "</bdi>"))


@register.filter
def isolated(text) -> str:
    """Raw user text for a plain-text template: one line, isolated if need be."""
    return isolate(text)


@register.filter
def user_text(text) -> str:
    """Raw user text (a name, a promise) on one line, in its own ``<bdi>``."""
    return Markup(f"<bdi>{escape(one_line(text))}</bdi>")


# What makes a mail app turn text into a link: a dot or an @ inside a word, a "://".
LINK_MARKS = re.compile(r"(?<=\w)[.@](?=\w)|:(?=//)")


@register.filter
def unlinked(text) -> str:
    """``user_text`` for an email: each dot or @ inside a word, and the colon of a
    "://", in a span of its own, so that mail apps do not make a link of an
    address someone typed (it stays text, as on the pages)."""
    escaped = str(escape(one_line(text)))
    return Markup(f"<bdi>{LINK_MARKS.sub(lambda m: f'<span>{m[0]}</span>', escaped)}</bdi>")
