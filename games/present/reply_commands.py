"""Moves by reply: the words a reply to a game's email may use for a move, in
English or Spanish, read into the engine command the seat page's form would
send; and the commands an email that asks for a move lists, with the seat's own
choices spelled out ("pass Bob", "load 2 4 declare 2 apples").

A reply's first line is its command, if it reads as one (``read``); anything else
is talk. The command goes the page's way from there: ``moves.form_fields`` writes
it as the page's form fields, which the move's own parser reads, and the engine
decides whether it is allowed now. A pass or an inspection by reply is final: the
words are the confirmation the page asks for, and the email says so.

Cards are named by their number in the seat's hand as its email lists it (1 is
the first card), since a mail app has no tiles to tick.
"""

import re

from django.utils.translation import gettext as _

from games.present.move_fields import FormError
from games.words import goods_names, user_text

# The legal goods a declaration may name, in both languages, singular and plural.
GOODS_WORDS = {
    "apples": ("apple", "apples", "manzana", "manzanas"),
    "cheese": ("cheese", "cheeses", "queso", "quesos"),
    "bread": ("bread", "breads", "loaf", "loaves", "pan", "panes"),
    "chicken": ("chicken", "chickens", "gallina", "gallinas", "pollo", "pollos"),
}
GOLD_WORDS = r"(?:gold|coins?|oro|monedas?(?: de oro)?)"
NUMBERS = r"((?:\s+\d{1,3})+)"
NAME = r"(?:a\s+)?(.+)"  # "deja pasar a Bob": Spanish puts "a" before a person


def plain(text: str) -> str:
    """Lower case, no accents, one space between words, no closing punctuation:
    "Registra a Álvaro." -> "registra a alvaro"."""
    return " ".join(user_text.folded(text).split()).strip(" .!¡?¿,;:")


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line
    return ""


def _seat_named(said: str, view: dict, names: list) -> int:
    """The seat whose name is ``said`` (any case, accents ignored); FormError if
    none, or several, are."""
    wanted = plain(said)
    found = [seat for seat, name in enumerate(names) if plain(name) == wanted]
    if not found:  # a first name alone, if only one seat starts so
        found = [s for s, name in enumerate(names) if plain(name).split()[:1] == wanted.split()]
    if len(found) != 1:
        raise FormError(
            _("“%(said)s” is not the name of one player at this table.")
            % {"said": user_text.isolate(said.strip()[:60])}
        )
    return found[0]


def _hand_cards(view: dict, numbers: str) -> list:
    """The card ids of ``numbers`` ("1 3"), by their place in the hand (from 1)."""
    hand = view["me"]["hand"]
    chosen = [int(n) for n in numbers.split()]
    wrong = [n for n in chosen if not 1 <= n <= len(hand)]
    if wrong:
        raise FormError(
            _("Your hand has cards 1 to %(last)s; there is no card %(number)s.")
            % {"last": len(hand), "number": wrong[0]}
        )
    if len(set(chosen)) != len(chosen):
        raise FormError(_("The same card is chosen twice."))
    return [hand[n - 1]["id"] for n in chosen]


def _goods(word: str) -> str:
    for name, words in GOODS_WORDS.items():
        if word in words:
            return name
    raise FormError(
        _("Declare Apples, Cheese, Bread or Chickens: “%(said)s” is none of them.")
        % {"said": word[:30]}
    )


def _set_aside(view, names, match) -> dict:
    return {"type": "set_aside", "cards": _hand_cards(view, match.group(1) or "")}


def _keep(view, names, match) -> dict:
    return {"type": "set_aside", "cards": []}


def _load(view, names, match) -> dict:
    cards = _hand_cards(view, match.group(1))
    count, declared = int(match.group(2)), _goods(match.group(3))
    if count != len(cards):
        raise FormError(
            _(
                "You load %(loaded)s cards but declare %(count)s: a declaration names exactly "
                "as many goods as the bag holds."
            )
            % {"loaded": len(cards), "count": count}
        )
    return {"type": "load_bag", "cards": cards, "declared": declared, "count": count}


def _no_offer(view, names, match) -> dict:
    return {"type": "say_no_offer"}


def _bag_of(view, names, match) -> int:
    return _seat_named(match.group(1), view, names)


def _pass(view, names, match) -> dict:
    return {"type": "pass_bag", "bag": _bag_of(view, names, match)}


def _inspect(view, names, match) -> dict:
    return {"type": "inspect_bag", "bag": _bag_of(view, names, match)}


def _acceptable(view: dict) -> list:
    """The offers the seat may accept now: {"offer", "revision"} each."""
    moves = view.get("my_moves", {}).get("moves", [])
    return [o for m in moves if m["type"] == "accept_offer" for o in m["offers"]]


def _accept(view, names, match) -> dict:
    """``accept 2`` for an offer never revised; ``accept 2.3`` names its revision,
    so that nobody accepts by reply terms changed since their email."""
    number, revision = int(match.group(1)), match.group(2)
    offer = next((o for o in _acceptable(view) if o["offer"] == number), None)
    if offer is None:
        raise FormError(
            _("There is no offer #%(number)s for you to accept now.") % {"number": number}
        )
    if int(revision or 1) != offer["revision"]:
        raise FormError(
            _(
                "Offer #%(number)s has changed since: read it on your table, then reply "
                "“%(command)s” to accept it as it is now."
            )
            % {"number": number, "command": accept_words(offer)}
        )
    return {"type": "accept_offer", "offer": number, "revision": offer["revision"]}


def accept_words(offer: dict) -> str:
    """What to reply to accept ``offer`` ({"offer", "revision"}) as it is now."""
    if offer["revision"] == 1:
        return _("accept %(number)s") % {"number": offer["offer"]}
    return _("accept %(number)s.%(revision)s") % {
        "number": offer["offer"],
        "revision": offer["revision"],
    }


def _offer(view, names, match) -> dict:
    """ "offer 4 gold": to the Sheriff, 4 gold for letting the writer's bag pass."""
    if view.get("deputies"):
        raise FormError(_("With Deputies, make offers on your table: say there to whom."))
    me = view["me"]["seat"]
    terms = {
        "gold": int(match.group(1)),
        "stand_goods": [],
        "bag_goods": {},
        "promise": "",
        "sheriff": [{"bag": me, "action": "pass"}],
    }
    return {"type": "make_offer", "to": view["sheriff"], "terms": terms}


# Each command's words (after ``plain``), tried in order.
COMMANDS = (
    (r"(?:set aside|put aside|aparto|aparta|apartar|descarto|descarta)" + NUMBERS, _set_aside),
    (
        r"(?:keep|keep all|keep everything|nothing|me quedo|me quedo todo|me quedo todas|nada)",
        _keep,
    ),
    (
        r"(?:load|carga|cargo|cargar)"
        + NUMBERS
        + r"\s+(?:declare|declaring|declaro|declara|declarar)\s+(\d{1,2})\s+(\w+)",
        _load,
    ),
    (r"(?:no offer|no offers|sin oferta|ninguna oferta|no ofrezco nada|no ofrezco)", _no_offer),
    (r"(?:let pass|pass|deja pasar|dejo pasar|pasa)\s+" + NAME, _pass),
    (r"(?:inspect|open|registra|registro|abre|abro)\s+" + NAME, _inspect),
    (
        r"(?:accept|acepto|acepta|aceptar)\s+(?:offer\s+|oferta\s+)?#?(\d{1,4})(?:\.(\d{1,3}))?",
        _accept,
    ),
    (r"(?:offer|ofrezco|oferta)\s+(\d{1,3})\s+" + GOLD_WORDS, _offer),
)
COMPILED = tuple((re.compile(rf"^{words}$"), read_it) for words, read_it in COMMANDS)


def read(text: str, view: dict, names: list) -> dict | None:
    """The engine command a reply's first line asks for, or None if it asks for
    none (it is talk). FormError when it reads as a command that cannot be."""
    line = plain(first_line(text))
    if line.startswith(("say:", "di:")):
        return None
    for pattern, read_it in COMPILED:
        match = pattern.match(line)
        if match:
            return read_it(view, names, match)
    return None


def numbered_hand(view: dict) -> str:
    """ "1 Apples · 2 Apples · 3 Mead": the hand as replies name its cards."""
    return " · ".join(
        f"{n} {goods_names.label(card['type'])}" for n, card in enumerate(view["me"]["hand"], 1)
    )


def listed(view: dict, names: list) -> list:
    """What a reply may say now, with the seat's own choices: one line each."""
    moves = {move["type"]: move for move in view.get("my_moves", {}).get("moves", [])}
    hand = len(view.get("me", {}).get("hand", []))
    example = " ".join(str(n) for n in range(1, min(hand, 2) + 1))
    lines = []
    if "set_aside" in moves:
        lines += [_("set aside %(cards)s") % {"cards": example or "1"}, _("keep")]
    if "load_bag" in moves:
        lines.append(
            _("load %(cards)s declare %(count)s apples")
            % {"cards": example or "1", "count": min(hand, 2) or 1}
        )
    if "say_no_offer" in moves:
        lines.append(_("no offer"))
    if "make_offer" in moves and not view.get("deputies") and view["me"]["seat"] != view["sheriff"]:
        lines.append(_("offer %(gold)s gold") % {"gold": 4})
    for kind, words in (("pass_bag", _("pass %(name)s")), ("inspect_bag", _("inspect %(name)s"))):
        for bag in moves.get(kind, {}).get("bags", []):
            lines.append(words % {"name": names[bag]})
    lines += [accept_words(offer) for offer in _acceptable(view)]
    return lines


HAND_MOVES = ("set_aside", "load_bag")


def for_email(view: dict, names: list) -> dict | None:
    """What an email that asks for a move says a reply may do: the commands, the
    hand numbered if they name cards, and whether a decision by reply is final.
    None when the seat has nothing to reply."""
    lines = listed(view, names)
    if not lines:
        return None
    kinds = {move["type"] for move in view["my_moves"]["moves"]}
    return {
        "lines": lines,
        "hand": numbered_hand(view) if kinds & set(HAND_MOVES) else "",
        "final": bool(kinds & {"pass_bag", "inspect_bag"}),
    }
