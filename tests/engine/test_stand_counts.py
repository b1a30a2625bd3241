"""Stand goods given by kind (``stand_counts``): goods of a kind are alike, so an
offer may say how many of each rather than which cards (the page's form does)."""

import pytest

from games.engine import EngineError, apply
from tests.support.builders import do, ids_of, refused, rig, start, terms, to_inspection

SHERIFF = 0


def _inspection():
    state = rig(start(), "stand:1", ["apples", "cheese", "apples", "apples", "pepper"])
    return to_inspection(
        state,
        {1: (["cheese"], "cheese"), 2: (["bread"], "bread"), 3: (["apples"], "apples")},
    )


def _made(state, seat: int, to: int, counts: dict, stand_goods=()) -> list:
    offer_id = state.phase.next_offer
    offered = {**terms(stand_goods=stand_goods, passes=[1]), "stand_counts": counts}
    state = do(state, "make_offer", seat=seat, to=to, terms=offered)
    return state.phase.offers[str(offer_id)]["terms"]["stand_goods"]


def test_a_count_gives_the_first_cards_of_that_kind_on_the_stand():
    state = _inspection()
    apples = ids_of(state, "stand:1", ["apples", "apples", "apples"])
    (pepper,) = ids_of(state, "stand:1", ["pepper"])
    assert _made(state, 1, SHERIFF, {"apples": 2}) == apples[:2]
    # A merchant may give their own contraband; named cards are not counted twice.
    assert _made(state, 1, SHERIFF, {"apples": 1, "pepper": 1}, [apples[0]]) == [
        apples[0],
        apples[1],
        pepper,
    ]
    assert _made(state, 1, SHERIFF, {"apples": 0}) == []


def test_more_than_the_stand_holds_is_refused_and_the_sheriff_sees_no_contraband():
    state = _inspection()
    apples = ids_of(state, "stand:1", ["apples", "apples", "apples"])
    command = {"type": "make_offer", "seat": 1, "to": SHERIFF}
    too_many = {**terms(passes=[1]), "stand_counts": {"apples": 4}}
    refused(state, {**command, "terms": too_many}, "card_not_on_stand")
    named_too = {**terms(stand_goods=apples, passes=[1]), "stand_counts": {"apples": 1}}
    refused(state, {**command, "terms": named_too}, "card_not_on_stand")
    demand = {"type": "make_offer", "seat": SHERIFF, "to": 1}
    pepper = {**terms(passes=[1]), "stand_counts": {"pepper": 1}}
    refused(state, {**demand, "terms": pepper}, "card_not_on_stand")  # face down to him
    assert _made(state, SHERIFF, 1, {"apples": 3}) == apples


def test_counts_that_are_not_counts_of_goods_are_refused():
    state = _inspection()
    command = {"type": "make_offer", "seat": 1, "to": SHERIFF}
    for counts in ({"apples": -1}, {"gold": 1}, {"apples": "2"}, ["apples"], {"apples": True}):
        bad = {**terms(passes=[1]), "stand_counts": counts}
        refused(state, {**command, "terms": bad}, "bad_command")


def test_goods_from_the_bag_are_counted_by_the_same_rule_but_from_one():
    """stand_counts and bag_goods share one check: a kind of goods to a whole count,
    at least 0 for the stand, at least 1 for the bag; each refusal names its term."""
    state = _inspection()
    command = {"type": "make_offer", "seat": 1, "to": SHERIFF}
    for key, counts in (("bag_goods", {"cheese": 0}), ("bag_goods", {"gold": 1}),
                        ("stand_counts", {"apples": -1})):  # fmt: skip
        with pytest.raises(EngineError) as error:
            apply(state, {**command, "terms": {**terms(passes=[1]), key: counts}})
        assert (error.value.code, error.value.detail) == ("bad_command", key)
