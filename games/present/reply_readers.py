"""The words of the moves by reply other than bargaining, in English or Spanish,
and their readers: each pattern with its reader is a phrasing of its move in the
moves registry (games.present.moves), which tries them in its order (bargaining,
by games.present.reply_offers, first). A reader turns the match into the command
the seat page's form would send; it raises FormError for words that cannot be the
move, and returns None when the words mean another move in this game ("set aside"
and "keep" are the 1st edition's market turn too). Patterns match the line made
plain (reply_words.plain) in full.

Cards are named by their number in the seat's hand as its email lists it (1 is
the first card), since a mail app has no tiles to tick.
"""

import re

from django.utils.translation import gettext as _

from games.present.move_fields import FormError
from games.present.reply_words import (
    declared_goods,
    goods_kind,
    hand_cards,
    pile_index,
    seat_named,
)

NUMBERS = r"((?:\s+\d{1,3})+)"
NAME = r"(?:a\s+)?(.+?)"  # "deja pasar a Bob": Spanish puts "a" before a person
PILE = r"(?:\s+(?:to|onto|on|a la|en la)\s+(?:pile|pila)\s+(\d))?"  # 1st edition: which pile
# 1st edition: "take 2 from pile 1", once or for each pile, after the cards set aside.
TAKE = (
    r"\s+(?:take|draw|tomo|toma|robo|roba)\s+(\d)\s+"
    r"(?:from|de)\s+(?:the\s+|la\s+)?(?:pile|pila)\s+(\d)"
)
TAKEN = re.compile(TAKE)


def _words(pattern: str) -> re.Pattern:
    return re.compile(rf"^{pattern}$")


SET_ASIDE = _words(
    r"(?:set aside|put aside|aparto|aparta|apartar|descarto|descarta)"
    + NUMBERS
    + PILE
    + rf"((?:{TAKE})*)"
)
KEEP = _words(
    r"(?:keep|keep all|keep everything|nothing|me quedo|me quedo todo|me quedo todas|nada)"
)
LOAD = _words(
    r"(?:load|carga|cargo|cargar)"
    + NUMBERS
    + r"\s+(?:declare|declaring|declaro|declara|declarar)\s+(\d{1,2})\s+(.+)"
)
NO_OFFER = _words(r"(?:no offer|no offers|sin oferta|ninguna oferta|no ofrezco nada|no ofrezco)")
PASS = _words(r"(?:let pass|pass|deja pasar|dejo pasar|dejar pasar|pasa)\s+" + NAME)
INSPECT = _words(
    r"(?:inspect|open|registra|registro|registrar|abre|abro|abrir|inspecciona|inspecciono"
    r"|inspeccionar)\s+" + NAME + PILE
)
ACCEPT = _words(
    r"(?:accept|acepto|acepta|aceptar)\s+(?:offer\s+|oferta\s+)?#?(\d{1,4})(?:\.(\d{1,3}))?"
)
ALWAYS_CLAIM = _words(r"(?:always claim|claim always|reclamo siempre|reclamar siempre)")
ASK_EACH_ROUND = _words(r"(?:ask me each round|ask me every round|preguntame cada ronda)")
# "claim always" and "reclamo siempre" are the standing answer (ALWAYS_CLAIM), not a
# claim of goods called "always": left out here, so no line is both.
CLAIM = _words(
    r"(?:claim(?!\s+always$)|reclamo(?!\s+siempre$)|reclama|tomo|compro)"
    r"\s+(?:from\s+|de\s+)?(\w+)"
)
NO_CLAIM = _words(r"(?:no claim|no claims|sin reclamar|no reclamo|no reclamo nada)")


def my_moves(view: dict) -> dict:
    """The seat's moves now, by type."""
    return {move["type"]: move for move in view.get("my_moves", {}).get("moves", [])}


def _has_market_turn(view: dict) -> bool:
    return "market_turn" in my_moves(view)


# --- the market: "set aside" and "keep" are the 2nd edition's set_aside, the 1st's turn ----


def set_aside(view, names, match) -> dict | None:
    """2nd edition: the cards set aside, and nothing else to say."""
    if _has_market_turn(view):
        return None
    cards = hand_cards(view, match.group(1))
    if match.group(2) or match.group(3):
        raise FormError(_("This game has one discard pile: say only the cards you set aside."))
    return {"type": "set_aside", "cards": cards}


def market_turn(view, names, match) -> dict | None:
    """1st edition: the seat's turn, with the pile that takes the cards (the last one
    named ends on top) and the cards taken from the piles."""
    if not _has_market_turn(view):
        return None
    cards = hand_cards(view, match.group(1))
    if match.group(2) is None:
        raise FormError(
            _("Say which discard pile takes them: “set aside %(cards)s to pile 1”.")
            % {"cards": match.group(1).strip()}
        )
    draws = []
    for taken in TAKEN.finditer(match.group(3) or ""):
        draws += [f"discard:{pile_index(view, taken.group(2))}"] * int(taken.group(1))
    if len(draws) > len(cards):
        raise FormError(
            _("You set aside %(count)s cards, so you can take at most that many from the piles.")
            % {"count": len(cards)}
        )
    return {
        "type": "market_turn",
        "cards": cards,
        "order": cards,
        "pile": pile_index(view, match.group(2)),
        "draws": draws + ["deck"] * (len(cards) - len(draws)),
    }


def keep_hand(view, names, match) -> dict | None:
    return None if _has_market_turn(view) else {"type": "set_aside", "cards": []}


def keep_turn(view, names, match) -> dict | None:
    return {"type": "market_turn", "cards": [], "draws": []} if _has_market_turn(view) else None


# --- loading, inspection ----------------------------------------------------------------


def load(view, names, match) -> dict:
    cards = hand_cards(view, match.group(1))
    count, declared = int(match.group(2)), declared_goods(match.group(3))
    if count != len(cards):
        raise FormError(
            _(
                "You load %(loaded)s cards but declare %(count)s: a declaration names exactly "
                "as many goods as the bag holds."
            )
            % {"loaded": len(cards), "count": count}
        )
    return {"type": "load_bag", "cards": cards, "declared": declared, "count": count}


def no_offer(view, names, match) -> dict:
    return {"type": "say_no_offer"}


def pass_bag(view, names, match) -> dict:
    return {"type": "pass_bag", "bag": seat_named(match.group(1), names)}


def inspect_bag(view, names, match) -> dict:
    """1st edition: "inspect Cid to pile 2" says where confiscated goods go."""
    command = {"type": "inspect_bag", "bag": seat_named(match.group(1), names)}
    if match.group(2):
        command["pile"] = pile_index(view, match.group(2))
    return command


def acceptable(view: dict) -> list:
    """The offers the seat may accept now: {"offer", "revision"} each."""
    moves = view.get("my_moves", {}).get("moves", [])
    return [o for m in moves if m["type"] == "accept_offer" for o in m["offers"]]


def accept(view, names, match) -> dict:
    """``accept 2`` for an offer never revised; ``accept 2.3`` names its revision,
    so that nobody accepts by reply terms changed since their email."""
    number, revision = int(match.group(1)), match.group(2)
    offer = next((o for o in acceptable(view) if o["offer"] == number), None)
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


# --- the Black Market ---------------------------------------------------------------------


def claim(view, names, match) -> dict:
    kind = goods_kind(match.group(1))
    if kind not in ("pepper", "mead", "silk"):
        raise FormError(_("Choose the Black Market pile you claim from: Pepper, Mead or Silk."))
    return {"type": "claim_black_market", "kind": kind}


def no_claim(view, names, match) -> dict:
    return {"type": "decline_black_market"}


def _standing(view: dict, on: bool) -> dict:
    if not view.get("config", {}).get("black_market"):
        raise FormError(_("This game is played without the Black Market."))
    return {"type": "set_black_market_standing", "standing": on}


def always_claim(view, names, match) -> dict:
    return _standing(view, True)


def ask_each_round(view, names, match) -> dict:
    return _standing(view, False)
