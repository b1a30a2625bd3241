"""The hidden fields every move's form carries, written here rather than as an
included template: a page has several such forms, and an include costs more
than the fields."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import format_html

from games.templatetags.cards import mark

register = template.Library()


@register.simple_tag(takes_context=True)
def move_fields(context, move: str) -> str:
    """The CSRF token (as ``{% csrf_token %}`` prints it), the move, the phase
    version the page shows (a stale page is told so) and the form's one-time key."""
    return format_html(
        '{}<input type="hidden" name="move" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="key" value="{}">',
        CsrfTokenNode().render(context),
        move,
        context["version"],
        context["keys"].next,
    )


@register.simple_tag
def stand_goods_choice(c) -> str:
    """A card of a stand an offer may give: a checkbox chip (an offer's form shows a
    whole stand, in each of its forms)."""
    return format_html(
        '<label class="chip k-{}"><input type="checkbox" name="stand_goods" value="{}"{}>'
        " {} {}</label>",
        c["kind"],
        c["id"],
        " checked" if c["checked"] else "",
        mark(c),
        c["label"],
    )


@register.simple_tag
def bag_goods_field(t, most: int) -> str:
    """How many of one kind of goods from the bag an offer gives (up to ``most``)."""
    return format_html(
        '<label class="field compact k-{}">{} {} <input type="number" name="bag_{}" min="0"'
        ' max="{}" value="{}" inputmode="numeric"></label>',
        t["kind"],
        mark(t),
        t["label"],
        t["name"],
        most,
        t["value"],
    )
