"""The archive's replay (games/engine/reveal.py, round_ends): over random games of
every size and both editions, one table a round, each the state the log's replay
reaches at that round's last event, every hand and face-down good in it."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARD_TYPES, replay
from games.engine.reveal import round_ends
from games.engine.self_play import GameConfig, play_game
from tests.support.random_configs import EVERY_KIND_OF_GAME


def kinds(state, cards) -> list:
    return sorted(state.type_of(c) for c in cards)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    config=EVERY_KIND_OF_GAME,
)
def test_each_round_leaves_the_table_the_replay_reaches(seed, config):
    result = play_game(GameConfig(**config), "cd" * 16, random.Random(seed))
    log, final = result["log"], result["state"]
    tables = round_ends(log)
    assert [t["round"] for t in tables] == list(range(1, final.config.rounds + 1))
    starts = [e for e in log if e["type"] == "round_started"]
    ends = [e["seq"] for e in starts[1:]] + [len(log)]
    for table, started, end in zip(tables, starts, ends, strict=True):
        state = replay(log[:end])
        before = replay(log[: started["seq"] + 1]).gold
        if final.config.deputies:
            assert table["sheriff"] is None and table["deputies"] == list(state.deputies)
        else:
            assert table["sheriff"] == started["sheriff"] and table["deputies"] == []
        for seat in table["seats"]:
            index = seat["seat"]
            stand = state.stand(index)
            assert seat["gold"] == state.gold[index] and seat["gold_before"] == before[index]
            assert sorted(seat["hand"]) == kinds(state, state.hand(index))
            assert sorted(seat["stand"] + seat["contraband"]) == kinds(state, stand)
            assert all(CARD_TYPES[k].is_legal for k in seat["stand"])
            assert not any(CARD_TYPES[k].is_legal for k in seat["contraband"])
            assert [c["type"] for c in seat["black_market"]] == [
                c["type"] for c in (state.claims[index] if state.claims else [])
            ]
    last = tables[-1]["seats"]
    assert [s["gold"] for s in last] == final.gold  # the last round's table is the final one
