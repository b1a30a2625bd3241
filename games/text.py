"""Checks on text typed by people, shared by the seat forms and the organizer's side.

PostgreSQL refuses a NUL byte in text and jsonb; a line break in a name that
ends up in an email header makes every email fail; invisible bidi controls let
a name display as something it is not. Such text is refused before it is saved.
"""

import unicodedata

from games.usertext import BIDI_CONTROLS  # one list: what display strips, input refuses

# Control characters, and the line and paragraph separators (line breaks too).
UNPRINTABLE = frozenset({"Cc", "Zl", "Zp"})
# Of the invisible format characters, a name keeps only the joiners that some
# scripts and emoji sequences need (ZWNJ, ZWJ): a zero-width space, a word joiner
# or a soft hyphen would let "Ann" and "An\u200bn" look the same.
JOINERS = frozenset("\u200c\u200d")


def has_control(text: str, allowed: str = "") -> bool:
    """Does ``text`` hold a control character (NUL included) other than ``allowed``?"""
    return any(unicodedata.category(c) == "Cc" and c not in allowed for c in text)


def unfit_for_a_name(text: str) -> bool:
    """A name is one line of visible text: no control, separator, bidi or other
    invisible character (but the joiners)."""
    return any(
        unicodedata.category(c) in UNPRINTABLE
        or c in BIDI_CONTROLS
        or (unicodedata.category(c) == "Cf" and c not in JOINERS)
        for c in text
    )


def name_key(name: str) -> str:
    """What a name looks like, for telling names apart: compatibility forms folded
    (full-width letters, ligatures, no-break spaces), case folded, joiners dropped,
    spaces collapsed. Two names with the same key would read as one person."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(c for c in folded if c not in JOINERS).split())


def whole_number(raw: str, digits: int) -> int | None:
    """The value of ``raw`` written in at most ``digits`` ASCII digits; else None.
    (str.isdigit and int() also take '²', Arabic-Indic or full-width digits, and
    int() refuses a few thousand digits.)"""
    if raw.isascii() and raw.isdigit() and len(raw) <= digits:
        return int(raw)
    return None
