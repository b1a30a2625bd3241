"""Nobody is left in the dark: everyone hears when the game begins (the Sheriff
too, with the pace and what comes next) and how every round went, with a
preheader that says what each email is or asks."""

import pytest
from django.core import mail

from games.core import game_setup, moves, timers
from games.models import Game
from tests.support.fixtures_pages import path_of
from tests.support.mailplay import deliver_pending, html_of, mails_by_name, preheader

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def new_game(**timing) -> Game:
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES]
    return game_setup.create_game(
        name="Round news", players=players, config={"edition": 2}, seed="9a" * 32, timing=timing
    )


def seat_path(game: Game, index: int) -> str:
    return path_of(game.seats.get(index=index))


def test_everyone_hears_the_game_begin_with_its_pace():
    new_game(
        deadline_mode="duration", market_minutes=1440, load_minutes=720, inspection_minutes=1440
    )
    sent = mails_by_name()
    assert sorted(sent) == NAMES
    sheriff = sent["Alice"].body
    assert sheriff.startswith("The game begins — Round news")
    assert "We will email you when the bags are on the table." in sheriff
    assert "Pace: Each phase has a deadline: 1 day for the market, 12 h for the loading" in sheriff
    merchant = sent["Bob"]
    assert merchant.body.startswith("The game begins — your move")
    assert preheader(merchant).startswith("Your move: choose the cards to set aside — by ")
    assert preheader(sent["Alice"]).startswith("The game begins. We will email you")
    assert "fingerprint of it (SHA-256)" in sheriff  # the fairness commitment, explained


def test_everyone_hears_how_the_round_went():
    game = new_game()
    mails_by_name()
    timers.advance(game.pk, force=True)  # the market: every merchant keeps their hand
    timers.advance(game.pk, force=True)  # loading: the default bags
    mails_by_name()
    state = Game.objects.get(pk=game.pk).engine_state()
    assert state.phase.kind == "inspection"
    alice = game.seats.get(index=0)
    since = state.phase.since
    for merchant in game.seats.exclude(index=0):
        no_offer = {"type": "say_no_offer"}
        assert moves.submit(merchant, no_offer, version=since, key=f"n{merchant.index}").accepted
    assert list(mails_by_name()) == ["Alice"]  # every bag can be decided now
    for bag, move in ((1, "inspect_bag"), (2, "pass_bag"), (3, "pass_bag")):
        command = {"type": move, "bag": bag}
        since = Game.objects.get(pk=game.pk).engine_state().phase.since
        assert moves.submit(alice, command, version=since, key=f"k{bag}").accepted
    sent = mails_by_name()
    assert sorted(sent) == NAMES  # one each, the old Sheriff and the new one included
    for name, message in sent.items():
        assert "Round 1 is over" in message.body, name
        assert "HOW ROUND 1 WENT" in message.body and "Your purse:" in message.body
        assert "Round 2 begins. Bob is the Sheriff." in message.body
    assert "The Sheriff inspects your bag: you were" in sent["Bob"].body
    assert "The Sheriff inspects Bob's bag: Bob was" in sent["Carol"].body
    assert "The Sheriff lets Carol's bag pass" in sent["Dave"].body
    assert preheader(sent["Alice"]) == "Your move: choose the cards to set aside"
    assert preheader(sent["Bob"]).startswith("Round 1 is over: The Sheriff inspects your bag")
    bob = sent["Bob"].body
    assert bob.count("The Sheriff inspects your bag") == 1  # told once, under HOW ROUND 1 WENT


def test_what_happened_is_grouped_by_round_in_the_order_of_the_page_log(client):
    game = new_game()
    mails_by_name()
    for _ in range(3):  # round 1 to its end by the defaults, then round 2's market
        timers.advance(game.pk, force=True)
    deliver_pending()
    carol = next(m for m in mail.outbox if "Round 2 begins" in m.body and "carol" in m.to[0])
    body = carol.body[carol.body.index("WHAT HAPPENED") :]
    heads = [body.index("\nRound 1:\n"), body.index("\nRound 2:\n")]
    assert heads == sorted(heads)
    assert heads[1] < body.index("Round 2 begins. Bob is the Sheriff.")
    html = html_of(carol)
    assert html.index(">Round 1</h3>") < html.index(">Round 2</h3>")
    told = [line[2:] for line in body.splitlines() if line.startswith("- ")]
    told = told[: told.index("Round 2 begins. Bob is the Sheriff.") + 1]
    page = client.get(seat_path(game, 2) + "?log=all")
    logged = [line["text"] for group in page.context["log"] for line in group["lines"]]
    assert [line for line in logged if line in told] == told  # the same order as the page
