"""The short phrases every line is built from: names listed, goods counted, gold,
cards, piles, bags, and what a deal's terms give and do. Pages and emails use
them too, so a phrase reads the same wherever it is shown."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.engine import CARD_TYPES
from games.words import goods_names
from games.words.user_text import isolate

BOOTY = "booty"  # six players: the Booty, a zone of cards and a purse
OUT = "out"  # what left the game: a Black Market claim's cards, the Booty's odd coin

# Why goods or gold changed hands, at the end of a sentence.
REASONS = {
    "bribe": gettext_lazy("as agreed in a deal"),
    "fine": gettext_lazy("for the fine"),
    "honest_penalty": gettext_lazy("for inspecting an honest bag"),
}


def listed(parts: list) -> str:
    """['Ann', 'Ben', 'you'] -> 'Ann, Ben and you' ('Ann, Ben y tú'): the one way
    names (and a deal's actions) are joined in a sentence, pages and emails alike."""
    if len(parts) < 2:
        return "".join(parts)
    return _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def goods(types: list) -> str:
    """['cheese', 'cheese', 'chicken'] -> '2 Cheese, 1 Chicken'."""
    counts: dict[str, int] = {}
    for name in types:
        counts[name] = counts.get(name, 0) + 1
    order = list(CARD_TYPES)
    return ", ".join(
        counted(n, name) for name, n in sorted(counts.items(), key=lambda kv: order.index(kv[0]))
    )


def counted(n: int, card_type: str) -> str:
    """2, 'chicken' -> '2 Chickens'; 1, 'chicken' -> '1 Chicken'."""
    return goods_names.counted(n, card_type)


def gold(n: int) -> str:
    """5 -> '5 gold' ('5 monedas de oro')."""
    return ngettext("%(count)d gold", "%(count)d gold", n) % {"count": n}


def gold_each(n: int) -> str:
    """5 -> '5 gold each'."""
    return ngettext("%(count)d gold each", "%(count)d gold each", n) % {"count": n}


def offer_numbers(ids: list) -> str:
    """[1, 2] -> '#1, #2'."""
    return ", ".join(pgettext("an offer's number", "#%(id)d") % {"id": i} for i in ids)


def nothing() -> str:
    """What a deal's terms give when they give no gold and no goods."""
    return pgettext("what a deal gives", "nothing")


def cards_each(n: int) -> str:
    """2 -> '2 cards each'."""
    return ngettext("%(count)d card each", "%(count)d cards each", n) % {"count": n}


def cards(n: int) -> str:
    """3 -> '3 cards', 1 -> '1 card'."""
    return ngettext("%(count)d card", "%(count)d cards", n) % {"count": n}


def idle_for(phases: int) -> str:
    """How long nobody has moved: 3 -> '3 phases in a row', 1 -> 'a whole phase'."""
    return ngettext("a whole phase", "%(count)d phases in a row", phases) % {"count": phases}


def pile_name(index: int, piles: int) -> str:
    """The 2nd edition has one discard pile, the 1st two: 'discard pile 2'."""
    if piles == 1:
        return _("the discard pile")
    return _("discard pile %(number)d") % {"number": index + 1}


def bag_of(seat: int, names: list, me: int | None) -> str:
    """'your bag', "Ann's bag": a bag inside a sentence."""
    return _("your bag") if seat == me else _("%(name)s's bag") % {"name": names[seat]}


def deal_parties(names: list, me: int | None, deputies=None) -> tuple:
    """(who carries out a deal's passes and inspections, who is paid): the Sheriff;
    with six players the one Deputy it binds, or both Deputies and the Booty. The
    first is a subject ("you will"), the second follows a preposition ("to you")."""
    if deputies is None:
        return _("the Sheriff"), _("the Sheriff")
    if len(deputies) == 1:
        if deputies[0] == me:
            return pgettext("subject", "you"), pgettext("after a preposition", "you")
        return names[deputies[0]], names[deputies[0]]
    return _("both Deputies"), _("the Booty")


def from_the_bag(bag_goods: dict) -> str:
    """{"cheese": 2} -> "2 Cheese from the bag": goods promised from a closed bag."""
    bag = goods([t for t, n in bag_goods.items() for _copy in range(n)])
    return _("%(goods)s from the bag") % {"goods": bag}


def terms_parts(terms: dict, names: list, me: int | None, *, deputies=None) -> dict:
    """What the payer gives and what the Sheriff does, as short phrases.

    ``deputies``: with six players, the Deputies the offer binds (``offer["deputies"]``);
    None (the default) for a game with a Sheriff. Besides ``gives`` (noun phrases:
    "5 gold", "1 Cheese from the stand"), ``does`` (verb phrases without a subject:
    "let Ben's bag pass") and ``promise``, it returns who does them and who is paid,
    each as a phrase to start or end a sentence with: ``who`` ("the Sheriff", "you",
    "Ann", "both Deputies") and ``paid_to`` ("the Sheriff", "you", "Ann", "the Booty")."""
    who, paid_to = deal_parties(names, me, deputies)
    gives = []
    if terms["gold"]:
        gives.append(gold(terms["gold"]))
    if terms["stand_goods"]:
        stand = goods([c["type"] for c in terms["stand_goods"]])
        gives.append(_("%(goods)s from the stand") % {"goods": stand})
    if terms["bag_goods"]:
        gives.append(from_the_bag(terms["bag_goods"]))
    does = []
    for action in terms["sheriff"]:
        values = {"bag": bag_of(action["bag"], names, me)}
        if action["action"] == "pass":
            does.append(_("let %(bag)s pass") % values)
        elif "pile" in action:
            text = _("inspect %(bag)s (confiscated goods to pile %(pile)d)")
            does.append(text % {**values, "pile": action["pile"] + 1})
        else:
            does.append(_("inspect %(bag)s") % values)
    return {
        "gives": gives,
        "does": does,
        "promise": isolate(terms["promise"]),
        "who": who,
        "paid_to": paid_to,
    }
