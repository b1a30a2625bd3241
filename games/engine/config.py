"""A game's configuration: edition, seats, options. Validated once, here."""

from dataclasses import asdict, dataclass, fields

from .errors import EngineError

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
    black_market: bool = False  # 2nd edition option, not available yet

    def __post_init__(self):
        validate(self)

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
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "GameConfig":
        if not isinstance(data, dict):
            raise EngineError("invalid_config", "The configuration must be an object.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise EngineError("invalid_config", f"Unknown setting: {', '.join(unknown)}.")
        if "players" not in data:
            raise EngineError("invalid_config", "The number of players is required.")
        return cls(**data)


def _require_bool(config: GameConfig, name: str) -> None:
    if not isinstance(getattr(config, name), bool):
        raise EngineError("invalid_config", f"Setting '{name}' must be true or false.")


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
            "invalid_config", f"The first Sheriff must be a seat from 0 to {config.players - 1}."
        )
    for name in ("royal_goods", "seven_card_hand", "remove_ten", "black_market"):
        _require_bool(config, name)
    if config.black_market:
        if config.edition != SECOND_EDITION:
            raise EngineError("invalid_config", "The Black Market is a 2nd edition option.")
        raise EngineError("unsupported_option", "The Black Market option is not available yet.")
