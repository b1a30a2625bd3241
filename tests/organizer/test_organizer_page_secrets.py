"""The organizer who plays, on their own page: whole random games played through
the emails, Alice organizing from her phone between her own moves, and at every
few moves her page is shown to depend on nothing a spectator cannot see — no hand
(hers included), no closed bag or its size, no face-down goods, no deck order, no
seed — the way the seat pages and emails are checked (tests/support/email_players.py)."""

import random

import pytest

from games.models import GameEvent
from tests.organizer.organizer_page import signed_in
from tests.support.email_players import (
    assert_nothing_hidden_shapes_the_organizer_page,
    play_through_email,
)

pytestmark = pytest.mark.django_db

ALICE = "alice@example.org"  # seat 1 of every game here, and its organizer
EVERY = 3  # moves between two looks at the page


@pytest.mark.parametrize(
    ("players_count", "edition", "black_market"),
    [(4, 2, False), (3, 1, False), (4, 2, True)],
    ids=["4p-2nd-edition", "3p-1st-edition", "4p-black-market"],
)
def test_an_organizer_who_plays_reads_nothing_hidden_on_their_page(
    players_count, edition, black_market
):
    alice = signed_in(ALICE)
    rnd = random.Random(players_count * 10 + edition)
    looked = {"moves": 0, "phases": set(), "closed_bags": 0}

    def look(game):
        looked["moves"] += 1
        if looked["moves"] % EVERY:
            return
        page = assert_nothing_hidden_shapes_the_organizer_page(alice, game, rnd)
        phase = game.engine_state().phase
        looked["phases"].add(phase.kind if phase else "over")
        if phase and phase.kind == "load" and any(phase.declarations):
            looked["closed_bags"] += 1
            assert "closed their bag" in page

    game, _players = play_through_email(
        players_count,
        edition,
        seed="0a" * 32,
        rnd_seed=players_count + edition,
        black_market=black_market,
        watch=look,
        organizer_email=ALICE,
    )
    assert {"load", "inspection"} <= looked["phases"], looked["phases"]
    assert looked["closed_bags"] > 0, "never looked while a bag was closed"
    assert GameEvent.objects.filter(game=game, type="game_ended").exists()
    assert_nothing_hidden_shapes_the_organizer_page(alice, game, rnd)  # the end: seed shown
