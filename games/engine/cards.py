"""Card data from the rulebooks' card tables, kept once, as data.

The 1st edition (Arcane Wonders 2014, CMON 2016 reprint, Spanish edition) and
the 2nd edition (CMON 2020) print the same table. "counts_as" is printed on
each Royal Goods card: how many of its legal type it counts for King/Queen.
"""

from dataclasses import dataclass

LEGAL = "legal"
CONTRABAND = "contraband"
ROYAL = "royal"


@dataclass(frozen=True)
class CardType:
    name: str  # stable identifier used in commands, events and views
    label: str  # English display name
    kind: str  # LEGAL, CONTRABAND or ROYAL
    value: int
    penalty: int
    count_4_plus: int  # copies with 4-6 players
    count_3: int  # copies with 3 players (the "4+" cards removed)
    royal_of: str | None = None  # legal type a Royal Good counts as
    counts_as: int = 1  # how many of that legal type it counts for
    one: str = ""  # the label for a single card, where it differs ("Chicken")
    many: str = ""  # the label for several cards, where it differs ("Crossbows")

    @property
    def is_legal(self) -> bool:
        return self.kind == LEGAL

    @property
    def is_contraband(self) -> bool:
        """Royal Goods are contraband too (never declarable, always confiscated)."""
        return self.kind != LEGAL

    def counted(self, n: int) -> str:
        """A counted noun: '1 Chicken', '2 Chickens', '3 Cheese'."""
        word = self.one if n == 1 else self.many
        return f"{n} {word or self.label}"


_TABLE = (
    CardType("apples", "Apples", LEGAL, 2, 2, 48, 48, one="Apple"),
    CardType("cheese", "Cheese", LEGAL, 3, 2, 36, 36),
    CardType("bread", "Bread", LEGAL, 3, 2, 36, 0),
    CardType("chicken", "Chickens", LEGAL, 4, 2, 24, 24, one="Chicken"),
    CardType("pepper", "Pepper", CONTRABAND, 6, 4, 22, 18),
    CardType("mead", "Mead", CONTRABAND, 7, 4, 21, 16),
    CardType("silk", "Silk", CONTRABAND, 8, 4, 12, 9),
    CardType("crossbow", "Crossbow", CONTRABAND, 9, 4, 5, 5, many="Crossbows"),
    CardType("green_apples", "Green Apples", ROYAL, 4, 3, 2, 2, "apples", 2, one="Green Apple"),
    CardType("golden_apples", "Golden Apples", ROYAL, 6, 4, 2, 1, "apples", 3, one="Golden Apple"),
    CardType("gouda_cheese", "Gouda Cheese", ROYAL, 6, 4, 2, 2, "cheese", 2),
    CardType("bleu_cheese", "Bleu Cheese", ROYAL, 9, 5, 1, 0, "cheese", 3),
    CardType("rye_bread", "Rye Bread", ROYAL, 6, 4, 2, 0, "bread", 2),
    CardType("pumpernickel_bread", "Pumpernickel Bread", ROYAL, 9, 5, 1, 0, "bread", 3),
    CardType(
        "royal_rooster", "Royal Rooster", ROYAL, 8, 4, 2, 1, "chicken", 2, many="Royal Roosters"
    ),
)

CARD_TYPES: dict[str, CardType] = {card.name: card for card in _TABLE}
LEGAL_TYPES: tuple[str, ...] = tuple(c.name for c in _TABLE if c.kind == LEGAL)
CONTRABAND_TYPES: tuple[str, ...] = tuple(c.name for c in _TABLE if c.kind == CONTRABAND)
ROYAL_TYPES: tuple[str, ...] = tuple(c.name for c in _TABLE if c.kind == ROYAL)

# King's and Queen's bonus per legal type (identical in both editions).
KING_QUEEN_BONUS: dict[str, tuple[int, int]] = {
    "apples": (20, 10),
    "cheese": (15, 10),
    "bread": (15, 10),
    "chicken": (10, 5),
}


# Black Market (2nd edition option): three face-up piles of 2 cards, one per kind, the
# higher value on top. A claim reveals 3 contraband cards of the pile's kind from one's
# own stand (they leave the game) and takes the pile's top card. The rulebook text omits
# the printed values: these are PROVISIONAL — the only concrete figures found (an
# open-source implementation) — until a printed card is checked. Each game's organizer may
# give others (GameConfig.black_market_values). Top card first.
BLACK_MARKET_TYPES: tuple[str, ...] = ("pepper", "mead", "silk")
BLACK_MARKET_VALUES: dict[str, tuple[int, int]] = {
    "pepper": (30, 27),
    "mead": (32, 29),
    "silk": (34, 31),
}
BLACK_MARKET_PROVISIONAL = True  # say "provisional" wherever the default values are shown
BLACK_MARKET_CLAIM = 3  # contraband cards of one kind a claim reveals


def card(name: str) -> CardType:
    return CARD_TYPES[name]


def deck_composition(players: int, royal_goods: bool) -> list[str]:
    """Every card of a game's deck, in card-table order, before any shuffle."""
    cards: list[str] = []
    for kind in _TABLE:
        if kind.kind == ROYAL and not royal_goods:
            continue
        copies = kind.count_3 if players == 3 else kind.count_4_plus
        cards.extend([kind.name] * copies)
    return cards
