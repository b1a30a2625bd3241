"""Moves by reply: the words a reply to a game's email may use for a move, in
English or Spanish, read into the engine command the seat page's form would
send; and the commands an email that asks for a move lists, with the seat's own
choices spelled out ("pass Bob", "load 2 4 declare 2 apples").

A reply's first line is its command, if it reads as one (``read``); anything else
is talk. The command is the one the page's form would send (the tests write each
as the form's fields and read it back with the move's own parser), and it goes
the page's way from there: the engine decides whether it is allowed now. A pass
or an inspection by reply is final: the words are the confirmation the page asks
for, and the email says so. Bargaining (offers, demands, their revisions) is read
by games.present.reply_offers; both read words through games.present.reply_words.

Cards are named by their number in the seat's hand as its email lists it (1 is
the first card), since a mail app has no tiles to tick.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.present import reply_offers
from games.present.move_fields import FormError
from games.present.reply_words import (
    declared_goods,
    first_line,
    goods_kind,
    hand_cards,
    pile_index,
    plain,
    seat_named,
)
from games.words import goods_names, user_text

NUMBERS = r"((?:\s+\d{1,3})+)"
NAME = r"(?:a\s+)?(.+?)"  # "deja pasar a Bob": Spanish puts "a" before a person
PILE = r"(?:\s+(?:to|onto|on|a la|en la)\s+(?:pile|pila)\s+(\d))?"  # 1st edition: which pile
# 1st edition: "take 2 from pile 1", once or for each pile, after the cards set aside.
TAKE = (
    r"\s+(?:take|draw|tomo|toma|robo|roba)\s+(\d)\s+"
    r"(?:from|de)\s+(?:the\s+|la\s+)?(?:pile|pila)\s+(\d)"
)
TAKEN = re.compile(TAKE)


def _moves(view: dict) -> dict:
    return {move["type"]: move for move in view.get("my_moves", {}).get("moves", [])}


def _set_aside(view, names, match) -> dict:
    """The market: in the 1st edition it is the seat's turn, with the pile that takes
    the cards (the last one named ends on top) and the cards taken from the piles."""
    cards = hand_cards(view, match.group(1))
    if "market_turn" not in _moves(view):
        if match.group(2) or match.group(3):
            raise FormError(_("This game has one discard pile: say only the cards you set aside."))
        return {"type": "set_aside", "cards": cards}
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


def _keep(view, names, match) -> dict:
    if "market_turn" in _moves(view):
        return {"type": "market_turn", "cards": [], "draws": []}
    return {"type": "set_aside", "cards": []}


def _load(view, names, match) -> dict:
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


def _no_offer(view, names, match) -> dict:
    return {"type": "say_no_offer"}


def _pass(view, names, match) -> dict:
    return {"type": "pass_bag", "bag": seat_named(match.group(1), names)}


def _inspect(view, names, match) -> dict:
    """1st edition: "inspect Cid to pile 2" says where confiscated goods go."""
    command = {"type": "inspect_bag", "bag": seat_named(match.group(1), names)}
    if match.group(2):
        command["pile"] = pile_index(view, match.group(2))
    return command


def _claim(view, names, match) -> dict:
    kind = goods_kind(match.group(1))
    if kind not in ("pepper", "mead", "silk"):
        raise FormError(_("Choose the Black Market pile you claim from: Pepper, Mead or Silk."))
    return {"type": "claim_black_market", "kind": kind}


def _no_claim(view, names, match) -> dict:
    return {"type": "decline_black_market"}


def _standing(on: bool):
    def standing(view, names, match) -> dict:
        if not view.get("config", {}).get("black_market"):
            raise FormError(_("This game is played without the Black Market."))
        return {"type": "set_black_market_standing", "standing": on}

    return standing


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


# Each command's words (after ``plain``), tried in order.
COMMANDS = (
    (
        r"(?:set aside|put aside|aparto|aparta|apartar|descarto|descarta)"
        + NUMBERS
        + PILE
        + rf"((?:{TAKE})*)",
        _set_aside,
    ),
    (
        r"(?:keep|keep all|keep everything|nothing|me quedo|me quedo todo|me quedo todas|nada)",
        _keep,
    ),
    (
        r"(?:load|carga|cargo|cargar)"
        + NUMBERS
        + r"\s+(?:declare|declaring|declaro|declara|declarar)\s+(\d{1,2})\s+(.+)",
        _load,
    ),
    (r"(?:no offer|no offers|sin oferta|ninguna oferta|no ofrezco nada|no ofrezco)", _no_offer),
    (r"(?:let pass|pass|deja pasar|dejo pasar|dejar pasar|pasa)\s+" + NAME, _pass),
    (
        r"(?:inspect|open|registra|registro|registrar|abre|abro|abrir|inspecciona|inspecciono"
        r"|inspeccionar)\s+" + NAME + PILE,
        _inspect,
    ),
    (
        r"(?:accept|acepto|acepta|aceptar)\s+(?:offer\s+|oferta\s+)?#?(\d{1,4})(?:\.(\d{1,3}))?",
        _accept,
    ),
    (r"(?:always claim|claim always|reclamo siempre|reclamar siempre)", _standing(True)),
    (r"(?:ask me each round|ask me every round|preguntame cada ronda)", _standing(False)),
    (r"(?:claim|reclamo|reclama|tomo|compro)\s+(?:from\s+|de\s+)?(\w+)", _claim),
    (r"(?:no claim|no claims|sin reclamar|no reclamo|no reclamo nada)", _no_claim),
)
COMPILED = tuple((re.compile(rf"^{words}$"), read_it) for words, read_it in COMMANDS)
# A move that names numbers (cards, offers): a line that starts so but reads as no
# move is refused with why, never posted to the table as talk (a bag half described
# would tell its cards). "Accept my thanks" stays talk.
MOVE_WORDS = re.compile(
    r"^(?:set aside|put aside|apart[aor]r?|load|carg[aor]r?|accept|acept[aor]r?|withdraw|"
    r"retir[aor]r?|refuse|rechaz[aor]r?|revise|cambi[aor]r?|modific[aor]r?|demand|exij[oa]r?|"
    r"offer|ofrec[e]r?|ofrezco)\s+(?:offer\s+|oferta\s+)?#?\d"
)


def read(text: str, view: dict, names: list) -> dict | None:
    """The engine command a reply's first line asks for, or None if it asks for
    none (it is talk). FormError when it reads as a command that cannot be."""
    original = first_line(text)
    line = plain(original)
    if line.startswith(("say:", "di:")):
        return None
    bargaining = reply_offers.read(original, view, names)
    if bargaining is not None:
        return bargaining
    for pattern, read_it in COMPILED:
        match = pattern.match(line)
        if match:
            return read_it(view, names, match)
    if MOVE_WORDS.match(line):
        raise FormError(
            _(
                "“%(said)s” starts like a move but is not one: reply with one of the lines "
                "your email lists. To talk to the table, start with “say:”."
            )
            % {"said": user_text.isolate(original.strip()[:60])}
        )
    return None


def numbered_hand(view: dict) -> str:
    """ "1 Apples · 2 Apples · 3 Mead": the hand as replies name its cards."""
    return " · ".join(
        f"{n} {goods_names.label(card['type'])}" for n, card in enumerate(view["me"]["hand"], 1)
    )


def listed(view: dict, names: list) -> list:
    """What a reply may say now, with the seat's own choices: one line each."""
    moves = _moves(view)
    hand = len(view.get("me", {}).get("hand", []))
    example = " ".join(str(n) for n in range(1, min(hand, 2) + 1)) or "1"
    lines = []
    if "set_aside" in moves:
        lines += [_("set aside %(cards)s") % {"cards": example}, _("keep")]
    if "market_turn" in moves:
        lines += _market_turn_lines(moves["market_turn"], example)
    if "load_bag" in moves:
        lines.append(
            _("load %(cards)s declare %(count)s apples")
            % {"cards": example, "count": min(hand, 2) or 1}
        )
    if "say_no_offer" in moves:
        lines.append(_("no offer"))
    two_piles = len(view.get("discard_piles", [])) > 1
    for bag in moves.get("pass_bag", {}).get("bags", []):
        lines.append(_("pass %(name)s") % {"name": names[bag]})
    for bag in moves.get("inspect_bag", {}).get("bags", []):
        words = _("inspect %(name)s to pile %(pile)s") if two_piles else _("inspect %(name)s")
        lines.append(words % {"name": names[bag], "pile": 1})
    lines += [accept_words(offer) for offer in _acceptable(view)]
    lines += reply_offers.listed(view, names)
    lines += _black_market_lines(view, moves)
    return lines


def _market_turn_lines(move: dict, example: str) -> list:
    """1st edition: a pile for the cards set aside; a card taken from a pile if any."""
    lines = [_("set aside %(cards)s to pile %(pile)s") % {"cards": example, "pile": 1}]
    for pile, size in enumerate(move["discard_piles"].values(), 1):
        if size:
            lines.append(
                _("set aside %(cards)s to pile %(pile)s take 1 from pile %(from)s")
                % {"cards": example, "pile": 1, "from": pile}
            )
            break
    return [*lines, _("keep")]


def _black_market_lines(view: dict, moves: dict) -> list:
    lines = []
    for kind in moves.get("claim_black_market", {}).get("kinds", []):
        lines.append(_("claim %(goods)s") % {"goods": plain(goods_names.label(kind))})
    if "decline_black_market" in moves:
        lines.append(_("no claim"))
        standing = view["me"]["seat"] in view.get("black_market_standing", [])
        lines.append(_("ask me each round") if standing else _("always claim"))
    return lines


def for_email(view: dict, names: list) -> dict | None:
    """What an email that asks for a move says a reply may do: the commands, the
    hand numbered if they name cards, and whether a decision by reply is final.
    None when the seat has nothing to reply."""
    lines = listed(view, names)
    if not lines:
        return None
    moves = view["my_moves"]["moves"]
    kinds = {move["type"] for move in moves}
    takes_cards = any("max_cards" in move for move in moves)  # set aside, load: from the hand
    return {
        "lines": lines,
        "hand": numbered_hand(view) if takes_cards else "",
        "piles": discard_piles(view) if "market_turn" in kinds else [],
        "final": bool(kinds & {"pass_bag", "inspect_bag"}),
    }


def discard_piles(view: dict) -> list:
    """1st edition: each discard pile from its top, the end cards are taken from
    ("Discard pile 1, from the top: Mead, Apples"), for a market turn by reply."""
    lines = []
    for number, pile in enumerate(view["discard_piles"], 1):
        cards = ", ".join(str(goods_names.label(card["type"])) for card in reversed(pile))
        lines.append(
            _("Discard pile %(number)s, from the top: %(cards)s")
            % {"number": number, "cards": cards or pgettext("a pile", "empty")}
        )
    return lines
