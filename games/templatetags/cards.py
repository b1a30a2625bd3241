"""A card and a goods mark, the pages' most repeated markup (a page shows dozens):
written here rather than as included templates, whose per-include cost made up
much of a page's rendering. (Emails have their own, inline-styled: emails/_card.html.)"""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def mark(c) -> str:
    """The goods kind's mark, named for screen readers."""
    return format_html(
        '<span class="mark" role="img" aria-label="{0}" title="{0}">{1}</span>',
        c["kind_name"],
        c["mark"],
    )


@register.simple_tag
def card(c) -> str:
    """A card: its mark, its name (or count and name) and its value/penalty."""
    title = gettext("value %(value)s, penalty %(penalty)s") % {
        "value": c["value"],
        "penalty": c["penalty"],
    }
    return format_html(
        '<span class="card k-{}">{}<span class="card-name">{}</span>'
        '<small class="vp" title="{}">{}<i>/</i>{}</small></span>',
        c["kind"],
        mark(c),
        c["text"] if c.get("count") else c["label"],
        title,
        c["value"],
        c["penalty"],
    )
