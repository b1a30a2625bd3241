"""A game's configuration: edition, seats, options. Validated once, here."""

from dataclasses import asdict, dataclass, fields

from .cards import BLACK_MARKET_TYPES, BLACK_MARKET_VALUES
from .refusals import EngineError

FIRST_EDITION = 1
SECOND_EDITION = 2
SUPPORTED_PLAYERS = (3, 4, 5, 6)  # 6 players: the 2nd edition's Deputies rules
DEPUTIES_PLAYERS = 6
DEPUTIES_ROUNDS = 9  # the Deputy deck of 6 runs out a 3rd time: each player Deputy 3 times


@dataclass(frozen=True)
class GameConfig:
    players: int
    edition: int = SECOND_EDITION
    first_sheriff: int = 0  # seat index; seats are numbered clockwise from 0 (unused with 6)
    royal_goods: bool = False
    seven_card_hand: bool = False
    remove_ten: bool = False
    black_market: bool = False  # 2nd edition option
    # The organizer's Black Market values, {"pepper": [30, 27], ...} (None: the provisional
    # defaults of cards.py). Normalized to the higher value first.
    black_market_values: dict | None = None

    def __post_init__(self):
        validate(self)
        if self.black_market_values is not None:
            values = {
                t: sorted(self.black_market_values[t], reverse=True) for t in BLACK_MARKET_TYPES
            }
            object.__setattr__(self, "black_market_values", values)

    @property
    def black_market_piles(self) -> dict:
        """Black Market values per kind, the top card first (the higher value)."""
        given = self.black_market_values
        return {t: list(given[t] if given else BLACK_MARKET_VALUES[t]) for t in BLACK_MARKET_TYPES}

    @property
    def black_market_provisional(self) -> bool:
        """True while the game uses the engine's provisional default values."""
        return self.black_market_values is None

    @property
    def hand_size(self) -> int:
        return 7 if self.seven_card_hand else 6

    @property
    def discard_pile_count(self) -> int:
        return 2 if self.edition == FIRST_EDITION else 1

    @property
    def deputies(self) -> bool:
        """Six players: no Sheriff, two Deputies a round (2nd edition)."""
        return self.players == DEPUTIES_PLAYERS

    @property
    def rounds(self) -> int:
        """Each player is Sheriff twice, three times with 3 players; with 6, each
        player is Deputy 3 times (9 rounds)."""
        if self.deputies:
            return DEPUTIES_ROUNDS
        return self.players * (3 if self.players == 3 else 2)

    def to_dict(self) -> dict:
        """Every field; ``black_market_values`` only when the organizer gave them."""
        data = asdict(self)
        if data["black_market_values"] is None:
            del data["black_market_values"]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "GameConfig":
        if not isinstance(data, dict):
            raise EngineError("invalid_config", "The configuration must be an object.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise EngineError(
                "invalid_config", "Unknown setting: %(names)s.", names=", ".join(unknown)
            )
        if "players" not in data:
            raise EngineError("invalid_config", "The number of players is required.")
        return cls(**data)


def _require_bool(config: GameConfig, name: str) -> None:
    if not isinstance(getattr(config, name), bool):
        raise EngineError("invalid_config", "Setting '%(name)s' must be true or false.", name=name)


def validate(config: GameConfig) -> None:
    def is_int(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not is_int(config.edition) or config.edition not in (FIRST_EDITION, SECOND_EDITION):
        raise EngineError("invalid_config", "Edition must be 1 or 2.")
    if not is_int(config.players):
        raise EngineError("invalid_config", "The number of players must be a whole number.")
    if config.players not in SUPPORTED_PLAYERS:
        raise EngineError("invalid_config", "Sheriff of Nottingham is played by 3 to 6 players.")
    if config.players == DEPUTIES_PLAYERS and config.edition != SECOND_EDITION:
        raise EngineError(
            "invalid_config",
            "Six players need the 2nd edition (its Deputies rules); the 1st edition is "
            "played by 3 to 5.",
        )
    if not is_int(config.first_sheriff) or not 0 <= config.first_sheriff < config.players:
        raise EngineError(
            "invalid_config",
            "The first Sheriff must be a seat from 0 to %(last)s.",
            last=config.players - 1,
        )
    for name in ("royal_goods", "seven_card_hand", "remove_ten", "black_market"):
        _require_bool(config, name)
    if config.black_market and config.edition != SECOND_EDITION:
        raise EngineError("invalid_config", "The Black Market is a 2nd edition option.")
    if config.black_market_values is not None:
        _validate_black_market_values(config)


def _validate_black_market_values(config: GameConfig) -> None:
    values = config.black_market_values
    if not config.black_market:
        raise EngineError("invalid_config", "Black Market values need the Black Market option.")
    kinds = ", ".join(BLACK_MARKET_TYPES)
    if not isinstance(values, dict) or sorted(values) != sorted(BLACK_MARKET_TYPES):
        raise EngineError(
            "invalid_config", "Give Black Market values for exactly: %(kinds)s.", kinds=kinds
        )
    for kind in BLACK_MARKET_TYPES:
        pair = values[kind]
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in pair)
        ):
            raise EngineError(
                "invalid_config",
                "The Black Market's %(kind)s pile holds two cards: give two whole numbers above 0.",
                kind=kind,
            )
