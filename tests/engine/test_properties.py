"""Property tests over many random full games (both editions, 3-5 players; the
2nd edition with 6 players, its Deputies and Booty; the 2nd edition's Black
Market with 3-6 players).

After every step: card conservation, gold conservation and non-negativity, bag
sizes and declared counts, one Sheriff, termination after the right number of
rounds, replay equality from JSON round-tripped events, and no hidden card in
any view. At game end: JSON round trip and the no-leak perturbation for every
seat and a spectator. SIM_GAMES sets the games per edition and player count
(default 200, as CI runs it).
"""

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    GameConfig,
    State,
    actions,
    apply,
    canonical_json,
    inspection,
    new_game,
    replay,
)
from games.engine import seat_views as views
from games.engine.invariants import check_no_leak, check_state, check_view
from games.engine.rng import seed_digest, shuffled
from games.engine.self_play import RandomPlayers, play_game

GAMES = int(os.environ.get("SIM_GAMES", "200"))
DEEP_EVERY = int(os.environ.get("SIM_DEEP_EVERY", "3"))
CONFIGS = [(edition, players) for edition in (1, 2) for players in (3, 4, 5)] + [(2, 6)]


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_random_full_games_keep_every_invariant(edition, players):
    rnd = random.Random(f"{edition}-{players}")
    failed = []
    for number in range(GAMES):
        config = GameConfig(
            players=players,
            edition=edition,
            royal_goods=number % 2 == 0,
            first_sheriff=number % players,
            seven_card_hand=number % 5 == 1,
            remove_ten=number % 7 == 2,
            black_market=edition == 2 and number % 2 == 1,
        )
        seed = f"{rnd.getrandbits(256):064x}"
        result = play_game(
            config, seed, rnd, deep_every=DEEP_EVERY, squeeze=number % 4 == 3, hold=number % 5 == 4
        )
        if result["failures"]:
            failed.append((seed, config, result["failures"][:3]))
    assert failed == []


def _config(players: int, edition: int) -> GameConfig:
    """Six players are a 2nd-edition game whatever ``edition`` was drawn; ``edition`` 3
    stands for the 2nd edition with the Black Market."""
    return GameConfig(
        players=players,
        edition=1 if edition == 1 and players < 6 else 2,
        royal_goods=True,
        black_market=edition == 3,
    )


def _random_game(seed: str, rnd: random.Random, players: int, edition: int, stop_after: int):
    """Play up to ``stop_after`` accepted commands; return (state, events, commands)."""
    state, events = new_game(_config(players, edition), seed)
    agent, commands = RandomPlayers(rnd, every_choice=True), []
    while not state.is_over() and len(commands) < stop_after:
        command = agent.command(state)
        try:
            state, new = apply(state, command)
        except Exception:  # refused commands are part of random play
            continue
        events += new
        commands.append(command)
    return state, events, commands


game_params = {
    "seed": st.binary(min_size=32, max_size=32).map(bytes.hex),
    "agent_seed": st.integers(0, 2**32),
    "players": st.sampled_from([3, 4, 5, 6]),
    "edition": st.sampled_from([1, 2, 3]),  # 3: the 2nd edition with the Black Market
}
quick = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@quick
@given(**game_params, stop_after=st.integers(0, 300))
def test_same_seed_and_commands_give_byte_identical_log(
    seed, agent_seed, players, edition, stop_after
):
    state, events, commands = _random_game(
        seed, random.Random(agent_seed), players, edition, stop_after
    )
    again, log = new_game(_config(players, edition), seed)
    for command in commands:
        again, new = apply(again, command)
        log += new
    assert canonical_json(log) == canonical_json(events)
    assert again.hash() == state.hash()


@quick
@given(**game_params, stop_after=st.integers(0, 300))
def test_replay_and_json_round_trip_rebuild_the_identical_state(
    seed, agent_seed, players, edition, stop_after
):
    state, events, _ = _random_game(seed, random.Random(agent_seed), players, edition, stop_after)
    stored = json.loads(json.dumps(events))
    assert replay(stored).hash() == state.hash()
    assert State.from_json(state.to_json()).hash() == state.hash()
    assert check_state(state) == []


@quick
@given(**game_params, stop_after=st.integers(0, 300), viewer=st.integers(0, 6))
def test_what_a_seat_cannot_see_never_changes_its_view_or_log(
    seed, agent_seed, players, edition, stop_after, viewer
):
    rnd = random.Random(agent_seed)
    state, events, _ = _random_game(seed, rnd, players, edition, stop_after)
    seat = viewer if viewer < players else None
    assert check_view(state, seat) == []
    assert check_no_leak(state, events, seat, rnd) == []


@quick
@given(**game_params, stop_after=st.integers(0, 300), loads=st.integers(0, 4))
def test_a_closed_bag_tells_the_others_nothing_of_its_size_before_the_reveal(
    seed, agent_seed, players, edition, stop_after, loads
):
    """Mid-loading, with some bags closed: no seat's view or log depends on
    whether, or with how many cards, another merchant has loaded."""
    rnd = random.Random(agent_seed)
    state, events, _ = _random_game(seed, rnd, players, edition, stop_after)
    while not state.is_over() and state.phase.kind != "load":
        state, new = apply(state, {"type": "timeout"})
        events += new
    for command in _simultaneous_commands(state, rnd)[:loads] if not state.is_over() else []:
        state, new = apply(state, command, auto_advance=False)
        events += new
    for seat in [*range(players), None]:
        assert check_no_leak(state, events, seat, rnd) == []


@quick
@given(
    seed=game_params["seed"],
    agent_seed=game_params["agent_seed"],
    players=game_params["players"],
    stop_after=st.integers(0, 400),
    choices=st.integers(0, 3),
)
def test_a_sealed_black_market_choice_tells_the_others_nothing(
    seed, agent_seed, players, stop_after, choices
):
    """In the Black Market step, with some choices in: no seat's view or log depends on
    another merchant's sealed choice (who has chosen is public)."""
    rnd = random.Random(agent_seed)
    state, events, _ = _random_game(seed, rnd, players, 3, stop_after)
    while not state.is_over() and state.phase.kind != "black_market":
        state, new = apply(state, {"type": "timeout"})
        events += new
    for command in _simultaneous_commands(state, rnd)[:choices] if not state.is_over() else []:
        state, new = apply(state, command, auto_advance=False)
        events += new
    for seat in [*range(players), None]:
        assert check_view(state, seat) == []
        assert check_no_leak(state, events, seat, rnd) == []


@quick
@given(**game_params, skip=st.integers(0, 3))
def test_a_bag_shown_to_the_sheriff_tells_the_others_nothing(
    seed, agent_seed, players, edition, skip
):
    """Honor among thieves: right after a merchant short of promised bag goods has
    shown their bag (the ``skip``-th time it happens in the game), the Sheriff (the
    Deputies of the deal) sees its cards, and no other seat's view or log depends on
    them."""
    rnd = random.Random(agent_seed)
    state, events = new_game(_config(players, edition), seed)
    agent, shown = RandomPlayers(rnd, every_choice=True), []
    while not state.is_over() and len(shown) <= skip:
        try:
            state, new = apply(state, agent.command(state))
        except Exception:  # refused commands are part of random play
            continue
        events += new
        shown += [e for e in new if e["type"] == "bag_goods_shown"]
    if not shown:
        return
    last = shown[-1]
    for seat in [*range(players), None]:
        assert check_view(state, seat) == []
        assert check_no_leak(state, events, seat, rnd) == []
        line = views.project_event(state, last, seat)
        assert ("cards" in line) == (seat in last["to"] or seat == last["payer"])
        if state.phase.kind == "inspection" and not state.is_over():
            seen = views.view_for(state, seat).get("shown_bags", {})
            assert (last["payer"] in seen) == (seat in last["to"])


def _simultaneous_commands(state, rnd):
    """One random command from every seat the phase still waits for."""
    agent = RandomPlayers(rnd)
    commands = []
    for seat, options in actions(state).items():
        if options["must_act"]:
            move = options["moves"][0]
            if move["type"] == "claim_black_market":  # a kind the stand can pay
                kind = rnd.choice(move["kinds"])
                commands.append({"type": move["type"], "seat": seat, "kind": kind})
                continue
            commands.append(getattr(agent, move["type"])(state, seat, move))
    return commands


@quick
@given(**game_params, order_seed=st.integers(0, 2**32), stop_after=st.integers(0, 200))
def test_simultaneous_submissions_in_any_order_give_the_same_result(
    seed, agent_seed, players, edition, order_seed, stop_after
):
    rnd = random.Random(agent_seed)
    state, _, _ = _random_game(seed, rnd, players, edition, stop_after)
    while not state.is_over() and state.phase.kind not in ("market", "load", "black_market"):
        state, _ = apply(state, {"type": "timeout"})
    if state.is_over():
        return
    commands = _simultaneous_commands(state, rnd)
    results = []
    for arrival in (commands, random.Random(order_seed).sample(commands, len(commands))):
        current = state
        for command in arrival:
            current, _ = apply(current, command)
        results.append(current.hash())
    assert results[0] == results[1]


@quick
@given(**game_params, order_seed=st.integers(0, 2**32), stop_after=st.integers(0, 200))
def test_bargaining_unlocks_the_same_bags_whatever_order_merchants_speak_in(
    seed, agent_seed, players, edition, order_seed, stop_after
):
    """Saying "no offer" and the end of the bargaining time, in any arrival order:
    the same state, and the Sheriff (each Deputy) may decide exactly the bags of those
    who spoke."""
    rnd = random.Random(agent_seed)
    state, _, _ = _random_game(seed, rnd, players, edition, stop_after)
    while not state.is_over() and state.phase.kind != "inspection":
        state, _ = apply(state, {"type": "timeout"})
    if state.is_over():
        return
    waiting = inspection.waiting_to_speak(state)
    speakers = rnd.sample(waiting, rnd.randint(0, len(waiting)))
    commands = [{"type": "say_no_offer", "seat": seat} for seat in speakers]
    ends = not state.phase.bargaining_over and rnd.random() < 0.3
    commands += [{"type": "end_bargaining"}] if ends else []
    results = []
    for arrival in (commands, random.Random(order_seed).sample(commands, len(commands))):
        current = state
        for command in arrival:
            current, _ = apply(current, command)
        results.append(current)
    assert results[0].hash() == results[1].hash()
    over = ends or state.phase.bargaining_over
    for inspector in state.inspectors():
        moves = actions(results[0])[inspector]["moves"]
        decidable = next((m["bags"] for m in moves if m["type"] == "pass_bag"), [])
        undecided = inspection.to_decide(state, inspector)
        unlocked = [m for m in undecided if m in speakers or m not in waiting]
        assert decidable == (undecided if over else unlocked)


# --- the checkers themselves catch planted defects ------------------------------------


def _mid_game():
    state, events, _ = _random_game("ab" * 32, random.Random(5), 4, 2, 40)
    return state, events


def test_leak_checker_catches_another_seats_hand_in_a_view(monkeypatch):
    state, _ = _mid_game()
    original = views._player_view

    def leaky(state, seat, viewer, over):
        player = original(state, seat, viewer, over)
        player["hand"] = views._faces(state, state.hand(seat))
        return player

    monkeypatch.setattr(views, "_player_view", leaky)
    assert check_view(state, 0) != []


def test_perturbation_checker_catches_a_view_that_reveals_the_deck_order(monkeypatch):
    state, events = _mid_game()
    original = views.view_for

    def leaky(state, viewer):
        view = original(state, viewer)
        view["deck_top_is_legal"] = views.card(state.type_of(state.zones["deck"][-1])).is_legal
        view["deck_top"] = state.zones["deck"][-1]
        return view

    monkeypatch.setattr("games.engine.invariants.view_for", leaky)
    assert check_no_leak(state, events, 1, random.Random(1)) != []


def test_perturbation_checker_catches_a_shown_bag_told_to_the_table(monkeypatch):
    """A bag shown to the Sheriff alone (honor among thieves), shown to everyone: the
    view check of another merchant fails."""
    from tests.support.builders import offer, start, to_inspection

    state = to_inspection(
        start(), {1: (["cheese", "pepper", "mead"], "cheese"), 2: (["bread"], "bread")}
    )
    state, deal = offer(state, 1, 0, bag_goods={"silk": 1}, passes=[1])
    state, events = apply(state, {"type": "accept_offer", "seat": 0, "offer": deal, "revision": 1})
    assert [e["type"] for e in events].count("bag_goods_shown") == 1
    assert check_view(state, 2) == []
    to_the_sheriff = views._bags_shown_to
    monkeypatch.setattr(views, "_bags_shown_to", lambda state, viewer: to_the_sheriff(state, 0))
    assert check_view(state, 2) != []


def test_conservation_checker_catches_a_duplicated_card():
    state, _ = _mid_game()
    state.zones["box"].append(state.zones["deck"][0])
    assert any("conservation" in p for p in check_state(state))


# --- the shuffle ----------------------------------------------------------------------


def test_shuffle_is_a_fixed_algorithm():
    """Pinned outputs: if these change, every stored game's verification breaks."""
    seed = "00" * 32
    assert shuffled(list(range(10)), seed, "shuffle:0") == [9, 1, 0, 8, 4, 2, 5, 7, 3, 6]
    assert seed_digest(seed) == ("66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925")


def _documented_shuffle(items, seed_hex, label):
    """The algorithm exactly as docs/engine.md states it, written independently."""
    import hashlib

    words = []
    for block in range(10_000):
        digest = hashlib.sha256(
            bytes.fromhex(seed_hex) + b"|" + label.encode() + b"|" + block.to_bytes(8, "big")
        ).digest()
        words += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
    words.reverse()
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            w = words.pop()
            if w < 2**64 - (2**64 % n):
                break
        j = w % n
        out[i], out[j] = out[j], out[i]
    return out


@given(st.binary(min_size=32, max_size=32), st.integers(0, 60))
@settings(max_examples=30)
def test_shuffle_matches_its_documented_algorithm(seed, size):
    items = list(range(size))
    assert shuffled(items, seed.hex(), "shuffle:3") == _documented_shuffle(
        items, seed.hex(), "shuffle:3"
    )


@given(st.binary(min_size=32, max_size=32), st.integers(0, 300))
def test_shuffle_is_a_permutation(seed, size):
    assert sorted(shuffled(list(range(size)), seed.hex(), "x")) == list(range(size))


# --- stored games ----------------------------------------------------------------------


def test_a_snapshot_stored_before_deputies_and_the_black_market_still_loads():
    """The Django side stores State.to_dict() snapshots: one written before the phase
    fields of the Deputies and the Black Market existed loads with their defaults, and
    plays on to the end."""
    state, _, _ = _random_game("cd" * 32, random.Random(3), 4, 2, 60)
    while state.phase.kind != "inspection":
        state, _ = apply(state, {"type": "timeout"})
    old = json.loads(state.to_json())
    for key in ("calls", "declined"):
        del old["phase"][key]
    assert not {"deputies", "black_market", "claims", "booty_gold"} & set(old)
    assert "black_market_values" not in old["config"]
    loaded = State.from_dict(old)
    assert loaded.hash() == state.hash()
    while not loaded.is_over():
        loaded, _ = apply(loaded, {"type": "timeout"})
    assert check_state(loaded) == []
