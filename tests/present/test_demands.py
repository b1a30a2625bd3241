"""Demands are the Sheriff's (a Deputy's) terms to a merchant: called demands on
the page, in the log and in the Sheriff's email, and the merchant may refuse one
(issue 31, 6.4)."""

import pytest
from django.test import Client

from games.core import game_setup, moves, timers
from games.models import Game, Seat
from tests.support.fixtures_pages import form_for, forms_of, fresh, messages_of, path_of, post_form
from tests.support.mailplay import mails_by_name as mails

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cid", "Dee")


def at_inspection() -> Game:
    game = game_setup.create_game(
        name="Demands",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES],
        config={"edition": 2},
        seed="d3" * 32,
    )
    timers.advance(game.pk, force=True)
    timers.advance(game.pk, force=True)
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"
    # Every seat is told all there is so far, by email at each move.
    Seat.objects.filter(game=game).update(notify=Seat.Notify.EVERY_EVENT)
    mails()
    return game


def page(game: Game, index: int) -> tuple:
    seat = game.seats.get(index=index)
    client = Client()
    return client, path_of(seat), client.get(path_of(seat)).content.decode()


def demand(game: Game, merchant: int) -> None:
    """The Sheriff demands 3 gold from ``merchant`` to let their bag pass."""
    state = game.engine_state()
    seat = game.seats.get(index=state.sheriff)
    command = {
        "type": "make_offer",
        "to": merchant,
        "terms": {"gold": 3, "sheriff": [{"bag": merchant, "action": "pass"}]},
    }
    assert moves.submit(seat, command, version=state.phase.since, key="demand").accepted


def test_a_merchant_reads_a_demand_as_a_demand_and_may_refuse_it():
    game = at_inspection()
    demand(game, 1)
    client, path, html = page(fresh(game), 1)
    assert "Accept revision" not in html
    assert "Accept this demand" in html
    assert "Demand #1: Ann demands" in html  # the log
    assert "Offer #1" not in html
    response = post_form(client, path, form_for(html, "refuse_offer"))
    assert "You refused it" in " ".join(messages_of(response))
    html = response.content.decode()
    assert "You refuse demand #1." in html
    assert "1 earlier offer, withdrawn, refused or lapsed" in html
    assert not [f for f in forms_of(html) if f.move in ("accept_offer", "refuse_offer")]
    state = fresh(game).engine_state()
    assert state.phase.offers["1"]["status"] == "refused" and state.gold[1] == 50
    _, _, html = page(fresh(game), 0)
    assert "Ben refuses demand #1." in html


def test_the_sheriff_hears_that_their_demand_was_accepted():
    game = at_inspection()
    demand(game, 1)
    mails()
    client, path, html = page(fresh(game), 1)
    post_form(client, path, form_for(html, "accept_offer"))
    sent = mails()
    assert sent["Ann"].body.startswith("Your demand was accepted")
    assert "Your offer was accepted" not in sent["Ann"].body
    assert "Deal! Demand #1 (revision 1) was accepted" in sent["Ann"].body


def test_a_demand_that_lapses_is_told_as_a_demand():
    """The bag it was about is decided first: the log says the demand lapsed."""
    game = at_inspection()
    demand(game, 1)
    state = fresh(game).engine_state()
    merchant = game.seats.get(index=1)
    said = {"type": "say_no_offer"}
    assert moves.submit(merchant, said, version=state.phase.since, key="none").accepted
    sheriff = game.seats.get(index=state.sheriff)
    command = {"type": "pass_bag", "bag": 1}
    assert moves.submit(sheriff, command, version=state.phase.since, key="pass").accepted
    _, _, html = page(fresh(game), 1)
    assert "Demand #1 lapsed." in html
    assert "Offer #1 lapsed." not in html


def test_the_sheriff_revises_a_demand_not_an_offer():
    game = at_inspection()
    demand(game, 1)
    _, _, html = page(fresh(game), fresh(game).engine_state().sheriff)
    assert "Revise this demand" in html
    assert "Revise this offer" not in html
