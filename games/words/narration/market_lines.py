"""The log's lines for a game's and a round's start, the phases' openings, the
market (setting aside, a 1st-edition market turn) and loading bags."""

from django.utils.translation import gettext as _
from django.utils.translation import (
    ngettext,
    ngettext_lazy,
    npgettext_lazy,
    pgettext,
    pgettext_lazy,
)

from games.engine.config import DEPUTIES_PLAYERS, DEPUTIES_ROUNDS
from games.words.narration.narrator_base import NarratorBase
from games.words.narration.phrases import counted, gold_each, listed, pile_name

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


class MarketLines(NarratorBase):
    """Starts, phase openings, the market and loading."""

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
