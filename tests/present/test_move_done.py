"""What a player is told once their move is made (games.present.move_done), the same
words on their page and in the answer to a move by reply: an offer a standing
instruction accepted as it arrived is told as the deal it became, with what it did,
never as "on the table"."""

import pytest

from games.core import moves, standing, timers
from games.present import move_done
from games.words import user_text
from tests.support.fixtures_pages import NAMES, fresh, start_game

pytestmark = pytest.mark.django_db


def seat(game, index: int):
    return game.seats.get(index=index)


def to_inspection(game):
    while fresh(game).engine_state().phase.kind != "inspection":
        timers.advance(game.pk, force=True)
    return fresh(game)


def offer(game, merchant: int, gold: int):
    """``merchant`` offers ``gold`` to the Sheriff to let their own bag pass."""
    command = {
        "type": "make_offer",
        "to": 0,
        "terms": {"gold": gold, "sheriff": [{"bag": merchant, "action": "pass"}]},
    }
    since = fresh(game).engine_state().phase.since
    outcome = moves.submit(seat(game, merchant), command, version=since, key=f"o{merchant}")
    assert outcome.accepted, outcome.message
    return outcome


def test_an_offer_accepted_at_once_by_the_sheriffs_instruction_is_told_as_a_deal():
    game = to_inspection(start_game())
    standing.change(seat(game, 0), no_offer=False, pass_gold=3)
    names = user_text.names(NAMES)

    accepted = offer(game, 1, 3)
    told = move_done.told(seat(game, 1), "make_offer", accepted, names)
    assert "on the table" not in told
    assert told.startswith("Deal! Offer #1 (revision 1) was accepted.")
    assert "The Sheriff lets your bag pass (deal #1)." in told
    assert "You paid Ann 3 gold" in told
    assert fresh(game).engine_state().phase.decided[1] == "passed"

    # An offer below the Sheriff's threshold waits for them, as it says.
    waiting = offer(game, 2, 2)
    assert move_done.told(seat(game, 2), "make_offer", waiting, names) == (
        "Your offer is on the table."
    )
