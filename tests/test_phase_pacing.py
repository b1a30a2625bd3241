"""A game whose phases last until their deadline: with auto_advance=False a
complete phase waits, and the timeout command moves it on without blaming anyone."""

import pytest

from games.engine import EngineError, GameConfig, actions, apply, awaiting, new_game

SEED = "3c" * 32


def everyone_sets_nothing_aside(state):
    for seat in state.merchants():
        state, _ = apply(
            state, {"type": "set_aside", "seat": seat, "cards": []}, auto_advance=False
        )
    return state


def test_a_complete_phase_waits_for_its_deadline_then_moves_on_without_a_timeout_blame():
    state, _ = new_game(GameConfig(players=4), SEED)
    state = everyone_sets_nothing_aside(state)
    assert state.phase.kind == "market" and awaiting(state) == []
    assert all(not a["moves"] for a in actions(state).values())
    state, events = apply(state, {"type": "timeout"})
    assert state.phase.kind == "load"
    assert "timed_out" not in [e["type"] for e in events]


def test_the_default_path_advances_at_once():
    state, _ = new_game(GameConfig(players=4), SEED)
    for seat in state.merchants():
        state, _ = apply(state, {"type": "set_aside", "seat": seat, "cards": []})
    assert state.phase.kind == "load"


def test_a_first_edition_market_turn_taken_waits_and_cannot_be_taken_twice():
    state, _ = new_game(GameConfig(players=3, edition=1), SEED)
    seat = state.phase.seat
    state, _ = apply(state, {"type": "market_turn", "seat": seat, "cards": []}, auto_advance=False)
    assert state.phase.kind == "market_turn" and state.phase.done and awaiting(state) == []
    with pytest.raises(EngineError) as refused:
        apply(state, {"type": "market_turn", "seat": seat, "cards": []}, auto_advance=False)
    assert refused.value.code == "not_your_turn"
    state, _ = apply(state, {"type": "timeout"})
    assert state.phase.kind == "market_turn" and state.phase.seat != seat
