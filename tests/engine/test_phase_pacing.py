"""A game whose phases last until their deadline: with auto_advance=False a
complete phase waits, and the timeout command moves it on without blaming anyone.
The organizer's timeout ("advance now") is logged as theirs and replays exactly."""

import pytest

from games.engine import EngineError, GameConfig, actions, apply, awaiting, new_game, replay

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


def test_the_organizers_timeout_says_so_and_replays_exactly():
    state, log = new_game(GameConfig(players=4), SEED)
    state, events = apply(state, {"type": "timeout", "by": "organizer"})  # the market
    [timed_out] = [e for e in events if e["type"] == "timed_out"]
    assert timed_out["by"] == "organizer" and timed_out["seats"] == state.merchants()
    state, more = apply(state, {"type": "timeout"})  # the load, at its deadline
    assert "by" not in next(e for e in more if e["type"] == "timed_out")
    state, last = apply(state, {"type": "timeout", "by": "organizer"})  # the inspection
    assert [e.get("by") for e in last if e["type"] == "timed_out"] == ["organizer"]
    assert replay(log + events + more + last).hash() == state.hash()


def test_the_organizer_moving_a_held_phase_on_is_logged_without_blame():
    state, _ = new_game(GameConfig(players=4), SEED)
    state = everyone_sets_nothing_aside(state)
    state, events = apply(state, {"type": "timeout", "by": "organizer"})
    [timed_out] = [e for e in events if e["type"] == "timed_out"]
    assert timed_out["seats"] == [] and timed_out["by"] == "organizer"
    assert state.phase.kind == "load"


def test_a_timeout_by_anyone_else_is_refused():
    state, _ = new_game(GameConfig(players=4), SEED)
    with pytest.raises(EngineError) as refused:
        apply(state, {"type": "timeout", "by": "player"})
    assert refused.value.code == "bad_command"
