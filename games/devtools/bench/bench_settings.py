"""The site's settings for the benchmark's servers: its minimal view mounted,
and the per-seat move allowance (games.core.pacing) out of the way, since the
benchmark's players move as fast as they can; the allowance is still counted."""

from sheriff_pbem.settings import *  # noqa: F403

ROOT_URLCONF = "games.devtools.bench.bench_urls"
MOVES_BURST = 10**9
# The benchmark's programs call the API as fast as they can (api_player.py).
API_RATE_REQUESTS = 10**9
