"""The bots' levels as a person reads them (the lobby, the organizer's page and
"Play now" offer the same choice)."""

from django.utils.translation import gettext_lazy

from games.bots import LEVELS

LABELS = {
    "smuggler": gettext_lazy("Smuggler: bluffs, bribes and inspects by the odds (the strongest)"),
    "honest": gettext_lazy("Honest trader: tells the truth, rarely inspects"),
    "random": gettext_lazy("Beginner: any legal move, at random (the easiest)"),
}
SHORT = {
    "smuggler": gettext_lazy("smuggler bot"),
    "honest": gettext_lazy("honest trader bot"),
    "random": gettext_lazy("beginner bot"),
}
DEFAULT = "smuggler"
CHOICES = [(level, LABELS[level]) for level in ("smuggler", "honest", "random")]
assert set(LEVELS) == set(LABELS) == set(SHORT), "every level has its words"


def short(level: str) -> str:
    """What a seat's or an invitation's line says of its bot ("smuggler bot")."""
    return str(SHORT.get(level, level))
