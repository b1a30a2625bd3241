"""The organizer's games in the admin tests: three players in Paris, a game moved on
by the organizer's "advance now", a seat loading its bag, and the change form as
posted. The admin's own tests, its secrets and the full record share them."""

from games.core import controls, game_setup, moves
from games.models import Game, Seat

PLAYERS = [
    game_setup.PlayerSpec(n, f"{n.lower()}@example.org", "Europe/Paris")
    for n in ("Ann", "Ben", "Cid")
]


def new_game(edition=1, seed="c0" * 32, **timing) -> Game:
    return game_setup.create_game(
        name="Thursday",
        players=PLAYERS,
        config={"edition": edition, "royal_goods": True},
        seed=seed,
        organizer_email="org@example.org",
        timing={"deadline_mode": "duration", "deadline_timezone": "Europe/Paris", **timing},
    )


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def advance(game, times: int = 1) -> Game:
    for _ in range(times):
        controls.advance_now(game.pk, expected_version=fresh(game).version)
    return fresh(game)


def finish(game) -> Game:
    while fresh(game).status == Game.Status.ACTIVE:
        advance(game)
    return fresh(game)


def load(game, seat_index: int, count: int) -> None:
    """The seat loads ``count`` cards of its hand and declares Apples."""
    state = fresh(game).engine_state()
    cards = sorted(state.hand(seat_index))[:count]
    outcome = moves.submit(
        Seat.objects.get(game=game, index=seat_index),
        {"type": "load_bag", "cards": cards, "declared": "apples", "count": count},
        version=state.phase.since,
        key=f"load{seat_index}",
    )
    assert outcome.accepted, outcome.message


def settings_form(game) -> dict:
    """The change form as posted: the game's settings and its seats' time zones."""
    data = {
        "name": game.name,
        "organizer_email": game.organizer_email,
        "deadline_mode": "none",
        "deadline_timezone": "UTC",
        "away_pauses": "on",
        "away_cap_days": "7",
        "seats-TOTAL_FORMS": "3",
        "seats-INITIAL_FORMS": "3",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for i, seat in enumerate(game.seats.all()):
        data.update({f"seats-{i}-id": seat.pk, f"seats-{i}-game": game.pk})
        data[f"seats-{i}-timezone"] = seat.timezone
        data[f"seats-{i}-language"] = seat.language
    return data
