"""What a bot may say at the table: a few short lines that fit the move it just made,
from this table alone (never free text), in the bot's language.

A line is drawn by the kind of the move's public events and the bot's random source
only, never by its cards or its bag: a smuggler and an honest trader saying "no offer" say the same
lines at the same rate, so the talk tells nothing the move did not.
"""

from django.utils import translation
from django.utils.translation import gettext_lazy

CHANCE = 0.2  # of a line after a move that has lines

# The moments a bot's move makes (by the events it made), and what may be said then.
LINES = {
    "bribe": (
        gettext_lazy("A fair price for a quiet road, Sheriff."),
        gettext_lazy("Let's make this easy for both of us."),
        gettext_lazy("Gold speaks louder than a search."),
    ),
    "demand": (
        gettext_lazy("Pay up, or I open it."),
        gettext_lazy("A small toll for the King's road."),
    ),
    "no_offer": (
        gettext_lazy("Nothing to hide. Open it if you like."),
        gettext_lazy("I pay no bribes."),
        gettext_lazy("Just honest goods for the market."),
    ),
    "inspect": (
        gettext_lazy("Let's have a look inside."),
        gettext_lazy("Rules are rules."),
    ),
    "pass": (
        gettext_lazy("On your way, then."),
        gettext_lazy("Go on, the market is waiting."),
    ),
    "deal": (gettext_lazy("A deal it is."),),
    "refused": (gettext_lazy("Not for that price."),),
}
MOMENTS = {
    "no_offer_said": "no_offer",
    "bag_inspected": "inspect",
    "bag_passed": "pass",
    "deal_made": "deal",
    "offer_refused": "refused",
}


def moment(events) -> str | None:
    """The moment the bot's own move made, from its events' public types alone."""
    for event in events:
        if event["type"] == "offer_made":
            offer = event["offer"]
            return "bribe" if offer["proposer"] == offer["payer"] else "demand"
        if event["type"] in MOMENTS:
            return MOMENTS[event["type"]]
    return None


def line_for(events, language: str, rnd) -> str | None:
    """A line for the move that made ``events``, now and then; None most of the time."""
    lines = LINES.get(moment(events))
    if not lines or rnd.random() >= CHANCE:
        return None
    with translation.override(language):
        return str(rnd.choice(lines))
