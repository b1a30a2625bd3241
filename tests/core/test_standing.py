"""Standing instructions (games.core.standing): each one acts when its condition
becomes true — the inspection begins, an offer is made or revised, the instruction
is set, the game resumes — as the seat's own move, and never once it is changed or
turned off."""

from datetime import UTC, datetime, timedelta

import pytest

from games import engine
from games.core import controls, game_setup, moves, standing, timers
from games.core.game_writes import ServiceError
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
NAMES = ("Ann", "Ben", "Cid", "Dee")
SIX = (*NAMES, "Eve", "Fay")


def new_game(names=NAMES, **config) -> Game:
    return game_setup.create_game(
        name="Standing",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in names],
        config={"edition": 2, **config},
        seed="c4" * 32,
        timing={"deadline_mode": "duration", "inspection_minutes": 24 * 60},
        now=T0,
    )


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def state_of(game):
    return fresh(game).engine_state()


def to_inspection(game) -> Game:
    """The market and the loading time out (their default moves)."""
    while state_of(game).phase.kind != "inspection":
        timers.advance(game.pk, now=T0, force=True)
    return fresh(game)


def to_load(game) -> Game:
    while state_of(game).phase.kind != "load":
        timers.advance(game.pk, now=T0, force=True)
    return fresh(game)


def seat(game, index):
    return game.seats.get(index=index)


def submit(game, index: int, command: dict, key: str):
    outcome = moves.submit(
        seat(game, index), command, version=state_of(game).phase.since, key=key, now=T0
    )
    assert outcome.accepted, outcome.message
    return outcome


def events(game, kind: str) -> list:
    return list(GameEvent.objects.filter(game=game, type=kind).values_list("data", flat=True))


def instruct(game, index: int, *, no_offer=False, pass_gold=None) -> list:
    return standing.change(seat(game, index), no_offer=no_offer, pass_gold=pass_gold, now=T0)


def bribe(game, merchant: int, gold: int, to: int = 0, key: str = "", **extra) -> int:
    """``merchant`` offers ``gold`` to let their own bag pass; the offer's id."""
    offer_id = state_of(game).phase.next_offer
    sheriff = extra.pop("sheriff", [{"bag": merchant, "action": "pass"}])
    terms = {"gold": gold, "sheriff": sheriff, **extra}
    submit(game, merchant, {"type": "make_offer", "to": to, "terms": terms}, key or f"o{offer_id}")
    return offer_id


def status(game, offer_id: int) -> str:
    return state_of(game).phase.offers[str(offer_id)]["status"]


# --- "no offer" as a merchant -----------------------------------------------------------


def test_no_offer_is_said_as_the_deadline_starts_the_inspection():
    game = new_game()
    instruct(game, 1, no_offer=True)
    instruct(game, 0, no_offer=True)  # the Sheriff has no bag: nothing to say
    game = to_inspection(game)
    said = events(game, "no_offer_said")
    assert [e["seat"] for e in said] == [1]
    assert state_of(game).phase.spoken == [1]


def test_no_offer_is_said_as_the_last_bag_loaded_starts_the_inspection():
    game = to_load(new_game())
    instruct(game, 2, no_offer=True)
    state = state_of(game)
    for index in (1, 2, 3):
        hand = state.hand(index)
        load = {"type": "load_bag", "cards": hand[:1], "declared": "apples", "count": 1}
        submit(game, index, load, f"load{index}")
    assert [e["seat"] for e in events(game, "no_offer_said")] == [2]


def test_no_offer_set_during_the_inspection_is_said_at_once_and_once():
    game = to_inspection(new_game())
    made = instruct(game, 3, no_offer=True)
    assert [o.events[0]["type"] for o in made] == ["no_offer_said"]
    assert instruct(game, 3, no_offer=True) == []  # already said: nothing more
    assert len(events(game, "no_offer_said")) == 1


def test_no_offer_waits_for_nothing_once_the_merchant_has_offered():
    game = to_inspection(new_game())
    bribe(game, 1, 3)
    assert instruct(game, 1, no_offer=True) == []
    assert events(game, "no_offer_said") == []


def test_no_offer_turned_off_before_the_inspection_says_nothing():
    game = new_game()
    instruct(game, 1, no_offer=True)
    instruct(game, 1, no_offer=False)
    to_inspection(game)
    assert events(game, "no_offer_said") == []


def test_no_offer_says_nothing_without_bargaining_time():
    game = new_game()
    Game.objects.filter(pk=game.pk).update(bargaining_minutes=0)
    instruct(game, 1, no_offer=True)
    to_inspection(game)
    assert events(game, "no_offer_said") == []  # every bag is decidable at once


# --- "let pass for N gold" as the Sheriff --------------------------------------------------


def test_the_sheriff_lets_a_bag_pass_for_enough_gold_as_the_offer_arrives():
    game = to_inspection(new_game())
    instruct(game, 0, pass_gold=5)
    gold = state_of(game).gold[:]
    low = bribe(game, 1, 4)
    assert status(game, low) == "open"
    rich = bribe(game, 2, 5)
    state = state_of(game)
    assert status(game, rich) == "accepted" and state.phase.decided[2] == "passed"
    assert (state.gold[0], state.gold[2]) == (gold[0] + 5, gold[2] - 5)
    deal = events(game, "deal_made")[0]
    assert (deal["offer"], deal["sheriff"]) == (rich, 0)


def test_a_revised_offer_that_reaches_the_gold_is_accepted():
    game = to_inspection(new_game())
    instruct(game, 0, pass_gold=6)
    offer_id = bribe(game, 1, 2)
    terms = {"gold": 6, "sheriff": [{"bag": 1, "action": "pass"}]}
    submit(game, 1, {"type": "revise_offer", "offer": offer_id, "terms": terms}, "rev")
    assert status(game, offer_id) == "accepted"
    assert events(game, "deal_made")[0]["revision"] == 2


def test_setting_the_gold_accepts_the_open_offers_that_reach_it_richest_first():
    game = to_inspection(new_game())
    small, big = bribe(game, 1, 3), bribe(game, 1, 7)
    other = bribe(game, 2, 2)
    instruct(game, 0, pass_gold=3)
    assert (status(game, big), status(game, small)) == ("accepted", "lapsed")
    assert status(game, other) == "open"


@pytest.mark.parametrize(
    "extra",
    [
        {"sheriff": [{"bag": 1, "action": "pass"}, {"bag": 2, "action": "pass"}]},
        {"sheriff": [{"bag": 2, "action": "inspect"}]},
        {"sheriff": [{"bag": 2, "action": "pass"}]},  # another merchant's bag
    ],
)
def test_an_offer_asking_more_than_letting_the_own_bag_pass_waits(extra):
    game = to_inspection(new_game())
    submit(game, 2, {"type": "say_no_offer"}, "cid")  # Cid's bag may be named
    instruct(game, 0, pass_gold=1)
    offer_id = bribe(game, 1, 9, **extra)
    assert status(game, offer_id) == "open"


def test_goods_and_a_promise_besides_the_gold_do_not_stop_the_deal():
    game = to_inspection(new_game())
    instruct(game, 0, pass_gold=2)
    offer_id = bribe(game, 1, 2, promise="and a pie", bag_goods={"apples": 1})
    assert status(game, offer_id) == "accepted"


def test_a_demand_is_never_accepted_by_the_sheriffs_instruction():
    game = to_inspection(new_game())
    instruct(game, 1, pass_gold=1)  # Ben's, as the merchant he is: it does nothing
    instruct(game, 0, pass_gold=1)
    demand = state_of(game).phase.next_offer
    terms = {"gold": 5, "sheriff": [{"bag": 1, "action": "pass"}]}
    submit(game, 0, {"type": "make_offer", "to": 1, "terms": terms}, "demand")
    assert status(game, demand) == "open"


def test_a_higher_gold_or_none_stops_the_old_instruction_at_once():
    game = to_inspection(new_game())
    instruct(game, 0, pass_gold=3)
    instruct(game, 0, pass_gold=8)
    first = bribe(game, 1, 5)
    assert status(game, first) == "open"
    instruct(game, 0, pass_gold=None)
    second = bribe(game, 2, 50)
    assert status(game, second) == "open"
    assert events(game, "deal_made") == []


def test_six_players_a_deputy_counts_their_half_of_an_offer_to_both():
    game = new_game(SIX)
    game = to_inspection(game)
    first, second = state_of(game).deputies
    merchant = state_of(game).merchants()[0]
    instruct(game, first, pass_gold=4)
    alone = bribe(game, merchant, 4, to=first)
    assert status(game, alone) == "accepted"
    other = state_of(game).merchants()[1]
    offer_id = state_of(game).phase.next_offer
    terms = {"gold": 7, "sheriff": [{"bag": other, "action": "pass"}]}
    submit(game, other, {"type": "make_offer", "to": "deputies", "terms": terms}, "joint7")
    assert status(game, offer_id) == "open"  # half of 7 is 3: not enough
    revised = {"gold": 8, "sheriff": [{"bag": other, "action": "pass"}]}
    submit(game, other, {"type": "revise_offer", "offer": offer_id, "terms": revised}, "joint8")
    offer = state_of(game).phase.offers[str(offer_id)]
    assert offer["status"] == "open" and offer["accepted"] == [first]  # waits for the other
    instruct(game, second, pass_gold=4)
    assert status(game, offer_id) == "accepted"


# --- when the game is held, and who sees what -------------------------------------------------


def test_a_paused_game_holds_the_instructions_until_it_resumes():
    game = to_inspection(new_game())
    game = controls.pause(game.pk, expected_version=game.version, now=T0)
    assert instruct(game, 1, no_offer=True) == []
    assert events(game, "no_offer_said") == []
    game = fresh(game)
    controls.resume(game.pk, expected_version=game.version, now=T0 + timedelta(hours=1))
    assert [e["seat"] for e in events(game, "no_offer_said")] == [1]


def test_a_finished_game_takes_no_instructions():
    game = new_game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ServiceError):
        instruct(game, 1, no_offer=True)
    assert fresh(game).standing == {}


def test_a_new_player_in_the_seat_does_not_inherit_the_instructions():
    game = new_game()
    instruct(game, 2, no_offer=True, pass_gold=9)
    controls.replace_player(
        seat(game, 2).pk, expected_version=fresh(game).version, name="Zed", email="zed@example.org"
    )
    assert standing.of_game(fresh(game)) == {}


def test_a_new_player_in_the_seat_starts_without_the_black_market_standing_answer():
    """The engine's "claim whenever I can" is the leaving player's choice too: kept, it would
    make the new player's claims for them and tell the table what their stand cannot pay."""
    game = new_game(black_market=True)
    submit(game, 2, {"type": "set_black_market_standing", "standing": True}, "always")
    submit(game, 3, {"type": "set_black_market_standing", "standing": True}, "always-3")
    controls.replace_player(
        seat(game, 2).pk, expected_version=fresh(game).version, name="Zed", email="zed@example.org"
    )
    assert state_of(game).black_market_standing == [3]  # the others keep theirs
    [turned_off] = events(game, "black_market_standing_set")[2:]
    assert (turned_off["seat"], turned_off["standing"]) == (2, False)
    # Without one, the replacement changes nothing in the engine but the note.
    version = fresh(game).version
    controls.replace_player(
        seat(game, 1).pk, expected_version=version, name="Yan", email="yan@example.org"
    )
    assert len(events(game, "black_market_standing_set")) == 3
    assert fresh(game).version == version + 1


def test_the_moves_are_the_seats_own_and_nothing_else_tells_of_an_instruction():
    plain, instructed = new_game(), new_game()
    instruct(instructed, 1, no_offer=True)
    for game in (plain, instructed):
        game = to_inspection(game)
        if game.pk == plain.pk:
            submit(game, 1, {"type": "say_no_offer"}, "by-hand")
    # The same events, field for field, whether by hand or by instruction.
    assert events(plain, "no_offer_said") == events(instructed, "no_offer_said")
    for index in range(4):
        assert engine.view_for(state_of(plain), index) == engine.view_for(
            state_of(instructed), index
        )


def test_due_is_what_the_actions_allow():
    state = engine.new_game({"players": 3, "edition": 2}, "ab" * 32)[0]
    given = {1: standing.Instructions(no_offer=True), 0: standing.Instructions(pass_gold=1)}
    assert standing.due(state, given) == []  # the market: nothing to say yet
