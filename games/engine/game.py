"""The engine's entry points: start a game, apply a command, replay events."""

from . import flow
from .cards import deck_composition
from .config import FIRST_EDITION, GameConfig
from .events import evolve
from .flow import COMMANDS
from .refusals import EngineError
from .rng import new_seed, seed_digest, shuffled
from .state import State
from .table import Run, move_cards, shuffle_deck

STARTING_GOLD = 50
REMOVED_CARDS = 10  # the Remove 10 Cards option
DISCARD_PILE_START = 5  # 1st edition: two face-up piles of 5 at setup


def new_game(config: GameConfig | dict, seed: str | None = None) -> tuple[State, list]:
    """Set up a game: identities, shuffle, Remove 10, deal, discard piles, round 1."""
    if isinstance(config, dict):
        config = GameConfig.from_dict(config)
    seed = seed if seed is not None else new_seed()
    try:
        if not isinstance(seed, str) or len(bytes.fromhex(seed)) < 16:
            raise ValueError
    except ValueError:
        raise EngineError("invalid_config", "The seed must be at least 16 bytes of hex.") from None
    # Identities come from their own shuffle, so a card's id says nothing of its type.
    card_types = shuffled(deck_composition(config.players, config.royal_goods), seed, "identities")
    started = {
        "seq": 0,
        "type": "game_started",
        "config": config.to_dict(),
        "seed": seed,
        "seed_sha256": seed_digest(seed),
        "card_types": card_types,
        "starting_gold": STARTING_GOLD,
    }
    run = Run(evolve(None, started))
    run.events.append(started)
    shuffle_deck(run)
    if config.remove_ten:
        move_cards(run, run.state.zones["deck"][-REMOVED_CARDS:], "deck", "box", "removed")
    for seat in range(config.players):
        move_cards(
            run, run.state.zones["deck"][::-1][: config.hand_size], "deck", f"hand:{seat}", "deal"
        )
    if config.edition == FIRST_EDITION:
        for pile in range(2):
            move_cards(
                run,
                run.state.zones["deck"][::-1][:DISCARD_PILE_START],
                "deck",
                f"discard:{pile}",
                "setup",
            )
    flow.begin(run, "round")
    return run.state, run.events


def apply(state: State, command: dict, *, auto_advance: bool = True) -> tuple[State, list]:
    """Apply one command. Returns the new state and the events it produced; the
    given state is never modified. Raises EngineError if the command is refused.
    With ``auto_advance=False`` a complete phase waits for ``timeout`` (flow.py)."""
    if not isinstance(command, dict):
        raise EngineError(
            "bad_command", "A command must be an object with a 'type'.", detail="shape"
        )
    run = Run(state.working_copy(), auto_advance=auto_advance)
    kind = command.get("type")
    if not isinstance(kind, str):
        raise EngineError(
            "bad_command", "A command must be an object with a 'type'.", detail="shape"
        )
    if kind == "timeout":
        flow.time_out(run, command)
    elif kind == "end_bargaining":
        flow.end_bargaining(run)
    elif kind == "note":
        note(run, command)
    elif kind in COMMANDS:
        COMMANDS[kind](run, command)
    else:
        raise EngineError("unknown_command", "Unknown command %(command)s.", command=repr(kind))
    return run.state, run.events


MAX_NOTE = 300
# Who writes a note: the organizer (the default), or the game itself (the
# service's own rules, e.g. a game pausing when nobody moves any more).
NOTE_BY = ("organizer", "game")
MAX_NOTE_PARAMS = 5


def note(run: Run, command: dict) -> None:
    """The organizer's word in the game log (pause, extension, replaced player...).

    A note the service writes itself may name its message with a ``code`` and the
    values it needs (``params``), so that each reader reads it in their language
    without the English ``text`` being parsed back; the engine keeps both as given."""
    text = command.get("text")
    if not isinstance(text, str) or not 0 < len(text) <= MAX_NOTE:
        raise EngineError(
            "bad_command",
            "A note is 1 to %(count)s characters of text.",
            detail="note",
            count=MAX_NOTE,
        )
    by = command.get("by", "organizer")
    if by not in NOTE_BY:
        raise EngineError("bad_command", 'A note is by "organizer" or "game".', detail="note_by")
    coded = _note_code(command)
    if run.state.is_over():
        raise EngineError("game_over", "The game is over.")
    run.emit("noted", text=text, **({} if by == "organizer" else {"by": by}), **coded)


def _note_code(command: dict) -> dict:
    """A note's ``code`` and ``params`` (a few names to short text or whole numbers),
    checked; {} for a note of text alone."""
    if "code" not in command and "params" not in command:
        return {}
    code, params = command.get("code"), command.get("params", {})
    if not isinstance(code, str) or not code.isidentifier() or len(code) > 40:
        raise EngineError(
            "bad_command", "A note is named by its code, a short identifier.", detail="note_code"
        )
    if not isinstance(params, dict) or len(params) > MAX_NOTE_PARAMS:
        raise EngineError(
            "bad_command",
            "A note is given at most %(count)s params.",
            detail="note_params",
            count=MAX_NOTE_PARAMS,
        )
    for name, value in params.items():
        number = isinstance(value, int) and not isinstance(value, bool)
        short = isinstance(value, str) and len(value) <= MAX_NOTE
        if not isinstance(name, str) or not name.isidentifier() or not (number or short):
            raise EngineError(
                "bad_command",
                "A note is given params of short text or whole numbers.",
                detail="note_params",
            )
    return {"code": code, "params": dict(params)}


def replay(events: list) -> State:
    """Rebuild the state from stored events alone."""
    state = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to replay")
    return state
