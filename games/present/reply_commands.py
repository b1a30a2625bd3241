"""Moves by reply: a reply's first line read into the engine command the seat
page's form would send, by the phrasings (English and Spanish) each entry of the
moves registry (games.present.moves) declares; and the commands an email that
asks for a move lists, with the seat's own choices spelled out ("pass Bob",
"load 2 4 declare 2 apples").

A reply's first line is its command, if it reads as one (``read``); anything else
is talk. The command is the one the page's form would send (the tests write each
as the form's fields and read it back with the move's own parser), and it goes
the page's way from there: the engine decides whether it is allowed now. A pass
or an inspection by reply is final: the words are the confirmation the page asks
for, and the email says so. The readers are games.present.reply_readers and, for
bargaining (offers, demands, their revisions), games.present.reply_offers; all
read words through games.present.reply_words.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.present import reply_offers
from games.present.move_fields import FormError
from games.present.moves import reply_phrasings
from games.present.reply_readers import accept_words, acceptable, my_moves
from games.present.reply_words import Said, plain
from games.words import goods_names, user_text

__all__ = ["accept_words", "discard_piles", "for_email", "listed", "numbered_hand", "read"]

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
    said = Said.of(text)
    if said.line.startswith(("say:", "di:")):
        return None
    for phrasing in reply_phrasings():
        command = phrasing.command(said, view, names)
        if command is not None:
            return command
    if MOVE_WORDS.match(said.line):
        raise FormError(
            _(
                "“%(said)s” starts like a move but is not one: reply with one of the lines "
                "your email lists. To talk to the table, start with “say:”."
            )
            % {"said": user_text.isolate(said.original.strip()[:60])}
        )
    return None


def numbered_hand(view: dict) -> str:
    """ "1 Apples · 2 Apples · 3 Mead": the hand as replies name its cards."""
    return " · ".join(
        f"{n} {goods_names.label(card['type'])}" for n, card in enumerate(view["me"]["hand"], 1)
    )


def listed(view: dict, names: list) -> list:
    """What a reply may say now, with the seat's own choices: one line each."""
    moves = my_moves(view)
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
    lines += [accept_words(offer) for offer in acceptable(view)]
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
