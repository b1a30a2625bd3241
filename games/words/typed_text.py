"""Checks on text typed by people, shared by the seat forms and the organizer's side.

PostgreSQL refuses a NUL byte in text and jsonb; a line break in a name that
ends up in an email header makes every email fail; invisible bidi controls let
a name display as something it is not. Such text is refused before it is saved.
"""

import unicodedata

import icu  # PyICU: ICU's spoof checker, UTS #39 over Unicode's own confusables data

from games.words.user_text import BIDI_CONTROLS  # one list: what display strips, input refuses

# Control characters, and the line and paragraph separators (line breaks too).
UNPRINTABLE = frozenset({"Cc", "Zl", "Zp"})
# Of the invisible characters, a name keeps only the joiners that some scripts and
# emoji sequences need (ZWNJ, ZWJ); name_keys drops them when names are compared.
JOINERS = frozenset("\u200c\u200d")
# What displays as nothing: Unicode's Default_Ignorable_Code_Point (zero-width
# space, word joiner, soft hyphen, combining grapheme joiner, the Hangul fillers,
# variation selectors, tags...), as the ICU the site runs with knows it, and the
# braille blank, which is a symbol but prints as a space. "Ann" followed by any of
# them displays as "Ann", so a name refuses them rather than strip them: what is
# stored is what was typed. About 4,000 characters, read once into a frozenset.
INVISIBLE = frozenset(icu.UnicodeSet(r"[[:Default_Ignorable_Code_Point:]\u2800]"))
# But the text and emoji variation selectors, right after a symbol: phones type
# "❤\ufe0f" for a red heart, and after a symbol they change only its style.
EMOJI_STYLES = frozenset("\ufe0e\ufe0f")


def has_control(text: str, allowed: str = "") -> bool:
    """Does ``text`` hold a control character (NUL included) other than ``allowed``?"""
    return any(unicodedata.category(c) == "Cc" and c not in allowed for c in text)


def unfit_for_a_name(text: str) -> bool:
    """A name is one line of visible text: no control, separator, bidi or other
    invisible character (see INVISIBLE; but the joiners). Every name field checks
    with it: seats, invitations, the join link, the organizer's, a game's name."""
    return any(_unfit(c, before) for before, c in zip(" " + text, text, strict=False))


def _unfit(char: str, before: str) -> bool:
    if unicodedata.category(char) in UNPRINTABLE or char in BIDI_CONTROLS:
        return True
    if char in JOINERS or (char in EMOJI_STYLES and unicodedata.category(before) == "So"):
        return False
    return unicodedata.category(char) == "Cf" or char in INVISIBLE


# Only reads once built, so one checker serves every thread.
_SPOOF_CHECKER = icu.SpoofChecker()


def skeleton(text: str) -> str:
    """The confusable skeleton of UTS #39 (Unicode's security mechanisms): NFD, each
    character replaced by its prototype in Unicode's confusables data, NFD again.
    Two strings with the same skeleton are visually confusable: Cyrillic "Аnn"
    and "Ann", "Ian" and "lan", "Kim" and "Kirn". ICU keeps the data current."""
    return _SPOOF_CHECKER.getSkeleton(0, text)


def name_keys(name: str) -> tuple[str, str, str]:
    """What a name looks like, for telling names apart: compatibility forms folded
    (full-width letters, ligatures, no-break spaces), joiners and any other
    invisible character dropped (a name stored before they were refused), spaces
    collapsed; then its skeleton as written (Cyrillic "Аnn" reads as "Ann"), that
    of its case-folded form ("ann" reads as "Ann", "ian" as "Ian"), and that of its
    skeleton case-folded (Greek "ΑΝΝ" reads as "ANN", so as "Ann"). Two names that
    share a key would read as one person."""
    plain = unicodedata.normalize("NFKC", name)
    plain = " ".join("".join(c for c in plain if c not in INVISIBLE).split())
    as_written = skeleton(plain)
    return as_written, skeleton(plain.casefold()), skeleton(as_written.casefold())


def look_alike(name: str, others) -> str | None:
    """The first of ``others`` that would read as ``name`` (see ``name_keys``); None
    if none does."""
    keys = name_keys(name)
    for other in others:
        if any(mine == theirs for mine, theirs in zip(keys, name_keys(other), strict=True)):
            return other
    return None


def whole_number(raw: str, digits: int) -> int | None:
    """The value of ``raw`` written in at most ``digits`` ASCII digits; else None.
    (str.isdigit and int() also take '²', Arabic-Indic or full-width digits, and
    int() refuses a few thousand digits.)"""
    if raw.isascii() and raw.isdigit() and len(raw) <= digits:
        return int(raw)
    return None
