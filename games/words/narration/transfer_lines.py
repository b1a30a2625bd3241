"""The log's lines for cards and gold changing hands: drawn, dealt, discarded,
passed to a stand, confiscated, handed over as agreed, paid, shared from the Booty."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.words.narration.narrator_base import NarratorBase
from games.words.narration.phrases import BOOTY, OUT, REASONS, cards, gold, goods, listed

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


class TransferLines(NarratorBase):
    """Cards and gold changing hands."""

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
