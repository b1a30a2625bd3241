"""Offers by reply: what a reply's first line may say to bargain, in English or
Spanish, read into the engine command the page's offer forms send.

    offer 4 gold                                   (to the Sheriff, for my bag)
    offer 3 gold and 2 apples from my bag for pass me and inspect Cid
    offer 5 gold to Dee                            (six players: one Deputy, or
                                                    "to the deputies")
    demand 4 gold from Ben                         (the Sheriff, for Ben's bag)
    revise 2 to 5 gold      withdraw 2      refuse 2
    ... promise: I will owe you one                (the rest of the line, as written)

Terms are joined by "and", "y", "+" or commas: gold ("4 gold", "4"), goods from
a bag ("2 apples from my bag", "1 cheese from your bag") or from a stand ("1 mead
from my stand"). Without "for ...", a merchant's offer lets their own bag pass
and a demand the payer's. The engine judges the rest, as for the page.

Each pattern here, with its reader, is a phrasing of its move in the moves
registry (games.present.moves): matched against the line made plain without its
promise, which the reader gets too.
"""

import re

from django.utils.translation import gettext as _

from games.present.move_fields import FormError
from games.present.reply_words import (
    DEPUTIES_WORDS,
    goods_kind,
    pile_index,
    plain,
    seat_if_named,
    seat_named,
)
from games.words import goods_names, user_text

DEPUTIES = "deputies"  # the engine's name for both Deputies as one recipient

OFFER_WORDS = r"(?:i offer|offer|te ofrezco|ofrezco|oferta|ofrecer|ofrece)"
DEMAND_WORDS = r"(?:i demand|demand|exijo|te pido|pido)"
REVISE = re.compile(
    r"^(?:revise|change|cambio|cambia|modifico|modifica)\s+(?:offer\s+|oferta\s+)?#?(\d{1,4})"
    r"(?:\s+(?:to|a|por)|\s*:)?\s+(.+)$"
)
WITHDRAW = re.compile(r"^(?:withdraw|retiro|retira)\s+(?:offer\s+|oferta\s+)?#?(\d{1,4})$")
REFUSE = re.compile(r"^(?:refuse|reject|rechazo|rechaza)\s+(?:offer\s+|oferta\s+)?#?(\d{1,4})$")
OFFER = re.compile(rf"^{OFFER_WORDS}\s+(.+)$")
DEMAND = re.compile(rf"^{DEMAND_WORDS}\s+(.+)$")

# What joins terms, or actions: "and", "y", "+", "plus", "mas", a comma.
JOINED = re.compile(r"\s*(?:,|\+|\band\b|\by\b|\bplus\b|\bmas\b)\s*")
# Where the actions begin: "for", "if you", "por", "si".
ACTIONS_START = re.compile(r"\s+(?:for|if you|por|si)\s+")
GOLD = re.compile(r"^(\d{1,3})(?:\s+(?:gold|coins?|de oro|oro|monedas?(?: de oro)?))?$")
GOODS = re.compile(
    r"^(\d{1,2})\s+(.+?)\s+(?:from|of|out of|de|del)\s+"
    r"(my|your|the|his|her|their|mi|tu|la|su)\s+(bag|bolsa|stand|puesto)$"
)
PASS = re.compile(
    r"^(?:me\s+)?(?:let pass|pass|deja pasar|dejar pasar|dejas pasar|dejes pasar|pasar|pasa"
    r"|dejarme pasar|dejame pasar)"
    r"(?:\s+(.+))?$"
)
INSPECT = re.compile(
    r"^(?:inspect|open|registra|registrar|registras|abre|abrir|abres|inspeccionar|inspecciona)"
    r"(?:\s+(.+?))?"
    r"(?:\s+(?:to|onto|on|a la|en la)\s+(?:pile|pila)\s+(\d))?$"
)
MYSELF = ("me", "my bag", "mine", "myself", "mi bolsa", "yo", "mi", "a mi")


def _numbered(view: dict, kind: str, number: str) -> int:
    offers = next((m["offers"] for m in _moves(view) if m["type"] == kind), [])
    if int(number) not in offers:
        raise FormError(
            _("There is no offer #%(number)s you can do that to now.") % {"number": number}
        )
    return int(number)


def withdraw(view, names, match, promise) -> dict:
    return {"type": "withdraw_offer", "offer": _numbered(view, "withdraw_offer", match.group(1))}


def refuse(view, names, match, promise) -> dict:
    return {"type": "refuse_offer", "offer": _numbered(view, "refuse_offer", match.group(1))}


def revise(view, names, match, promise) -> dict:
    """New terms for an offer; its actions stay as they were unless named again."""
    number = _numbered(view, "revise_offer", match.group(1))
    was = next(o for o in view.get("offers", []) if o["id"] == number)
    terms_said, actions_said = _split_actions(match.group(2))
    me = view["me"]["seat"]
    terms = _terms(view, names, terms_said, payer=was["payer"], promise=promise)
    terms["sheriff"] = (
        _actions(view, names, actions_said, me)
        if actions_said
        else [dict(entry) for entry in was["terms"]["sheriff"]]
    )
    return {"type": "revise_offer", "offer": number, "terms": terms}


def offer(view, names, match, promise) -> dict:
    """A merchant's offer: to the Sheriff (or, with six players, a Deputy or both)."""
    me = view["me"]["seat"]
    said, actions_said = _split_actions(match.group(1))
    said, to_said = _split_name(said, (" to ", " a "), names, deputies=bool(view.get("deputies")))
    to = view["sheriff"] if to_said is None else to_said
    if view.get("deputies"):
        to = DEPUTIES if to_said is None else to_said
    elif to != view["sheriff"]:
        raise FormError(_("Offers go to the Sheriff, %(name)s.") % {"name": names[view["sheriff"]]})
    terms = _terms(view, names, said, payer=me, promise=promise)
    terms["sheriff"] = (
        _actions(view, names, actions_said, me) if actions_said else [{"bag": me, "action": "pass"}]
    )
    return {"type": "make_offer", "to": to, "terms": terms}


def demand(view, names, match, promise) -> dict:
    """The Sheriff's (a Deputy's) demand: the named merchant pays, for their bag."""
    said, actions_said = _split_actions(match.group(1))
    said, payer = _split_name(said, (" from ", " a ", " de "), names, deputies=False)
    if payer is None:
        raise FormError(_("Say from whom: “demand 4 gold from Ben”, with the merchant's name."))
    terms = _terms(view, names, said, payer=payer, promise=promise)
    terms["sheriff"] = (
        _actions(view, names, actions_said, payer)
        if actions_said
        else [{"bag": payer, "action": "pass"}]
    )
    return {"type": "make_offer", "to": payer, "terms": terms}


def _split_actions(said: str) -> tuple[str, str]:
    found = ACTIONS_START.search(said)
    if not found:
        return said, ""
    return said[: found.start()], said[found.end() :]


def _split_name(said: str, joiners: tuple, names: list, deputies: bool) -> tuple:
    """``said`` without its last "<joiner> <player>", and that player (or
    DEPUTIES): "4 gold to dee" -> ("4 gold", 3). No player named: (said, None)."""
    for joiner in joiners:
        at = said.rfind(joiner)
        while at > 0:
            who = said[at + len(joiner) :]
            if deputies and who in DEPUTIES_WORDS:
                return said[:at], DEPUTIES
            seat = seat_if_named(who, names)
            if seat is not None:
                return said[:at], seat
            at = said.rfind(joiner, 0, at)
    return said, None


def _terms(view: dict, names: list, said: str, payer: int, promise: str) -> dict:
    terms = {"gold": 0, "stand_goods": [], "bag_goods": {}, "promise": promise, "sheriff": []}
    for part in JOINED.split(said):
        if not part:
            continue
        gold = GOLD.match(part)
        goods = GOODS.match(part)
        if gold:
            terms["gold"] += int(gold.group(1))
        elif goods:
            count, kind, where = int(goods.group(1)), goods_kind(goods.group(2)), goods.group(4)
            if kind is None:
                raise FormError(
                    _("“%(said)s” is not the name of any goods.")
                    % {"said": user_text.isolate(goods.group(2)[:30])}
                )
            if where in ("bag", "bolsa"):
                terms["bag_goods"][kind] = terms["bag_goods"].get(kind, 0) + count
            else:
                terms["stand_goods"] += _from_stand(view, payer, kind, count, terms)
        else:
            raise FormError(
                _(
                    "“%(said)s” is not something to offer: say gold (“4 gold”) or goods "
                    "from a bag or a stand (“2 apples from my bag”)."
                )
                % {"said": user_text.isolate(part[:40])}
            )
    return terms


def _from_stand(view: dict, payer: int, kind: str, count: int, terms: dict) -> list:
    """``count`` of the payer's stand cards of ``kind``, not already in the terms."""
    player = view["players"][payer]
    stand = player["stand"] + player.get("contraband", [])
    free = [c["id"] for c in stand if c["type"] == kind and c["id"] not in terms["stand_goods"]]
    if len(free) < count:
        raise FormError(
            _("That stand does not hold %(goods)s to give.")
            % {"goods": goods_names.counted(count, kind)}
        )
    return free[:count]


def _actions(view: dict, names: list, said: str, own: int) -> list:
    """What the Sheriff does in the deal: "pass me and inspect cid to pile 2"."""
    actions = []
    for part in JOINED.split(said):
        if not part:
            continue
        passing, inspecting = PASS.match(part), INSPECT.match(part)
        match = passing or inspecting
        if match is None:
            raise FormError(
                _("“%(said)s” is not a Sheriff's decision: say “pass Ben” or “inspect Cid”.")
                % {"said": user_text.isolate(part[:40])}
            )
        target = (match.group(1) or "").removesuffix("'s bag").removeprefix("la bolsa de ")
        myself = part.startswith(("me ", "dejarme", "dejame"))
        bag = own if not target or target in MYSELF or myself else None
        bag = seat_named(target, names) if bag is None else bag
        entry = {"bag": bag, "action": "pass" if passing else "inspect"}
        if inspecting and match.group(2):
            entry["pile"] = pile_index(view, match.group(2))
        actions.append(entry)
    return actions


def _moves(view: dict) -> list:
    return view.get("my_moves", {}).get("moves", [])


def listed(view: dict, names: list) -> list:
    """The bargaining lines an email lists, with the seat's own choices."""
    moves = {move["type"]: move for move in _moves(view)}
    me, lines = view["me"]["seat"], []
    if "make_offer" in moves:
        recipients = moves["make_offer"]["to"]
        if view.get("deputies") and me not in view["deputies"]:
            lines.append(_("offer %(gold)s gold to the deputies") % {"gold": 4})
            lines += [
                _("offer %(gold)s gold to %(name)s") % {"gold": 4, "name": names[seat]}
                for seat in recipients
                if seat != DEPUTIES
            ]
        elif me == view["sheriff"] or me in view.get("deputies", []):
            lines += [
                _("demand %(gold)s gold from %(name)s") % {"gold": 2, "name": names[seat]}
                for seat in recipients[:1]
                if seat != DEPUTIES
            ]
        else:
            lines.append(_("offer %(gold)s gold") % {"gold": 4})
            bag = view["me"].get("bag") or []
            if bag:  # "and 1 apple from my bag", in the reader's words
                goods = plain(goods_names.counted(1, bag[0]["type"]))
                lines.append(
                    _("offer %(gold)s gold and %(goods)s from my bag") % {"gold": 2, "goods": goods}
                )
    for kind, words in (
        ("withdraw_offer", _("withdraw %(number)s")),
        ("refuse_offer", _("refuse %(number)s")),
    ):
        lines += [words % {"number": number} for number in moves.get(kind, {}).get("offers", [])]
    return lines
