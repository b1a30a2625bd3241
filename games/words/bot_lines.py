"""What a bot may say at the table: a few short lines that fit the move it just made,
from this table alone (never free text), in the bot's language.

A line is drawn by the move's type and the bot's random source only, never by its
cards or its bag: a smuggler and an honest trader saying "no offer" say the same
lines at the same rate, so the talk tells nothing the move did not.
"""

from django.utils import translation
from django.utils.translation import gettext_lazy

CHANCE = 0.2  # of a line after a move that has lines

LINES = {
    "make_offer": (
        gettext_lazy("A fair price for a quiet road, Sheriff."),
        gettext_lazy("Let's make this easy for both of us."),
        gettext_lazy("Gold speaks louder than a search."),
    ),
    "say_no_offer": (
        gettext_lazy("Nothing to hide. Open it if you like."),
        gettext_lazy("I pay no bribes."),
        gettext_lazy("Just honest goods for the market."),
    ),
    "inspect_bag": (
        gettext_lazy("Let's have a look inside."),
        gettext_lazy("Rules are rules."),
    ),
    "pass_bag": (
        gettext_lazy("On your way, then."),
        gettext_lazy("Go on, the market is waiting."),
    ),
    "accept_offer": (gettext_lazy("A deal it is."),),
    "refuse_offer": (gettext_lazy("Not for that price."),),
}


def line_for(move: str, language: str, rnd) -> str | None:
    """A line for the move just made, now and then; None most of the time."""
    lines = LINES.get(move)
    if not lines or rnd.random() >= CHANCE:
        return None
    with translation.override(language):
        return str(rnd.choice(lines))
