"""Moves by reply beyond the first words (games/present/reply_offers.py and the
1st edition's and the Black Market's commands in reply_commands.py): each read
into the command the page's form would send, checked by the engine itself; and
every line an email lists, in either language and in every kind of game, is a
move the engine accepts from that seat."""

import pytest
from django.utils import translation

from games import engine
from games.engine import EngineError
from games.present import reply_commands
from games.present.move_fields import FormError
from tests.present.test_reply_commands import NAMES, through_the_page
from tests.support.builders import (
    do,
    ids_of,
    offer,
    rig,
    start,
    to_inspection,
    to_load_phase,
)

SIX = [*NAMES, "Eve", "Fay"]


def read(text: str, state, seat: int, names=NAMES):
    return reply_commands.read(text, engine.view_for(state, seat), names)


def accepted(state, seat: int, command: dict):
    """The engine makes ``command`` for ``seat`` (EngineError if it would not)."""
    assert through_the_page(command) == command  # the page would send the same
    return engine.apply(state, {**command, "seat": seat})[0]


@pytest.fixture
def bargaining():
    return to_inspection(start(4), {}, bargaining=True)


# --- offers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "offer 3 gold and 1 {bag} from my bag for pass me and inspect Cid",
        "Ofrezco 3 de oro y 1 {bag} de mi bolsa por dejarme pasar, registrar a Cid",
        "offer 3 + 1 {bag} from my bag if you pass me, inspect cid",
    ],
)
def test_an_offer_with_goods_from_the_bag_and_several_bags(bargaining, text):
    bag = engine.view_for(bargaining, 1)["me"]["bag"][0]["type"]
    command = read(text.format(bag=bag), bargaining, 1)
    assert command == {
        "type": "make_offer",
        "to": 0,
        "terms": {
            "gold": 3,
            "stand_goods": [],
            "bag_goods": {bag: 1},
            "promise": "",
            "sheriff": [{"bag": 1, "action": "pass"}, {"bag": 2, "action": "inspect"}],
        },
    }
    accepted(bargaining, 1, command)


def test_a_promise_keeps_the_words_as_written(bargaining):
    command = read("offer 2 gold promise: I'll Owe You one, Ann!", bargaining, 1)
    assert command["terms"]["promise"] == "I'll Owe You one, Ann!"
    assert command["terms"]["gold"] == 2
    accepted(bargaining, 1, command)


def test_goods_from_a_stand(bargaining):
    state = rig(bargaining, "stand:1", ["cheese", "cheese", "apples"])
    command = read("offer 2 cheese from my stand", state, 1)
    assert sorted(command["terms"]["stand_goods"]) == sorted(
        ids_of(state, "stand:1", ["cheese"] * 2)
    )
    accepted(state, 1, command)
    with pytest.raises(FormError, match="does not hold 3 Cheese"):
        read("offer 3 cheese from my stand", state, 1)


def test_the_sheriff_demands_from_a_merchant(bargaining):
    for text in ("demand 5 gold from Cid", "exijo 5 de oro a cid", "pido 5 oro a Cid."):
        command = read(text, bargaining, 0)
        assert command["to"] == 2 and command["terms"]["gold"] == 5
        assert command["terms"]["sheriff"] == [{"bag": 2, "action": "pass"}]
        accepted(bargaining, 0, command)
    with pytest.raises(FormError, match="from whom"):
        read("demand 5 gold", bargaining, 0)


def test_withdraw_refuse_and_revise_by_number(bargaining):
    state, number = offer(bargaining, 1, 0, gold=3, passes=[1])
    assert read(f"withdraw {number}", state, 1) == {"type": "withdraw_offer", "offer": number}
    assert read(f"rechazo {number}", state, 0) == {"type": "refuse_offer", "offer": number}
    revise = read(f"revise {number} to 5 gold", state, 1)
    assert revise == {
        "type": "revise_offer",
        "offer": number,
        "terms": {
            "gold": 5,
            "stand_goods": [],
            "bag_goods": {},
            "promise": "",
            "sheriff": [{"bag": 1, "action": "pass"}],  # kept from the offer
        },
    }
    revised = accepted(state, 1, revise)
    assert revised.phase.offers[str(number)]["revision"] == 2
    accepted(state, 0, read(f"refuse {number}", state, 0))
    with pytest.raises(FormError, match="no offer #9"):
        read("withdraw 9", state, 1)
    with pytest.raises(FormError, match="no offer"):
        read(f"withdraw {number}", state, 2)  # not Cid's offer


@pytest.mark.parametrize(
    "text, says",
    [
        ("offer 3 gold to Cid", "Offers go to the Sheriff, Ann"),
        ("offer 3 rubies from my bag", "is not the name of any goods"),
        ("offer 3 gold and a kiss", "is not something to offer"),
        ("offer 3 gold for dance with Cid", "is not a Sheriff's decision"),
        ("offer 3 gold for inspect Bob", "is not the name of one player"),
    ],
)
def test_a_wrong_offer_says_why(bargaining, text, says):
    with pytest.raises(FormError, match=says):
        read(text, bargaining, 1)


def test_with_deputies_offers_go_to_one_deputy_or_both():
    state = to_inspection(start(6), {}, bargaining=True)
    deputies = state.deputies
    merchant = next(s for s in range(6) if s not in deputies)
    both = read("offer 4 gold", state, merchant, SIX)
    assert both["to"] == "deputies"
    accepted(state, merchant, both)
    one = read(f"ofrezco 4 de oro a {SIX[deputies[0]]}", state, merchant, SIX)
    assert one["to"] == deputies[0]
    accepted(state, merchant, one)
    demand = read(f"demand 3 gold from {SIX[merchant]}", state, deputies[0], SIX)
    accepted(state, deputies[0], demand)


# --- the 1st edition's market turn, and the Black Market ------------------------------


def test_a_first_edition_market_turn_names_its_pile_and_what_it_takes():
    state = start(4, edition=1)
    seat = state.phase.seat
    hand = engine.view_for(state, seat)["me"]["hand"]
    command = read("set aside 3 1 to pile 2 take 1 from pile 1", state, seat)
    assert command == {
        "type": "market_turn",
        "cards": [hand[2]["id"], hand[0]["id"]],
        "order": [hand[2]["id"], hand[0]["id"]],  # the last named ends on top
        "pile": 1,
        "draws": ["discard:0", "deck"],
    }
    after = engine.apply(state, {**command, "seat": seat})[0]
    assert after.zones["discard:1"][-1] == hand[0]["id"]
    assert read("aparto 1 en la pila 1", state, seat)["pile"] == 0
    assert read("keep", state, seat) == {"type": "market_turn", "cards": [], "draws": []}
    with pytest.raises(FormError, match="which discard pile"):
        read("set aside 1 3", state, seat)
    with pytest.raises(FormError, match="no discard pile 3"):
        read("set aside 1 to pile 3", state, seat)
    with pytest.raises(FormError, match="at most that many"):
        read("set aside 1 to pile 1 take 2 from pile 2", state, seat)


def test_a_first_edition_inspection_says_where_confiscated_goods_go():
    state = to_inspection(start(4, edition=1), {})
    assert read("inspect Cid to pile 2", state, 0) == {"type": "inspect_bag", "bag": 2, "pile": 1}
    with pytest.raises(FormError, match="one discard pile"):
        read("set aside 1 to pile 1", start(4), 1)


def black_market_step():
    state = to_inspection(start(4, black_market=True), {})
    state = rig(state, "stand:1", ["pepper"] * 3)
    for bag in (1, 2, 3):
        state = do(state, "pass_bag", seat=0, bag=bag)
    return state


def test_the_black_market_claim_decline_and_standing_answer():
    state = black_market_step()
    view = engine.view_for(state, 1)
    kinds = {m["type"]: m for m in view["my_moves"]["moves"]}
    assert "claim_black_market" in kinds, view["my_moves"]
    for text in ("claim pepper", "reclamo pimienta", "Claim Pepper."):
        assert read(text, state, 1) == {"type": "claim_black_market", "kind": "pepper"}
    assert read("no claim", state, 1) == {"type": "decline_black_market"}
    assert read("always claim", state, 1) == {"type": "set_black_market_standing", "standing": True}
    assert read("preguntame cada ronda", state, 1)["standing"] is False
    with pytest.raises(FormError, match="Pepper, Mead or Silk"):
        read("claim apples", state, 1)
    with pytest.raises(FormError, match="without the Black Market"):
        read("always claim", to_inspection(start(4), {}), 1)


# --- every listed line is a move the engine takes ----------------------------------------


def cases():
    bargaining = to_inspection(start(4), {}, bargaining=True)
    offered, _ = offer(bargaining, 2, 0, gold=3, passes=[2])
    six = to_inspection(start(6), {}, bargaining=True)
    first = start(4, edition=1)
    return [
        (start(4), 1, NAMES),
        (to_load_phase(start(4)), 1, NAMES),
        (bargaining, 0, NAMES),
        (bargaining, 1, NAMES),
        (offered, 0, NAMES),
        (offered, 2, NAMES),
        (to_inspection(start(4), {}), 0, NAMES),
        (first, first.phase.seat, NAMES),
        (to_inspection(start(4, edition=1), {}), 0, NAMES),
        (black_market_step(), 1, NAMES),
        (six, six.deputies[0], SIX),
        (six, next(s for s in range(6) if s not in six.deputies), SIX),
    ]


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_listed_line_is_a_move_the_engine_takes_from_the_seat(language):
    seen = set()
    with translation.override(language):
        for state, seat, names in cases():
            view = engine.view_for(state, seat)
            lines = reply_commands.listed(view, names)
            assert lines, (state.phase.kind, seat)
            for line in lines:
                command = reply_commands.read(line, view, names)
                assert command is not None, line
                try:
                    engine.apply(state, {**command, "seat": seat})
                except EngineError as error:
                    pytest.fail(f"{line!r}: {error}")
                seen.add(command["type"])
    assert seen >= {
        "set_aside", "market_turn", "load_bag", "say_no_offer", "make_offer", "pass_bag",
        "inspect_bag", "accept_offer", "refuse_offer", "withdraw_offer",
        "claim_black_market", "decline_black_market", "set_black_market_standing",
    }  # fmt: skip


@pytest.mark.parametrize("text", ["load 2 4 5", "Cargar 2 4 5", "accept 2 please", "aparta 1 y 2"])
def test_a_move_half_written_is_refused_not_talk(bargaining, text):
    with pytest.raises(FormError, match="starts like a move but is not one"):
        read(text, start(4) if "apart" in text else bargaining, 1)


@pytest.mark.parametrize("text", ["Accept my thanks, Ann", "load of nonsense", "Cambio de planes"])
def test_words_that_only_start_like_a_move_are_talk(bargaining, text):
    assert read(text, bargaining, 1) is None
