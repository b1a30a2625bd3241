"""The log's lines for the Black Market step, debts settled, and the end of a
round and of the game."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_CLAIM
from games.words import goods_names
from games.words.narration.narrator_base import NarratorBase
from games.words.narration.phrases import counted, gold, listed

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


class RoundEndLines(NarratorBase):
    """The Black Market step, debts, and the ends of a round and a game."""

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

    # --- debts, and the end of a round and of the game -------------------------------
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

    def _round_ended(self, e):
        return _("Round %(round)d is over.") % {"round": e["round"]}

    def _game_ended(self, e):
        winners = [self.names[s["seat"]] for s in e["scores"] if s["winner"]]
        return ngettext(
            "The game is over. Winner: %(winners)s. Secret seed revealed: %(seed)s",
            "The game is over. Winner: %(winners)s. Secret seed revealed: %(seed)s",
            len(winners),
        ) % {"winners": listed(winners), "seed": e["seed"]}
