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

from games.words.narration.deal_lines import DealLines
from games.words.narration.inspection_lines import InspectionLines
from games.words.narration.market_lines import MarketLines
from games.words.narration.note_lines import (
    DEADLINE_EXTENDED,
    GAME_CANCELLED,
    GAME_PAUSED,
    GAME_RESUMED,
    LINK_RESENT,
    PAUSED_ITSELF,
    REPLACED,
    SEAT_REPLACED,
    NoteLines,
    coded_note,
)
from games.words.narration.phrases import (
    REASONS,
    bag_of,
    cards,
    cards_each,
    counted,
    deal_parties,
    from_the_bag,
    gold,
    gold_each,
    goods,
    idle_for,
    listed,
    nothing,
    offer_numbers,
    pile_name,
    terms_parts,
)
from games.words.narration.round_end_lines import RoundEndLines
from games.words.narration.transfer_lines import TransferLines

# What callers read from here: the narrator, the outcome lines, and the phrases that
# pages and emails share with the log (games.words.narration holds them by concern).
__all__ = [
    "DEADLINE_EXTENDED",
    "GAME_CANCELLED",
    "GAME_PAUSED",
    "GAME_RESUMED",
    "LINK_RESENT",
    "PAUSED_ITSELF",
    "REPLACED",
    "SEAT_REPLACED",
    "Narrator",
    "bag_of",
    "cards",
    "cards_each",
    "coded_note",
    "counted",
    "deal_parties",
    "from_the_bag",
    "gold",
    "gold_each",
    "goods",
    "idle_for",
    "listed",
    "nothing",
    "offer_numbers",
    "outcome_lines",
    "pile_name",
    "terms_parts",
]


class Narrator(MarketLines, TransferLines, DealLines, InspectionLines, RoundEndLines, NoteLines):
    """One line per event (``line``), from the method of its concern's class named
    ``_<event type>``; None for an event the log does not tell.

    ``provisional``: the game uses the provisional Black Market values
    (``state.config.black_market_provisional``), said wherever a value is shown."""

    @classmethod
    def of_game(cls, names: list, viewer: int | None, config) -> "Narrator":
        """A narrator for a game of this configuration (``GameConfig``)."""
        return cls(
            names,
            viewer,
            piles=config.discard_pile_count,
            provisional=config.black_market and config.black_market_provisional,
        )

    def line(self, event: dict) -> str | None:
        handler = getattr(self, "_" + event["type"], None)
        return handler(event) if handler else None

    def lines(self, events: list) -> list:
        return [text for text in (self.line(e) for e in events) if text]


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
