"""The game log's lines, in the reader's language, from events as one seat may know them.

Input is always a *projected* event (``engine.project_event``), so a line can
only ever say what that seat is allowed to know.

Each sentence is one translatable string with named placeholders. Where its
subject is a player, there is one string for the reader ("You paid…") and one
for another player ("%(who)s paid…"), and, where several players may be the
subject, one for several and one for several with the reader among them: other
languages conjugate each differently. Where two of these read alike in English,
a context (pgettext) tells them apart.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    ngettext,
    ngettext_lazy,
    npgettext_lazy,
    pgettext,
    pgettext_lazy,
)

from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_CLAIM
from games.engine.config import DEPUTIES_PLAYERS, DEPUTIES_ROUNDS
from games.words import goods_names, user_text
from games.words.user_text import isolate, one_line

BOOTY = "booty"  # six players: the Booty, a zone of cards and a purse
OUT = "out"  # what left the game: a Black Market claim's cards, the Booty's odd coin

# Why goods or gold changed hands, at the end of a sentence.
REASONS = {
    "bribe": gettext_lazy("as agreed in a deal"),
    "fine": gettext_lazy("for the fine"),
    "honest_penalty": gettext_lazy("for inspecting an honest bag"),
}

# What the missed-move defaults did (docs/engine.md section 10), by phase and by who
# missed them (Narrator.forms): the organizer's "advance now" says it, where a passed
# deadline just says "timed out". "deputies": the inspection of a six-player game.
DEFAULT_MOVES = {
    "market": {
        "you": gettext_lazy("you set nothing aside (the default move)"),
        "one": gettext_lazy("%(who)s set nothing aside (the default move)"),
        "several": pgettext_lazy("several players", "%(who)s set nothing aside (the default move)"),
        "several_with_you": pgettext_lazy(
            "several players, you among them", "%(who)s set nothing aside (the default move)"
        ),
    },
    "market_turn": {
        "you": gettext_lazy("you set nothing aside and drew nothing (the default move)"),
        "one": gettext_lazy("%(who)s set nothing aside and drew nothing (the default move)"),
        "several": pgettext_lazy(
            "several players", "%(who)s set nothing aside and drew nothing (the default move)"
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "%(who)s set nothing aside and drew nothing (the default move)",
        ),
    },
    "load": {  # "whose": "Ben's, Cid's and Dee's"; with the reader, the others' only
        "you": gettext_lazy("your bag was loaded with the default move"),
        "one": gettext_lazy("%(who)s's bag was loaded with the default move"),
        "several": gettext_lazy("%(whose)s bags were loaded with the default move"),
        "several_with_you": gettext_lazy(
            "%(whose)s and your bags were loaded with the default move"
        ),
    },
    "inspection": {
        "you": gettext_lazy("the bags you had not decided pass unopened (the default move)"),
        "one": gettext_lazy("the bags %(who)s had not decided pass unopened (the default move)"),
        "several": pgettext_lazy(
            "several players", "the bags %(who)s had not decided pass unopened (the default move)"
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "the bags %(who)s had not decided pass unopened (the default move)",
        ),
    },
    "deputies": {
        "you": gettext_lazy("the calls you had not made count as “let pass” (the default move)"),
        "one": gettext_lazy(
            "the calls %(who)s had not made count as “let pass” (the default move)"
        ),
        "several": pgettext_lazy(
            "several players",
            "the calls %(who)s had not made count as “let pass” (the default move)",
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "the calls %(who)s had not made count as “let pass” (the default move)",
        ),
    },
    "black_market": {
        "you": gettext_lazy("you made no Black Market claim (the default move)"),
        "one": gettext_lazy("%(who)s made no Black Market claim (the default move)"),
        "several": pgettext_lazy(
            "several players", "%(who)s made no Black Market claim (the default move)"
        ),
        "several_with_you": pgettext_lazy(
            "several players, you among them",
            "%(who)s made no Black Market claim (the default move)",
        ),
    },
}
# The same, when a deadline passed, for the phases the 3-5 player games never had
# (theirs keep the plain "the default move was made").
DEADLINE_MOVES = {
    "deputies": gettext_lazy("the calls not made count as “let pass”"),
    "black_market": gettext_lazy("no Black Market claim"),
}
# A market turn (1st edition), clause by clause, by who took it: what they set
# aside (naming them), took from the discard piles, drew, discarded.
MARKET_TURN = {
    "you": (
        ngettext_lazy("You set aside %(count)d card", "You set aside %(count)d cards", "count"),
        npgettext_lazy(
            "you",
            "took %(count)d from the discard piles",
            "took %(count)d from the discard piles",
            "count",
        ),
        npgettext_lazy(
            "you", "drew %(count)d from the deck", "drew %(count)d from the deck", "count"
        ),
        pgettext_lazy("you", "discarded onto %(pile)s"),
    ),
    "other": (
        ngettext_lazy(
            "%(who)s set aside %(count)d card", "%(who)s set aside %(count)d cards", "count"
        ),
        npgettext_lazy(
            "another player",
            "took %(count)d from the discard piles",
            "took %(count)d from the discard piles",
            "count",
        ),
        npgettext_lazy(
            "another player",
            "drew %(count)d from the deck",
            "drew %(count)d from the deck",
            "count",
        ),
        pgettext_lazy("another player", "discarded onto %(pile)s"),
    ),
}
# Gold paid, goods handed over, a deal's payment, by who gives and who takes
# (Narrator.parties): "who" gives, "to" whom, "reason" why (REASONS).
PAID = {  # (with a reason, without)
    ("you", "other"): (
        gettext_lazy("You paid %(to)s %(gold)s %(reason)s."),
        gettext_lazy("You paid %(to)s %(gold)s."),
    ),
    ("you", "booty"): (
        gettext_lazy("You paid the Booty %(gold)s %(reason)s."),
        gettext_lazy("You paid the Booty %(gold)s."),
    ),
    ("other", "you"): (
        gettext_lazy("%(who)s paid you %(gold)s %(reason)s."),
        gettext_lazy("%(who)s paid you %(gold)s."),
    ),
    ("other", "other"): (
        gettext_lazy("%(who)s paid %(to)s %(gold)s %(reason)s."),
        gettext_lazy("%(who)s paid %(to)s %(gold)s."),
    ),
    ("other", "booty"): (
        gettext_lazy("%(who)s paid the Booty %(gold)s %(reason)s."),
        gettext_lazy("%(who)s paid the Booty %(gold)s."),
    ),
}
HANDED = {
    ("you", "other"): gettext_lazy("You handed %(cards)s to %(to)s %(reason)s."),
    ("you", "booty"): gettext_lazy("You handed %(cards)s to the Booty %(reason)s."),
    ("other", "you"): gettext_lazy("%(who)s handed %(cards)s to you %(reason)s."),
    ("other", "other"): gettext_lazy("%(who)s handed %(cards)s to %(to)s %(reason)s."),
    ("other", "booty"): gettext_lazy("%(who)s handed %(cards)s to the Booty %(reason)s."),
}
DEAL_MADE = {
    ("you", "other"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: you pay %(to)s."
    ),
    ("you", "booty"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: you pay the Booty, "
        "binding both Deputies."
    ),
    ("other", "you"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: %(who)s pays you."
    ),
    ("other", "other"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: %(who)s pays %(to)s."
    ),
    ("other", "booty"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: %(who)s pays the Booty, "
        "binding both Deputies."
    ),
}
# The same, when the deal was a demand (the Sheriff's or a Deputy's terms).
DEMAND_DEAL_MADE = {
    ("you", "other"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: you pay %(to)s."
    ),
    ("you", "booty"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: you pay the Booty, "
        "binding both Deputies."
    ),
    ("other", "you"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: %(who)s pays you."
    ),
    ("other", "other"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: %(who)s pays %(to)s."
    ),
    ("other", "booty"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: %(who)s pays the "
        "Booty, binding both Deputies."
    ),
}
# Sentences with one player as the subject, each as (the reader, another player).
DEPUTY_DECIDED = {  # by whether a deal made the call
    True: (
        gettext_lazy("You call %(bag)s: %(decision)s (deal #%(deal)d)."),
        gettext_lazy("%(who)s calls %(bag)s: %(decision)s (deal #%(deal)d)."),
    ),
    False: (
        gettext_lazy("You call %(bag)s: %(decision)s."),
        gettext_lazy("%(who)s calls %(bag)s: %(decision)s."),
    ),
}
CALLS = {  # a Deputy's call on a bag, after "calls Ann's bag:"
    "inspect": pgettext_lazy("a Deputy's call on a bag", "inspect"),
    "let pass": pgettext_lazy("a Deputy's call on a bag", "let pass"),
}
BLACK_MARKET_CLAIMED = {  # by whether the game uses the provisional values
    False: (
        gettext_lazy("You trade %(goods)s for the Black Market's %(kind)s card worth %(value)d."),
        gettext_lazy(
            "%(who)s trades %(goods)s for the Black Market's %(kind)s card worth %(value)d."
        ),
    ),
    True: (
        gettext_lazy(
            "You trade %(goods)s for the Black Market's %(kind)s card worth %(value)d "
            "(a provisional value)."
        ),
        gettext_lazy(
            "%(who)s trades %(goods)s for the Black Market's %(kind)s card worth %(value)d "
            "(a provisional value)."
        ),
    ),
}
DEBT_SETTLED = {  # by (goods were given, some is forgiven)
    (True, False): (
        gettext_lazy("You owed %(owed)s: paid %(paid)s and goods worth %(worth)d."),
        gettext_lazy("%(who)s owed %(owed)s: paid %(paid)s and goods worth %(worth)d."),
    ),
    (False, True): (
        gettext_lazy("You owed %(owed)s: paid %(paid)s; the remaining %(forgiven)d is forgiven."),
        gettext_lazy(
            "%(who)s owed %(owed)s: paid %(paid)s; the remaining %(forgiven)d is forgiven."
        ),
    ),
    (True, True): (
        gettext_lazy(
            "You owed %(owed)s: paid %(paid)s and goods worth %(worth)d; the remaining "
            "%(forgiven)d is forgiven."
        ),
        gettext_lazy(
            "%(who)s owed %(owed)s: paid %(paid)s and goods worth %(worth)d; the remaining "
            "%(forgiven)d is forgiven."
        ),
    ),
}
# An offer or a demand, by its shape, who made it and whom it names besides
# (Narrator.parties): "who" made it, "to" whom, "terms" what it gives and asks.
OFFER_MADE = {
    # a game with a Sheriff: the terms say what the Sheriff will do
    ("demand", "you"): gettext_lazy("Demand #%(id)d: You demand — %(terms)s."),
    ("demand", "other"): gettext_lazy("Demand #%(id)d: %(who)s demands — %(terms)s."),
    ("offer", "you"): gettext_lazy("Offer #%(id)d: You offer — %(terms)s."),
    ("offer", "other"): gettext_lazy("Offer #%(id)d: %(who)s offers — %(terms)s."),
    # six players: a Deputy's demand from a merchant, a merchant's offer to one or both
    ("demand from", "you", "other"): gettext_lazy(
        "Demand #%(id)d: You demand from %(to)s %(terms)s."
    ),
    ("demand from", "other", "you"): gettext_lazy(
        "Demand #%(id)d: %(who)s demands from you %(terms)s."
    ),
    ("demand from", "other", "other"): gettext_lazy(
        "Demand #%(id)d: %(who)s demands from %(to)s %(terms)s."
    ),
    ("offer to", "you", "other"): gettext_lazy("Offer #%(id)d: You offer %(to)s %(terms)s."),
    ("offer to", "other", "you"): gettext_lazy("Offer #%(id)d: %(who)s offers you %(terms)s."),
    ("offer to", "other", "other"): gettext_lazy("Offer #%(id)d: %(who)s offers %(to)s %(terms)s."),
    ("offer to both", "you"): gettext_lazy("Offer #%(id)d: You offer %(terms)s."),
    ("offer to both", "other"): gettext_lazy("Offer #%(id)d: %(who)s offers %(terms)s."),
}
# The note a game writes when it pauses itself (services), stored in English.
PAUSED_ITSELF = "The game paused itself: nobody moved for "
# The note of the organizer's "Replace a player" (services), stored in English and
# read back in each reader's language (a name holds no line break: one match).
REPLACED = "{new} takes over seat {seat} from {old}."
REPLACED_NOTE = re.compile(r"(?P<new>.+) takes over seat (?P<seat>[0-9]+) from (?P<old>.+)\.")


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


def pause_note(text: str) -> str | None:
    """The note a game wrote when it paused itself, in the reader's language; None
    for any other note. The note is stored in English ("…nobody moved for 3 phases
    in a row."); how long is read back from it."""
    if not text.startswith(PAUSED_ITSELF) or not text.endswith("."):
        return None
    how_long = text[len(PAUSED_ITSELF) : -1]
    number, _space, rest = how_long.partition(" ")
    if how_long == "a whole phase":
        phases = 1
    elif number.isascii() and number.isdigit() and rest == "phases in a row":
        phases = int(number)
    else:
        return None
    return _("The game paused itself: nobody moved for %(idle)s.") % {"idle": idle_for(phases)}


# Honor among thieves: a bag shown as proof, told to its merchant (True) and to the
# rest of the table (False), who do not read its cards.
BAG_SHOWN_TO_THE_SHERIFF = {
    True: gettext_lazy(
        "You show the Sheriff the cards of your bag, proof that the goods you promised in "
        "deal %(deals)s are not there: %(cards)s."
    ),
    False: gettext_lazy(
        "%(who)s shows the Sheriff the cards of their bag, proof that the goods promised in "
        "deal %(deals)s are not there."
    ),
}
BAG_SHOWN_TO_DEPUTIES = {
    True: gettext_lazy(
        "You show %(whom)s the cards of your bag, proof that the goods you promised in "
        "deal %(deals)s are not there: %(cards)s."
    ),
    False: gettext_lazy(
        "%(who)s shows %(whom)s the cards of their bag, proof that the goods promised in "
        "deal %(deals)s are not there."
    ),
}


def replaced_note(text: str) -> str | None:
    """The note of a replaced player, in the reader's language; None for any other."""
    found = REPLACED_NOTE.fullmatch(text)
    if found is None:
        return None
    return _("%(new)s takes over seat %(seat)s from %(old)s.") % {
        "new": isolate(found["new"]),
        "seat": found["seat"],
        "old": isolate(found["old"]),
    }


class Narrator:
    """``provisional``: the game uses the provisional Black Market values
    (``state.config.black_market_provisional``), said wherever a value is shown."""

    def __init__(self, names: list, viewer: int | None, *, piles: int, provisional=False):
        self.names = user_text.names(names)  # callers may pass names as stored
        self.viewer = viewer
        self.piles = piles  # discard piles in this edition, for naming them
        self.provisional = provisional
        # Six players: two Deputies a round instead of a Sheriff, and the Booty.
        self.deputies = len(self.names) == DEPUTIES_PLAYERS

    @classmethod
    def of_game(cls, names: list, viewer: int | None, config) -> "Narrator":
        """A narrator for a game of this configuration (``GameConfig``)."""
        return cls(
            names,
            viewer,
            piles=config.discard_pile_count,
            provisional=config.black_market and config.black_market_provisional,
        )

    def pile(self, zone: str) -> str:
        """'discard:1' -> 'discard pile 2' (or 'the discard pile' when there is one)."""
        return pile_name(int(zone.partition(":")[2]), self.piles)

    def zone_owner(self, zone: str) -> int | None:
        """The seat a zone belongs to ('hand:2' -> 2); None for deck and discard piles."""
        kind, _colon, owner = zone.partition(":")
        return int(owner) if owner.isdigit() and kind != "discard" else None

    def party(self, zone: str):
        """Who holds a zone that pays or is paid: a seat, or the Booty; else None."""
        return BOOTY if zone == BOOTY else self.zone_owner(zone)

    def name(self, seat) -> str:
        """A player's name, or the Booty, to start a sentence with."""
        return _("The Booty") if seat == BOOTY else self.names[seat]

    def bag(self, seat: int) -> str:
        return bag_of(seat, self.names, self.viewer)

    def subjects(self, seats: list) -> str:
        """'Ann and you' (subjects, the reader last; 'Ann y tú')."""
        seats = sorted(seats, key=lambda s: s == self.viewer)
        return listed([self.subject(s) for s in seats])

    def subject(self, seat: int) -> str:
        return pgettext("subject", "you") if seat == self.viewer else self.names[seat]

    def by(self, seat, you, other, **values) -> str:
        """``you`` when the reader is ``seat``, else ``other`` naming it as ``who``."""
        if seat == self.viewer:
            return str(you) % values
        return str(other) % {"who": self.name(seat), **values}

    def forms(self, seats: list, forms: dict, **values) -> str:
        """The sentence whose subject is ``seats``, from ``forms``: "you" (the reader
        alone), "one" (another player), "several" and "several_with_you"; ``who``
        names them."""
        if len(seats) == 1:
            return self.by(seats[0], forms["you"], forms["one"], **values)
        form = "several_with_you" if self.viewer in seats else "several"
        return str(forms[form]) % {"who": self.subjects(seats), **values}

    def line(self, event: dict) -> str | None:
        handler = getattr(self, "_" + event["type"], None)
        return handler(event) if handler else None

    def lines(self, events: list) -> list:
        return [text for text in (self.line(e) for e in events) if text]

    # --- one method per event type ------------------------------------------------
    def _game_started(self, e):
        config = e["config"]
        edition = _("1st edition") if config["edition"] == 1 else _("2nd edition")
        n = config["players"]
        players = ngettext("%(count)d player", "%(count)d players", n) % {"count": n}
        if n == DEPUTIES_PLAYERS:
            players = _("%(players)s (two Deputies a round instead of a Sheriff)") % {
                "players": players
            }
        if config.get("black_market"):
            players = _("%(players)s, with the Black Market") % {"players": players}
        each = e["starting_gold"]
        text = _(
            "The game begins: %(edition)s, %(players)s, %(gold)s. The deck is shuffled from a "
            "secret seed whose fingerprint is published now and which is revealed at the end."
        )
        return text % {"edition": edition, "players": players, "gold": gold_each(each)}

    def _deputy_deck_shuffled(self, e):
        rounds = e["size"] // 2
        if e["number"] == 0:
            text = ngettext(
                "The Deputy deck is shuffled: two Deputies a round, %(count)d round until it "
                "runs out.",
                "The Deputy deck is shuffled: two Deputies a round, %(count)d rounds until it "
                "runs out.",
                rounds,
            )
        elif e["number"] + 1 == DEPUTIES_ROUNDS // rounds:
            text = ngettext(
                "The Deputy deck is shuffled again: %(count)d round until it runs out, and "
                "then the game ends.",
                "The Deputy deck is shuffled again: %(count)d rounds until it runs out, and "
                "then the game ends.",
                rounds,
            )
        else:
            text = ngettext(
                "The Deputy deck is shuffled again: %(count)d round until it runs out.",
                "The Deputy deck is shuffled again: %(count)d rounds until it runs out.",
                rounds,
            )
        return text % {"count": rounds}

    def _round_started(self, e):
        if e.get("deputies"):  # first drawn first
            values = {
                "round": e["round"],
                "deputies": listed([self.subject(d) for d in e["deputies"]]),
            }
            if self.viewer in e["deputies"]:
                return (
                    pgettext(
                        "you are one of them",
                        "Round %(round)d begins. The Deputies are %(deputies)s.",
                    )
                    % values
                )
            return _("Round %(round)d begins. The Deputies are %(deputies)s.") % values
        return _("Round %(round)d begins. %(sheriff)s is the Sheriff.") % {
            "round": e["round"],
            "sheriff": self.names[e["sheriff"]],
        }

    def _phase_started(self, e):
        if e["phase"] == "inspection":
            said = [
                f"{self.declarer(seat)}: {counted(d['count'], d['declared'])}"
                for seat, d in enumerate(e["declarations"])
                if d
            ]
            text = _("Bags are on the table. Declarations — %(declarations)s.")
            return text % {"declarations": "; ".join(said)}
        if e["phase"] == "market_turn":
            if e["seat"] == self.viewer:
                return _("Market: your turn.")
            return _("Market: %(name)s's turn.") % {"name": self.names[e["seat"]]}
        if e["phase"] == "black_market":
            return self.forms(
                e["seats"],
                {
                    # The reader knows whether they can: the step asks them either way.
                    "you": _("Black Market: the table waits for your answer, claim or not."),
                    "one": _("Black Market: %(who)s may still claim a card."),
                    "several": pgettext(
                        "several players", "Black Market: %(who)s may still claim a card."
                    ),
                    "several_with_you": pgettext(
                        "several players, you among them",
                        "Black Market: %(who)s may still claim a card.",
                    ),
                },
            )
        if e["phase"] == "market":
            return _("Market: merchants choose cards to set aside.")
        if e["phase"] == "load":
            return _("Merchants load their bags and declare.")
        return None

    def declarer(self, seat: int) -> str:
        """Who declared, before what: 'You', 'Ann'."""
        if seat == self.viewer:
            return pgettext("the reader, before what they declared", "You")
        return self.names[seat]

    def _set_aside_submitted(self, e):
        if e.get("cards") is not None:
            n = len(e["cards"])
            if not n:
                return _("You chose to keep your hand.")
            return ngettext(
                "You chose to set aside %(count)d card.",
                "You chose to set aside %(count)d cards.",
                n,
            ) % {"count": n}
        return _("%(name)s has made their market choice.") % {"name": self.names[e["seat"]]}

    def _market_turn_taken(self, e):
        set_aside, took, drew, discarded = MARKET_TURN[
            "you" if e["seat"] == self.viewer else "other"
        ]
        parts = [set_aside % {"count": e["set_aside"], "who": self.names[e["seat"]]}]
        if e["discard_draws"]:
            parts.append(took % {"count": len(e["discard_draws"])})
        if e["deck_draws"]:
            parts.append(drew % {"count": e["deck_draws"]})
        if e["pile"] is not None:
            parts.append(discarded % {"pile": pile_name(e["pile"], self.piles)})
        return ", ".join(parts) + "."

    def _bag_loaded(self, e):
        if "declared" in e:
            text = _("You closed your bag: %(declared)s declared.")
            return text % {"declared": counted(e["count"], e["declared"])}
        return _("%(name)s closed their bag.") % {"name": self.names[e["seat"]]}

    def _cards_moved(self, e):
        seen, hidden = [c["type"] for c in e["cards"]], e["hidden"]
        src = self.zone_owner(e["from"])
        dst = self.zone_owner(e["to"])
        what = self.what(seen, hidden)
        reason = e["reason"]
        if reason in ("market_draw", "refill") and dst is not None:
            return self.by(
                dst,
                _("You drew %(cards)s from the deck."),
                _("%(who)s drew %(cards)s from the deck."),
                cards=what,
            )
        if reason == "deal" and dst is not None:
            return self.by(
                dst, _("You were dealt %(cards)s."), _("%(who)s was dealt %(cards)s."), cards=what
            )
        if reason == "discard_draw":
            return self.by(
                dst,
                _("You took %(cards)s from %(pile)s."),
                _("%(who)s took %(cards)s from %(pile)s."),
                cards=what,
                pile=self.pile(e["from"]),
            )
        if reason == "set_aside" and seen:
            return self.by(
                src, _("You set aside %(cards)s."), _("%(who)s set aside %(cards)s."), cards=what
            )
        if reason == "discard":
            return _("Put on %(pile)s: %(cards)s.") % {"pile": self.pile(e["to"]), "cards": what}
        if reason == "passed":
            return self.passed(dst, seen, hidden)
        if reason == "inspected":
            return _("%(stand)s receives %(goods)s.") % {"stand": self.stand(dst), "goods": what}
        if reason == "confiscated":
            return _("Confiscated onto %(pile)s: %(cards)s.") % {
                "pile": self.pile(e["to"]),
                "cards": what,
            }
        if reason == "booty":  # six players: the Deputies' shares, an odd card discarded
            if dst is None:
                text = _("The Booty's odd card goes onto %(pile)s: %(cards)s.")
                return text % {"pile": self.pile(e["to"]), "cards": what}
            if dst == self.viewer:
                return _("Your share of the Booty: %(cards)s.") % {"cards": what}
            text = _("%(name)s's share of the Booty: %(cards)s.")
            return text % {"name": self.names[dst], "cards": what}
        if reason == "black_market" and src is not None:
            n = len(seen) + hidden
            if src == self.viewer:
                text = ngettext(
                    "Your %(cards)s leaves the game.", "Your %(cards)s leave the game.", n
                )
                return text % {"cards": what}
            text = ngettext(
                "%(name)s's %(cards)s leaves the game.", "%(name)s's %(cards)s leave the game.", n
            )
            return text % {"name": self.names[src], "cards": what}
        giver, taker = self.party(e["from"]), self.party(e["to"])
        if reason in REASONS and giver is not None and taker is not None:
            return self.handed(giver, taker, what, str(REASONS[reason]))
        if reason == "reshuffle":
            count = len(e["cards"]) + hidden
            return ngettext(
                "The deck ran out: %(count)d discarded card shuffled into a new deck.",
                "The deck ran out: %(count)d discarded cards shuffled into a new deck.",
                count,
            ) % {"count": count}
        if reason == "removed":
            count = hidden + len(seen)
            return ngettext(
                "%(count)d card removed from the game unseen.",
                "%(count)d cards removed from the game unseen.",
                count,
            ) % {"count": count}
        return None

    def what(self, seen: list, hidden: int) -> str:
        """The cards a move shows and how many more it hides: '1 Apple and 2 more cards'."""
        if not hidden:
            return goods(seen)
        if not seen:
            return cards(hidden)
        more = ngettext("%(count)d more card", "%(count)d more cards", hidden) % {"count": hidden}
        return listed([goods(seen), more])

    def stand(self, seat: int) -> str:
        """A stand, to start a sentence with: 'Your stand', "Ann's stand"."""
        if seat == self.viewer:
            return _("Your stand")
        return pgettext("at the start of a sentence", "%(name)s's stand") % {
            "name": self.names[seat]
        }

    def passed(self, seat: int, seen: list, hidden: int) -> str:
        """A bag let pass: its legal goods to the stand, its contraband face down."""
        if seat == self.viewer and not hidden:
            legal = goods(seen) or _("no legal goods")
            return _("Your goods go to your stand: %(goods)s.") % {"goods": legal}
        values = {
            "stand": self.stand(seat),
            "goods": goods(seen),
            "contraband": ngettext(
                "%(count)d contraband card", "%(count)d contraband cards", hidden
            )
            % {"count": hidden},
        }
        if seen and hidden:
            return _("%(stand)s receives %(goods)s and %(contraband)s face down.") % values
        if seen:
            return _("%(stand)s receives %(goods)s.") % values
        if hidden:
            return _("%(stand)s receives no legal goods and %(contraband)s face down.") % values
        return _("%(stand)s receives no legal goods.") % values

    def handed(self, giver, taker, what: str, reason: str) -> str:
        """Goods given by one player (or the Booty) to another, or to the Booty."""
        text = HANDED[self.parties(giver, taker)]
        return str(text) % {**self.party_names(giver, taker), "cards": what, "reason": reason}

    def _gold_transferred(self, e):
        amount = e["amount"]
        if e["to"] == OUT:  # six players: the Booty's odd coin
            if amount == 1:
                return _("The Booty's odd coin leaves the game.")
            text = ngettext(
                "%(count)d gold from the Booty leaves the game.",
                "%(count)d gold from the Booty leaves the game.",
                amount,
            )
            return text % {"count": amount}
        if e["from"] == BOOTY and e["reason"] == "booty":
            return self.by(
                e["to"],
                _("You received %(gold)s from the Booty."),
                _("%(who)s received %(gold)s from the Booty."),
                gold=gold(amount),
            )
        reason = REASONS.get(e["reason"])
        text = PAID[self.parties(e["from"], e["to"])][0 if reason else 1]
        values = self.party_names(e["from"], e["to"])
        return str(text) % {**values, "gold": gold(amount), "reason": reason}

    def parties(self, giver, taker) -> tuple:
        """Who gives and who takes, as a PAID, HANDED or DEAL_MADE key: ("you", "booty");
        also an offer's proposer and whom it names (OFFER_MADE)."""
        return (
            "you" if giver == self.viewer else "other",
            "you" if taker == self.viewer else "booty" if taker == BOOTY else "other",
        )

    def party_names(self, giver, taker) -> dict:
        """``who`` gives (a name, or the Booty) and ``to`` whom (a name; "" for the Booty
        or nobody)."""
        return {"who": self.name(giver), "to": "" if taker in (BOOTY, None) else self.names[taker]}

    # --- offers and deals ----------------------------------------------------------
    def _offer_text(self, terms: dict) -> str:
        """What an offer gives and asks: '5 gold if the Sheriff will let your bag pass'."""
        parts = terms_parts(terms, self.names, self.viewer)
        if self.deputies:  # who is bound is said in the offer, not in its terms
            return self._deal_terms(parts, both=False)
        gives = parts["gives"]
        if parts["promise"]:
            gives = [*gives, _("a promise: “%(promise)s”") % {"promise": parts["promise"]}]
        text = _("%(gives)s if the Sheriff will %(does)s")
        return text % {"gives": " + ".join(gives) or nothing(), "does": listed(parts["does"])}

    def _deal_terms(self, parts: dict, *, both: bool) -> str:
        """Six players: '5 gold[, paid to the Booty, for both Deputies] to let Ann's bag
        pass[, with a promise: “…”]'; ``both``: the offer binds both Deputies."""
        values = {"gives": " + ".join(parts["gives"]), "does": listed(parts["does"])}
        if not both:
            values["gives"] = values["gives"] or nothing()
            text = _("%(gives)s to %(does)s") % values
        elif parts["gives"]:
            text = _("%(gives)s, paid to the Booty, for both Deputies to %(does)s") % values
        else:
            text = _("nothing for both Deputies to %(does)s") % values
        if not parts["promise"]:
            return text
        return _("%(terms)s, with a promise: “%(promise)s”") % {
            "terms": text,
            "promise": parts["promise"],
        }

    def _offer_made(self, e):
        o = e["offer"]
        demand = o["proposer"] != o["payer"]
        other = None  # whom the sentence names besides the proposer
        if "deputies" not in o:
            shape, terms = ("demand" if demand else "offer"), self._offer_text(o["terms"])
        else:
            parts = terms_parts(o["terms"], self.names, self.viewer, deputies=o["deputies"])
            terms = self._deal_terms(parts, both=len(o["deputies"]) > 1)
            if demand:  # a Deputy's demand
                shape, other = "demand from", o["payer"]
            elif len(o["deputies"]) == 1:  # a merchant's offer to one Deputy
                shape, other = "offer to", o["deputies"][0]
            else:
                shape = "offer to both"
        who, whom = self.parties(o["proposer"], other)
        text = OFFER_MADE[(shape, who) if other is None else (shape, who, whom)]
        return str(text) % {"id": o["id"], "terms": terms, **self.party_names(o["proposer"], other)}

    def _offer_agreed(self, e):
        return self.by(
            e["seat"],
            _(
                "You agree to offer #%(offer)d (revision %(revision)d): one more acceptance "
                "makes it a deal."
            ),
            _(
                "%(who)s agrees to offer #%(offer)d (revision %(revision)d): one more acceptance "
                "makes it a deal."
            ),
            offer=e["offer"],
            revision=e["revision"],
        )

    def _offer_revised(self, e):
        if e.get("demand"):
            text = _("Demand #%(offer)d revised (revision %(revision)d): %(terms)s.")
        else:
            text = _("Offer #%(offer)d revised (revision %(revision)d): %(terms)s.")
        return text % {
            "offer": e["offer"],
            "revision": e["revision"],
            "terms": self._offer_text(e["terms"]),
        }

    def _offer_withdrawn(self, e):
        n = len(e["offers"])
        if e.get("demand"):
            text = ngettext("Demand %(offers)s withdrawn.", "Demands %(offers)s withdrawn.", n)
        else:
            text = ngettext("Offer %(offers)s withdrawn.", "Offer %(offers)s withdrawn.", n)
        return text % {"offers": offer_numbers(e["offers"])}

    def _offer_refused(self, e):
        [number] = e["offers"]
        if e.get("demand"):
            forms = (_("You refuse demand #%(offer)d."), _("%(who)s refuses demand #%(offer)d."))
        else:
            forms = (_("You refuse offer #%(offer)d."), _("%(who)s refuses offer #%(offer)d."))
        return self.by(e["seat"], *forms, offer=number)

    def _offers_lapsed(self, e):
        demands = e.get("demands", [])
        offers = [o for o in e["offers"] if o not in demands]
        told = []
        if offers:
            n = len(offers)
            text = ngettext("Offer %(offers)s lapsed.", "Offer %(offers)s lapsed.", n)
            told.append(text % {"offers": offer_numbers(offers)})
        if demands:
            n = len(demands)
            text = ngettext("Demand %(offers)s lapsed.", "Demands %(offers)s lapsed.", n)
            told.append(text % {"offers": offer_numbers(demands)})
        return " ".join(told)

    def _no_offer_said(self, e):
        return self.by(
            e["seat"], _("You have no offer to make."), _("%(who)s has no offer to make.")
        )

    def _bargaining_ended(self, e):
        if self.deputies:
            return _("Bargaining time is over: the Deputies may now call every bag.")
        return _("Bargaining time is over: the Sheriff may now decide every bag.")

    def _deal_made(self, e):
        values = {"offer": e["offer"], "revision": e["revision"]}
        if "payee" not in e and e.get("demand"):
            return _("Deal! Demand #%(offer)d (revision %(revision)d) was accepted.") % values
        if "payee" not in e:
            return _("Deal! Offer #%(offer)d (revision %(revision)d) was accepted.") % values
        lines = DEMAND_DEAL_MADE if e.get("demand") else DEAL_MADE
        text = lines[self.parties(e["payer"], e["payee"])]
        return str(text) % {**values, **self.party_names(e["payer"], e["payee"])}

    # --- the inspection ----------------------------------------------------------------
    def _deputy_decided(self, e):
        call = "inspect" if e["decision"] == "inspect" else "let pass"
        return self.by(
            e["deputy"],
            *DEPUTY_DECIDED[bool(e["deal"])],
            bag=self.bag(e["bag"]),
            decision=str(CALLS[call]),
            deal=e["deal"],
        )

    def _bag_passed(self, e):
        values = {"bag": self.bag(e["seat"]), "deal": e["deal"]}
        if self.deputies:
            if e["deal"]:
                return _("The Deputies let %(bag)s pass (deal #%(deal)d).") % values
            return _("The Deputies let %(bag)s pass.") % values
        if e["deal"]:
            return _("The Sheriff lets %(bag)s pass (deal #%(deal)d).") % values
        return _("The Sheriff lets %(bag)s pass.") % values

    def _bag_inspected(self, e):
        found = goods(e["contents"]) or _("nothing")
        if e["honest"]:
            verdict = self.by(
                e["seat"],
                _("you were honest (%(found)s)"),
                _("%(who)s was honest (%(found)s)"),
                found=found,
            )
        else:
            verdict = self.by(
                e["seat"],
                _("you were lying (declared %(declared)s, carried %(found)s)"),
                _("%(who)s was lying (declared %(declared)s, carried %(found)s)"),
                found=found,
                declared=counted(len(e["contents"]), e["declared"]),
            )
        return f"{self.inspection(e)}: {verdict}."

    def _bag_goods_shown(self, e):
        """Honor among thieves: a merchant short of promised bag goods shows their bag
        to whoever was promised them; only those (and the merchant) read its cards."""
        values = {"deals": offer_numbers(e["deals"]), "who": self.names[e["payer"]]}
        if "cards" in e:
            values["cards"] = goods([c["type"] for c in e["cards"]])
        if self.viewer in e["to"]:
            text = _(
                "%(who)s shows you the cards of their bag, proof that the goods promised in "
                "deal %(deals)s are not there: %(cards)s."
            )
            return text % values
        mine = e["payer"] == self.viewer
        if not self.deputies:
            return str(BAG_SHOWN_TO_THE_SHERIFF[mine]) % values
        whom = listed([self.names[s] for s in e["to"]])
        return str(BAG_SHOWN_TO_DEPUTIES[mine]) % {**values, "whom": whom}

    def inspection(self, e) -> str:
        """'The Sheriff inspects Ann's bag'; six players: 'Ann inspects your bag alone',
        'Ann and you inspect Cid's bag together'."""
        bag = self.bag(e["seat"])
        if "by" not in e:
            return _("The Sheriff inspects %(bag)s") % {"bag": bag}
        return self.forms(
            e["by"],
            {
                "you": _("You inspect %(bag)s alone"),
                "one": _("%(who)s inspects %(bag)s alone"),
                "several": _("%(who)s inspect %(bag)s together"),
                "several_with_you": pgettext(
                    "several players, you among them", "%(who)s inspect %(bag)s together"
                ),
            },
            bag=bag,
        )

    def _booty_shared(self, e):
        n = len(e["goods"][0])
        coin = _("the odd coin leaves the game") if e["gold_out"] else ""
        card = _("the odd card goes onto %(pile)s") % {"pile": pile_name(0, self.piles)}
        shares = [
            listed([part for part in (gold_each(e["gold"]) if e["gold"] else "", coin) if part]),
            listed(
                [
                    part
                    for part in (cards_each(n) if n else "", card if e["discarded"] else "")
                    if part
                ]
            ),
        ]
        values = {"who": self.subjects(e["deputies"]), "shares": "; ".join(s for s in shares if s)}
        if self.viewer in e["deputies"]:
            text = pgettext(
                "several players, you among them", "%(who)s share the Booty: %(shares)s."
            )
            return text % values
        return _("%(who)s share the Booty: %(shares)s.") % values

    # --- the Black Market ----------------------------------------------------------------
    def _black_market_claimed(self, e):
        return self.by(
            e["seat"],
            *BLACK_MARKET_CLAIMED[bool(self.provisional)],
            goods=counted(BLACK_MARKET_CLAIM, e["kind"]),
            kind=goods_names.label(e["kind"]),
            value=e["value"],
        )

    def _black_market_declined(self, e):
        return self.by(
            e["seat"],
            _("You make no Black Market claim this round."),
            _("%(who)s makes no Black Market claim this round."),
        )

    def _black_market_standing_set(self, e):
        if e["standing"]:
            return self.by(
                e["seat"],
                _(
                    "Your standing answer: you claim from the Black Market whenever you can, "
                    "and make no claim otherwise; the table no longer waits for you."
                ),
                _(
                    "%(who)s's standing answer: they claim from the Black Market whenever they "
                    "can, and make no claim otherwise."
                ),
            )
        return self.by(
            e["seat"],
            _("You will be asked again at each Black Market step."),
            _("%(who)s will be asked again at each Black Market step."),
        )

    def _black_market_submitted(self, e):
        if "choice" not in e:  # another seat's choice stays sealed
            text = _("%(name)s has made their Black Market choice.")
            return text % {"name": self.names[e["seat"]]}
        if e["choice"] in CARD_TYPES:
            text = _("You chose to claim the Black Market's %(kind)s card.")
            return text % {"kind": goods_names.label(e["choice"])}
        return _("You chose to make no Black Market claim.")

    def _black_market_missed(self, e):
        # Its kind is never said: only that an earlier claim emptied the pile.
        if e["seat"] == self.viewer:
            return _(
                "Your Black Market claim comes to nothing: an earlier claim emptied that pile."
            )
        return _(
            "%(name)s's Black Market claim comes to nothing: an earlier claim emptied that pile."
        ) % {"name": self.names[e["seat"]]}

    # --- the rest ----------------------------------------------------------------------
    def _debt_settled(self, e):
        if not e["goods_value"] and not e["forgiven"]:
            return None
        return self.by(
            e["debtor"],
            *DEBT_SETTLED[(bool(e["goods_value"]), bool(e["forgiven"]))],
            owed=gold(e["amount"]),
            paid=gold(e["gold"]),
            worth=e["goods_value"],
            forgiven=e["forgiven"],
        )

    def _default_kind(self, e) -> str:
        """The DEFAULT_MOVES row of a timed-out phase."""
        return "deputies" if e["phase"] == "inspection" and self.deputies else e["phase"]

    def _timed_out(self, e):
        if e.get("by") == "organizer":
            return self._moved_on_by_the_organizer(e)
        kind = self._default_kind(e)
        done = (
            str(DEADLINE_MOVES[kind]) if kind in DEADLINE_MOVES else _("the default move was made")
        )
        if e["seats"] == [self.viewer]:
            return _("Time ran out for you: %(done)s (timed out).") % {"done": done}
        who = [
            self.names[s] if s != self.viewer else pgettext("after a preposition", "you")
            for s in e["seats"]
        ]
        if len(who) > 1:  # "Ann, Ben, Cid": every player, in seat order
            text = pgettext("the last two of the players whose time ran out", "%(first)s, %(last)s")
            who = [text % {"first": ", ".join(who[:-1]), "last": who[-1]}]
        text = _("Time ran out for %(who)s: %(done)s (timed out).")
        return text % {"who": "".join(who), "done": done}

    def _moved_on_by_the_organizer(self, e):
        # "Ben's, Cid's and your bags": the reader comes last.
        seats = sorted(e["seats"], key=lambda seat: seat == self.viewer)
        if not seats:  # every move was in: nobody got a default
            return _("The organizer moved the game on.")
        others = [
            pgettext("a player's, before a noun", "%(name)s's") % {"name": self.names[s]}
            for s in seats
            if s != self.viewer
        ]
        whose = ", ".join(others) if self.viewer in seats else listed(others)
        done = self.forms(seats, DEFAULT_MOVES[self._default_kind(e)], whose=whose)
        return _("The organizer moved the game on: %(done)s.") % {"done": done}

    def _noted(self, e):
        if e.get("by") == "game":
            # A game note names players as they were stored: kept on one line.
            text = one_line(e["text"])
            return pause_note(text) or text
        note = replaced_note(one_line(e["text"])) or isolate(e["text"])
        return _("Organizer: %(note)s") % {"note": note}

    def _round_ended(self, e):
        return _("Round %(round)d is over.") % {"round": e["round"]}

    def _game_ended(self, e):
        winners = [self.names[s["seat"]] for s in e["scores"] if s["winner"]]
        return ngettext(
            "The game is over. Winner: %(winners)s. Secret seed revealed: %(seed)s",
            "The game is over. Winner: %(winners)s. Secret seed revealed: %(seed)s",
            len(winners),
        ) % {"winners": listed(winners), "seed": e["seed"]}


# What a decision or a deal did: shown on the page after the move and, for a whole
# round, in the end-of-round email.
OUTCOME_EVENTS = {
    "bag_passed",
    "bag_inspected",
    "bag_goods_shown",
    "gold_transferred",
    "debt_settled",
    "cards_moved",
    "booty_shared",
    "black_market_claimed",
    "black_market_missed",
}
OUTCOME_MOVES = {"passed", "inspected", "confiscated", "booty", "black_market", *REASONS}


def outcome_lines(projected: list, names: list, viewer: int | None, config) -> list:
    """The lines of a decision's (or a round's) consequences, up to the round's end:
    bags passed or inspected, who paid whom (the Booty included), goods handed over,
    the Booty shared, Black Market claims. ``config``: the game's ``GameConfig``."""
    narrator = Narrator.of_game(names, viewer, config)
    lines = []
    for event in projected:
        if event["type"] == "round_ended":
            break
        if event["type"] not in OUTCOME_EVENTS:
            continue
        if event["type"] == "cards_moved" and event["reason"] not in OUTCOME_MOVES:
            continue
        line = narrator.line(event)
        if line:
            lines.append(line)
    return lines
