"""What the seat operations answer, built from what the seat may see alone (a
``SeatView``, the engine's projections): pure functions, so that
tests/api/test_api_hides_nothing.py can build them from two states that differ only
in what the seat cannot see, over hundreds of random games, and find them equal."""

from games.engine import project_event
from games.present.seat_page import SeatView


def seat_json(sv: SeatView) -> dict:
    config = sv.view["config"]
    return {
        "game": {
            "id": sv.game.pk,
            "name": sv.game.name,
            "status": sv.game.status,
            "edition": config["edition"],
            "players": len(sv.names),
            "black_market": bool(config.get("black_market")),
        },
        "seat": sv.seat.index,
        "names": sv.names,
        "version": sv.version,
        "deadline": sv.deadline,
        "bargaining_until": sv.bargaining_until,
        "halted": sv.halted,
        "view": sv.view,
    }


def away(seats: list) -> list:
    """The seats whose players said they are away, and when (the page's notes)."""
    return [
        {"seat": s.index, "first_day": s.away_from, "last_day": s.away_until}
        for s in seats
        if s.away_from and s.away_until
    ]


def events_json(state, events: list, seat: int) -> list:
    """The events as ``seat`` may know them (``state``: any state of the game)."""
    return [project_event(state, event, seat) for event in events]
