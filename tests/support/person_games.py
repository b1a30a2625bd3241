"""One person (Pat) in several games at once, in each situation My games tells
apart: Pat's move, waiting on others, paused, finished, cancelled, a game Pat only
organizes; and random games, played by the engine's random players, for the
no-leak property. The web, mail and browser tests share them."""

import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engine
from games.core import controls, game_setup, moves, timers
from games.engine.self_play import RandomPlayers
from games.models import Game, GameEvent

PAT = "pat@example.org"
OTHERS = ("Ann", "Ben", "Cid", "Dee", "Eve")
SEED = "ab" * 32


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def new_game(name: str, *, seat: int | None = 0, players: int = 3, organizer: str = "", **timing):
    """A 2nd edition game with Pat (as "Pat", at ``PAT`` in Madrid's zone) at ``seat``
    (None: not playing) and others from OTHERS; ``timing``: the Game's deadline fields."""
    others = iter(OTHERS)
    specs = []
    for index in range(players):
        if index == seat:
            specs.append(game_setup.PlayerSpec("Pat", PAT.upper(), "Europe/Madrid"))
        else:
            other = next(others)
            specs.append(game_setup.PlayerSpec(other, f"{other.lower()}@example.org"))
    return game_setup.create_game(
        name=name,
        players=specs,
        config={"edition": 2},
        seed=SEED,
        organizer_email=organizer,
        timing=timing,
    )


def pats_seat(game: Game):
    return game.seats.get(email__iexact=PAT)


def market_move(seat) -> None:
    """The seat's market choice: nothing set aside."""
    since = fresh(seat.game).engine_state().phase.since
    outcome = moves.submit(
        seat, {"type": "set_aside", "cards": []}, version=since, key=f"market{seat.pk}"
    )
    assert outcome.accepted, outcome.message


def sheriff_of(game: Game) -> int:
    return fresh(game).engine_state().sheriff


def played_out(game: Game) -> Game:
    """Every deadline forced until the game ends."""
    for _ in range(200):
        if fresh(game).status != Game.Status.ACTIVE:
            return fresh(game)
        timers.advance(game.pk, force=True)
    raise AssertionError("the game did not end")


def cancelled(game: Game) -> Game:
    return controls.cancel(game.pk, expected_version=fresh(game).version)


def paused(game: Game) -> Game:
    return controls.pause(game.pk, expected_version=fresh(game).version)


def signed_in(client, email: str = PAT):
    """The client signed in as ``email`` (as the sign-in makes the person)."""
    person, _ = get_user_model().objects.get_or_create(username=email, defaults={"email": email})
    client.force_login(person)
    return client


def random_games(rnd: random.Random, count: int) -> dict:
    """``count`` random games Pat plays or only organizes (every player count, both
    editions, the Black Market sometimes), each moved on by random players for a
    random number of steps, some to their end. Returns game id -> (the viewer to
    perturb for: Pat's seat, or None, and the game's events)."""
    made = {}
    players_of = RandomPlayers(rnd, junk=False)
    for number in range(count):
        players = rnd.randint(3, 6)
        edition = 2 if players == 6 else rnd.choice([1, 2])
        seat = rnd.choice([None, *range(players)])
        others = iter(OTHERS)
        specs = [
            game_setup.PlayerSpec("Pat", PAT, "Europe/Madrid")
            if index == seat
            else game_setup.PlayerSpec(next(others), f"p{number}.{index}@example.org")
            for index in range(players)
        ]
        config = {"edition": edition, "black_market": edition == 2 and rnd.random() < 0.3}
        game = game_setup.create_game(
            name=f"Random {number}",
            players=specs,
            config=config,
            seed=f"{number:02x}" * 32,
            organizer_email=PAT if seat is None or rnd.random() < 0.3 else "",
            timing={"deadline_mode": rnd.choice(["none", "duration"])},
        )
        state = game.engine_state()
        events = list(GameEvent.objects.filter(game=game).values_list("data", flat=True))
        for _ in range(rnd.choice([0, 5, 40, 400])):
            if state.is_over():
                break
            try:
                state, new = engine.apply(state, players_of.command(state))
            except engine.EngineError:
                continue
            events += new
        over = {"status": Game.Status.FINISHED, "finished_at": timezone.now()}
        Game.objects.filter(pk=game.pk).update(
            state=state.to_dict(), **(over if state.is_over() else {})
        )
        made[game.pk] = (seat, events)
    return made
