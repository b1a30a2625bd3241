"""The seat pages of six-player games (two Deputies) and of the Black Market:
what each seat reads and the forms it posts, as a browser would."""

import pytest

from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_VALUES
from games.models import Game
from tests.support.builders import rig
from tests.support.fixtures_pages import (
    decide_buttons,
    form_for,
    forms_of,
    fresh,
    messages_of,
    post_form,
)
from tests.web.six_seat_pages import SIX, page, start, to_inspection

pytestmark = pytest.mark.django_db

FOUR = SIX[:4]


def everyone_says_no_offer(game: Game) -> None:
    for merchant in game.engine_state().merchants():
        client, path, html = page(game, merchant)
        post_form(client, path, form_for(html, "say_no_offer"))


def button(html: str, decide: str, bag: int):
    """The "Let pass…" or "Inspect…" button of a bag."""
    wanted = {"decide": decide, "bag": str(bag)}
    [found] = [b for b in decide_buttons(html) if all(b.value(k) == v for k, v in wanted.items())]
    return found


def confirm(client, path: str, button) -> tuple:
    """Press a "Let pass…" / "Inspect…" button, then read its confirmation form."""
    html = client.get(path, {k: v for k, v, _, _ in button.fields if k}).content.decode()
    return html, next(f for f in forms_of(html) if f.value("confirm") == "yes")


def test_a_deputy_calls_each_bag_seeing_the_other_deputys_call():
    game = to_inspection(start())
    first, second = game.engine_state().deputies
    bag = game.engine_state().merchants()[0]
    everyone_says_no_offer(game)

    client, path, html = page(game, first)
    assert "Call the bags" in html and "Deputy" in html
    assert "not called yet" in html
    let_pass = button(html, "pass", bag)
    html, form = confirm(client, path, let_pass)
    assert "has not called this bag yet" in html
    response = post_form(client, path, form)
    assert "Your call is recorded: let the bag pass." in messages_of(response)

    client, path, html = page(fresh(game), second)
    assert "let pass" in html  # the first Deputy's call, beside the bag
    inspect = button(html, "inspect", bag)
    html, form = confirm(client, path, inspect)
    assert "you inspect it alone, and pay or receive alone" in html
    post_form(client, path, form)
    assert fresh(game).engine_state().phase.decided[bag] == "inspected"

    _, _, html = page(fresh(game), game.engine_state().merchants()[1])
    assert "Calls:" in html  # a merchant sees whose call is pending on the other bags


def test_an_offer_to_both_deputies_needs_both_and_pays_the_booty():
    game = to_inspection(start())
    first, second = game.engine_state().deputies
    merchant = game.engine_state().merchants()[0]
    client, path, html = page(game, merchant)
    assert "Offer to both Deputies (paid to the Booty)" in html
    [to_both] = [
        f for f in forms_of(html) if f.move == "make_offer" and f.value("to") == "deputies"
    ]
    response = post_form(
        client, path, to_both, gold="4", promise="", **{f"action_{merchant}": "pass"}
    )
    assert "Your offer is on the table." in messages_of(response)

    client, path, html = page(fresh(game), first)
    assert "waiting for" in html and "to accept" in html
    response = post_form(client, path, form_for(html, "accept_offer"))
    assert "the deal is made once every party has" in " ".join(messages_of(response))
    client, path, html = page(fresh(game), second)
    response = post_form(client, path, form_for(html, "accept_offer"))
    assert any(m.startswith("Deal!") for m in messages_of(response))
    state = fresh(game).engine_state()
    assert state.booty_gold == 4
    assert 'id="booty"' in html


def test_a_deputy_may_demand_for_both_deputies():
    game = to_inspection(start())
    first, second = game.engine_state().deputies
    merchant = game.engine_state().merchants()[0]
    client, path, html = page(game, first)
    demand = next(
        f for f in forms_of(html) if f.move == "make_offer" and f.value("to") == str(merchant)
    )
    assert "joint" in [name for name, *_ in demand.fields]
    response = post_form(
        client, path, demand, gold="2", joint="yes", **{f"action_{merchant}": "pass"}
    )
    assert "Your demand is on the table." in messages_of(response)
    [offer] = fresh(game).engine_state().phase.offers.values()
    assert sorted(offer["deputies"]) == sorted([first, second])


def test_black_market_piles_and_their_provisional_values_on_every_page():
    game = start(players=FOUR, black_market=True)
    for index in range(4):
        _, _, html = page(game, index)
        assert "The Black Market" in html and "provisional" in html
        for values in BLACK_MARKET_VALUES.values():
            assert f"<strong>{max(values)}</strong> (top)" in html


def smuggler_at_inspection(kind: str) -> tuple:
    """A four-player Black Market game in the inspection, every merchant having said
    "no offer", the first merchant with three ``kind`` on their stand."""
    game = to_inspection(start(players=FOUR, black_market=True))
    state = game.engine_state()
    merchant = state.merchants()[0]
    Game.objects.filter(pk=game.pk).update(
        state=rig(state, f"stand:{merchant}", [kind] * 3).to_dict()
    )
    everyone_says_no_offer(game)
    return fresh(game), merchant


def test_a_merchant_claims_from_the_black_market_once_their_bag_is_through():
    game, merchant = smuggler_at_inspection("pepper")
    client, path, html = page(game, game.engine_state().sheriff)
    let_pass = button(html, "pass", merchant)
    post_form(client, path, confirm(client, path, let_pass)[1])

    client, path, html = page(fresh(game), merchant)
    claim = form_for(html, "claim_black_market")
    assert "pepper" in claim.values("kind")
    response = post_form(client, path, claim, kind="pepper")
    assert "Your Black Market claim is carried out." in messages_of(response)
    html = response.content.decode()
    assert "Black Market: <strong>Pepper (30) — provisional values</strong>" in html
    assert "Traded in, out of the game" in html
    assert not [f for f in forms_of(html) if f.move == "claim_black_market"]  # one a round


def test_a_claim_for_a_kind_the_stand_cannot_pay_is_refused_and_changes_nothing():
    game = to_inspection(start(players=FOUR, black_market=True))
    merchant = game.engine_state().merchants()[0]
    client, path, _ = page(game, merchant)
    before = fresh(game).version
    response = client.post(
        path, {"move": "claim_black_market", "version": "1", "key": "k.1", "kind": "gold"}
    )
    assert response.status_code == 200
    assert "Choose the Black Market pile" in response.content.decode()
    assert fresh(game).version == before


def test_the_black_market_step_waits_for_an_eligible_merchant_and_seals_the_choice():
    game, merchant = smuggler_at_inspection("mead")
    state = game.engine_state()
    client, path, html = page(game, state.sheriff)
    for bag in state.merchants():
        let_pass = button(html, "pass", bag)
        response = post_form(client, path, confirm(client, path, let_pass)[1])
        html = response.content.decode()
    assert fresh(game).engine_state().phase.kind == "black_market"
    assert "may still claim from the Black Market" in html  # the Sheriff is told why

    client, path, html = page(fresh(game), merchant)
    assert "Your choice is sealed until every choice is in" in html
    response = post_form(client, path, form_for(html, "claim_black_market"), kind="mead")
    assert "Your Black Market choice is sealed" in " ".join(messages_of(response))
    state = fresh(game).engine_state()
    assert state.round == 2 and state.claims[merchant][0]["type"] == "mead"


def test_a_claimed_black_market_card_shows_on_its_owners_stand_and_row():
    """Issue 31, 6.3: the claimed card lies in its owner's contraband pile: their own
    stand panel shows it with its value, and their row counts it as contraband."""
    game, merchant = smuggler_at_inspection("pepper")
    client, path, html = page(game, game.engine_state().sheriff)
    post_form(client, path, confirm(client, path, button(html, "pass", merchant))[1])
    client, path, html = page(fresh(game), merchant)
    response = post_form(client, path, form_for(html, "claim_black_market"), kind="pepper")
    html = response.content.decode()
    mine = html.split('class="panel mine"', 1)[1].split("</section>", 1)[0]
    assert "Nothing on your stand yet" not in mine
    assert "Pepper (30)" in mine
    state = fresh(game).engine_state()
    goods = sum(CARD_TYPES[state.type_of(c)].value for c in state.stand(merchant))
    value = goods + 30  # the rest of the stand, face up and down, and the claimed card
    assert f"worth {value}" in mine
    row = html.split('class="player me', 1)[1].split("</li>", 1)[0]
    assert "<b>0</b> contraband" not in row


def test_a_merchant_who_cannot_claim_is_told_why_the_black_market_step_asks_them():
    """Issue 31, 6.1: three face-down goods of different kinds: the step waits for
    them all the same, and says why."""
    game, merchant = smuggler_at_inspection("pepper")
    state = game.engine_state()
    Game.objects.filter(pk=game.pk).update(
        state=rig(state, f"stand:{merchant}", ["pepper", "mead", "silk"]).to_dict()
    )
    client, path, html = page(fresh(game), state.sheriff)
    for bag in state.merchants():
        response = post_form(client, path, confirm(client, path, button(html, "pass", bag))[1])
        html = response.content.decode()
    assert fresh(game).engine_state().phase.kind == "black_market"
    _, _, html = page(fresh(game), merchant)
    assert "you cannot claim" in html
    assert "the table waits for every merchant with 3 or more face-down goods" in html
    assert form_for(html, "decline_black_market")


def test_a_standing_answer_and_an_early_no_claim_from_the_page():
    game = to_inspection(start(players=FOUR, black_market=True))
    merchant = game.engine_state().merchants()[0]
    client, path, html = page(game, merchant)
    assert "after the last bag, the table will not wait for your answer" in html
    response = post_form(client, path, form_for(html, "set_black_market_standing"))
    assert "Your standing answer is recorded." in messages_of(response)
    html = response.content.decode()
    assert f"With a standing answer: <bdi>{SIX[merchant]}</bdi>." in html
    assert "Ask me each time instead" in html
    assert fresh(game).engine_state().black_market_standing == [merchant]
    other = game.engine_state().merchants()[1]
    client, path, html = page(fresh(game), other)
    response = post_form(client, path, form_for(html, "decline_black_market"))
    assert "No Black Market claim from you this round." in messages_of(response)
    assert fresh(game).engine_state().phase.declined == [other]


def test_a_merchant_the_step_would_wait_for_is_asked_as_soon_as_their_bag_is_through():
    """Issue 31, 6.1: asked at once, while the inspection goes on, with the reason."""
    from tests.support.mailplay import mails_by_name

    game, merchant = smuggler_at_inspection("pepper")
    state = game.engine_state()
    Game.objects.filter(pk=game.pk).update(
        state=rig(state, f"stand:{merchant}", ["pepper", "mead", "silk"]).to_dict()
    )
    mails_by_name()
    client, path, html = page(fresh(game), state.sheriff)
    post_form(client, path, confirm(client, path, button(html, "pass", merchant))[1])
    assert fresh(game).engine_state().phase.kind == "inspection"
    sent = mails_by_name()
    name = SIX[merchant]
    assert list(sent) == [name]
    assert "You cannot claim this round: say “No claim this round” now" in sent[name].body
