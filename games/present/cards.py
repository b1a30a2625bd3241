"""Cards as pages and emails show them: a kind of goods with its legality
marked by a symbol and a word (never by colour alone), counted by kind, in
card-table order. Every other presenter lists goods through these.
"""

from django.utils.functional import lazy
from django.utils.translation import pgettext_lazy

from games.engine import CARD_TYPES
from games.words import goods_names
from games.words.i18n import cached_per_language
from games.words.narrate import counted, goods

_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}
# Legal or contraband is told by a symbol and a word, never by colour alone.
KINDS = {
    "legal": ("✓", pgettext_lazy("a kind of goods", "legal goods")),
    "contraband": ("✗", pgettext_lazy("a kind of goods", "contraband")),
    "royal": ("♛", pgettext_lazy("a kind of goods", "royal goods (contraband)")),
}


def kinds_legend() -> str:
    """ "✓ legal goods · ✗ contraband · ♛ royal goods (contraband)", in the reader's language."""
    return " · ".join(f"{mark} {name}" for mark, name in KINDS.values())


KINDS_LEGEND = lazy(kinds_legend, str)()  # evaluated where it is shown


def card(face: dict) -> dict:
    """A card the viewer may see: its id (for forms), label, kind, value and penalty."""
    return {"id": face["id"], **card_type(face["type"])}


def card_type(name: str) -> dict:
    """A kind of goods as the page and emails show it, its legality marked."""
    return dict(_card_type(name))  # a copy: callers may add to it


@cached_per_language(maxsize=256)
def _card_type(name: str) -> dict:
    kind = CARD_TYPES[name]
    mark, kind_name = KINDS[kind.kind]
    return {
        "type": kind.name,
        "label": goods_names.label(name),
        "kind": kind.kind,
        "mark": mark,
        "kind_name": str(kind_name),
        "value": kind.value,
        "penalty": kind.penalty,
    }


def cards(faces: list) -> list:
    return [card(f) for f in faces]


def grouped(types: list) -> list:
    """Type names -> [{"label", "count", "text", "kind", ...}], card-table order;
    "text" is the counted noun ("1 Chicken")."""
    counts: dict[str, int] = {}
    for name in types:
        counts[name] = counts.get(name, 0) + 1
    return [
        {**card_type(name), "count": n, "text": counted(n, name)}
        for name, n in sorted(counts.items(), key=lambda kv: _ORDER[kv[0]])
    ]


def goods_text(types: list) -> str:
    return goods(types)


def label(name: str) -> str:
    return goods_names.label(name)


def declaration_text(declaration: dict | None) -> str:
    if not declaration:
        return ""
    return counted(declaration["count"], declaration["declared"])
