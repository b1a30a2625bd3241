"""A closed bag stays sealed until the declarations are revealed: loading it
changes nothing the other seats see of its owner, neither the hand size on the
table nor the log of the load, so its size is news only at the reveal."""

import re

import pytest
from django.test import Client

from games.core import controls, moves
from games.engine import project_event, view_for
from games.models import Game
from tests.support.builders import do_events, start, to_load_phase
from tests.support.fixtures_pages import path_of, start_game

BEN, CID = 1, 2  # merchants; seat 0 is the Sheriff


def loading_ben(count: int):
    """Ben closes a bag of ``count`` cards; Cid and Dee have not loaded yet."""
    state = to_load_phase(start(players=4))
    hand = state.hand(BEN)[:count]
    return do_events(state, "load_bag", seat=BEN, cards=hand, declared="apples", count=count)


def test_the_others_see_a_loading_merchants_hand_as_it_was_until_the_reveal():
    state, _ = loading_ben(3)
    assert view_for(state, BEN)["players"][BEN]["hand_size"] == 3  # his own hand, truly
    for viewer in (0, CID, None):
        assert view_for(state, viewer)["players"][BEN]["hand_size"] == 6

    for seat in (CID, 3):
        cards = state.hand(seat)[:2]
        state, _ = do_events(state, "load_bag", seat=seat, cards=cards, declared="apples", count=2)
    assert state.phase.kind == "inspection"  # revealed: the count is public now
    assert view_for(state, CID)["players"][BEN]["hand_size"] == 3


@pytest.mark.parametrize("viewer", [0, CID, None])
def test_the_log_of_a_load_counts_no_card_for_the_others(viewer):
    logs = []
    for count in (1, 4):
        state, events = loading_ben(count)
        logs.append([dict(project_event(state, e, viewer), seq=0) for e in events])
    assert logs[0] == logs[1]
    moved = next(e for e in logs[0] if e["type"] == "cards_moved")
    assert moved["cards"] == [] and moved["hidden"] is None


def test_the_loader_still_sees_the_cards_of_their_own_load():
    state, events = loading_ben(2)
    moved = next(e for e in events if e["type"] == "cards_moved")
    mine = project_event(state, moved, BEN)
    assert [c["id"] for c in mine["cards"]] == moved["cards"] and mine["hidden"] == 0


# --- the table on the seat page --------------------------------------------------------


def hand_sizes(html: str) -> dict:
    """Each player's "N in hand" on the page's table, by name."""
    rows = re.findall(
        r"(?s)<strong><bdi>(\w+)</bdi>(?: \(you\))?</strong>.*?<b>(\d+)</b> in hand", html
    )
    return {name: int(size) for name, size in rows}


@pytest.mark.django_db
def test_the_table_shows_the_others_no_bag_size_before_the_reveal():
    game = start_game()
    while Game.objects.get(pk=game.pk).engine_state().phase.kind != "load":
        controls.advance_now(game.pk, expected_version=Game.objects.get(pk=game.pk).version)
    state = Game.objects.get(pk=game.pk).engine_state()
    cards = sorted(state.hand(BEN))[:3]
    ben = game.seats.get(index=BEN)
    command = {"type": "load_bag", "cards": cards, "declared": "apples", "count": 3}
    assert moves.submit(ben, command, version=state.phase.since, key="load").accepted

    cid_page = Client().get(path_of(game.seats.get(index=CID))).content.decode()
    ben_page = Client().get(path_of(ben)).content.decode()
    assert hand_sizes(cid_page)["Ben"] == 6
    assert hand_sizes(ben_page)["Ben"] == 3
