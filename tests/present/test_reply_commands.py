"""Moves by reply (games/present/reply_commands.py): each command's words in
English and Spanish read into the engine command the page would send, through
the page's own form fields and parser; wrong ones explained; talk left alone;
and the list an email gives of what the seat may reply now."""

import pytest
from django.http import QueryDict
from django.utils import translation

from games import engine
from games.present import moves, reply_commands
from games.present.move_fields import FormError
from tests.support.builders import do, offer, start, to_inspection, to_load_phase

NAMES = ["Ann", "Álvaro", "Cid", "Dee"]


def read(text: str, state, seat: int):
    return reply_commands.read(text, engine.view_for(state, seat), NAMES)


def through_the_page(command: dict) -> dict:
    """The command written as the page's form fields and read back by its parser."""
    fields = moves.form_fields(command, version=1)
    post = QueryDict(mutable=True)
    for name, value in fields.items():
        post.setlist(name, value if isinstance(value, list) else [value])
    return {"type": command["type"], **moves.MOVES[command["type"]].parse(post)}


@pytest.fixture
def market():
    return start(4)


@pytest.fixture
def loading(market):
    return to_load_phase(market)


@pytest.fixture
def inspection(market):
    return to_inspection(market, {}, bargaining=True)


def hand_ids(state, seat: int) -> list:
    return [card["id"] for card in engine.view_for(state, seat)["me"]["hand"]]


@pytest.mark.parametrize("text", ["set aside 1 3", "Aparta 1 3", "  SET ASIDE 1 3.  "])
def test_set_aside_names_cards_by_their_place_in_the_hand(market, text):
    command = read(text, market, 1)
    ids = hand_ids(market, 1)
    assert command == {"type": "set_aside", "cards": [ids[0], ids[2]]}
    assert through_the_page(command) == command
    do(market, "set_aside", seat=1, cards=command["cards"])  # the engine takes it


@pytest.mark.parametrize("text", ["keep", "Nothing", "me quedo", "Me quedo todo"])
def test_keeping_the_hand(market, text):
    assert read(text, market, 1) == {"type": "set_aside", "cards": []}


@pytest.mark.parametrize(
    "text",
    ["load 1 2 declare 2 apples", "Carga 1 2 declara 2 manzanas", "load 1 2 declare 2 apple"],
)
def test_loading_and_declaring(loading, text):
    command = read(text, loading, 1)
    ids = hand_ids(loading, 1)
    assert command == {"type": "load_bag", "cards": ids[:2], "declared": "apples", "count": 2}
    assert through_the_page(command) == command
    do(loading, "load_bag", seat=1, cards=ids[:2], declared="apples", count=2)


@pytest.mark.parametrize(
    "text, says",
    [
        ("load 1 2 declare 3 apples", "You load 2 cards but declare 3"),
        ("load 1 2 declare 2 pepper", "Declare Apples, Cheese, Bread or Chickens"),
        ("load 1 9 declare 2 cheese", "there is no card 9"),
        ("load 1 1 declare 2 cheese", "The same card is chosen twice"),
    ],
)
def test_a_wrong_load_says_why(loading, text, says):
    with pytest.raises(FormError) as error:
        read(text, loading, 1)
    assert says in str(error.value)


@pytest.mark.parametrize("text", ["no offer", "No offer.", "sin oferta", "Ninguna oferta"])
def test_no_offer(inspection, text):
    assert read(text, inspection, 1) == {"type": "say_no_offer"}


@pytest.mark.parametrize(
    "text, kind, bag",
    [
        ("pass Álvaro", "pass_bag", 1),
        ("Deja pasar a alvaro", "pass_bag", 1),
        ("inspect cid", "inspect_bag", 2),
        ("Registra a Cid.", "inspect_bag", 2),
        ("open DEE", "inspect_bag", 3),
    ],
)
def test_the_sheriff_passes_or_inspects_a_bag_by_name(inspection, text, kind, bag):
    sheriff = inspection.sheriff
    assert sheriff == 0
    command = read(text, inspection, sheriff)
    assert command == {"type": kind, "bag": bag}
    assert through_the_page(command) == command  # the words are the confirmation


def test_a_name_nobody_has_is_explained(inspection):
    with pytest.raises(FormError) as error:
        read("inspect Bob", inspection, 0)
    assert "is not the name of one player at this table" in str(error.value)


def test_an_offer_of_gold_goes_to_the_sheriff_for_the_writers_bag(inspection):
    for text in ("offer 4 gold", "Ofrezco 4 monedas de oro", "ofrezco 4 oro"):
        command = read(text, inspection, 2)
        assert command["type"] == "make_offer" and command["to"] == 0
        assert command["terms"]["gold"] == 4
        assert command["terms"]["sheriff"] == [{"bag": 2, "action": "pass"}]
        assert through_the_page(command) == command
    do(inspection, "make_offer", seat=2, to=0, terms=read("offer 4 gold", inspection, 2)["terms"])


def test_accepting_names_the_revision_the_email_showed(inspection):
    state, number = offer(inspection, 2, 0, gold=3, passes=[2])
    assert read(f"accept {number}", state, 0) == {
        "type": "accept_offer",
        "offer": number,
        "revision": 1,
    }
    assert f"accept {number}" in reply_commands.listed(engine.view_for(state, 0), NAMES)
    revised = do(
        state,
        "revise_offer",
        seat=2,
        offer=number,
        terms=state.phase.offers[str(number)]["terms"] | {"gold": 5},
    )
    with pytest.raises(FormError) as error:
        read(f"accept {number}", revised, 0)
    assert f"reply “accept {number}.2”" in str(error.value)
    assert read(f"acepto {number}.2", revised, 0)["revision"] == 2
    with pytest.raises(FormError):
        read("accept 99", revised, 0)


@pytest.mark.parametrize(
    "text",
    [
        "Ann, open Álvaro's bag and I pay you 3",
        "say: pass Cid",
        "di: no offer",
        "",
        "passing through",
        "open",
    ],
)
def test_anything_else_is_talk(inspection, text):
    assert read(text, inspection, 0) is None


def test_only_the_first_line_is_the_command(inspection):
    assert read("\n\nno offer\nand good luck, Ann", inspection, 1) == {"type": "say_no_offer"}


def test_the_list_spells_out_the_seats_own_choices(market, inspection):
    assert reply_commands.listed(engine.view_for(market, 1), NAMES) == ["set aside 1 2", "keep"]
    deciding = to_inspection(start(4), {})  # the bargaining is over: bags may be decided
    sheriff = reply_commands.listed(engine.view_for(deciding, 0), NAMES)
    assert "pass Álvaro" in sheriff and "inspect Dee" in sheriff
    merchant = reply_commands.listed(engine.view_for(inspection, 1), NAMES)
    assert merchant[:2] == ["no offer", "offer 4 gold"]
    with translation.override("es"):
        assert "deja pasar a Cid" in reply_commands.listed(engine.view_for(deciding, 0), NAMES)


def test_the_numbered_hand(market):
    view = engine.view_for(market, 1)
    listed = reply_commands.numbered_hand(view).split(" · ")
    assert len(listed) == len(view["me"]["hand"]) and listed[0].startswith("1 ")


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_listed_command_reads_back_as_a_move_the_seat_may_make(market, language):
    """What an email tells a seat it may reply is read as that move, in its language."""
    deciding = to_inspection(start(4), {})
    state, _offer = offer(to_inspection(start(4), {}, bargaining=True), 2, 0, gold=3, passes=[2])
    cases = [(market, 1), (to_load_phase(start(4)), 1), (deciding, 0), (state, 0), (state, 1)]
    with translation.override(language):
        for game, seat in cases:
            view = engine.view_for(game, seat)
            allowed = {move["type"] for move in view["my_moves"]["moves"]}
            for line in reply_commands.listed(view, NAMES):
                command = reply_commands.read(line, view, NAMES)
                assert command is not None and command["type"] in allowed, (line, command)
