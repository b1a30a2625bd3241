"""Standing instructions over random games (hypothesis): random players move through
the service, the clock's deadlines fall, and seats switch their instructions on, off or
to another gold at random times. Every move an instruction makes is among the seat's
moves and accepted, and is called for by the instruction as it stands at that moment
(never by one changed or turned off); nothing an instruction calls for is left undone;
cards and gold are conserved and the stored events replay to the stored state."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.core import game_setup, moves, standing, timers
from games.engine.invariants import check_bargaining, check_state
from games.engine.self_play import RandomPlayers
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
STEPS = 160
GOLDS = (None, None, 1, 2, 3, 5, 8, 13, 99)  # None: the Sheriff's instruction off
CONFIGS = [
    {"players": 3, "edition": 2},
    {"players": 4, "edition": 1},
    {"players": 5, "edition": 2, "black_market": True},
    {"players": 6, "edition": 2},
    {"players": 6, "edition": 2, "black_market": True},
]


def new_game(config: dict, rnd: random.Random) -> Game:
    names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"][: config["players"]]
    return game_setup.create_game(
        name="Random",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in names],
        config={k: v for k, v in config.items() if k != "players"},
        seed=f"{rnd.getrandbits(128):032x}",
        timing={"deadline_mode": "duration", "bargaining_minutes": rnd.choice([0, 60, 60])},
        now=T0,
    )


class Witness:
    """Wraps the path standing instructions move by, and checks each move as it is made."""

    def __init__(self, real):
        self.real = real
        self.made = []

    def __call__(self, game, command, version, now, seats=None, **fields):
        state = game.engine_state()
        seat = command["seat"]
        # The instruction as it stands now, read from the row (not as the caller read it).
        stored = standing.of_game(Game.objects.get(pk=game.pk))
        given = stored.get(seat, standing.Instructions())
        offered = engine.actions(state)[seat]["moves"]
        if command["type"] == "say_no_offer":
            assert given.no_offer, "'no offer' said by an instruction that is off"
            assert {"type": "say_no_offer"} in offered
        else:
            assert command["type"] == "accept_offer"
            offer = state.phase.offers[str(command["offer"])]
            payer, terms = offer["payer"], offer["terms"]
            assert given.pass_gold is not None, "accepted by an instruction that is off"
            assert offer["proposer"] == payer, "a demand accepted by an instruction"
            assert terms["sheriff"] == [{"bag": payer, "action": "pass"}], terms["sheriff"]
            share = terms["gold"] // len(offer.get("deputies", [seat]))
            assert share >= given.pass_gold, (share, given.pass_gold)
            answer = {"offer": command["offer"], "revision": command["revision"]}
            accepts = [m for m in offered if m["type"] == "accept_offer"]
            assert accepts and answer in accepts[0]["offers"]
        outcome = self.real(game, command, version, now, seats, **fields)
        assert outcome.accepted, f"an instruction's move was refused: {outcome.code}"
        problems = check_bargaining(state, list(outcome.events))
        assert not problems, problems
        self.made.append(command["type"])
        return outcome


@pytest.fixture
def witness(monkeypatch):
    spy = Witness(standing.apply_move)
    monkeypatch.setattr(standing, "apply_move", spy)
    return spy


def state_of(game):
    return Game.objects.get(pk=game.pk).engine_state()


def instructions_now(game) -> dict:
    return standing.of_game(Game.objects.get(pk=game.pk))


def step(game, rnd: random.Random, players: RandomPlayers, n: int, now) -> None:
    state = state_of(game)
    roll = rnd.random()
    seat_index = rnd.randrange(state.players)
    seat = game.seats.get(index=seat_index)
    if roll < 0.12:
        standing.change(seat, no_offer=rnd.random() < 0.5, pass_gold=rnd.choice(GOLDS), now=now)
        return
    if roll < 0.15:
        timers.advance(game.pk, now=now, force=True)
        return
    command = players.command(state)
    if command["type"] == "timeout":
        timers.advance(game.pk, now=now, force=True)
        return
    if command["type"] == "end_bargaining":
        return  # the clock's own (timers.end_bargaining); the deadlines suffice here
    mover = game.seats.get(index=command.get("seat", seat_index))
    moves.submit(mover, command, version=state.phase.since, key=f"k{n}", now=now)


@given(rnd=st.randoms(use_true_random=False), config=st.sampled_from(CONFIGS))
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_instructions_move_legally_and_only_as_they_stand(witness, rnd, config):
    game = new_game(config, rnd)
    players = RandomPlayers(rnd)
    now = T0
    for n in range(STEPS):
        now += timedelta(minutes=10)  # the pace of the moves stays within its allowance
        step(game, rnd, players, n, now)
        state = state_of(game)
        assert check_state(state) == []
        if state.is_over():
            break
        # Nothing an instruction calls for is left undone.
        assert standing.due(state, instructions_now(game)) == []
    stored = GameEvent.objects.filter(game=game).order_by("seq")
    events = list(stored.values_list("data", flat=True))
    assert engine.replay(events).hash() == state_of(game).hash()


def test_the_witness_sees_instructions_at_work(witness):
    """The property above is not empty: over a few fixed games, instructions do move."""
    for seed in range(4):
        rnd = random.Random(seed)
        game = new_game(CONFIGS[seed % len(CONFIGS)], rnd)
        players = RandomPlayers(rnd)
        now = T0
        for n in range(STEPS):
            now += timedelta(minutes=10)
            step(game, rnd, players, n, now)
            if state_of(game).is_over():
                break
    assert {"say_no_offer", "accept_offer"} <= set(witness.made)
