"""Text that players typed (names, offer promises), made safe to show to the
others, whatever was stored: kept on one line, so it cannot add lines of its
own to an email; without control or bidi-control characters, so it cannot
reorder the text around it; and isolated (FSI…PDI) where it holds
right-to-left letters or held bidi controls, so it reads as one unit inside a
sentence. HTML
templates turn the isolates into ``<bdi>`` (the ``bdi`` filter)."""

import unicodedata

FSI, PDI = "\u2068", "\u2069"  # first strong isolate, pop directional isolate
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f"  # Arabic letter mark, left-to-right and right-to-left marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # isolates
)
# Only letters of these bidi classes can be reordered inside a left-to-right line.
RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})


def one_line(text: str) -> str:
    """Every run of whitespace (line breaks included) as one space; control and
    bidi-control characters dropped."""
    kept = (
        " " if char.isspace() else char
        for char in str(text)
        if char.isspace() or not _is_control(char)
    )
    return " ".join("".join(kept).split())


def _is_control(char: str) -> bool:
    return char in BIDI_CONTROLS or unicodedata.category(char) == "Cc"


def isolate(text: str) -> str:
    """``one_line(text)``, between FSI and PDI if it held right-to-left letters or
    bidi controls (left-to-right text cannot move, so it is left as it is).
    Idempotent."""
    line = one_line(text)
    return f"{FSI}{line}{PDI}" if line and _may_turn(str(text)) else line


def _may_turn(text: str) -> bool:
    """Could this text reorder itself or its neighbours in a left-to-right line?"""
    return any(
        char in BIDI_CONTROLS or unicodedata.bidirectional(char) in RIGHT_TO_LEFT for char in text
    )


def names(raw) -> list:
    """Players' names, ready to print in any sentence."""
    return [isolate(name) for name in raw]


def folded(text: str) -> str:
    """Lower case, without accents or format characters (bidi isolates, zero-width
    joiners): "Álvaro" and "alvaro" read as one word, as people type them."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(
        c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )
