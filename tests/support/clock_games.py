"""Games on an injected clock: three players, the deadline service's timing, started
at T0. The deadline tests (tests/core) and the fault drill's (tests/devtools) start
their games here, so that both read the same clock."""

from datetime import UTC, datetime

from games.core import game_setup
from games.models import Game

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday
PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
TIMING = {
    "deadline_mode": "duration",
    "market_minutes": 60,
    "load_minutes": 120,
    "inspection_minutes": 30,
    "reminder_minutes": 20,
    "miss_alert_after": 2,
}


def new_game(**timing):
    return game_setup.create_game(
        name="Clockwork",
        players=PLAYERS,
        config={"edition": 2},
        seed="d1" * 32,
        organizer_email="org@example.org",
        timing={**TIMING, **timing},
        now=T0,
    )


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)
