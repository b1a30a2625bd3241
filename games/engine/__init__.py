"""Sheriff of Nottingham rules engine: pure Python, deterministic, no Django.

Public interface (documented in docs/engine.md):
    new_game(config, seed) -> (state, events)
    apply(state, command) -> (state, events)      raises EngineError
    replay(events) -> state
    actions(state), awaiting(state), default_commands(state)
    view_for(state, seat | None), project_event(state, event, seat | None)
"""

from .cards import CARD_TYPES, LEGAL_TYPES, CardType, deck_composition
from .config import FIRST_EDITION, SECOND_EDITION, GameConfig
from .flow import COMMANDS, actions, awaiting, default_commands
from .game import apply, new_game, replay
from .refusals import EngineError
from .seat_views import project_event, project_log, view_for
from .state import SCHEMA_VERSION, State, canonical_json

__all__ = [
    "CARD_TYPES",
    "COMMANDS",
    "FIRST_EDITION",
    "LEGAL_TYPES",
    "SCHEMA_VERSION",
    "SECOND_EDITION",
    "CardType",
    "EngineError",
    "GameConfig",
    "State",
    "actions",
    "apply",
    "awaiting",
    "canonical_json",
    "deck_composition",
    "default_commands",
    "new_game",
    "project_event",
    "project_log",
    "replay",
    "view_for",
]
