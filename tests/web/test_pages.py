"""The player's page: GET shows a seat's view only; POST performs one move."""

import re
from datetime import timedelta

import pytest
from django.http import QueryDict
from django.test import Client
from django.utils import timezone

from games.core import moves, selectors, timers
from games.engine import CARD_TYPES
from games.models import Game, Submission
from games.present.move_fields import sent_back
from games.web.forms import FormError, parse_move
from tests.support.builders import rig
from tests.support.fixtures_pages import (
    card_ids_in_forms,
    decide_buttons,
    form_for,
    forms_of,
    fresh,
    messages_of,
    move_forms,
    path_of,
    post_form,
    start_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db) -> Game:
    return start_game()


@pytest.fixture
def first_edition_game(db) -> Game:
    return start_game(edition=1)


def seat(game, index):
    return game.seats.get(index=index)


def hand(game, index) -> list:
    return fresh(game).engine_state().hand(index)


# --- GET ---------------------------------------------------------------------------------


def test_each_seat_sees_its_own_hand_and_no_other(client, game):
    state = game.engine_state()
    for index in range(state.players):
        response = client.get(path_of(seat(game, index)))
        assert response.status_code == 200
        html = response.content.decode()
        for card_id in state.hand(index):
            assert CARD_TYPES[state.type_of(card_id)].label in html
        others = {c for s in range(state.players) if s != index for c in state.hand(s)}
        in_forms = card_ids_in_forms(html)
        assert not in_forms & others
        if index != state.sheriff:  # merchants get the market form, with exactly their hand
            assert in_forms == set(state.hand(index))
        assert state.seed not in html


def test_the_page_offers_exactly_the_moves_of_the_seat(client, game):
    sheriff_html = client.get(path_of(seat(game, 0))).content.decode()
    assert [f.move for f in move_forms(sheriff_html)] == []
    merchant_html = client.get(path_of(seat(game, 1))).content.decode()
    assert [f.move for f in move_forms(merchant_html)] == ["set_aside"]


def test_get_changes_nothing(client, game):
    before = fresh(game)
    for _ in range(2):
        client.get(path_of(seat(game, 1)))
        client.head(path_of(seat(game, 1)))
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)
    assert not Submission.objects.exists()


def test_every_form_has_its_own_one_time_key_and_the_page_version(client, game):
    html = client.get(path_of(seat(game, 0))).content.decode()  # nothing to do yet
    game_forms = move_forms(client.get(path_of(seat(game, 1))).content.decode())
    since = game.engine_state().phase.since
    assert all(f.value("version") == str(since) for f in game_forms)
    keys = [f.value("key") for f in game_forms]
    assert len(set(keys)) == len(keys) and all(keys)
    again = move_forms(client.get(path_of(seat(game, 1))).content.decode())
    assert {f.value("key") for f in again}.isdisjoint(keys)
    assert "Market" in html


def log_texts(response) -> list:
    return [line["text"] for group in response.context["log"] for line in group["lines"]]


def test_the_log_shows_the_latest_lines_with_a_link_to_all(client, game):
    for _ in range(8):  # deadlines pass: the defaults fill a few rounds of the log
        timers.advance(game.pk, force=True)
    path = path_of(seat(game, 1))
    latest = client.get(path)
    every = client.get(path + "?log=all")
    assert "?log=all" in latest.content.decode()
    assert len(log_texts(latest)) == 40 < len(log_texts(every))
    assert log_texts(latest) == log_texts(every)[-40:]  # the latest lines, in order of play
    assert 'href="?log=all' not in every.content.decode()
    assert log_texts(every)[0].startswith("The game begins")  # oldest first


def test_the_latest_lines_read_in_small_batches_are_the_same(client, game, monkeypatch):
    """The page's first batch of events comes with its seat; the next ones are read
    as the log asks for more."""
    for _ in range(8):
        timers.advance(game.pk, force=True)
    path = path_of(seat(game, 1))
    latest = log_texts(client.get(path))
    monkeypatch.setattr(selectors, "EVENTS_BATCH", 3)
    assert log_texts(client.get(path)) == latest and len(latest) == 40


def test_the_log_is_grouped_by_round_in_the_order_of_play(client, game):
    for _ in range(4):  # two rounds: market and loading by default, then the next round
        timers.advance(game.pk, force=True)
    response = client.get(path_of(seat(game, 1)) + "?log=all")
    groups = response.context["log"]
    assert [g["title"] for g in groups] == ["Before the first round", "Round 1", "Round 2"]
    assert groups[1]["lines"][0]["text"] == "Round 1 begins. Ann is the Sheriff."
    assert "Round 1 is over." in [line["text"] for line in groups[1]["lines"]]
    assert groups[2]["lines"][0]["text"] == "Round 2 begins. Ben is the Sheriff."
    seqs = [line["seq"] for g in groups for line in g["lines"]]
    assert seqs == sorted(seqs)
    html = response.content.decode()
    headings = [html.index(f'<h3 class="log-round">{g["title"]}</h3>') for g in groups]
    assert headings == sorted(headings)


def test_a_deadline_is_shown_in_the_seats_time_zone_and_in_utc(client, game):
    ben = seat(game, 1)
    ben.timezone = "Europe/Paris"
    ben.save()
    when = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    if not hasattr(Game, "phase_deadline"):
        pytest.skip("Game.phase_deadline does not exist yet")
    Game.objects.filter(pk=game.pk).update(phase_deadline=when)
    html = client.get(path_of(ben)).content.decode()
    assert "(Europe/Paris)" in html and "UTC" in html
    assert "in 4\xa0hours, 59\xa0minutes" in html or "in 5\xa0hours" in html


def test_the_countdown_never_says_in_0_minutes(client, game):
    ben = seat(game, 1)
    for seconds, said in ((30, "in less than a minute"), (-5, "any moment now")):
        when = timezone.now() + timedelta(seconds=seconds)
        Game.objects.filter(pk=game.pk).update(phase_deadline=when)
        html = client.get(path_of(ben)).content.decode()
        assert "0\xa0minutes" not in html and said in html


# --- the home page --------------------------------------------------------------------------


def test_the_home_page_says_what_the_site_is_and_how_to_reach_a_game(client, game):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<div class="brand">' in html and "site.css" in html  # the site's own layout
    assert "Play Sheriff of Nottingham by email" in html
    assert "Open the newest email from your game" in html and "Open your table" in html
    assert "Or ask the organizer of your game" in html and "send you your latest email" in html
    assert "Lost your links?" in html and 'action="/links/' in html  # resend my links
    assert [f.action for f in forms_of(html)] == ["/links/"]  # no password form
    assert '<a class="button primary" href="/sign-in/">Sign in</a>' in html
    assert '<a class="button secondary" href="/new/">Create a game</a>' in html
    assert game.name not in html and "Ben" not in html and "/play/" not in html  # no games
    assert client.head("/").status_code == 200
    assert client.post("/").status_code == 405


# --- bad links ---------------------------------------------------------------------------


def test_a_bad_or_tampered_link_gets_a_403_page_without_game_data(client, game):
    good = path_of(seat(game, 1))
    tampered = good[:-3] + ("A" if good[-3] != "A" else "B") + good[-2:]
    for path in ("/play/not-a-token/", tampered):
        for response in (client.get(path), client.post(path, {"move": "set_aside"})):
            html = response.content.decode()
            assert response.status_code == 403
            assert "This link is not valid" in html
            assert "Traceback" not in html and game.name not in html and "Ben" not in html
    assert fresh(game).version == game.version


def test_a_revoked_link_gets_a_410_page(client, game):
    ben = seat(game, 1)
    old = path_of(ben)
    ben.link_version += 1
    ben.save()
    response = client.get(old)
    assert response.status_code == 410
    assert "Ben" not in response.content.decode()
    assert client.get(path_of(ben)).status_code == 200


# --- POST --------------------------------------------------------------------------------


def test_set_aside_by_every_merchant_moves_the_game_to_loading(client, game):
    for index in (1, 2, 3):
        path = path_of(seat(game, index))
        form = form_for(client.get(path).content.decode(), "set_aside")
        chosen = form.values("cards")[:2]
        response = post_form(client, path, form, cards=chosen)
        assert response.redirect_chain == [(path, 302)]
        assert messages_of(response) == ["Your market choice is recorded."]
    assert fresh(game).engine_state().phase.kind == "load"
    html = client.get(path_of(seat(game, 1))).content.decode()
    assert [f.move for f in move_forms(html)] == ["load_bag"]


def test_a_stale_page_is_refused_with_its_message(client, game):
    path = path_of(seat(game, 1))
    form = form_for(client.get(path).content.decode(), "set_aside")
    response = post_form(client, path, form, version=str(int(form.value("version")) - 1))
    assert messages_of(response) == [
        "The game moved on since this page was shown. Here is the current table."
    ]
    assert response.redirect_chain == [(path, 302)]  # a fresh table, not the old form
    assert fresh(game).version == game.version


def test_the_same_post_twice_has_one_effect(client, game):
    path = path_of(seat(game, 1))
    form = form_for(client.get(path).content.decode(), "set_aside")
    first = post_form(client, path, form, cards=form.values("cards")[:1])
    version = fresh(game).version
    again = post_form(client, path, form, cards=form.values("cards")[:1])
    assert fresh(game).version == version > game.version
    assert Submission.objects.count() == 1
    assert messages_of(first) == ["Your market choice is recorded."]
    assert "already sent" in messages_of(again)[0]


def test_a_post_without_the_csrf_token_is_refused(game):
    browser = Client(enforce_csrf_checks=True)
    path = path_of(seat(game, 1))
    form = form_for(browser.get(path).content.decode(), "set_aside")
    payload = {k: v for k, v in form.hidden().items() if k != "csrfmiddlewaretoken"}
    assert browser.post(path, payload).status_code == 403
    assert fresh(game).version == game.version
    assert browser.post(path, form.hidden()).status_code == 302  # with it: accepted
    assert fresh(game).version > game.version


def test_a_seat_cannot_act_as_another(client, game):
    ben, cid = seat(game, 1), seat(game, 2)
    path = path_of(ben)
    form = form_for(client.get(path).content.decode(), "set_aside")
    post_form(client, path, form, seat="2", cards=[])
    phase = fresh(game).engine_state().phase
    assert phase.pending[1] == [] and phase.pending[2] is None
    # Nor use another seat's cards.
    path = path_of(cid)
    form = form_for(client.get(path).content.decode(), "set_aside")
    response = post_form(client, path, form, seat="1", cards=[str(hand(game, 3)[0])])
    assert messages_of(response) == ["You can only use cards from your own hand."]
    assert fresh(game).engine_state().phase.pending[2] is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cards": ["abc"]}, "A chosen card is not valid. Please reload the page."),
        ({"version": "x"}, "The page version must be a whole number."),
        ({"key": ""}, "This form is incomplete. Please reload the page and try again."),
        ({"move": "cheat"}, "This form is not one the game knows. Please reload the page."),
        # Digits that str.isdigit() takes but the form does not write.
        ({"cards": ["\u00b2"]}, "A chosen card is not valid. Please reload the page."),
        ({"version": "\uff11"}, "The page version must be a whole number."),
        ({"version": "1" * 5000}, "The page version must be a whole number."),
        # PostgreSQL refuses NUL in text: refused before the database sees it.
        ({"key": "k\x00"}, "This form holds characters it should not. Please reload the page."),
        ({"move\x01": "x"}, "This form holds characters it should not. Please reload the page."),
    ],
)
def test_malformed_input_gets_a_clear_message_and_changes_nothing(client, game, data, message):
    path = path_of(seat(game, 1))
    form = form_for(client.get(path).content.decode(), "set_aside")
    response = post_form(client, path, form, **data)
    assert messages_of(response) == [message]
    assert fresh(game).version == game.version
    assert not Submission.objects.exists()


# --- a whole round through the forms -------------------------------------------------------


def play_market_and_load(client, game, declared="apples"):
    for index in (1, 2, 3):
        path = path_of(seat(game, index))
        post_form(client, path, form_for(client.get(path).content.decode(), "set_aside"))
    for index in (1, 2, 3):
        path = path_of(seat(game, index))
        form = form_for(client.get(path).content.decode(), "load_bag")
        assert form.options["declared"][1:] == ["apples", "cheese", "bread", "chicken"]
        response = post_form(client, path, form, cards=form.values("cards")[:2], declared=declared)
        assert messages_of(response) == ["Your bag is closed and your declaration recorded."]


def test_offers_deals_and_decisions_through_the_forms(client, game):
    play_market_and_load(client, game)
    state = fresh(game).engine_state()
    assert state.phase.kind == "inspection"
    assert [d["count"] for d in state.phase.declarations[1:]] == [2, 2, 2]

    # Ben offers 3 gold and a promise to let his bag pass (his own bag defaults to "pass").
    ben = path_of(seat(game, 1))
    form = form_for(client.get(ben).content.decode(), "make_offer")
    assert form.value("to") == "0" and form.value("seat") is None
    response = post_form(
        client,
        ben,
        form,
        gold="3",
        promise="Honest as the day.",
        action_1="pass",
        action_2="",
        action_3="",
    )
    assert messages_of(response) == ["Your offer is on the table."]
    offer = fresh(game).engine_state().phase.offers["1"]
    assert offer["terms"]["gold"] == 3
    assert offer["terms"]["sheriff"] == [{"bag": 1, "action": "pass"}]

    # Ben revises it; the Sheriff sees revision 2 with an Accept button and accepts it.
    html = client.get(ben).content.decode()
    revise = form_for(html, "revise_offer")
    assert revise.value("offer") == "1"
    post_form(client, ben, revise, gold="4", action_1="pass", action_2="", action_3="")
    sheriff = path_of(seat(game, 0))
    html = client.get(sheriff).content.decode()
    accept = form_for(html, "accept_offer")
    assert accept.hidden()["revision"] == "2"
    assert fresh(game).engine_state().phase.offers["1"]["terms"]["promise"] == ""
    response = post_form(client, sheriff, accept)
    # The message tells what the deal did, not only that it was made.
    assert messages_of(response) == [
        "Deal! The offer is accepted. Ben paid you 4 gold as agreed in a deal. "
        "The Sheriff lets Ben's bag pass (deal #1). Ben's stand receives 1 Cheese, 1 Bread."
    ]
    state = fresh(game).engine_state()
    assert state.gold[0] == 54 and state.phase.decided[1] == "passed"

    # Cid and Dee have not spoken yet: the Sheriff waits for them (bargaining).
    html = client.get(sheriff).content.decode()
    assert "Waiting for <bdi>Cid</bdi> to make an offer or say “no offer”" in html
    assert "Waiting for <bdi>Dee</bdi> to make an offer or say “no offer”" in html
    assert not decide_buttons(html)
    for merchant in (2, 3):
        path = path_of(seat(game, merchant))
        response = post_form(
            client, path, form_for(client.get(path).content.decode(), "say_no_offer")
        )
        assert messages_of(response) == [
            "The Sheriff now knows you have no offer: your bag can be decided."
        ]

    # The Sheriff decides the other two bags with the buttons, confirming each.
    html = client.get(sheriff).content.decode()
    decisions = decide_buttons(html)
    assert sorted({(f.value("decide"), f.value("bag")) for f in decisions}) == [
        ("inspect", "2"),
        ("inspect", "3"),
        ("pass", "2"),
        ("pass", "3"),
    ]
    inspect = next(f for f in decisions if f.value("decide") == "inspect")
    page = client.get(sheriff, inspect.hidden()).content.decode()  # nothing is decided yet
    assert fresh(game).engine_state().phase.decided[2] is None
    assert "Inspect Cid&#39;s bag?" in page and "This is final" in page
    inspected = post_form(client, sheriff, form_for(page, "inspect_bag"))
    (told,) = messages_of(inspected)
    assert re.search(r"Cid was (honest \(.+\)|lying \(declared .+, carried .+\))", told), told
    assert re.search(r"(Cid paid you|You paid Cid) \d+ gold", told), told
    html = client.get(sheriff).content.decode()
    [last] = [f for f in decide_buttons(html) if f.value("decide") == "pass"]
    post_form(
        client, sheriff, form_for(client.get(sheriff, last.hidden()).content.decode(), "pass_bag")
    )
    state = fresh(game).engine_state()
    assert state.round == 2 and state.phase.kind == "market"


def test_the_sheriff_may_ask_only_for_face_up_goods_and_a_merchant_may_withdraw(client, game):
    play_market_and_load(client, game)
    sheriff = path_of(seat(game, 0))
    html = client.get(sheriff).content.decode()
    demands = [f for f in forms_of(html) if f.move == "make_offer"]
    assert [f.value("to") for f in demands] == ["1", "2", "3"]
    assert not card_ids_in_forms(html)  # nobody has goods on a stand yet; hands never show
    response = post_form(client, sheriff, demands[1], gold="5", action_2="pass")
    assert messages_of(response) == ["Your demand is on the table."]  # a Sheriff demands
    offer = fresh(game).engine_state().phase.offers["1"]
    assert (offer["payer"], offer["terms"]["gold"]) == (2, 5)
    html = client.get(sheriff).content.decode()
    withdraw = form_for(html, "withdraw_offer")
    post_form(client, sheriff, withdraw)
    assert fresh(game).engine_state().phase.offers["1"]["status"] == "withdrawn"


def test_the_game_over_page_shows_scores_and_the_revealed_seed(client, game):
    while fresh(game).status == Game.Status.ACTIVE:
        timers.advance(game.pk, force=True)
    response = client.get(path_of(seat(game, 2)))
    html = response.content.decode()
    assert "Final scores" in html and "Winner" in html
    assert game.engine_state().seed in html and "matches" in html
    assert forms_of(html) == []
    assert len(response.context["scores"]) == 4


# --- a refused form keeps what was sent ------------------------------------------------------


def refused_page(client, path: str, form, **data):
    """Post a form that is refused: the page comes back at once, not by a redirect."""
    response = post_form(client, path, form, **data)
    assert response.status_code == 200 and response.redirect_chain == []
    return response, response.content.decode()


def test_a_refused_market_choice_keeps_the_ticked_cards(client, game):
    path = path_of(seat(game, 1))
    form = form_for(client.get(path).content.decode(), "set_aside")
    mine = form.values("cards")  # all six: one more than may be set aside
    assert form.ticked("cards") == []
    response, html = refused_page(client, path, form, cards=mine)
    assert messages_of(response) == ["You can set aside at most 5 cards."]
    again = form_for(html, "set_aside")
    assert again.ticked("cards") == mine
    response, html = refused_page(client, path, again, cards=[*mine[:2], "x"])  # a form error
    assert messages_of(response) == ["A chosen card is not valid. Please reload the page."]
    again = form_for(html, "set_aside")
    assert again.ticked("cards") == mine[:2]
    assert fresh(game).version == game.version
    response = post_form(client, path, again, cards=again.ticked("cards"))  # now accepted
    assert response.redirect_chain == [(path, 302)]
    assert messages_of(response) == ["Your market choice is recorded."]


def test_a_refused_market_turn_keeps_the_cards_draws_pile_and_top_card(client, first_edition_game):
    game = first_edition_game
    path = path_of(seat(game, game.engine_state().phase.seat))
    form = form_for(client.get(path).content.decode(), "market_turn")
    mine = form.values("cards")
    sent = {"cards": mine[:2], "from_pile_0": "3", "pile": "1", "top": mine[1]}
    response, html = refused_page(client, path, form, **sent)
    assert messages_of(response) == [
        "You set aside 2 cards, so you can take at most that many from the discard piles."
    ]
    again = form_for(html, "market_turn")
    assert again.ticked("cards") == mine[:2]
    assert (again.value("from_pile_0"), again.value("from_pile_1")) == ("3", "0")
    assert again.ticked("pile") == ["1"]
    assert again.value("top") == mine[1]


def test_a_refused_bag_keeps_the_ticked_cards_and_the_declared_goods(client, game):
    for index in (1, 2, 3):  # everyone keeps their hand
        path = path_of(seat(game, index))
        post_form(client, path, form_for(client.get(path).content.decode(), "set_aside"))
    path = path_of(seat(game, 1))
    form = form_for(client.get(path).content.decode(), "load_bag")
    mine = form.values("cards")  # all six: one more than a bag holds
    response, html = refused_page(client, path, form, cards=mine, declared="bread")
    assert messages_of(response) == ["Your bag must hold 1 to 5 cards."]
    again = form_for(html, "load_bag")
    assert again.ticked("cards") == mine and again.value("declared") == "bread"
    response, html = refused_page(client, path, again, cards=mine[:3], declared="")
    assert messages_of(response) == [
        "Choose the goods you declare: Apples, Cheese, Bread or Chickens."
    ]
    assert form_for(html, "load_bag").ticked("cards") == mine[:3]


def test_a_refused_offer_keeps_the_gold_promise_and_actions(client, game):
    play_market_and_load(client, game)
    ben = path_of(seat(game, 1))
    form = form_for(client.get(ben).content.decode(), "make_offer")
    typed = {"gold": "999", "promise": "Trust me.", "action_1": "pass", "action_2": "inspect"}
    response, html = refused_page(client, ben, form, action_3="", **typed)
    (message,) = messages_of(response)
    assert message.startswith("No one can offer more gold than they hold")
    again = form_for(html, "make_offer")
    assert [again.value(name) for name in typed] == list(typed.values())
    assert again.value("action_3") == ""

    # A revision refused is shown again, open, as typed.
    post_form(client, ben, again, gold="3", action_1="pass", action_2="", action_3="")
    revise = form_for(client.get(ben).content.decode(), "revise_offer")
    response, html = refused_page(client, ben, revise, gold="998", action_1="inspect")
    again = form_for(html, "revise_offer")
    assert (again.value("gold"), again.value("action_1")) == ("998", "inspect")
    assert re.search(r'<details class="sub" open>\s*<summary>Revise this offer', html)
    assert fresh(game).engine_state().phase.offers["1"]["terms"]["gold"] == 3


def test_a_refused_demand_is_shown_again_open_in_its_own_form(client, game):
    play_market_and_load(client, game)
    sheriff = path_of(seat(game, 0))
    demands = [f for f in forms_of(client.get(sheriff).content.decode()) if f.move == "make_offer"]
    _, html = refused_page(client, sheriff, demands[1], gold="999", action_2="pass")
    demands = [f for f in forms_of(html) if f.move == "make_offer"]
    assert [f.value("gold") for f in demands] == ["0", "999", "0"]  # only the refused one
    assert re.search(
        r'<details class="sub" open>\s*<summary>Demand from <bdi>Cid</bdi></summary>', html
    )
    assert not re.search(r'<details class="sub" open>\s*<summary>Demand from <bdi>Ben', html)


# --- the form mapping ----------------------------------------------------------------------


def query(**data) -> QueryDict:
    q = QueryDict(mutable=True)
    for name, value in data.items():
        q.setlist(name, value if isinstance(value, list) else [value])
    return q


def test_market_turn_draws_piles_in_order_and_puts_the_chosen_card_on_top():
    move = parse_move(
        query(
            move="market_turn",
            version="7",
            key="k",
            cards=["40", "7", "113"],
            from_pile_1="1",
            from_pile_0="1",
            pile="1",
            top="7",
            seat="3",
        )
    )
    assert move.version == 7 and move.key == "k"
    assert move.command == {
        "type": "market_turn",
        "cards": [40, 7, 113],
        "draws": ["discard:0", "discard:1", "deck"],
        "order": [40, 113, 7],
        "pile": 1,
    }


def test_market_turn_refuses_more_pile_draws_than_cards_set_aside():
    with pytest.raises(FormError, match="at most"):
        parse_move(
            query(move="market_turn", version="1", key="k", cards=["4"], from_pile_0="2", pile="0")
        )


def test_load_bag_counts_the_ticked_cards():
    move = parse_move(
        query(move="load_bag", version="1", key="k", cards=["5", "9"], declared="cheese")
    )
    assert move.command == {"type": "load_bag", "cards": [5, 9], "declared": "cheese", "count": 2}


def test_offer_terms_from_the_form():
    move = parse_move(
        query(
            move="make_offer",
            version="1",
            key="k",
            to="0",
            gold="2",
            stand_goods=["11"],
            bag_cheese="1",
            bag_silk="0",
            promise=" hi ",
            action_2="pass",
            action_3="inspect",
            pile_3="1",
            action_1="",
        )
    )
    assert move.command == {
        "type": "make_offer",
        "to": 0,
        "terms": {
            "gold": 2,
            "stand_goods": [11],
            "bag_goods": {"cheese": 1},
            "promise": "hi",
            "sheriff": [{"bag": 2, "action": "pass"}, {"bag": 3, "action": "inspect", "pile": 1}],
        },
    }
    with pytest.raises(FormError, match="let at least one bag pass"):
        parse_move(query(move="make_offer", version="1", key="k", to="0", action_1=""))


OFFER = {"move": "make_offer", "version": "1", "key": "k", "to": "0"}


def test_stand_goods_from_the_form_are_counts_of_each_kind():
    move = parse_move(query(**OFFER, action_1="pass", stand_apples="2", stand_cheese="0"))
    assert move.command["terms"]["stand_counts"] == {"apples": 2}
    assert "stand_counts" not in parse_move(query(**OFFER, action_1="pass")).command["terms"]
    with pytest.raises(FormError, match="Apples from the stand must be a whole number"):
        parse_move(query(**OFFER, action_1="pass", stand_apples="two"))
    sent = sent_back(query(**OFFER, action_1="pass", stand_apples="2", stand_mead="0"))
    assert sent["terms"]["stand_counts"] == {"apples": "2"}  # shown again as typed


@pytest.mark.parametrize(
    "suffix",
    [
        "\u00b2",  # superscript two: isdigit() but not int()
        "\u0661",  # Arabic-Indic one: int() reads it as bag 1
        "\uff11",  # full-width one
        "1" * 5000,  # past Python's int/str conversion limit
        "12345678",  # more digits than any number the form takes
    ],
)
def test_an_offer_names_its_bags_in_plain_digits_only(suffix):
    with pytest.raises(FormError, match="A bag in this offer is not valid"):
        parse_move(query(**OFFER, **{f"action_{suffix}": "pass"}))


def test_a_promise_may_hold_line_breaks_but_no_other_control_character():
    lines = parse_move(query(**OFFER, action_1="pass", promise="Honest.\r\nTruly."))
    assert lines.command["terms"]["promise"] == "Honest.\r\nTruly."
    with pytest.raises(FormError, match="no other control characters"):
        parse_move(query(**OFFER, action_1="pass", promise="Honest\x00"))


def test_a_refused_offer_with_odd_digits_is_shown_again_without_them():
    odd = {"action_\u00b2": "pass", "cards": ["\u00b2", "3", "9" * 5000]}
    sent = sent_back(
        query(**OFFER, action_1="pass", pile_1="\u00b2", stand_goods=["\uff11"], **odd)
    )
    assert sent["cards"] == {3}
    assert sent["terms"]["sheriff"] == [{"bag": 1, "action": "pass"}]
    assert sent["terms"]["stand_goods"] == []


def test_first_edition_market_turn_through_the_page(client, first_edition_game):
    game = first_edition_game
    state = game.engine_state()
    turn = state.phase.seat
    path = path_of(seat(game, turn))
    html = client.get(path).content.decode()
    assert "Discard pile 1" in html and "Discard pile 2" in html
    form = form_for(html, "market_turn")
    mine = form.values("cards")
    assert form.options["top"][1:] == mine
    top_of_pile_1 = state.zones["discard:1"][-1]
    response = post_form(client, path, form, cards=mine[:2], from_pile_1="1", pile="0", top=mine[0])
    assert messages_of(response) == ["Your market turn is done."]
    after = fresh(game).engine_state()
    assert top_of_pile_1 in after.hand(turn)
    assert after.zones["discard:0"][-1] == int(mine[0])
    assert after.phase.seat != turn


def test_three_player_game_pages_render(client):
    game = start_game(players=("Ann", "Ben", "Cid"))
    assert client.get(path_of(seat(game, 1))).status_code == 200


# --- 1st edition: the Sheriff orders the confiscated goods -----------------------------------


@pytest.mark.parametrize("order", ["lowest_on_top", "highest_on_top"])
def test_the_inspect_form_carries_the_order_of_confiscated_goods(order):
    move = parse_move(
        query(
            move="inspect_bag", version="1", key="k", bag="2", confirm="yes", pile="1", order=order
        )
    )
    assert move.command == {"type": "inspect_bag", "bag": 2, "pile": 1, "order": order}


@pytest.mark.parametrize("order", ["sideways", "¹", "LOWEST_ON_TOP", "x" * 5000])
def test_an_order_the_page_does_not_offer_is_refused_clearly(order):
    with pytest.raises(FormError, match="lowest or the highest value"):
        parse_move(
            query(move="inspect_bag", version="1", key="k", bag="2", confirm="yes", order=order)
        )


def test_the_first_edition_sheriff_chooses_the_order_and_confirms_it(client, first_edition_game):
    game = first_edition_game
    while fresh(game).engine_state().phase.kind != "inspection":
        timers.advance(game.pk, force=True)
    moves.submit(  # the bargaining time ends: every bag can be decided
        seat(game, 1),
        {"type": "say_no_offer"},
        version=fresh(game).engine_state().phase.since,
        key="n1",
    )
    for index in (2, 3):
        since = fresh(game).engine_state().phase.since
        moves.submit(seat(game, index), {"type": "say_no_offer"}, version=since, key=f"n{index}")
    path = path_of(seat(game, 0))
    html = client.get(path).content.decode()
    assert 'name="order"' in html and ">highest</option>" in html
    asked = {"decide": "inspect", "bag": "1", "pile": "1", "order": "highest_on_top"}
    page = client.get(path, asked).content.decode()
    assert "Confiscated goods go to discard pile 2, the highest value on top." in page
    confirm = next(f for f in forms_of(page) if f.move == "inspect_bag")
    assert confirm.value("order") == "highest_on_top"
    assert messages_of(post_form(client, path, confirm))[0].startswith("The bag is inspected.")
    stored = Submission.objects.get(seat__index=0, command__type="inspect_bag")
    assert stored.command["order"] == "highest_on_top" and stored.command["pile"] == 1


def test_stand_goods_are_offered_and_asked_for_by_count_of_each_kind(client, game):
    play_market_and_load(client, game)
    state = fresh(game).engine_state()
    Game.objects.filter(pk=game.pk).update(
        state=rig(state, "stand:1", ["apples", "cheese", "apples", "pepper"]).to_dict()
    )
    ben, sheriff = path_of(seat(game, 1)), path_of(seat(game, 0))
    html = client.get(ben).content.decode()
    offer = form_for(html, "make_offer")
    # Ben may give his own contraband; one number field per kind, up to what he has.
    assert 'name="stand_apples" min="0" max="2" value="0"' in html
    assert 'name="stand_pepper" min="0" max="1"' in html and 'name="stand_bread"' not in html
    html = client.get(sheriff).content.decode()
    demand = next(f for f in forms_of(html) if f.move == "make_offer" and f.value("to") == "1")
    assert 'name="stand_apples" min="0" max="2"' in html
    assert 'name="stand_pepper"' not in html  # face down: the Sheriff cannot ask for it

    response = post_form(client, ben, offer, stand_apples="1", stand_pepper="1", action_1="pass")
    assert messages_of(response) == ["Your offer is on the table."]
    state = fresh(game).engine_state()
    given = state.phase.offers["1"]["terms"]["stand_goods"]
    assert sorted(state.type_of(c) for c in given) == ["apples", "pepper"]
    # More than the stand holds: refused, and the form comes back as it was typed.
    response = post_form(client, sheriff, demand, stand_apples="3", action_1="pass")
    assert "stand" in messages_of(response)[0]
    again = [f for f in forms_of(response.content.decode()) if f.move == "make_offer"]
    assert any(f.value("stand_apples") == "3" for f in again)
