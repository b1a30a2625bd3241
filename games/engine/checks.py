"""Command validation shared by the rule modules. Each check raises
``EngineError`` with a stable code before anything is emitted."""

from .refusals import EngineError
from .state import State

MAX_SET_ASIDE = 5
MIN_BAG, MAX_BAG = 1, 5


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def require_phase(state: State, *kinds: str) -> None:
    if state.is_over():
        raise EngineError("game_over", "The game is over.")
    if state.phase is None or state.phase.kind not in kinds:
        raise EngineError("wrong_phase", "That move is not possible in this phase.")


def require_seat(state: State, command: dict) -> int:
    seat = command.get("seat")
    if not is_int(seat) or not 0 <= seat < state.players:
        raise EngineError(
            "bad_command", "The command must name a seat of this game.", detail="seat"
        )
    return seat


def require_merchant(state: State, seat: int) -> None:
    if state.is_inspector(seat):
        if state.config.deputies:
            raise EngineError(
                "not_a_merchant", "The Deputies do not take part in this.", detail="deputies"
            )
        raise EngineError(
            "not_a_merchant", "The Sheriff does not take part in this.", detail="sheriff"
        )


def require_sheriff(state: State, seat: int) -> None:
    """The Sheriff, or (6 players) either Deputy."""
    if not state.is_inspector(seat):
        if state.config.deputies:
            raise EngineError("not_sheriff", "Only a Deputy can do that.", detail="deputy")
        raise EngineError("not_sheriff", "Only the Sheriff can do that.", detail="sheriff")


def card_list(command: dict, key: str = "cards") -> list:
    cards = command.get(key, [])
    if not isinstance(cards, list) or not all(is_int(c) for c in cards):
        raise EngineError(
            "bad_command", "'%(field)s' must be a list of card ids.", detail="card_ids", field=key
        )
    if len(set(cards)) != len(cards):
        raise EngineError("duplicate_cards", "The same card is named twice.")
    return cards


def require_in_hand(state: State, seat: int, cards: list) -> None:
    hand = set(state.hand(seat))
    if any(c not in hand for c in cards):
        raise EngineError("card_not_in_hand", "You can only use cards from your own hand.")


# What goes to a discard pile, as a refusal names it (the key is the refusal's detail).
DISCARDED = {"set_aside": "your set-aside cards", "confiscated": "confiscated goods"}


def discard_pile(state: State, value, what: str) -> int:
    """A discard pile index: 0 in the 2nd edition, 0 or 1 in the 1st (players
    read them as "the discard pile", or "discard pile 1" and "2"). ``what``: a
    key of DISCARDED."""
    count = state.config.discard_pile_count
    if not is_int(value) or not 0 <= value < count:
        if count == 1:
            raise EngineError(
                "bad_discard_pile",
                f"There is one discard pile: {DISCARDED[what]} go there.",
                detail=f"one_pile.{what}",
            )
        raise EngineError(
            "bad_discard_pile",
            f"Choose discard pile 1 or 2 for {DISCARDED[what]}.",
            detail=f"two_piles.{what}",
        )
    return value
