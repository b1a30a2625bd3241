"""After the game (games/engine/reveal.py, awards.py): the reveal read from real
event logs, each bag as it was inside; and each award's rule on hand-built
stories, ties and Deputies games included; over random games, the reveal holds
every bag of every round and agrees with what the table saw at each inspection."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import LEGAL_TYPES, apply, new_game
from games.engine.awards import AWARDS, Score, awards
from games.engine.reveal import story
from games.engine.self_play import GameConfig, play_game
from tests.support.builders import SEED
from tests.support.random_configs import EVERY_KIND_OF_GAME


class Played:
    """A game played command by command from its first event, keeping its whole log."""

    def __init__(self, **config):
        self.state, self.log = new_game({"players": 4, **config}, SEED)

    def do(self, kind: str, **fields):
        self.state, events = apply(self.state, {"type": kind, **fields})
        self.log += events
        return events

    def hand(self, seat: int) -> list:
        return [(c, self.state.type_of(c)) for c in self.state.hand(seat)]


def through_the_market(game: Played) -> None:
    while game.state.phase.kind == "market":
        game.do("timeout")


def test_a_truthful_bag_and_a_lying_one_as_they_really_were():
    game = Played()
    through_the_market(game)
    truthful = next(c for c, kind in game.hand(1) if kind in LEGAL_TYPES)
    declared = game.state.type_of(truthful)
    liar_cards = [c for c, kind in game.hand(2)][:2]
    lie = next(k for k in LEGAL_TYPES if k not in {game.state.type_of(c) for c in liar_cards})
    game.do("load_bag", seat=1, cards=[truthful], declared=declared, count=1)
    game.do("load_bag", seat=2, cards=liar_cards, declared=lie, count=2)
    game.do("timeout")  # Dee loads her default
    game.do("end_bargaining")
    game.do("inspect_bag", seat=0, bag=2)
    game.do("pass_bag", seat=0, bag=1)
    bags = {bag["seat"]: bag for bag in story(game.log)["bags"]}
    assert bags[1]["truthful"] and bags[1]["outcome"] == "passed"
    assert bags[1]["contents"] == [declared] and bags[1]["declared"] == declared
    assert not bags[2]["truthful"] and bags[2]["outcome"] == "inspected"
    assert sorted(bags[2]["contents"]) == sorted(game.state.type_of(c) for c in liar_cards)
    assert bags[2]["inspectors"] == [0]
    fine = bags[2]["penalties"]
    assert fine and fine[0]["from"] == 2 and fine[0]["to"] == 0 and fine[0]["gold"] > 0


def test_a_deal_records_who_paid_whom_and_its_bags():
    game = Played()
    through_the_market(game)
    cards = [c for c, _kind in game.hand(1)][:1]
    game.do("load_bag", seat=1, cards=cards, declared="apples", count=1)
    game.do("timeout")
    terms = {
        "gold": 5,
        "stand_goods": [],
        "bag_goods": {},
        "promise": "a favour",
        "sheriff": [{"bag": 1, "action": "pass"}],
    }
    game.do("make_offer", seat=1, to=0, terms=terms)
    game.do("accept_offer", seat=0, offer=1, revision=1)
    deal = story(game.log)["deals"][0]
    assert deal | {"round": 1} == {
        "round": 1,
        "offer": 1,
        "revision": 1,
        "payer": 1,
        "payee": 0,
        "demand": False,
        "deputies": [],
        "gold": 5,
        "goods": [],
        "bags": [{"bag": 1, "action": "pass"}],
        "promise": "a favour",
    }
    passed = next(b for b in story(game.log)["bags"] if b["seat"] == 1)
    assert passed["deal"] == 1 and passed["outcome"] == "passed"


# --- the awards, on hand-built stories -------------------------------------------------


def bag(seat, truthful=True, outcome="passed", smuggled_value=0, sheriff=0, calls=None, rnd=1):
    return {
        "round": rnd,
        "seat": seat,
        "truthful": truthful,
        "outcome": outcome,
        "smuggled_value": smuggled_value,
        "sheriff": sheriff,
        "calls": calls or {},
        "deal": None,
    }


def deal(payer, payee, gold, goods=(), deputies=(), offer=1):
    return {
        "round": 1,
        "offer": offer,
        "payer": payer,
        "payee": payee,
        "gold": gold,
        "goods": list(goods),
        "deputies": list(deputies),
    }


def given_awards(bags=(), deals=()) -> dict:
    return {a["award"]: (a["seats"], a["score"]) for a in awards({"bags": bags, "deals": deals}, 4)}


def test_most_honest_is_a_share_and_equal_shares_tie():
    won = given_awards(
        [bag(1), bag(1, truthful=False), bag(2), bag(2, truthful=False), bag(3, False)]
    )
    assert won["most_honest"] == ([1, 2], Score(1, 2))


def test_nobody_scoring_means_no_award():
    won = given_awards([bag(1, truthful=False, outcome="inspected")])
    assert "most_honest" not in won and "luckiest_liar" not in won and "biggest_briber" not in won
    assert won["most_caught"] == ([1], Score(1))
    assert awards({"bags": [], "deals": []}, 4) == []


def test_smugglers_liars_and_the_caught():
    bags = [
        bag(1, truthful=False, smuggled_value=8),
        bag(1, truthful=False, outcome="inspected", smuggled_value=9),  # caught: not brought in
        bag(2, truthful=False, smuggled_value=8),
        bag(3, truthful=False, outcome="inspected"),
    ]
    won = given_awards(bags)
    assert won["boldest_smuggler"] == ([1, 2], Score(8))
    assert won["luckiest_liar"] == ([1, 2], Score(1))
    assert won["most_caught"] == ([1, 3], Score(1))


def test_bribes_count_goods_at_their_value():
    won = given_awards(deals=[deal(1, 0, 3, goods=["pepper"]), deal(2, 0, 8, offer=2)])
    assert won["biggest_briber"] == ([1], Score(9))  # 3 gold + a Pepper worth 6
    assert won["most_bribed_sheriff"] == ([0], Score(17))


def test_with_deputies_the_booty_counts_half_to_each_deputy_of_the_deal():
    won = given_awards(deals=[deal(1, "booty", 10, deputies=[2, 5]), deal(3, 2, 4, offer=2)])
    assert won["most_bribed_sheriff"] == ([2], Score(9))  # 5 from the Booty and 4 in hand


def test_the_sternest_sheriff_and_deputies_calls():
    bags = [
        bag(1, outcome="inspected", sheriff=0),
        bag(2, outcome="passed", sheriff=0),
        bag(0, outcome="inspected", sheriff=1),
    ]
    assert given_awards(bags)["sternest_sheriff"] == ([1], Score(1, 1))
    deputies = [
        bag(1, outcome="inspected", sheriff=None, calls={2: "inspect", 5: "pass"}),
        bag(3, outcome="passed", sheriff=None, calls={2: "pass", 5: "pass"}),
    ]
    assert given_awards(deputies)["sternest_sheriff"] == ([2], Score(1, 2))


def test_every_award_has_its_rule_in_the_docs():
    docs = (Path(__file__).parents[2] / "docs" / "players.md").read_text()
    for name in AWARDS:
        assert f"`{name}`" in docs, name


# --- over random games ------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    config=EVERY_KIND_OF_GAME,
)
def test_the_reveal_holds_every_bag_and_agrees_with_each_inspection(seed, config):
    result = play_game(GameConfig(**config), "ab" * 16, random.Random(seed))
    told = story(result["log"])
    state = result["state"]
    merchants = config["players"] - (2 if config["players"] == 6 else 1)
    assert len(told["bags"]) == state.config.rounds * merchants
    opened = [e for e in result["log"] if e["type"] == "bag_inspected"]
    inspected = [b for b in told["bags"] if b["outcome"] == "inspected"]
    assert [sorted(b["contents"]) for b in inspected] == [e["contents"] for e in opened]
    for entry in told["bags"]:
        assert len(entry["contents"]) == entry["count"]
    # Every coin and card that changed hands in a deal is told in a deal.
    bribes = [e for e in result["log"] if e.get("reason") == "bribe"]
    assert sum(d["gold"] for d in told["deals"]) == sum(
        e["amount"] for e in bribes if e["type"] == "gold_transferred"
    )
    assert sum(len(d["goods"]) for d in told["deals"]) == sum(
        len(e["cards"]) for e in bribes if e["type"] == "cards_moved"
    )
    for name, rule in AWARDS.items():
        assert all(score.value >= 0 for score in rule(told, config["players"]).values()), name


@pytest.mark.parametrize("players", [3, 6])
def test_awards_on_a_whole_random_game(players):
    result = play_game(GameConfig(players=players), "ef" * 16, random.Random(players))
    given_ = awards(story(result["log"]), players)
    assert given_ and all(a["seats"] for a in given_)
