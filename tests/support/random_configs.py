"""The game configurations property tests draw from: every player count, both
editions, the Black Market."""

from hypothesis import strategies as st

EVERY_KIND_OF_GAME = st.sampled_from(
    [{"players": 3}, {"players": 4, "edition": 1}, {"players": 5, "black_market": True},
     {"players": 6}]
)  # fmt: skip
