"""What every line of the log needs: who reads it (the reader is "you"), the
players' names, and the sentence forms for one player, several, or the reader
among them. Each concern's lines (``*_lines.py``) build on it."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine.config import DEPUTIES_PLAYERS
from games.words import user_text
from games.words.narration.phrases import BOOTY, bag_of, listed, pile_name


class NarratorBase:
    """Who reads, the players' names, and the forms of a sentence about them.

    ``provisional``: the game uses the provisional Black Market values
    (``state.config.black_market_provisional``), said wherever a value is shown."""

    def __init__(self, names: list, viewer: int | None, *, piles: int, provisional=False):
        self.names = user_text.names(names)  # callers may pass names as stored
        self.viewer = viewer
        self.piles = piles  # discard piles in this edition, for naming them
        self.provisional = provisional
        # Six players: two Deputies a round instead of a Sheriff, and the Booty.
        self.deputies = len(self.names) == DEPUTIES_PLAYERS

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
