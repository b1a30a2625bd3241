"""The numbered rule catalogue: every worked example of the rulebooks, the
tie and debt tables, and the rules-decisions.md choices, as given/when/then.

Sources: 1st ed = first-edition-cmon-dice-tower-2016.md (same text as the
Arcane Wonders 2014 book), 2nd ed = second-edition-cmon-2020.md, decisions =
guide/rules-decisions.md. Seats are numbered clockwise; seat 0 is the first
Sheriff, so merchants 1, 2, 3 act in that order.
"""

import random
from collections import Counter

import pytest

from games.engine import (
    EngineError,
    GameConfig,
    actions,
    apply,
    awaiting,
    default_commands,
    inspection,
    new_game,
    project_event,
    view_for,
)
from games.engine.cards import BLACK_MARKET_VALUES
from games.engine.invariants import check_no_leak, check_state, check_view
from games.engine.rng import shuffled
from games.engine.scoring import legal_counts, score_sheets
from tests.support.builders import (
    SEED,
    accept,
    do,
    do_events,
    events_of,
    ids_of,
    load,
    move_top,
    offer,
    offer_status,
    play_out,
    refused,
    rig,
    set_gold,
    start,
    terms,
    to_inspection,
    to_load_phase,
    types_in,
    with_deputies,
)

SHERIFF = 0


def actions_of(state, seat: int) -> list:
    return actions(state)[seat]["moves"]


def ids_in_view(view) -> set:
    """Every card id anywhere in a view."""
    found = set()
    if isinstance(view, dict):
        if isinstance(view.get("id"), int) and "type" in view:
            found.add(view["id"])
        for value in view.values():
            found |= ids_in_view(value)
    elif isinstance(view, list):
        for value in view:
            found |= ids_in_view(value)
    return found


def bonuses(sheet: dict) -> dict:
    return {(b["type"], b["title"]): b["points"] for b in sheet["bonuses"]}


# --- market ----------------------------------------------------------------------------


def test_R01_little_john_market_first_edition():
    """1st ed, Market: 'He discards three cards from his hand, draws those two cards from the
    discard pile, and draws one from the draw pile. Then he places his three discards on top of
    the right-hand discard pile.'"""
    state = start(edition=1)
    state = rig(state, "hand:1", ["chicken", "chicken", "pepper", "mead", "apples", "cheese"])
    state = rig(state, "discard:0", ["bread", "bread", "bread", "chicken", "silk"])
    deck_top = state.zones["deck"][-1]
    right_pile = list(state.zones["discard:1"])
    aside = ids_of(state, "hand:1", ["pepper", "mead", "apples"])

    state, events = do_events(
        state,
        "market_turn",
        seat=1,
        cards=aside,
        draws=["discard:0", "discard:0", "deck"],
        pile=1,
        order=aside,
    )

    expected = ["chicken", "chicken", "chicken", "cheese", "silk", state.type_of(deck_top)]
    assert types_in(state, "hand:1") == sorted(expected)
    assert deck_top in state.hand(1)
    assert types_in(state, "discard:0") == ["bread", "bread", "bread"]
    assert state.zones["discard:1"] == right_pile + aside  # last listed on top
    assert (state.phase.kind, state.phase.seat) == ("market_turn", 2)
    # Discard-pile draws are public; the deck draw is private.
    seen = [project_event(state, e, 2) for e in events_of(events, "cards_moved")]
    public = [e for e in seen if e["reason"] == "discard_draw"]
    assert [c["type"] for e in public for c in e["cards"]] == ["silk", "chicken"]
    private = [e for e in seen if e["reason"] == "market_draw"]
    assert [(e["cards"], e["hidden"]) for e in private] == [([], 1)]


def test_R02_little_john_market_second_edition():
    """2nd ed, Market: 'He decides to set aside 3 other cards from his hand and draw 3 new cards
    from the Goods deck, hoping for more Chickens!'"""
    state = start()
    state = rig(state, "hand:1", ["chicken", "chicken", "pepper", "mead", "apples", "cheese"])
    deck_top3 = state.zones["deck"][-3:]
    kept = ids_of(state, "hand:1", ["chicken", "chicken", "cheese"])
    aside = ids_of(state, "hand:1", ["pepper", "mead", "apples"])

    state = do(state, "set_aside", seat=1, cards=aside)
    assert sorted(state.hand(1)) == sorted(kept + aside)  # nothing moves until all are in
    state = do(state, "set_aside", seat=2, cards=[])
    state = do(state, "set_aside", seat=3, cards=[])

    assert sorted(state.hand(1)) == sorted(kept + deck_top3)
    assert sorted(state.zones["discard:0"]) == sorted(aside)
    assert state.phase.kind == "load"


def test_R03_second_edition_market_collects_set_aside_after_every_merchant():
    """Decisions: 2nd ed 'set-aside cards go face up and are collected into the discard pile
    after every merchant's turn' (2nd ed, Market: 'After all players have taken their turns, the
    Sheriff collects all the cards that have been set aside')."""
    state = start()
    two = state.hand(1)[:2]
    one = state.hand(2)[:1]
    state = do(state, "set_aside", seat=1, cards=two)
    state = do(state, "set_aside", seat=2, cards=one)
    assert state.zones["discard:0"] == []
    state = do(state, "set_aside", seat=3, cards=[])
    assert state.zones["discard:0"] == two + one
    assert all(state.zones[f"aside:{s}"] == [] for s in range(4))
    assert [len(state.hand(s)) for s in range(4)] == [6, 6, 6, 6]


# --- load and declare --------------------------------------------------------------------


@pytest.mark.parametrize("edition", [1, 2])
def test_R04_alan_a_dale_bag(edition):
    """2nd ed, Load Merchant Bag: 'He places 4 Apples and 1 Crossbow ... He would love to toss
    in the Silk he's holding, but he would exceed the 5 Goods limit.'"""
    state = to_load_phase(start(edition=edition))
    state = rig(state, "hand:1", ["apples"] * 4 + ["crossbow", "silk"])
    six = list(state.hand(1))
    refused(
        state,
        {"type": "load_bag", "seat": 1, "cards": six, "declared": "apples", "count": 6},
        "bag_size",
    )
    refused(
        state,
        {"type": "load_bag", "seat": 1, "cards": [], "declared": "apples", "count": 0},
        "bag_size",
    )
    state = load(state, 1, ["apples"] * 4 + ["crossbow"], "apples")
    assert types_in(state, "bag:1") == ["apples"] * 4 + ["crossbow"]
    assert types_in(state, "hand:1") == ["silk"]
    assert state.phase.declarations[1] == {"declared": "apples", "count": 5}


@pytest.mark.parametrize(("edition", "third"), [(1, "cheese"), (2, "bread")])
def test_R05_will_scarlet_declaration(edition, third):
    """2nd ed, Declaration: 'My bag has 4 Chickens in it!' He has to say 4 ... 2 Chickens ... a
    Bread and a Silk'; 'You cannot declare Contraband or mixed Legal Goods.'"""
    state = to_load_phase(start(edition=edition))
    state = rig(state, "hand:1", ["chicken", "chicken", third, "silk", "apples", "apples"])
    cards = ids_of(state, "hand:1", ["chicken", "chicken", third, "silk"])
    command = {"type": "load_bag", "seat": 1, "cards": cards, "declared": "chicken"}

    refused(state, {**command, "count": 3}, "count_mismatch")
    refused(state, {**command, "count": 5}, "count_mismatch")
    refused(state, {**command, "count": 4, "declared": "silk"}, "declared_not_legal")
    refused(state, {**command, "count": 4, "declared": "gouda_cheese"}, "declared_not_legal")
    state, _ = apply(state, {**command, "count": 4})

    assert state.phase.declarations[1] == {"declared": "chicken", "count": 4}
    assert types_in(state, "bag:1") == sorted(["chicken", "chicken", third, "silk"])
    # Sealed: nobody else sees the declaration until every bag is in.
    assert "declaration" not in view_for(state, 2)["players"][1]


def test_R06_bread_declarable_in_three_player_game():
    """Decisions: 'Bread stays declarable in a 3-player game (there is none in the deck; such a
    declaration is a lie).'"""
    state = to_load_phase(start(players=3))
    state = rig(state, "hand:1", ["apples", "cheese"])
    state = load(state, 1, ["apples", "cheese"], "bread")
    assert state.phase.declarations[1] == {"declared": "bread", "count": 2}


# --- inspection: the worked examples -------------------------------------------------------


def test_R07_alan_a_dale_bribe_second_edition():
    """2nd ed, Inspection: 'How about I give you 5 Gold and 2 Apples ...' 'Make it 8 Gold and 2
    Apples and we have a deal.' ... 'If the Sheriff does take a bribe, he cannot inspect the
    bag.'"""
    state = rig(start(), "stand:1", ["apples", "apples"])
    state = to_inspection(
        state,
        {1: (["cheese", "pepper"], "cheese"), 2: (["bread"], "bread"), 3: (["apples"], "apples")},
    )
    apples = list(state.stand(1))
    state, first = offer(state, 1, SHERIFF, gold=5, stand_goods=apples, passes=[1])
    state, demand = offer(state, SHERIFF, 1, gold=8, stand_goods=apples, passes=[1])

    state = accept(state, 1, demand, revision=1)

    assert state.gold[1] == 42 and state.gold[SHERIFF] == 58
    assert types_in(state, "stand:0") == ["apples", "apples"]
    assert types_in(state, "stand:1") == ["cheese", "pepper"]
    assert state.phase.decided[1] == "passed"
    assert offer_status(state, first) == "lapsed"
    refused(state, {"type": "inspect_bag", "seat": SHERIFF, "bag": 1}, "bag_already_decided")
    refused(
        state,
        {"type": "accept_offer", "seat": SHERIFF, "offer": first, "revision": 1},
        "offer_closed",
    )


def test_R08_friar_tuck_bribe_first_edition():
    """1st ed, Inspection: 'How about I give you five Gold and two Apples for your trouble?' ...
    'Make it eight Gold and we have a deal.' ... 'Tuck pays the Sheriff eight coins and two
    Apple cards from his Merchant Stand.'"""
    state = rig(start(edition=1), "stand:1", ["apples", "apples"])
    state = to_inspection(
        state,
        {1: (["cheese", "pepper"], "cheese"), 2: (["bread"], "bread"), 3: (["apples"], "apples")},
    )
    apples = list(state.stand(1))
    state, first = offer(state, 1, SHERIFF, gold=5, stand_goods=apples, passes=[1])
    # "Make it eight Gold": the Sheriff's demand amends the gold of Tuck's offer.
    state, demand = offer(state, SHERIFF, 1, gold=8, stand_goods=apples, passes=[1])

    state = accept(state, 1, demand, revision=1)

    assert state.gold[1] == 42 and state.gold[SHERIFF] == 58
    assert types_in(state, "stand:0") == ["apples", "apples"]
    assert types_in(state, "stand:1") == ["cheese", "pepper"]
    assert state.phase.decided[1] == "passed"
    assert offer_status(state, first) == "lapsed"
    refused(state, {"type": "inspect_bag", "seat": SHERIFF, "bag": 1}, "bag_already_decided")


def test_R09_maid_marion_passes_with_contraband():
    """2nd ed, If The Sheriff Lets You Pass: 'She pulls 3 cards out of her bag: 2 of them were
    Cheese ... faceup. But the 3rd card was Contraband! ... she places it facedown above her
    Stand.'"""
    state = to_inspection(
        start(),
        {
            1: (["apples"], "apples"),
            2: (["cheese", "cheese", "pepper"], "cheese"),
            3: (["chicken"], "chicken"),
        },
    )
    [pepper] = ids_of(state, "bag:2", ["pepper"])

    state, events = do_events(state, "pass_bag", seat=SHERIFF, bag=2)

    assert types_in(state, "stand:2") == ["cheese", "cheese", "pepper"]
    assert state.gold == [50, 50, 50, 50]
    for viewer in (None, 0, 1, 3):
        marion = view_for(state, viewer)["players"][2]
        assert [c["type"] for c in marion["stand"]] == ["cheese", "cheese"]
        assert marion["contraband_count"] == 1
        assert "contraband" not in marion
        assert pepper not in ids_in_view(view_for(state, viewer))
    assert view_for(state, 2)["players"][2]["contraband"] == [{"id": pepper, "type": "pepper"}]
    [moved] = [e for e in events if e["type"] == "cards_moved" and e["reason"] == "passed"]
    seen = project_event(state, moved, 1)
    assert ([c["type"] for c in seen["cards"]], seen["hidden"]) == (["cheese", "cheese"], 1)


@pytest.mark.parametrize("edition", [1, 2])
def test_R10_honest_bag_little_john_and_much(edition):
    """2nd ed / 1st ed, If The Sheriff Inspects: 'exactly 4 Chickens in it ... The Sheriff must
    pay him 8 Gold (2 for each Chicken).'"""
    state = to_inspection(
        start(edition=edition),
        {1: (["chicken"] * 4, "chicken"), 2: (["apples"], "apples"), 3: (["cheese"], "cheese")},
    )
    state, events = do_events(state, "inspect_bag", seat=SHERIFF, bag=1)
    assert state.gold[SHERIFF] == 42 and state.gold[1] == 58
    assert types_in(state, "stand:1") == ["chicken"] * 4
    [inspected] = events_of(events, "bag_inspected")
    assert inspected["honest"] is True


@pytest.mark.parametrize(("edition", "pile"), [(2, 0), (1, 1)])
def test_R11_gilbert_pays_ten(edition, pile):
    """2nd ed, If The Sheriff Inspects: 'only 1 Apple, 1 Cheese, and 2 Mead ... those are
    confiscated ... Gilbert must now pay the Sheriff 10 Gold (2 for the Cheese plus 4 for each
    Mead).'"""
    state = to_inspection(
        start(edition=edition),
        {
            1: (["chicken"], "chicken"),
            2: (["apples", "cheese", "mead", "mead"], "apples"),
            3: (["cheese"], "cheese"),
        },
    )
    pile_before = len(state.zones[f"discard:{pile}"])

    state = do(state, "inspect_bag", seat=SHERIFF, bag=2, pile=pile)

    assert types_in(state, "stand:2") == ["apples"]
    confiscated = state.zones[f"discard:{pile}"][pile_before:]
    assert sorted(state.type_of(c) for c in confiscated) == ["cheese", "mead", "mead"]
    assert state.gold[2] == 40 and state.gold[SHERIFF] == 60  # he pays nothing for the apple


@pytest.mark.parametrize("edition", [1, 2])
def test_R12_third_party_deal_against_gilbert(edition):
    """2nd ed, Honor Among Thieves: 'I will pay you 20 Gold if you agree to let me pass
    unchecked and agree to inspect Gilbert's bag, regardless of what bribes he may offer you!'
    ... 'Now the Sheriff must inspect Gilbert's bag.' (1st ed: Richard at the Lee and Sir Guy)"""
    state = to_inspection(
        start(edition=edition),
        {
            1: (["chicken", "silk"], "chicken"),
            2: (["apples", "cheese", "mead", "mead"], "apples"),
            3: (["cheese"], "cheese"),
        },
    )
    state, gilberts = offer(state, 2, SHERIFF, gold=15, passes=[2])
    state, wills = offer(state, 1, SHERIFF, gold=20, passes=[1], inspects=[2])

    state = accept(state, SHERIFF, wills)

    assert state.phase.decided[1:] == ["passed", "inspected", None]
    assert types_in(state, "stand:1") == ["chicken", "silk"]
    assert types_in(state, "stand:2") == ["apples"]
    assert state.gold == [80, 30, 40, 50]  # 20 bribe + Gilbert's 10 fine
    assert offer_status(state, gilberts) == "lapsed"
    refused(state, {"type": "pass_bag", "seat": SHERIFF, "bag": 2}, "bag_already_decided")
    refused(
        state,
        {"type": "accept_offer", "seat": SHERIFF, "offer": gilberts, "revision": 1},
        "offer_closed",
    )


# --- scoring: the worked examples ----------------------------------------------------------


def test_R13_david_of_doncaster_scores_125():
    """2nd ed, King and Queen Bonus: 'He has 42 Gold ... Cheese King: 15, Chicken Queen: 5 ÷ 2 =
    2.5 Rounded down to 2. Total: 8 + 18 + 3 + 16 + 12 + 9 + 42 + 15 + 2 = 125 Points!'"""
    david = ["apples"] * 4 + ["cheese"] * 6 + ["bread"] + ["chicken"] * 4
    david += ["pepper", "pepper", "crossbow"]
    other = ["apples"] * 10 + ["cheese"] * 2 + ["bread"] * 5 + ["chicken"] * 5
    third = ["apples"] * 6 + ["cheese"] * 3 + ["bread"] * 3 + ["chicken"] * 4

    sheet = score_sheets([42, 0, 0], [david, other, third])[0]

    assert sheet["total"] == 125
    assert sheet["gold"] == 42
    assert sheet["goods_value"] == 8 + 18 + 3 + 16 + 12 + 9
    assert [(g["type"], g["count"], g["value"]) for g in sheet["goods"]] == [
        ("apples", 4, 8),
        ("cheese", 6, 18),
        ("bread", 1, 3),
        ("chicken", 4, 16),
        ("pepper", 2, 12),
        ("crossbow", 1, 9),
    ]
    assert bonuses(sheet) == {("cheese", "king"): 15, ("chicken", "queen"): 2}
    assert (sheet["legal_cards"], sheet["contraband_cards"]) == (15, 3)


def test_R14_gouda_cheese_king():
    """2nd ed, Royal Goods: 'Will has 10 Cheese cards and Maid Marion has 11 ... He has a Gouda
    Cheese card. That brings his total to 12 Cheese ... Will gets to be the Cheese King!'"""
    will = ["cheese"] * 10 + ["gouda_cheese"]
    marion = ["cheese"] * 11
    sheets = score_sheets([0, 0], [will, marion])
    assert sheets[0]["counts"]["cheese"] == 12
    assert bonuses(sheets[0]) == {("cheese", "king"): 15}
    assert bonuses(sheets[1]) == {("cheese", "queen"): 10}
    assert sheets[0]["total"] == 30 + 6 + 15
    assert sheets[1]["total"] == 33 + 10


# --- King and Queen tables ------------------------------------------------------------------


def test_R15_king_tie_splits_king_plus_queen_and_pays_no_queen():
    """2nd ed, King and Queen Bonus: 'If there is a tie for the King's Bonus, add the King and
    Queen bonuses together and divide the total equally ... (rounded down). Do not pay out
    bonuses for second place.'"""
    sheets = score_sheets([0, 0, 0], [["apples"] * 5, ["apples"] * 5, ["apples"] * 3])
    assert [bonuses(s) for s in sheets] == [
        {("apples", "king"): 15},
        {("apples", "king"): 15},
        {},
    ]


def test_R16_three_way_king_tie_rounds_down():
    """2nd ed, King and Queen Bonus: King + Queen 'divide the total equally between all the tied
    players (rounded down)': Cheese (15+10)/3 = 8, Chickens (10+5)/3 = 5."""
    stand = ["cheese"] * 3 + ["chicken"] * 2
    sheets = score_sheets([0, 0, 0, 0], [stand, stand, stand, ["cheese"]])
    for sheet in sheets[:3]:
        assert bonuses(sheet) == {("cheese", "king"): 8, ("chicken", "king"): 5}
    assert bonuses(sheets[3]) == {}


def test_R17_queen_tie_splits_queen_rounded_down():
    """2nd ed, King and Queen Bonus: 'If there is a tie for the Queen's Bonus, divide those
    points equally between the tied players (rounded down).'"""
    bread = score_sheets([0, 0, 0], [["bread"] * 5, ["bread"] * 3, ["bread"] * 3])
    assert [bonuses(s) for s in bread] == [
        {("bread", "king"): 15},
        {("bread", "queen"): 5},
        {("bread", "queen"): 5},
    ]
    chicken = score_sheets([0, 0, 0, 0], [["chicken"] * 4, ["chicken"], ["chicken"], ["chicken"]])
    assert [bonuses(s) for s in chicken] == [
        {("chicken", "king"): 10},
        {("chicken", "queen"): 1},
        {("chicken", "queen"): 1},
        {("chicken", "queen"): 1},
    ]


def test_R18_single_player_with_a_good_is_only_king():
    """Decisions: 'Nobody with zero of a type is King or Queen of it.'"""
    sheets = score_sheets([0, 0, 0], [["apples"] * 2, [], ["pepper"]])
    assert [bonuses(s) for s in sheets] == [{("apples", "king"): 20}, {}, {}]


def test_R19_nobody_is_king_or_queen_of_a_good_nobody_has():
    """Decisions: 'Nobody with zero of a type is King or Queen of it.'"""
    sheets = score_sheets([10, 20, 30], [[], [], []])
    assert [s["bonuses"] for s in sheets] == [[], [], []]
    assert [s["total"] for s in sheets] == [10, 20, 30]


@pytest.mark.parametrize(
    ("royal", "good", "counts_as"),
    [
        ("green_apples", "apples", 2),
        ("golden_apples", "apples", 3),
        ("gouda_cheese", "cheese", 2),
        ("bleu_cheese", "cheese", 3),
        ("rye_bread", "bread", 2),
        ("pumpernickel_bread", "bread", 3),
        ("royal_rooster", "chicken", 2),
    ],
)
def test_R20_royal_goods_count_as_two_or_three(royal, good, counts_as):
    """2nd ed, Royal Goods: 'These cards are worth 2 or 3 Legal Goods (depending on the amount
    of Goods shown on the card)' (card table: Green Apples 2, Golden Apples 3, ...)."""
    assert legal_counts([royal, good])[good] == counts_as + 1
    # One royal beats counts_as plain goods and loses to counts_as + 1 of them.
    beats = score_sheets([0, 0], [[royal], [good] * (counts_as - 1)])
    assert ("king" in {b["title"] for b in beats[0]["bonuses"]}) is True
    ties = score_sheets([0, 0], [[royal], [good] * counts_as])
    assert [b["title"] for b in ties[0]["bonuses"]] == ["king"]
    assert ties[0]["bonuses"][0]["shared_by"] == 2
    assert ties[0]["contraband_cards"] == 1 and ties[0]["legal_cards"] == 0


def test_R21_winner_tie_breaks():
    """2nd ed, Winning the Game: 'If two players tie ..., the player with the most Legal Goods
    wins. If there is still a tie, then the player with the most Contraband Goods wins. If there
    is still a tie, then the victory is shared.'"""
    # Cheese tied: King + Queen (25) split, 12 each. All three total 25.
    sheets = score_sheets([4, 10, 25], [["cheese", "pepper"], ["cheese"], []])
    assert [s["total"] for s in sheets] == [25, 25, 25]
    assert [s["rank"] for s in sheets] == [1, 2, 3]
    assert [s["winner"] for s in sheets] == [True, False, False]
    shared = score_sheets([10, 10], [["cheese"], ["cheese"]])
    assert [(s["rank"], s["winner"]) for s in shared] == [(1, True), (1, True)]


# --- running out of gold -------------------------------------------------------------------


def test_R22_debtor_pays_gold_then_legal_goods_with_least_overpayment():
    """2nd ed, Running Out Of Gold: 'you must give the player Legal Goods from your Merchant
    Stand with a Value at least equal to the amount you owe'; decisions: 'chosen to minimise
    overpayment'. Owes 10 with 3 gold: 7 more from Chicken 4 + Cheese 3 (exact)."""
    state = rig(start(), "stand:1", ["chicken", "cheese", "apples", "pepper"])
    state = to_inspection(
        state,
        {
            1: (["mead", "mead", "apples"], "cheese"),
            2: (["bread"], "bread"),
            3: (["cheese"], "cheese"),
        },
    )
    state = set_gold(state, {1: 3})

    state, events = do_events(state, "inspect_bag", seat=SHERIFF, bag=1)

    assert state.gold[1] == 0 and state.gold[SHERIFF] == 53
    assert types_in(state, "stand:0") == ["cheese", "chicken"]
    assert types_in(state, "stand:1") == ["apples", "pepper"]
    [settled] = events_of(events, "debt_settled")
    assert (settled["amount"], settled["gold"], settled["goods_value"], settled["forgiven"]) == (
        10,
        3,
        7,
        0,
    )


def test_R23_contraband_only_when_legal_goods_are_exhausted():
    """2nd ed, Running Out Of Gold: 'If you do not have enough Legal Goods, you must reveal and
    hand over Contraband to make up the difference.' Owes 10, no gold: Apples 2, then Silk 8."""
    state = rig(start(), "stand:1", ["apples", "pepper", "silk"])
    state = to_inspection(
        state,
        {
            1: (["mead", "mead", "cheese"], "apples"),
            2: (["bread"], "bread"),
            3: (["cheese"], "cheese"),
        },
    )
    state = set_gold(state, {1: 0})

    state = do(state, "inspect_bag", seat=SHERIFF, bag=1)

    assert types_in(state, "stand:0") == ["apples", "silk"]
    assert types_in(state, "stand:1") == ["pepper"]
    assert state.gold[SHERIFF] == 50


def test_R24_leftover_debt_is_forgiven():
    """2nd ed, Running Out Of Gold: 'If you have exhausted all the Goods and Contraband in your
    Merchant Stand to pay a debt, any leftover debt is considered paid.'"""
    state = rig(start(), "stand:1", ["apples"])
    state = to_inspection(
        state,
        {
            1: (["mead", "mead", "cheese"], "apples"),
            2: (["bread"], "bread"),
            3: (["cheese"], "cheese"),
        },
    )
    state = set_gold(state, {1: 1})

    state, events = do_events(state, "inspect_bag", seat=SHERIFF, bag=1)

    assert state.gold[1] == 0 and state.gold[SHERIFF] == 51
    assert types_in(state, "stand:1") == []
    assert types_in(state, "stand:0") == ["apples"]
    [settled] = events_of(events, "debt_settled")
    assert (settled["gold"], settled["goods_value"], settled["forgiven"]) == (1, 2, 7)


def test_R25_sheriff_out_of_gold_pays_an_honest_merchant_with_goods():
    """Decisions: 'This applies to anyone who owes, the Sheriff included.' The Sheriff owes 8
    with 3 gold: 5 more from two Cheese (6) rather than Chicken + Cheese (7)."""
    state = rig(start(), "stand:0", ["cheese", "cheese", "chicken"])
    state = to_inspection(
        state,
        {1: (["chicken"] * 4, "chicken"), 2: (["bread"], "bread"), 3: (["cheese"], "cheese")},
    )
    state = set_gold(state, {SHERIFF: 3})

    state = do(state, "inspect_bag", seat=SHERIFF, bag=1)

    assert state.gold[SHERIFF] == 0 and state.gold[1] == 53
    assert types_in(state, "stand:0") == ["chicken"]
    assert types_in(state, "stand:1") == ["cheese", "cheese"] + ["chicken"] * 4


def test_R26_lying_merchant_pays_fine_with_truthful_goods_just_placed():
    """Decisions: 'truthful goods go to the stand first, then the confiscation, then the fine —
    so the fine may be paid with those just-placed goods.'"""
    state = to_inspection(
        start(),
        {
            1: (["chicken", "chicken", "pepper"], "chicken"),
            2: (["bread"], "bread"),
            3: (["cheese"], "cheese"),
        },
    )
    state = set_gold(state, {1: 0})

    state = do(state, "inspect_bag", seat=SHERIFF, bag=1)

    assert types_in(state, "stand:1") == ["chicken"]
    assert types_in(state, "stand:0") == ["chicken"]
    assert types_in(state, "discard:0") == ["pepper"]
    assert state.gold[SHERIFF] == 50


# --- setup, deck and game length ----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "royal_goods", "size"),
    [
        (3, False, 156),
        (3, True, 162),
        (4, False, 204),
        (4, True, 216),
        (5, False, 204),
        (5, True, 216),
    ],
)
def test_R27_deck_sizes(players, royal_goods, size):
    """2nd ed, Goods Breakdown: 3 players without the '4+' cards; Royal Goods add 12 (6 with 3
    players)."""
    state = start(players=players, royal_goods=royal_goods)
    assert len(state.card_types) == size
    assert len(state.zones["deck"]) == size - 6 * players


def test_R28_three_player_deck_composition():
    """2nd ed, Setting Up The Game: '3 PLAYER GAME ... remove ... 36 Bread, 4 Pepper, 5 Mead,
    and 3 Silk ... 1 Golden Apple, 1 Blue Cheese, 2 Rye Bread, 1 Pumpernickel Bread, and 1 Royal
    Rooster'."""
    state = start(players=3, royal_goods=True)
    assert Counter(state.card_types) == {
        "apples": 48,
        "cheese": 36,
        "chicken": 24,
        "pepper": 18,
        "mead": 16,
        "silk": 9,
        "crossbow": 5,
        "green_apples": 2,
        "golden_apples": 1,
        "gouda_cheese": 2,
        "royal_rooster": 1,
    }


def test_R29_remove_ten_cards_go_to_the_box():
    """2nd ed, Removing Cards Before The Game: 'randomly remove 10 cards from the deck and
    return them to the box without revealing them.'"""
    state = start(remove_ten=True)
    assert len(state.zones["box"]) == 10
    assert len(state.zones["deck"]) == 204 - 10 - 24
    assert view_for(state, 1)["removed_count"] == 10
    assert not set(state.zones["box"]) & ids_in_view(view_for(state, 1))


def test_R30_first_edition_setup_two_discard_piles_of_five():
    """1st ed, Setting Up The Game: 'Turn over five cards from the draw pile to form a discard
    pile. Turn over another five cards ... to form a second discard pile.'"""
    first = start(edition=1)
    assert [len(first.zones["discard:0"]), len(first.zones["discard:1"])] == [5, 5]
    assert len(first.zones["deck"]) == 204 - 24 - 10
    second = start(edition=2)
    assert second.zones["discard:0"] == [] and "discard:1" not in second.zones
    assert len(second.zones["deck"]) == 204 - 24
    seven = start(seven_card_hand=True)
    assert [len(seven.hand(s)) for s in range(4)] == [7, 7, 7, 7]


@pytest.mark.parametrize(("players", "rounds", "times"), [(3, 9, 3), (4, 8, 2), (5, 10, 2)])
@pytest.mark.parametrize("edition", [1, 2])
def test_R31_game_length(players, rounds, times, edition):
    """2nd ed, Game Phases: 'In a three-player game, the game continues until each player has
    been Sheriff 3 times. In a four or five-player game, ... twice.'"""
    assert GameConfig(players=players, edition=edition).rounds == rounds
    state, events = play_out(start(players=players, edition=edition))
    sheriffs = [e["sheriff"] for e in events_of(events, "round_started")]
    assert [0, *sheriffs] == [r % players for r in range(rounds)]
    assert state.sheriff_turns == [times] * players
    # Hands score nothing: each total is gold + stand values + bonuses.
    for sheet in state.phase.scores:
        stand_value = sum(g["value"] for g in sheet["goods"])
        assert sheet["goods_value"] == stand_value
        assert sheet["total"] == sheet["gold"] + stand_value + sum(
            b["points"] for b in sheet["bonuses"]
        )
        assert sheet["gold"] == state.gold[sheet["seat"]]


# --- reshuffles -------------------------------------------------------------------------


def test_R32_first_edition_reshuffle_keeps_top_five_of_each_pile():
    """1st ed, Reshuffling Cards: 'shuffle all but the top five cards from each of the two
    discard piles to recreate the draw pile.'"""
    state = move_top(start(edition=1), "deck", "discard:0", 3)
    state = move_top(state, "deck", "discard:1", 1)
    state = move_top(state, "deck", "box")
    top0, top1 = state.zones["discard:0"][-5:], state.zones["discard:1"][-5:]
    bottoms = state.zones["discard:0"][:-5] + state.zones["discard:1"][:-5]
    aside, kept = state.hand(1)[:2], state.hand(1)[2:]

    state = do(state, "market_turn", seat=1, cards=aside, pile=0)

    drawn = [c for c in state.hand(1) if c not in kept]
    assert len(drawn) == 2 and set(drawn) <= set(bottoms)
    assert sorted(state.zones["deck"] + drawn) == sorted(bottoms)
    assert len(state.zones["deck"]) == 2
    assert state.zones["discard:0"] == top0 + aside
    assert state.zones["discard:1"] == top1


def test_R33_first_edition_no_card_to_be_had_plays_short_handed():
    """Decisions: 'If no card can be had (1st edition: no discard pile holds more than 5 cards),
    the player draws what there is and plays on short-handed.'"""
    state = move_top(start(edition=1), "deck", "box")
    aside = state.hand(1)[:2]
    state = do(state, "market_turn", seat=1, cards=aside, pile=1)
    assert len(state.hand(1)) == 4
    assert state.zones["deck"] == []
    assert len(state.zones["discard:1"]) == 7


def test_R34_second_edition_reshuffles_the_whole_discard_pile():
    """2nd ed, Reshuffling Cards: 'In the event that you run out of cards during the game,
    shuffle all Goods cards in the discard pile to form a new draw pile.'"""
    state = move_top(start(), "deck", "discard:0", 10)
    state = move_top(state, "deck", "box")
    old = list(state.zones["discard:0"])
    aside = state.hand(1)[:1]
    state = do(state, "set_aside", seat=1, cards=aside)
    state = do(state, "set_aside", seat=2, cards=[])
    state = do(state, "set_aside", seat=3, cards=[])
    [drawn] = [c for c in state.hand(1) if c in old]
    assert sorted(state.zones["deck"] + [drawn]) == sorted(old)
    assert state.zones["discard:0"] == aside


def test_R35_second_edition_current_set_aside_cards_are_not_reshuffled():
    """Decisions: 'In the 2nd edition, cards set aside during the current market are not yet in
    the discard pile.'"""
    state = move_top(start(), "deck", "discard:0", 3)
    state = move_top(state, "deck", "box")
    old = list(state.zones["discard:0"])
    aside1, aside2 = state.hand(1)[:2], state.hand(2)[:2]
    state = do(state, "set_aside", seat=1, cards=aside1)
    state = do(state, "set_aside", seat=2, cards=aside2)
    state = do(state, "set_aside", seat=3, cards=[])
    assert len([c for c in state.hand(1) if c in old]) == 2
    assert len([c for c in state.hand(2) if c in old]) == 1
    assert len(state.hand(2)) == 5
    assert sorted(state.zones["discard:0"]) == sorted(aside1 + aside2)
    assert state.zones["deck"] == []


# --- honor among thieves and negotiation refusals -------------------------------------------


def test_R36_promised_bag_goods_that_do_not_exist_are_not_paid():
    """2nd ed, Honor Among Thieves: 'you only have to pay the Sheriff the Goods you promised if
    they actually exist!' Decisions: '... the rest of the deal stands.'"""
    state = to_inspection(
        start(),
        {
            1: (["cheese", "cheese", "pepper"], "cheese"),
            2: (["bread"], "bread"),
            3: (["apples"], "apples"),
        },
    )
    state, deal = offer(state, 1, SHERIFF, gold=2, bag_goods={"silk": 1, "cheese": 1}, passes=[1])
    state = accept(state, SHERIFF, deal)
    assert state.gold[1] == 48 and state.gold[SHERIFF] == 52
    assert types_in(state, "stand:0") == ["cheese"]
    assert types_in(state, "stand:1") == ["cheese", "pepper"]
    assert state.phase.decided[1] == "passed"


def test_R37_promised_stand_goods_that_left_the_stand_are_not_paid():
    """2nd ed, Honor Among Thieves: 'If you promised something to the Sheriff that is not in
    your bag or Merchant Stand, you do not have to pay those Goods.'"""
    state = rig(start(), "stand:1", ["apples"])
    state = to_inspection(
        state,
        {1: (["cheese"], "cheese"), 2: (["pepper"], "apples"), 3: (["bread"], "bread")},
    )
    [apple] = state.stand(1)
    state, first = offer(state, 1, SHERIFF, gold=3, stand_goods=[apple], passes=[1])
    state, second = offer(state, 1, SHERIFF, stand_goods=[apple], inspects=[2])
    state = accept(state, SHERIFF, second)
    assert state.stand(SHERIFF) == [apple]

    state = accept(state, SHERIFF, first)

    assert state.stand(SHERIFF) == [apple]
    assert types_in(state, "stand:1") == ["cheese"]
    assert state.phase.decided[1:] == ["passed", "inspected", None]
    assert state.gold == [50 + 4 + 3, 47, 46, 50]


def test_R89_a_merchant_short_of_promised_bag_goods_shows_the_sheriff_their_bag():
    """2nd ed, Honor Among Thieves: 'you do not have to pay those Goods (though you must prove
    you don't have them by showing the cards in your bag and Stand to the Sheriff).' The
    bag's cards are shown to the Sheriff alone: a recorded fact, in his view and his log;
    the table hears only that they were shown."""
    state = to_inspection(
        start(),
        {
            1: (["cheese", "cheese", "pepper"], "cheese"),
            2: (["bread"], "bread"),
            3: (["apples"], "apples"),
        },
    )
    bag = sorted(state.bag(1))
    state, deal = offer(state, 1, SHERIFF, gold=2, bag_goods={"silk": 1, "cheese": 1}, passes=[1])
    state, events = do_events(state, "accept_offer", seat=SHERIFF, offer=deal, revision=1)

    assert types_in(state, "stand:0") == ["cheese"]  # the cheese is paid, the silk is not
    [shown] = events_of(events, "bag_goods_shown")
    assert shown["payer"] == 1 and shown["to"] == [SHERIFF] and shown["deals"] == [deal]
    assert sorted(shown["cards"]) == bag
    sheriff_line = project_event(state, shown, SHERIFF)
    assert sorted(c["type"] for c in sheriff_line["cards"]) == ["cheese", "cheese", "pepper"]
    [(seat, cards)] = view_for(state, SHERIFF)["shown_bags"].items()
    assert seat == 1 and sorted(c["id"] for c in cards) == bag
    assert [c["type"] for c in cards] == ["cheese", "cheese", "pepper"]
    for seat in (2, 3, None):
        line = project_event(state, shown, seat)
        public = {"payer": 1, "to": [SHERIFF], "deals": [deal], "count": 3}
        assert line == {"seq": shown["seq"], "type": "bag_goods_shown", **public}
        assert "shown_bags" not in view_for(state, seat)
    for seat in (SHERIFF, 1, 2, 3, None):
        assert check_view(state, seat) == []
        assert check_no_leak(state, events, seat, random.Random(7)) == []


def test_R90_promised_bag_goods_all_paid_or_an_opened_bag_need_no_showing():
    """2nd ed, Honor Among Thieves: the proof is owed only for goods that are not paid; an
    inspected bag has been opened before the whole table already."""
    bags = {
        1: (["cheese", "pepper"], "cheese"),
        2: (["bread", "mead"], "bread"),
        3: (["apples"], "apples"),
    }
    state = to_inspection(start(), bags)
    state, paid = offer(state, 1, SHERIFF, bag_goods={"pepper": 1}, passes=[1])
    state, events = do_events(state, "accept_offer", seat=SHERIFF, offer=paid, revision=1)
    assert events_of(events, "bag_goods_shown") == []
    assert types_in(state, "stand:0") == ["pepper"]
    state, opened = offer(state, 2, SHERIFF, bag_goods={"silk": 1}, inspects=[2])
    state, events = do_events(state, "accept_offer", seat=SHERIFF, offer=opened, revision=1)
    assert events_of(events, "bag_goods_shown") == []
    assert view_for(state, SHERIFF).get("shown_bags", {}) == {}


def test_R38_stale_revision_acceptance_is_refused():
    """Decisions: 'every revision gets a new number, and an acceptance must name the number it
    accepts (a stale acceptance is refused).'"""
    state = to_inspection(
        start(), {1: (["cheese"], "cheese"), 2: (["bread"], "bread"), 3: (["apples"], "apples")}
    )
    state, deal = offer(state, 1, SHERIFF, gold=5, passes=[1])
    state = do(state, "revise_offer", seat=1, offer=deal, terms=terms(gold=6, passes=[1]))
    refused(
        state,
        {"type": "accept_offer", "seat": SHERIFF, "offer": deal, "revision": 1},
        "stale_revision",
    )
    state = accept(state, SHERIFF, deal, revision=2)
    assert state.gold[1] == 44 and state.gold[SHERIFF] == 56


def test_R39_offering_more_gold_than_held_is_refused():
    """2nd ed, Inspection: 'You cannot offer ... more Gold than you actually have as part of a
    bribe!'"""
    state = to_inspection(
        start(), {1: (["cheese"], "cheese"), 2: (["bread"], "bread"), 3: (["apples"], "apples")}
    )
    state = set_gold(state, {1: 8})
    refused(
        state,
        {"type": "make_offer", "seat": 1, "to": SHERIFF, "terms": terms(gold=9, passes=[1])},
        "insufficient_gold",
    )
    refused(
        state,
        {"type": "make_offer", "seat": SHERIFF, "to": 1, "terms": terms(gold=9, passes=[1])},
        "insufficient_gold",
    )
    # Gold spent in another deal cannot be paid again.
    state, first = offer(state, 1, SHERIFF, gold=5, passes=[1])
    state, second = offer(state, 1, SHERIFF, gold=5, inspects=[2])
    state = accept(state, SHERIFF, second)
    refused(
        state,
        {"type": "accept_offer", "seat": SHERIFF, "offer": first, "revision": 1},
        "insufficient_gold",
    )


def test_R40_hand_cards_cannot_be_offered():
    """2nd ed, Inspection: 'IMPORTANT: You cannot offer any of the cards in your hand ... as
    part of a bribe!'"""
    state = to_inspection(start(), {1: (["cheese"], "cheese"), 2: (["bread"], "bread")})
    state = rig(state, "hand:1", ["apples", "chicken"])
    hand_card = state.hand(1)[0]
    refused(
        state,
        {
            "type": "make_offer",
            "seat": 1,
            "to": SHERIFF,
            "terms": terms(stand_goods=[hand_card], passes=[1]),
        },
        "hand_cards_not_offerable",
    )


# --- refusals with stable codes ----------------------------------------------------------


def test_R41_setting_aside_six_cards_is_refused():
    """2nd ed, Market: 'you may set aside up to 5 cards from your hand'."""
    second = start()
    refused(
        second,
        {"type": "set_aside", "seat": 1, "cards": list(second.hand(1))},
        "too_many_set_aside",
    )
    first = start(edition=1)
    refused(
        first,
        {"type": "market_turn", "seat": 1, "cards": list(first.hand(1)), "pile": 0},
        "too_many_set_aside",
    )


def test_R42_discard_pile_draw_after_deck_draw_is_refused():
    """1st ed, Market: 'You cannot take some cards from the draw pile, and then decide to take
    cards from the discard piles.'"""
    state = start(edition=1)
    aside = state.hand(1)[:2]
    command = {"type": "market_turn", "seat": 1, "cards": aside, "pile": 0}
    refused(state, {**command, "draws": ["deck", "discard:0"]}, "discard_after_deck")
    refused(state, {**command, "draws": ["discard:1", "deck", "discard:0"]}, "draw_count_mismatch")
    state, _ = apply(state, {**command, "draws": ["discard:1", "deck"]})
    assert len(state.hand(1)) == 6


def test_R43_wrong_phase_wrong_player_and_foreign_cards_are_refused():
    """2nd ed, Market to Inspection: the Sheriff does not play the market; bags are loaded from
    your own hand; only the Sheriff decides bags. Each refusal has a stable code."""
    market = start()
    refused(
        market,
        {
            "type": "load_bag",
            "seat": 1,
            "cards": market.hand(1)[:1],
            "declared": "apples",
            "count": 1,
        },
        "wrong_phase",
    )
    refused(market, {"type": "set_aside", "seat": SHERIFF, "cards": []}, "not_a_merchant")
    refused(
        market, {"type": "set_aside", "seat": 1, "cards": market.hand(2)[:1]}, "card_not_in_hand"
    )
    refused(market, {"type": "pass_bag", "seat": SHERIFF, "bag": 1}, "wrong_phase")
    refused(market, {"type": "market_turn", "seat": 1, "cards": []}, "wrong_phase")
    turn = start(edition=1)
    refused(turn, {"type": "market_turn", "seat": 2, "cards": []}, "not_your_turn")
    loading = to_load_phase(start())
    refused(
        loading,
        {
            "type": "load_bag",
            "seat": 1,
            "cards": loading.hand(2)[:1],
            "declared": "apples",
            "count": 1,
        },
        "card_not_in_hand",
    )
    refused(
        loading,
        {
            "type": "load_bag",
            "seat": SHERIFF,
            "cards": loading.hand(0)[:1],
            "declared": "apples",
            "count": 1,
        },
        "not_a_merchant",
    )
    loading = load(loading, 1, [loading.type_of(loading.hand(1)[0])], "apples")
    refused(
        loading,
        {
            "type": "load_bag",
            "seat": 1,
            "cards": loading.hand(1)[:1],
            "declared": "apples",
            "count": 1,
        },
        "already_submitted",
    )
    inspecting = to_inspection(start(), {})
    refused(inspecting, {"type": "pass_bag", "seat": 1, "bag": 2}, "not_sheriff")
    refused(inspecting, {"type": "inspect_bag", "seat": 2, "bag": 1}, "not_sheriff")
    refused(
        inspecting,
        {"type": "make_offer", "seat": 1, "to": 2, "terms": terms(gold=1, passes=[1])},
        "bad_counterparty",
    )
    refused(inspecting, {"type": "set_aside", "seat": 1, "cards": []}, "wrong_phase")


# --- missed moves -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", [1, 2])
def test_R44_market_default_sets_nothing_aside(edition):
    """Decisions: 'Missed moves ... Market: set nothing aside.'"""
    state = start(edition=edition)
    hands = [sorted(state.hand(s)) for s in range(4)]
    state, events = do_events(state, "timeout")
    assert [sorted(state.hand(s)) for s in range(4)] == hands
    [timed_out] = events_of(events, "timed_out")
    if edition == 2:
        assert timed_out["seats"] == [1, 2, 3] and state.phase.kind == "load"
    else:
        assert timed_out["seats"] == [1]
        assert (state.phase.kind, state.phase.seat) == ("market_turn", 2)


@pytest.mark.parametrize(
    ("hand", "bag", "declared"),
    [
        (
            ["chicken", "chicken", "cheese", "cheese", "apples", "pepper"],
            ["chicken"] * 2,
            "chicken",
        ),
        (["apples", "apples", "apples", "cheese", "cheese", "pepper"], ["apples"] * 3, "apples"),
        (["apples"] * 6, ["apples"] * 5, "apples"),
        (
            ["pepper", "mead", "green_apples", "silk", "crossbow", "mead"],
            ["green_apples"],
            "apples",
        ),
    ],
)
def test_R45_load_default(hand, bag, declared):
    """Decisions: 'the legal type the player holds most of (ties: higher value), up to 5 of it,
    declared truthfully; with no legal card, the single lowest-penalty card, declared as
    Apples.'"""
    state = to_load_phase(start(royal_goods=True))
    state = rig(state, "hand:1", hand)
    [command] = [c for c in default_commands(state) if c["seat"] == 1]
    assert (command["declared"], command["count"]) == (declared, len(bag))
    state = do(state, "timeout")
    assert types_in(state, "bag:1") == sorted(bag)
    assert state.phase.declarations[1] == {"declared": declared, "count": len(bag)}


def test_R46_inspection_timeout_passes_undecided_bags_and_lapses_offers():
    """2nd ed, Inspection Time Limit: 'any Merchants he has not inspected must be allowed to
    pass without bribing him.' Decisions: 'open offers lapse; deals already made stand.'"""
    state = to_inspection(
        start(),
        {
            1: (["cheese", "silk"], "cheese"),
            2: (["bread", "bread"], "bread"),
            3: (["apples", "mead"], "apples"),
        },
    )
    state, deal = offer(state, 1, SHERIFF, gold=5, passes=[1])
    state = accept(state, SHERIFF, deal)
    state, pending = offer(state, 2, SHERIFF, gold=7, passes=[2])

    state, events = do_events(state, "timeout")

    [lapsed] = events_of(events, "offers_lapsed")
    assert (lapsed["offers"], lapsed["reason"]) == ([pending], "deadline")
    assert [(e["seat"], e["deal"]) for e in events_of(events, "bag_passed")] == [
        (2, None),
        (3, None),
    ]
    assert state.gold == [55, 45, 50, 50]
    assert types_in(state, "stand:2") == ["bread", "bread"]
    assert types_in(state, "stand:3") == ["apples", "mead"]
    assert (state.round, state.sheriff, state.phase.kind) == (2, 1, "market")


# --- regressions: known mistakes of other implementations -----------------------------------


def test_R47_regression_no_queen_paid_on_a_king_tie():
    """2nd ed, King and Queen Bonus: on a King tie 'Do not pay out bonuses for second place.'"""
    sheets = score_sheets([0, 0, 0], [["chicken"] * 3, ["chicken"] * 3, ["chicken"] * 2])
    assert sheets[2]["bonuses"] == []
    assert sheets[2]["total"] == 8


def test_R48_regression_king_tie_shares_king_plus_queen_not_king_alone():
    """2nd ed, King and Queen Bonus: 'add the King and Queen bonuses together and divide the
    total'."""
    sheets = score_sheets([0, 0], [["apples"], ["apples"]])
    assert [s["total"] for s in sheets] == [2 + 15, 2 + 15]


def test_R49_regression_nobody_is_king_of_bread_in_three_player_game():
    """Decisions: 'Nobody with zero of a type is King or Queen of it.' (3 players: no Bread in
    the deck at all.)"""
    state, _ = play_out(start(players=3))
    for sheet in state.phase.scores:
        assert all(b["type"] != "bread" for b in sheet["bonuses"])
        assert sheet["counts"]["bread"] == 0


def test_R50_regression_sheriff_does_not_pay_for_truthful_cards_of_a_lying_bag():
    """2nd ed, If The Sheriff Inspects: only 'If you were telling the truth and your bag has
    exactly what you declared' does the Sheriff pay; a lying bag's truthful goods just go to the
    stand."""
    state = to_inspection(
        start(),
        {
            1: (["apples", "apples", "pepper"], "apples"),
            2: (["bread"], "bread"),
            3: (["cheese"], "cheese"),
        },
    )
    state, events = do_events(state, "inspect_bag", seat=SHERIFF, bag=1)
    assert state.gold[SHERIFF] == 54 and state.gold[1] == 46
    assert types_in(state, "stand:1") == ["apples", "apples"]
    assert [e["from"] for e in events_of(events, "gold_transferred")] == [1]
    [inspected] = events_of(events, "bag_inspected")
    assert inspected["honest"] is False


@pytest.mark.parametrize(
    "royal",
    [
        "green_apples",
        "golden_apples",
        "gouda_cheese",
        "bleu_cheese",
        "rye_bread",
        "pumpernickel_bread",
        "royal_rooster",
    ],
)
def test_R51_regression_royal_goods_are_never_declarable(royal):
    """2nd ed, Royal Goods: 'all Goods marked with the Royal Goods icon are considered
    Contraband!'; 'You cannot declare Contraband'."""
    state = to_load_phase(start(royal_goods=True))
    state = rig(state, "hand:1", ["apples"])
    refused(
        state,
        {"type": "load_bag", "seat": 1, "cards": state.hand(1), "declared": royal, "count": 1},
        "declared_not_legal",
    )


def test_R52_regression_royal_good_in_a_bag_declared_as_its_legal_type_is_a_lie():
    """1st ed, Royal Goods: 'If your bag is inspected, they are always confiscated and you must
    pay the indicated fine.'"""
    state = to_inspection(
        start(royal_goods=True),
        {
            1: (["cheese", "gouda_cheese"], "cheese"),
            2: (["bread"], "bread"),
            3: (["apples"], "apples"),
        },
    )
    state = do(state, "inspect_bag", seat=SHERIFF, bag=1)
    assert types_in(state, "stand:1") == ["cheese"]
    assert types_in(state, "discard:0") == ["gouda_cheese"]
    assert state.gold[SHERIFF] == 54 and state.gold[1] == 46


def test_R53_refused_commands_never_touch_the_state():
    """Architecture: 'either raises an error with a stable code (state untouched)'; the returned
    state is a new object even when the command is accepted."""
    state = start()
    before = state.hash()
    new, _ = apply(state, {"type": "set_aside", "seat": 1, "cards": state.hand(1)[:1]})
    assert state.hash() == before and new.hash() != before
    refused(state, {"type": "no_such_move"}, "unknown_command")
    refused(state, {"type": "set_aside", "seat": 9, "cards": []}, "bad_command")
    refused(
        state,
        {"type": "set_aside", "seat": 1, "cards": [state.hand(1)[0]] * 2},
        "duplicate_cards",
    )


def test_R54_sheriff_cannot_unmask_face_down_contraband_by_naming_it():
    """2nd ed, If The Sheriff Lets You Pass: 'All Contraband is kept secret! You must reveal the
    number of Contraband cards ..., but not their type.' Architecture: 'Never expose the
    identity of a card the viewer cannot see.' A Sheriff's demand naming Marion's face-down card
    is refused."""
    state = to_inspection(
        start(),
        {
            1: (["apples"], "apples"),
            2: (["cheese", "pepper"], "cheese"),
            3: (["chicken"], "chicken"),
        },
    )
    state = do(state, "pass_bag", seat=SHERIFF, bag=2)
    [pepper] = ids_of(state, "stand:2", ["pepper"])
    demand = {"type": "make_offer", "seat": SHERIFF, "to": 2}
    # Refused with the same code as a random id, so naming ids cannot probe the stand either.
    refused(
        state, {**demand, "terms": terms(stand_goods=[pepper], passes=[3])}, "card_not_on_stand"
    )
    deck_card = state.zones["deck"][0]
    refused(
        state, {**demand, "terms": terms(stand_goods=[deck_card], passes=[3])}, "card_not_on_stand"
    )
    for viewer in (None, 0, 1, 3):
        assert pepper not in ids_in_view(view_for(state, viewer))


# --- bargaining before the Sheriff decides (decisions: "Bargaining before the Sheriff
# decides"). By email merchants cannot speak before a fast Sheriff acts unless the game
# waits for them: a bag is decidable once its merchant offered or said "no offer", or the
# bargaining time is over.

THREE_BAGS = {
    1: (["apples", "apples"], "apples"),
    2: (["cheese", "silk"], "cheese"),
    3: (["chicken"], "chicken"),
}


def _bargaining(edition: int = 2):
    return to_inspection(start(edition=edition), THREE_BAGS, bargaining=True)


@pytest.mark.parametrize("edition", [1, 2])
def test_R55_sheriff_waits_for_each_merchant_to_speak(edition):
    state = _bargaining(edition)
    for kind in ("pass_bag", "inspect_bag"):
        for bag in (1, 2, 3):
            refused(state, {"type": kind, "seat": SHERIFF, "bag": bag}, "bargaining_open")
    assert [m["type"] for m in actions_of(state, SHERIFF)] == ["make_offer"]

    state = do(state, "say_no_offer", seat=1)  # Alan has nothing to offer
    state, _ = offer(state, 2, SHERIFF, gold=3, passes=[2])  # Marion offers

    assert state.phase.spoken == [1, 2]
    decide = [m for m in actions_of(state, SHERIFF) if m["type"] in ("pass_bag", "inspect_bag")]
    assert [m["bags"] for m in decide] == [[1, 2], [1, 2]]
    refused(state, {"type": "inspect_bag", "seat": SHERIFF, "bag": 3}, "bargaining_open")
    state = do(state, "inspect_bag", seat=SHERIFF, bag=1)
    state = do(state, "pass_bag", seat=SHERIFF, bag=2)
    assert state.phase.decided[1:] == ["inspected", "passed", None]


def test_R56_bargaining_time_running_out_unlocks_every_bag():
    state = _bargaining()
    state, events = do_events(state, "end_bargaining")
    assert [e["type"] for e in events] == ["bargaining_ended"]
    assert state.phase.bargaining_over
    refused(state, {"type": "end_bargaining"}, "bargaining_over")
    for bag in (1, 2, 3):
        state = do(state, "pass_bag", seat=SHERIFF, bag=bag)
    assert state.round == 2  # every bag decided: the round is over


def test_R57_sheriff_demands_and_accepts_at_once():
    """'The Sheriff may make demands, accept offers and send notes at once.'"""
    state = _bargaining()
    state, demand = offer(state, SHERIFF, 1, gold=2, passes=[1])  # a demand does not unlock
    refused(state, {"type": "pass_bag", "seat": SHERIFF, "bag": 1}, "bargaining_open")
    state = accept(state, 1, demand)  # Alan pays for his own bag: he has had his say
    assert state.phase.decided[1] == "passed"
    state, bribe = offer(state, 3, SHERIFF, gold=4, passes=[3])
    state = accept(state, SHERIFF, bribe)
    assert state.phase.decided[1:] == ["passed", None, "passed"]
    assert state.gold == [56, 48, 50, 46]


def test_R57b_a_merchant_may_refuse_a_demand_only_the_one_it_is_made_to():
    """Issue 31: a demand could only be left to lapse. Whom an offer waits for may
    refuse it: it closes, the table hears it, and it can no longer be accepted."""
    state = _bargaining()
    state, demand = offer(state, SHERIFF, 1, gold=2, passes=[1])
    for seat, code in ((2, "not_offer_recipient"), (SHERIFF, "not_offer_recipient")):
        refused(state, {"type": "refuse_offer", "seat": seat, "offer": demand}, code)
    assert {"type": "refuse_offer", "offers": [demand]} in actions(state)[1]["moves"]
    state, events = do_events(state, "refuse_offer", seat=1, offer=demand)
    assert events_of(events, "offer_refused") == [
        {
            "seq": events[0]["seq"],
            "type": "offer_refused",
            "offers": [demand],
            "seat": 1,
            "demand": True,
        }
    ]
    assert offer_status(state, demand) == "refused"
    refused(
        state, {"type": "accept_offer", "seat": 1, "offer": demand, "revision": 1}, "offer_closed"
    )
    refused(state, {"type": "refuse_offer", "seat": 1, "offer": demand}, "offer_closed")
    assert state.gold == [50, 50, 50, 50]


def test_R58_a_third_party_deal_waits_for_the_merchant_whose_bag_it_decides():
    """Honor Among Thieves, asynchronously: Will may pay to have Gilbert inspected, but not
    before Gilbert could answer with an offer of his own (or said he has none)."""
    state = _bargaining()
    state, wills = offer(state, 1, SHERIFF, gold=20, passes=[1], inspects=[2])
    accepting = {"type": "accept_offer", "seat": SHERIFF, "offer": wills, "revision": 1}
    refused(state, accepting, "bargaining_open")
    state = do(state, "say_no_offer", seat=2)
    state = apply(state, accepting)[0]
    assert state.phase.decided[1:] == ["passed", "inspected", None]


def test_R59_saying_no_offer_is_a_merchants_once_for_an_undecided_bag():
    state = _bargaining()
    refused(state, {"type": "say_no_offer", "seat": SHERIFF}, "not_a_merchant")
    state = do(state, "say_no_offer", seat=1)
    refused(state, {"type": "say_no_offer", "seat": 1}, "already_spoken")
    state, _ = offer(state, 2, SHERIFF, gold=1, passes=[2])
    refused(state, {"type": "say_no_offer", "seat": 2}, "already_spoken")
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    refused(state, {"type": "say_no_offer", "seat": 1}, "bag_already_decided")
    # A merchant who said "no offer" may still offer later, about any undecided bag.
    state = do(state, "say_no_offer", seat=3)
    state, later = offer(state, 3, SHERIFF, gold=2, passes=[3])
    assert offer_status(state, later) == "open"
    refused(to_load_phase(start()), {"type": "say_no_offer", "seat": 1}, "wrong_phase")
    refused(to_load_phase(start()), {"type": "end_bargaining"}, "wrong_phase")


def test_R60_deadline_passes_undecided_bags_even_while_bargaining():
    """Decisions: at the inspection deadline undecided bags pass with no bribe."""
    state, events = do_events(_bargaining(), "timeout")
    assert [e["seat"] for e in events_of(events, "bag_passed")] == [1, 2, 3]
    assert state.round == 2


def test_R61_who_spoke_is_public_and_only_merchants_waited_for_may_say_no_offer():
    state = do(_bargaining(), "say_no_offer", seat=2)
    for viewer in (None, 0, 1, 2, 3):
        view = view_for(state, viewer)
        assert [view["players"][s]["spoken"] for s in (1, 2, 3)] == [False, True, False]
        assert view["bargaining_over"] is False
    assert {"type": "say_no_offer"} in actions_of(state, 1)
    assert {"type": "say_no_offer"} not in actions_of(state, 2)
    assert {"type": "say_no_offer"} not in actions_of(state, SHERIFF)
    state = do(state, "end_bargaining")
    assert {"type": "say_no_offer"} not in actions_of(state, 1)  # nothing left to unlock


# --- 1st edition: the Sheriff orders confiscated goods (decisions: "1st edition: confiscated
# goods"). 1st ed, If The Sheriff Inspects: 'The Sheriff takes all of those Goods and places
# them on one of the discard piles, in any order he chooses.' The last card placed is the top,
# the card the next merchant may draw first.

SMUGGLER = {
    1: (["chicken"], "chicken"),
    2: (["apples"], "apples"),
    3: (["apples", "crossbow", "pepper", "silk"], "apples"),
}


def _top_types(state, pile: int, count: int = 3) -> list:
    """The top ``count`` cards of a discard pile, top first."""
    return [state.type_of(c) for c in state.zones[f"discard:{pile}"][::-1][:count]]


@pytest.mark.parametrize(
    ("order", "top_first"),
    [
        (None, ["pepper", "silk", "crossbow"]),
        ("lowest_on_top", ["pepper", "silk", "crossbow"]),
        ("highest_on_top", ["crossbow", "silk", "pepper"]),
        (["pepper", "crossbow", "silk"], ["silk", "crossbow", "pepper"]),
        (["silk"], ["silk", "pepper", "crossbow"]),
    ],
)
def test_R62_sheriff_chooses_the_order_of_confiscated_goods(order, top_first):
    """1st ed: '... places them on one of the discard piles, in any order he chooses.' Unsaid,
    the order is lowest value on top; a ranking puts the kinds it lists above the others,
    the last listed on top."""
    state = to_inspection(start(edition=1), SMUGGLER)
    chosen = {} if order is None else {"order": order}
    state = do(state, "inspect_bag", seat=SHERIFF, bag=3, pile=1, **chosen)
    assert _top_types(state, 1) == top_first
    assert types_in(state, "stand:3") == ["apples"]
    assert state.gold[3] == 50 - 12


def test_R63_an_order_that_is_not_one_is_refused():
    state = to_inspection(start(edition=1), SMUGGLER)
    command = {"type": "inspect_bag", "seat": SHERIFF, "bag": 3, "pile": 0}
    for order in ("random", ["pepper", "pepper"], ["dragon"], 3, {"pepper": 1}):
        refused(state, {**command, "order": order}, "bad_order")
    # A merchant does not choose where or how confiscated goods go.
    offering = {"type": "make_offer", "seat": 1, "to": SHERIFF}
    inspecting = {"bag": 3, "action": "inspect", "order": "highest_on_top"}
    refused(state, {**offering, "terms": {"sheriff": [inspecting]}}, "bad_command")


def test_R64_the_sheriff_orders_the_goods_confiscated_by_every_deal_he_accepts():
    """'Every command by which the Sheriff inspects takes the pile and the order': accepting a
    deal whose action inspects a bag takes them too."""
    state = to_inspection(start(edition=1), SMUGGLER)
    state, bribe = offer(state, 1, SHERIFF, gold=5, passes=[1], inspects=[3])
    state = do(
        state,
        "accept_offer",
        seat=SHERIFF,
        offer=bribe,
        revision=1,
        pile=0,
        order="highest_on_top",
    )
    assert _top_types(state, 0) == ["crossbow", "silk", "pepper"]


def test_R65_a_demand_accepted_by_a_merchant_stacks_as_the_sheriff_said_or_lowest_on_top():
    """Decisions: 'When an inspection is triggered by someone else accepting a deal, the
    Sheriff's default order applies: lowest value on top' — unless his demand said otherwise."""
    for given, top_first in ((None, ["pepper", "silk", "crossbow"]), ("highest_on_top", None)):
        state = to_inspection(start(edition=1), SMUGGLER)
        action = {"bag": 3, "action": "inspect", "pile": 1}
        if given:
            action["order"] = given
        demand = {"gold": 4, "sheriff": [{"bag": 1, "action": "pass"}, action]}
        state = do(state, "make_offer", seat=SHERIFF, to=1, terms=demand)
        state = accept(state, 1, 1)
        assert _top_types(state, 1) == (top_first or ["crossbow", "silk", "pepper"])


@pytest.mark.parametrize(("order", "drawn"), [(None, "pepper"), ("highest_on_top", "crossbow")])
def test_R66_the_confiscation_order_decides_the_next_market_draw(order, drawn):
    """1st ed, Market: a merchant may draw 'from the top of either discard pile'. The Sheriff's
    order — not the smuggler's loading order — decides what the next merchant can take."""
    state = to_inspection(start(edition=1), SMUGGLER)
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    state = do(state, "pass_bag", seat=SHERIFF, bag=2)
    chosen = {} if order is None else {"order": order}
    state = do(state, "inspect_bag", seat=SHERIFF, bag=3, pile=1, **chosen)
    # Round 2: Sheriff 1; the market starts at his left, with seat 2.
    assert (state.round, state.phase.kind, state.phase.seat) == (2, "market_turn", 2)
    top = state.zones["discard:1"][-1]
    assert state.type_of(top) == drawn
    state = do(state, "market_turn", seat=2, cards=state.hand(2)[:1], draws=["discard:1"], pile=0)
    assert top in state.hand(2)


# --- six players: Deputies and Booty (2nd ed, 6th Player Rule; decisions: "Six players:
# Deputies"). Seats in the rulebook's example: Little John 0, Maid Marion 1, Gilbert 2, David
# of Doncaster 3, Alan-a-Dale 4, Will Scarlet 5.

JOHN, MARION, GILBERT, DAVID, ALAN, WILL = range(6)


def _six(first: int = JOHN, second: int = MARION, **options):
    return with_deputies(start(players=6, **options), first, second)


def _offer_to(state, seat, to, **offer_terms):
    """``seat`` offers to ``to`` (a Deputy, or "deputies"); returns (state, offer id)."""
    offer_id = state.phase.next_offer
    state = do(state, "make_offer", seat=seat, to=to, terms=terms(**offer_terms))
    return state, offer_id


def test_R67_six_players_need_the_second_edition():
    """2nd ed: 'for 3 to 6 players'; the 6th player rule is a 2nd-edition rule. Decisions: '1st
    edition: 3-5 players'."""
    with pytest.raises(EngineError) as error:
        GameConfig(players=6, edition=1)
    assert error.value.code == "invalid_config"
    assert "2nd edition" in error.value.message
    for players in (2, 7):
        with pytest.raises(EngineError) as error:
            GameConfig(players=players)
        assert error.value.code == "invalid_config"
    assert GameConfig(players=6).rounds == 9


def test_R68_deputy_deck_two_deputies_reshuffled_every_three_rounds_nine_rounds():
    """2nd ed, 6th Player: 'Shuffle the Deputy cards and draw 2 from the top ... After 3 rounds,
    each player will have acted as Deputy once. Shuffle the Deputy cards, create a new deck'; 'The
    game ends when the Deputy deck has run out for the 3rd time.' The deck comes from the seed."""
    state, setup = new_game({"players": 6}, SEED)
    state, events = play_out(state)
    events = setup + events
    shuffles = events_of(events, "deputy_deck_shuffled")
    assert [e["number"] for e in shuffles] == [0, 1, 2]
    for shuffle in shuffles:
        assert shuffle["order"] == shuffled(list(range(6)), SEED, f"deputies:{shuffle['number']}")
    rounds = events_of(events, "round_started")
    assert [r["round"] for r in rounds] == list(range(1, 10))
    for cycle in range(3):
        order = shuffles[cycle]["order"][::-1]  # top first
        drawn = [r["deputies"] for r in rounds[3 * cycle : 3 * cycle + 3]]
        assert drawn == [order[0:2], order[2:4], order[4:6]]
        assert all(r["sheriff"] is None for r in rounds)
    assert state.sheriff_turns == [3] * 6 and state.round == 9
    # Each round: 4 merchants, clockwise from the seat after the first-drawn Deputy.
    markets = [e for e in events_of(events, "timed_out") if e["phase"] == "market"]
    for started, market in zip(rounds, markets, strict=True):
        first, second = started["deputies"]
        clockwise = [(first + k) % 6 for k in range(1, 6)]
        assert market["seats"] == [s for s in clockwise if s != second]
    assert len(state.phase.scores) == 6


def test_R69_little_john_and_maid_marion_deputies_example():
    """2nd ed, 6th Player, Example: Gilbert passes; Alan-a-Dale's 12 Gold to the Booty; Maid
    Marion alone takes Will Scarlet's 8 Gold; both Deputies open David's honest bag and each pays
    half the Penalty; 'Little John and Maid Marion now share the amount collected on the Booty
    tile, each receiving 6 Gold.'"""
    state = to_inspection(
        _six(),
        {
            GILBERT: (["apples", "apples"], "apples"),
            DAVID: (["chicken"] * 3, "chicken"),
            ALAN: (["apples", "apples", "crossbow"], "apples"),
            WILL: (["cheese", "silk"], "cheese"),
        },
    )
    assert state.merchants() == [GILBERT, DAVID, ALAN, WILL]
    # Both Deputies let Gilbert pass without a bribe.
    state = do(state, "pass_bag", seat=JOHN, bag=GILBERT)
    assert state.phase.decided[GILBERT] is None  # one call is not a decision
    state = do(state, "pass_bag", seat=MARION, bag=GILBERT)
    assert state.phase.decided[GILBERT] == "passed"
    # Both Deputies ask David for a bribe (a joint demand, to the Booty); he does not
    # accept; Little John calls "inspect", then Maid Marion: they open his bag together.
    joint = state.phase.next_offer
    state = do(
        state, "make_offer", seat=JOHN, to=DAVID, joint=True, terms=terms(gold=4, passes=[DAVID])
    )
    state = accept(state, MARION, joint)
    assert offer_status(state, joint) == "open"  # David has not accepted
    state = do(state, "inspect_bag", seat=JOHN, bag=DAVID)
    assert offer_status(state, joint) == "lapsed"  # it bound Little John's call
    state, events = do_events(state, "inspect_bag", seat=MARION, bag=DAVID)
    [opened] = events_of(events, "bag_inspected")
    assert (opened["honest"], opened["by"]) == (True, [JOHN, MARION])
    assert state.gold[JOHN] == state.gold[MARION] == 47 and state.gold[DAVID] == 56
    # Alan-a-Dale: the 3 of them agree on a bribe of 12 Gold, placed on the Booty tile.
    state, bribe = _offer_to(state, ALAN, "deputies", gold=12, passes=[ALAN])
    state, agreed = do_events(state, "accept_offer", seat=MARION, offer=bribe, revision=1)
    assert [e["type"] for e in agreed] == ["offer_agreed"] and state.gold[ALAN] == 50
    state = accept(state, JOHN, bribe)
    assert state.phase.decided[ALAN] == "passed"
    assert (state.booty_gold, state.gold[ALAN]) == (12, 38)
    assert view_for(state, WILL)["booty"] == {"gold": 12, "goods": []}
    # Will Scarlet: Little John lets him pass; Maid Marion deals with him alone: 8 Gold.
    state = do(state, "pass_bag", seat=JOHN, bag=WILL)
    state, alone = _offer_to(state, WILL, MARION, gold=8, passes=[WILL])
    state, events = do_events(state, "accept_offer", seat=MARION, offer=alone, revision=1)
    [paid] = [e for e in events_of(events, "gold_transferred") if e["reason"] == "bribe"]
    assert (paid["from"], paid["to"], paid["amount"]) == (WILL, MARION, 8)
    # The round is over: the Booty is shared, 6 Gold each.
    [shared] = events_of(events, "booty_shared")
    assert (shared["deputies"], shared["gold"], shared["gold_out"]) == ([JOHN, MARION], 6, 0)
    assert state.gold == [53, 61, 50, 56, 38, 42]
    assert state.booty_gold == 0 and state.round == 2
    assert check_state(state) == []


def test_R70_both_deputies_inspect_an_honest_bag_each_pays_half():
    """2nd ed, 6th Player: 'If the Merchant was telling the truth, then each Deputy pays half of
    the Penalty to the Merchant using their own Gold (not from the Booty).'"""
    state = to_inspection(_six(), {DAVID: (["cheese"] * 5, "cheese")})
    state = set_gold(state, {JOHN: 3})
    state = rig(state, "stand:0", ["apples", "apples"])
    state = do(state, "inspect_bag", seat=MARION, bag=DAVID)
    state, events = do_events(state, "inspect_bag", seat=JOHN, bag=DAVID)
    debts = events_of(events, "debt_settled")
    assert [(d["debtor"], d["creditor"], d["amount"]) for d in debts] == [
        (JOHN, DAVID, 5),
        (MARION, DAVID, 5),
    ]
    # Little John runs out of gold: 3 gold and an Apple (he gives no more than needed).
    assert (debts[0]["gold"], debts[0]["goods_value"]) == (3, 2)
    assert state.gold[JOHN] == 0 and state.gold[MARION] == 45 and state.gold[DAVID] == 58
    assert types_in(state, "stand:3") == ["apples"] + ["cheese"] * 5


def test_R71_both_deputies_inspect_a_liar_the_fine_goes_to_the_booty():
    """2nd ed, 6th Player: 'If the Merchant was lying, the money received is placed on the Booty
    tile.' Decisions: 'a liar's fines go to the Booty', shared at the end of Inspection."""
    state = to_inspection(_six(), {ALAN: (["apples", "silk", "mead"], "apples")})
    state = do(state, "inspect_bag", seat=JOHN, bag=ALAN)
    state = do(state, "inspect_bag", seat=MARION, bag=ALAN)
    assert (state.booty_gold, state.gold[ALAN], state.gold[JOHN]) == (8, 42, 50)
    assert types_in(state, "discard:0") == ["mead", "silk"]
    state, events = do_events(state, "timeout")
    [shared] = events_of(events, "booty_shared")
    assert shared["gold"] == 4
    assert state.gold[JOHN] == 54 and state.gold[MARION] == 54


@pytest.mark.parametrize(("honest", "john", "alan"), [(True, 44, 56), (False, 58, 42)])
def test_R72_one_deputy_inspects_alone_and_pays_or_receives_alone(honest, john, alan):
    """2nd ed, 6th Player: 'Only 1 Deputy wants to inspect the bag, while the other is willing to
    let the Merchant pass. In this case, the Deputy who wants to inspect the bag acts on their
    own ... If they open the Merchant's Bag, they will pay or receive any Penalty on their own.'"""
    bag = ["apples"] * 3 if honest else ["apples", "pepper", "silk"]
    state = to_inspection(_six(), {ALAN: (bag, "apples")})
    state = do(state, "pass_bag", seat=MARION, bag=ALAN)
    state, events = do_events(state, "inspect_bag", seat=JOHN, bag=ALAN)
    [opened] = events_of(events, "bag_inspected")
    assert (opened["honest"], opened["by"]) == (honest, [JOHN])
    assert (state.gold[JOHN], state.gold[MARION], state.gold[ALAN]) == (john, 50, alan)
    assert state.booty_gold == 0


def test_R73_an_odd_booty_loses_its_odd_coin_and_discards_its_odd_card():
    """2nd ed, 6th Player: 'the 2 Deputies evenly share all the Gold and Goods cards placed on
    the Booty tile. Any leftover Gold or cards must be discarded'. Decisions: 'gold split, an odd
    coin leaves the game; goods dealt alternately from the highest value, starting with the
    first-drawn Deputy, an odd last card to the discard pile.'"""
    state = rig(_six(MARION, JOHN), "stand:4", ["apples", "cheese", "chicken"])
    state = to_inspection(state, {ALAN: (["bread"], "bread")})
    goods = list(state.stand(ALAN))
    state, bribe = _offer_to(state, ALAN, "deputies", gold=13, stand_goods=goods, passes=[ALAN])
    state = accept(state, JOHN, bribe)
    state = accept(state, MARION, bribe)
    assert state.booty_gold == 13 and types_in(state, "booty") == ["apples", "cheese", "chicken"]
    state, events = do_events(state, "timeout")
    [shared] = events_of(events, "booty_shared")
    assert (shared["deputies"], shared["gold"], shared["gold_out"]) == ([MARION, JOHN], 6, 1)
    assert [[state.type_of(c) for c in share] for share in shared["goods"]] == [
        ["chicken"],
        ["cheese"],
    ]
    assert [state.type_of(c) for c in shared["discarded"]] == ["apples"]
    assert state.gold[MARION] == 56 and state.gold[JOHN] == 56 and state.gold_out == 1
    assert "chicken" in types_in(state, "stand:1") and "cheese" in types_in(state, "stand:0")
    assert state.zones["discard:0"][-1] == shared["discarded"][0]
    assert sum(state.gold) + state.gold_out == 300 and check_state(state) == []


def test_R74_an_offer_to_one_deputy_binds_only_that_deputy():
    """Decisions: 'to one Deputy (that one accepts; paid to them; binds only their own decision
    on that bag)'; 'to "the Deputies" (both must accept; payment goes to the Booty; binds both)'.
    A Deputy may demand for themself, or for both (then the other Deputy must accept too)."""
    state = to_inspection(
        _six(), {GILBERT: (["apples"], "apples"), DAVID: (["cheese", "mead"], "cheese")}
    )
    state, one = _offer_to(state, GILBERT, JOHN, gold=3, passes=[GILBERT])
    refused(
        state,
        {"type": "accept_offer", "seat": MARION, "offer": one, "revision": 1},
        "not_offer_recipient",
    )
    state = accept(state, JOHN, one)
    assert inspection.call_of(state, GILBERT, JOHN) == "pass"
    assert state.phase.decided[GILBERT] is None  # Maid Marion is free to inspect
    refused(state, {"type": "inspect_bag", "seat": JOHN, "bag": GILBERT}, "bag_already_decided")
    refused(
        state,
        {"type": "make_offer", "seat": GILBERT, "to": "deputies", "terms": terms(passes=[GILBERT])},
        "bag_already_decided",
    )
    state = do(state, "inspect_bag", seat=MARION, bag=GILBERT)
    assert state.phase.decided[GILBERT] == "inspected"
    assert state.gold[JOHN] == 53 and state.gold[MARION] == 48  # she paid for the honest apple
    # A joint demand: David and the other Deputy must both accept; paid to the Booty.
    demand = state.phase.next_offer
    state = do(
        state, "make_offer", seat=MARION, to=DAVID, joint=True, terms=terms(gold=6, passes=[DAVID])
    )
    state = accept(state, DAVID, demand)
    assert offer_status(state, demand) == "open" and state.gold[DAVID] == 50
    refused(
        state,
        {"type": "accept_offer", "seat": DAVID, "offer": demand, "revision": 1},
        "already_accepted",
    )
    state = accept(state, JOHN, demand)
    assert state.phase.decided[DAVID] == "passed" and state.booty_gold == 6
    assert state.gold[DAVID] == 44
    state = do(state, "timeout")  # Alan's and Will's bags pass; the Booty is shared
    assert (state.gold[JOHN], state.gold[MARION], state.round) == (56, 51, 2)


def test_R75_an_undecided_deputy_counts_as_let_pass():
    """Decisions, Missed moves: 'Deputies (6 players): an undecided Deputy counts as "let
    pass".'"""
    state = to_inspection(
        _six(), {GILBERT: (["apples", "silk"], "apples"), DAVID: (["cheese"], "cheese")}
    )
    state = do(state, "inspect_bag", seat=MARION, bag=GILBERT)
    for bag in (DAVID, ALAN, WILL):
        state = do(state, "pass_bag", seat=MARION, bag=bag)
        state = do(state, "pass_bag", seat=JOHN, bag=bag)
    assert awaiting(state) == [JOHN]
    state, events = do_events(state, "timeout")
    [timed_out] = events_of(events, "timed_out")
    assert timed_out["seats"] == [JOHN]
    calls = [(e["deputy"], e["bag"], e["decision"]) for e in events_of(events, "deputy_decided")]
    assert calls[0] == (JOHN, GILBERT, "pass")
    [opened] = events_of(events, "bag_inspected")
    assert (opened["seat"], opened["by"], opened["honest"]) == (GILBERT, [MARION], False)
    assert state.gold[MARION] == 54 and state.gold[GILBERT] == 46


def test_R76_the_bargaining_rule_applies_to_each_deputy():
    """Decisions, Bargaining: a bag is decidable once its merchant has made an offer or said "no
    offer", or the bargaining time has run out — for each Deputy's call."""
    state = to_inspection(_six(), {GILBERT: (["apples"], "apples")}, bargaining=True)
    for deputy in (JOHN, MARION):
        for kind in ("pass_bag", "inspect_bag"):
            refused(state, {"type": kind, "seat": deputy, "bag": GILBERT}, "bargaining_open")
    state, third = _offer_to(state, DAVID, MARION, gold=2, passes=[DAVID], inspects=[GILBERT])
    refused(
        state,
        {"type": "accept_offer", "seat": MARION, "offer": third, "revision": 1},
        "bargaining_open",
    )
    state = do(state, "say_no_offer", seat=GILBERT)
    state = do(state, "pass_bag", seat=JOHN, bag=GILBERT)
    state = accept(state, MARION, third)
    assert inspection.call_of(state, GILBERT, MARION) == "inspect"
    assert state.phase.decided[GILBERT] == "inspected"


def test_R77_actions_answer_for_both_deputies():
    state = to_inspection(_six(), {GILBERT: (["apples"], "apples"), DAVID: (["cheese"], "cheese")})
    bags = state.merchants()
    for deputy in (JOHN, MARION):
        moves = actions(state)[deputy]
        assert moves["must_act"] is True
        assert {"type": "pass_bag", "bags": bags} in moves["moves"]
        assert {"type": "make_offer", "to": bags, "joint": True} in moves["moves"]
    assert actions(state)[GILBERT]["moves"][0] == {
        "type": "make_offer",
        "to": [JOHN, MARION, "deputies"],
    }
    assert actions(state)[GILBERT]["must_act"] is False
    for bag in bags:
        state = do(state, "pass_bag", seat=JOHN, bag=bag)
    assert actions(state)[JOHN] == {"must_act": False, "moves": []}
    assert awaiting(state) == [MARION]
    assert actions(state)[GILBERT]["moves"][0] == {"type": "make_offer", "to": [MARION]}
    view = view_for(state, None)
    assert view["phase"]["awaiting"] == [MARION]
    assert view["players"][GILBERT]["calls"] == ["pass", None]
    assert (view["sheriff"], view["deputies"]) == (None, [JOHN, MARION])
    assert [p["is_deputy"] for p in view["players"]] == [True, True, False, False, False, False]


def test_R78_every_seat_sees_only_what_it_may_in_a_six_player_game():
    """Architecture: views by allow-list; the Deputy deck is face down: its order is secret."""
    state, events = new_game({"players": 6, "royal_goods": True}, SEED)
    state = to_load_phase(state)
    for seat in [*range(6), None]:
        view = view_for(state, seat)
        assert view["deputy_deck_size"] == 4 and "deputy_deck" not in view
        [shuffle] = [
            project_event(state, e, seat) for e in events_of(events, "deputy_deck_shuffled")
        ]
        assert shuffle == {
            "seq": shuffle["seq"],
            "type": "deputy_deck_shuffled",
            "number": 0,
            "size": 6,
        }
        assert check_view(state, seat) == []
        assert check_no_leak(state, events, seat, random.Random(seat or 0)) == []


def test_R91_a_merchant_short_of_bag_goods_shows_their_bag_to_the_deputies_of_the_deal():
    """2nd ed, Honor Among Thieves, with the 6th player rule: the bag is shown to whoever was
    promised the goods: both Deputies for an offer to "the Deputies" (paid to the Booty),
    the one Deputy of an offer to one Deputy. Nobody else sees the cards."""
    bags = {GILBERT: (["cheese", "pepper"], "cheese"), DAVID: (["apples", "mead"], "apples")}
    state = to_inspection(_six(), bags)
    state, both = _offer_to(state, GILBERT, "deputies", bag_goods={"silk": 1}, passes=[GILBERT])
    state = accept(state, JOHN, both)
    state, events = do_events(state, "accept_offer", seat=MARION, offer=both, revision=1)
    [shown] = events_of(events, "bag_goods_shown")
    assert shown["to"] == [JOHN, MARION]
    for deputy in (JOHN, MARION):
        [(seat, cards)] = view_for(state, deputy)["shown_bags"].items()
        assert seat == GILBERT and [c["type"] for c in cards] == ["cheese", "pepper"]
        cards = project_event(state, shown, deputy)["cards"]
        assert sorted(c["type"] for c in cards) == ["cheese", "pepper"]
    for seat in (DAVID, ALAN, WILL, None):
        assert "cards" not in project_event(state, shown, seat)
        assert "shown_bags" not in view_for(state, seat)

    state, one = _offer_to(state, DAVID, JOHN, bag_goods={"silk": 1}, passes=[DAVID])
    state, events = do_events(state, "accept_offer", seat=JOHN, offer=one, revision=1)
    assert events_of(events, "bag_goods_shown") == []  # the bag is not opened yet
    state, events = do_events(state, "pass_bag", seat=MARION, bag=DAVID)
    [shown] = events_of(events, "bag_goods_shown")
    assert shown["to"] == [JOHN]
    assert [c["type"] for c in view_for(state, JOHN)["shown_bags"][DAVID]] == ["apples", "mead"]
    assert DAVID not in view_for(state, MARION).get("shown_bags", {})
    for seat in [*range(6), None]:
        assert check_view(state, seat) == []
        assert check_no_leak(state, events, seat, random.Random(seat or 0)) == []


# --- the Black Market (2nd ed, Black Market; decisions: "Black Market"). Provisional values:
# Pepper 30 then 27, Mead 32 then 29, Silk 34 then 31.

DAVID_BAG = {
    1: (["cheese", "cheese", "pepper"], "cheese"),
    2: (["apples"], "apples"),
    3: (["chicken"], "chicken"),
}


def _market(**options):
    return start(black_market=True, **options)


def _claim(state, seat: int, kind: str):
    return apply(state, {"type": "claim_black_market", "seat": seat, "kind": kind})


def test_R79_david_of_doncaster_claims_the_top_pepper_card():
    """2nd ed, Black Market, Example: 'The Sheriff allowed David of Doncaster into the Market
    ... he shows he has 3 Pepper cards among his Contraband, allowing him to claim a Black
    Market card. David now collects the topmost card from the Pepper Black Market pile and
    removes the 3 revealed Contraband cards from the game.'"""
    state = rig(_market(), "stand:1", ["pepper", "pepper"])
    state = to_inspection(state, DAVID_BAG)
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    peppers = ids_of(state, "stand:1", ["pepper"] * 3)
    assert {"type": "claim_black_market", "kinds": ["pepper"]} in actions_of(state, 1)

    state, events = _claim(state, 1, "pepper")

    [claimed] = events_of(events, "black_market_claimed")
    assert (claimed["seat"], claimed["kind"], claimed["value"]) == (1, "pepper", 30)
    assert state.black_market["pepper"] == [27]
    assert sorted(state.zones["out"]) == sorted(peppers)
    assert types_in(state, "stand:1") == ["cheese", "cheese"]
    for viewer in (None, 0, 1, 2, 3):
        view = view_for(state, viewer)
        assert view["players"][1]["black_market"] == [{"type": "pepper", "value": 30}]
        assert view["players"][1]["contraband_count"] == 0
        assert view["black_market"] == {
            "provisional": True,
            "piles": {"pepper": [27], "mead": [29, 32], "silk": [31, 34]},
        }
        # The revealed type is public: the 3 cards are shown to everyone.
        [moved] = [project_event(state, e, viewer) for e in events_of(events, "cards_moved")]
        assert [c["type"] for c in moved["cards"]] == ["pepper"] * 3 and moved["hidden"] == 0
    assert state.phase.kind == "inspection"  # the other bags are still undecided
    state, _ = play_out(state)
    sheet = state.phase.scores[1]
    assert sheet["black_market"] == [{"type": "pepper", "value": 30}]
    assert sheet["black_market_value"] == 30


def test_R80_a_claim_before_ones_own_bag_is_resolved_is_refused():
    """2nd ed, Black Market: '**After** you receive your Merchant Bag from the Sheriff, you may
    claim a Black Market card'. Decisions: 'a merchant whose bag has been resolved this round'."""
    state = rig(_market(), "stand:1", ["pepper"] * 3)
    command = {"type": "claim_black_market", "seat": 1, "kind": "pepper"}
    refused(state, command, "wrong_phase")  # the market
    state = to_inspection(state, DAVID_BAG)
    refused(state, command, "bag_not_resolved")
    refused(state, {**command, "seat": SHERIFF}, "not_a_merchant")
    refused(start(), command, "wrong_phase")
    inspecting = to_inspection(start(), DAVID_BAG)
    refused(inspecting, command, "no_black_market")
    state = do(state, "inspect_bag", seat=SHERIFF, bag=1)  # honest: resolved
    refused(state, {**command, "kind": "crossbow"}, "bad_command")
    refused(state, {**command, "kind": "mead"}, "not_enough_contraband")
    state, _ = _claim(state, 1, "pepper")
    assert state.claims[1] == [{"type": "pepper", "value": 30, "round": 1}]


def test_R81_one_claim_per_round():
    """2nd ed, Black Market: 'Players may only claim 1 Black Market card per round'."""
    state = rig(_market(), "stand:1", ["pepper"] * 3 + ["mead"] * 3)
    state = to_inspection(state, DAVID_BAG)
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    state, _ = _claim(state, 1, "mead")
    for kind in ("pepper", "mead"):
        refused(
            state,
            {"type": "claim_black_market", "seat": 1, "kind": kind},
            "already_claimed",
        )
    refused(state, {"type": "decline_black_market", "seat": 1}, "already_claimed")
    assert not [m for m in actions_of(state, 1) if "black_market" in m["type"]]


def test_R82_two_claims_of_one_kind_in_different_rounds():
    """2nd ed, Black Market: 'there is no limit to the amount of cards a player can claim in
    total. As long as they have the required Contraband, a player can claim both Black Market
    cards of the same type in different turns.' 'The first player that fulfills a Black Market
    order takes the topmost card of that kind, with a higher Value than the card below it.'"""
    state = rig(_market(), "stand:2", ["silk"] * 6)
    state = to_inspection(state, DAVID_BAG)
    state = do(state, "pass_bag", seat=SHERIFF, bag=2)
    state, _ = _claim(state, 2, "silk")
    state = do(state, "timeout")  # round 2: Sheriff 1, merchants 2, 3, 0
    assert state.round == 2
    state = to_inspection(state, {2: (["apples"], "apples")})
    state = do(state, "inspect_bag", seat=1, bag=2)
    state, _ = _claim(state, 2, "silk")
    assert state.claims[2] == [
        {"type": "silk", "value": 34, "round": 1},
        {"type": "silk", "value": 31, "round": 2},
    ]
    assert state.black_market["silk"] == [] and len(state.zones["out"]) == 6
    assert check_state(state) == []


def test_R83_the_black_market_step_resolves_sealed_claims_clockwise():
    """Decisions: 'When the last bag is decided while an eligible merchant has neither claimed
    nor declined, Inspection stays open for those merchants alone (a short "Black Market"
    step ...). Simultaneous claims on one pile resolve clockwise from the Sheriff's left.'"""
    state = _market()
    for seat in (1, 2, 3):
        state = rig(state, f"stand:{seat}", ["pepper"] * 3)
    state = to_inspection(state, DAVID_BAG)
    state = do(state, "decline_black_market", seat=3)  # Seat 3 will not claim this round
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    state = do(state, "pass_bag", seat=SHERIFF, bag=2)
    state, events = do_events(state, "pass_bag", seat=SHERIFF, bag=3)
    [step] = [e for e in events if e["type"] == "phase_started"]
    assert (step["phase"], step["seats"]) == ("black_market", [1, 2])
    assert awaiting(state) == [1, 2] and state.round == 1
    commands = [
        {"type": "claim_black_market", "seat": 2, "kind": "pepper"},
        {"type": "claim_black_market", "seat": 1, "kind": "pepper"},
    ]
    results = []
    for arrival in (commands, commands[::-1]):
        current, log = state, []
        for command in arrival:
            current, new = apply(current, command)
            log += new
        results.append((current, log))
    assert results[0][0].hash() == results[1][0].hash()  # arrival order does not matter
    state, log = results[0]
    claims = [(e["seat"], e["value"]) for e in events_of(log, "black_market_claimed")]
    assert claims == [(1, 30), (2, 27)]  # clockwise from the Sheriff's left
    assert state.round == 2
    # Sealed until resolved: seat 3 saw only that seat 2 had chosen.
    [sealed] = [e for e in results[0][1] if e["type"] == "black_market_submitted"][:1]
    assert project_event(state, sealed, 3) == {
        "seq": sealed["seq"],
        "type": sealed["type"],
        "seat": 2,
    }


def test_R84_a_claim_that_comes_too_late_in_the_step_gets_nothing():
    """Clockwise resolution: a pile emptied by an earlier claimant leaves nothing to a later one
    (the missed claim does not say its kind; the cards stay on the stand)."""
    state = _market()
    for seat in (1, 2, 3):
        state = rig(state, f"stand:{seat}", ["mead"] * 3)
    state = to_inspection(state, DAVID_BAG)
    for bag in (1, 2, 3):
        state = do(state, "pass_bag", seat=SHERIFF, bag=bag)
    assert state.phase.kind == "black_market"
    for seat in (3, 2, 1):
        state, events = _claim(state, seat, "mead")
    assert [(e["seat"], e["value"]) for e in events_of(events, "black_market_claimed")] == [
        (1, 32),
        (2, 29),
    ]
    [missed] = events_of(events, "black_market_missed")
    assert missed == {"seq": missed["seq"], "type": "black_market_missed", "seat": 3}
    assert types_in(state, "stand:3").count("mead") == 3


def test_R85_the_black_market_step_default_is_no_claim():
    """Decisions, Missed moves: 'Black Market step: no claim.'"""
    state = rig(_market(), "stand:1", ["silk"] * 3)
    state = to_inspection(state, DAVID_BAG)
    state = do(state, "timeout")  # the inspection deadline: every bag passes
    assert (state.phase.kind, state.phase.seats) == ("black_market", [1])
    assert default_commands(state) == [{"type": "decline_black_market", "seat": 1}]
    state, events = do_events(state, "timeout")
    [timed_out] = events_of(events, "timed_out")
    assert (timed_out["phase"], timed_out["seats"]) == ("black_market", [1])
    assert not events_of(events, "black_market_claimed") and state.round == 2
    assert state.claims[1] == []


def test_R86_claimed_cards_score_their_value_and_count_as_contraband_for_the_tie_break():
    """2nd ed, Black Market: 'Claimed Black Market cards are placed in the player's Contraband
    pile ... players score points for all Black Market cards they have in their Contraband pile.'
    Decisions: 'they count as contraband cards for the tie-break.'"""
    stands = [["apples", "pepper"], ["apples"] + ["cheese"] * 2, []]
    claimed = [[], [{"type": "pepper", "value": 27, "round": 3}], []]
    sheets = score_sheets([42, 10, 0], stands, claimed)
    assert sheets[1]["black_market"] == [{"type": "pepper", "value": 27}]
    # Gold, an Apple and 2 Cheese, the claimed card, the shared Apple King, the Cheese King.
    assert sheets[1]["total"] == 10 + 2 + 6 + 27 + 15 + 15
    assert sheets[1]["contraband_cards"] == 1
    # A tie on points: the claimed card counts as a contraband card.
    tied = score_sheets(
        [6, 0],
        [["apples", "pepper"], ["apples"]],
        [[], [{"type": "mead", "value": 12, "round": 1}]],
    )
    assert tied[0]["total"] == tied[1]["total"] == 6 + 2 + 6 + 15
    assert [s["contraband_cards"] for s in tied] == [1, 1]
    assert [s["rank"] for s in tied] == [1, 1]  # without it, seat 0 would win the tie-break


def test_R87_values_are_card_data_provisional_unless_the_organizer_gives_others():
    """Decisions: 'use these provisional defaults ..., kept in the card data and editable per
    game ... Say "provisional" wherever they are shown.' Setup: 'the card of higher Value on
    top'."""
    assert BLACK_MARKET_VALUES == {"pepper": (30, 27), "mead": (32, 29), "silk": (34, 31)}
    given = {"pepper": [20, 25], "mead": [21, 26], "silk": [22, 27]}
    state = start(black_market=True, black_market_values=given)
    view = view_for(state, 1)["black_market"]
    assert view == {
        "provisional": False,
        "piles": {"pepper": [20, 25], "mead": [21, 26], "silk": [22, 27]},
    }
    assert state.config.to_dict()["black_market_values"]["pepper"] == [25, 20]
    assert "black_market_values" not in start(black_market=True).config.to_dict()
    for bad in (
        {"edition": 1, "black_market": True},
        {"black_market_values": given},
        {"black_market": True, "black_market_values": {"pepper": [1, 2]}},
        {"black_market": True, "black_market_values": {**given, "silk": [0, 3]}},
        {"black_market": True, "black_market_values": {**given, "silk": [3]}},
    ):
        with pytest.raises(EngineError) as error:
            GameConfig(players=4, **bad)
        assert error.value.code == "invalid_config"


def test_R88_deputies_do_not_claim_and_six_players_may_use_the_black_market():
    """Decisions: 'the Sheriff (and Deputies) cannot claim in a round they inspect.'"""
    state = rig(with_deputies(start(players=6, black_market=True), 0, 1), "stand:0", ["pepper"] * 3)
    state = rig(state, "stand:2", ["pepper"] * 3)
    state = to_inspection(state, {2: (["apples"], "apples")})
    state = do(state, "pass_bag", seat=0, bag=2)
    state = do(state, "pass_bag", seat=1, bag=2)
    refused(state, {"type": "claim_black_market", "seat": 0, "kind": "pepper"}, "not_a_merchant")
    state, _ = _claim(state, 2, "pepper")
    assert state.claims[2][0]["value"] == 30
    for seat in [*range(6), None]:
        assert check_view(state, seat) == []


def test_R92_a_standing_answer_claims_when_it_can_and_spares_the_step_its_wait():
    """Issue 31: the step waits for every merchant the table cannot rule out (3 face-down
    cards), claim or not. A standing answer, "claim when I can, else no claim", is given
    for its merchant at once (the best pile, sealed like any choice); it is public."""
    state = _market()
    state = rig(state, "stand:1", ["pepper", "pepper", "pepper", "silk", "silk", "silk"])
    state = rig(state, "stand:2", ["pepper", "mead", "silk"])  # 3 face down, no claim
    state = rig(state, "stand:3", ["mead"] * 3)
    for seat in (1, 2):
        state, events = do_events(state, "set_black_market_standing", seat=seat, standing=True)
        assert project_event(state, events[0], 3) == events[0]  # the table hears it
    assert state.black_market_standing == [1, 2]
    refused(
        state,
        {"type": "set_black_market_standing", "seat": 1, "standing": True},
        "already_submitted",
    )
    refused(
        state, {"type": "set_black_market_standing", "seat": 3, "standing": "yes"}, "bad_command"
    )
    state = to_inspection(state, DAVID_BAG)
    state, events = do_events(state, "pass_bag", seat=SHERIFF, bag=1)
    # Seat 1 claims as its bag passes (R94): silk's top (34) is worth more than pepper's (30).
    assert [(e["seat"], e["kind"]) for e in events_of(events, "black_market_claimed")] == [
        (1, "silk")
    ]
    state = do(state, "pass_bag", seat=SHERIFF, bag=2)
    state, events = do_events(state, "pass_bag", seat=SHERIFF, bag=3)
    assert state.phase.kind == "black_market" and awaiting(state) == [3]  # only seat 3 waited for
    chosen = {e["seat"]: e["choice"] for e in events_of(events, "black_market_submitted")}
    assert chosen == {2: "none"}  # seat 2 cannot claim: the step answers for them
    sealed = events_of(events, "black_market_submitted")[0]
    assert "choice" not in project_event(state, sealed, 3)
    state, events = do_events(state, "decline_black_market", seat=3)
    assert not events_of(events, "black_market_claimed")
    assert state.round == 2 and check_state(state) == []
    # Everyone the step would wait for has a standing answer: no step at all is waited on.
    state = do(state, "set_black_market_standing", seat=3, standing=True)
    assert state.black_market_standing == [1, 2, 3]
    state = do(state, "set_black_market_standing", seat=2, standing=False)
    assert state.black_market_standing == [1, 3]
    refused(
        start(),
        {"type": "set_black_market_standing", "seat": 1, "standing": True},
        "no_black_market",
    )


def test_R93_a_merchant_may_say_no_claim_before_their_bag_is_decided():
    """Issue 31: answering ahead spares the table the step's wait for that merchant."""
    state = rig(_market(), "stand:1", ["mead"] * 3)
    state = to_inspection(state, DAVID_BAG)
    assert {"type": "decline_black_market", "ahead": True} in actions_of(state, 1)
    state = do(state, "decline_black_market", seat=1)
    assert not [m for m in actions_of(state, 1) if "black_market" in m["type"]]
    for bag in (1, 2, 3):
        state = do(state, "pass_bag", seat=SHERIFF, bag=bag)
    assert state.round == 2  # no step: nobody left to wait for


def test_R94_a_standing_answer_claims_the_moment_its_bag_is_resolved():
    """2nd ed, Black Market: 'The first player that fulfills a Black Market order takes the
    topmost card of that kind.' A standing answer ("claim whenever I can") claims the moment
    its merchant's bag is resolved, passed or inspected, not when the last bag is decided:
    a merchant whose bag was decided later takes the card below. Bags resolved together (the
    deadline) claim clockwise from the Sheriff's left (decisions: 'Simultaneous claims on one
    pile resolve clockwise from the Sheriff's left'); an answer set once the bag is resolved
    claims at once."""
    state = _market()
    for seat in (1, 2, 3):
        state = rig(state, f"stand:{seat}", ["pepper"] * 3)
    state = do(state, "set_black_market_standing", seat=3, standing=True)
    state = to_inspection(state, DAVID_BAG, bargaining=True)
    # Seat 3's bag is decided first: seat 3 takes the top Pepper (30) there and then.
    state = do(state, "say_no_offer", seat=3)
    state, events = do_events(state, "inspect_bag", seat=SHERIFF, bag=3)
    assert [(e["seat"], e["value"]) for e in events_of(events, "black_market_claimed")] == [(3, 30)]
    assert state.phase.kind == "inspection"
    # Seat 1, resolved later, claims by hand: what is left is the card below.
    state = do(state, "say_no_offer", seat=1)
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    state, events = _claim(state, 1, "pepper")
    assert [(e["seat"], e["value"]) for e in events_of(events, "black_market_claimed")] == [(1, 27)]
    assert state.black_market["pepper"] == [] and check_state(state) == []

    # The deadline passes every bag at once: the answers claim clockwise from the Sheriff's left.
    state = _market()
    for seat in (1, 2, 3):
        state = rig(state, f"stand:{seat}", ["mead"] * 3)
        state = do(state, "set_black_market_standing", seat=seat, standing=True)
    state = to_inspection(state, DAVID_BAG)
    state, events = do_events(state, "timeout")
    assert [(e["seat"], e["value"]) for e in events_of(events, "black_market_claimed")] == [
        (1, 32),
        (2, 29),
    ]
    assert state.round == 2 and state.claims[3] == [] and check_state(state) == []

    # Set after the bag passed: the answer claims at once, before the inspection ends.
    state = rig(_market(), "stand:1", ["silk"] * 3)
    state = to_inspection(state, DAVID_BAG)
    state = do(state, "pass_bag", seat=SHERIFF, bag=1)
    state, events = do_events(state, "set_black_market_standing", seat=1, standing=True)
    assert [(e["seat"], e["value"]) for e in events_of(events, "black_market_claimed")] == [(1, 34)]
    assert state.phase.kind == "inspection"
