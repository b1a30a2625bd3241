"""Standing instructions on the seat's settings page (a POST with CSRF, validated,
nothing changed by a refusal) and on its table, shown to that seat alone."""

from urllib.parse import urlparse

import pytest
from django.test import Client

from games.core import standing, timers
from games.core.links import settings_url
from games.models import Game, GameEvent, Seat
from tests.support.fixtures_pages import fresh, path_of, start_game

pytestmark = pytest.mark.django_db


def settings_path(seat) -> str:
    return urlparse(settings_url(seat)).path


def standing_path(seat) -> str:
    return settings_path(seat) + "standing/"


def seat(game, index=1) -> Seat:
    return game.seats.get(index=index)


def given(game, index=1) -> standing.Instructions:
    return standing.of_game(fresh(game)).get(index, standing.Instructions())


def post(seat, client=None, **data):
    data.setdefault("key", "k1")
    return (client or Client()).post(standing_path(seat), data, follow=True)


def page(seat) -> str:
    return Client().get(path_of(seat)).content.decode()


def to_inspection(game) -> Game:
    while fresh(game).engine_state().phase.kind != "inspection":
        timers.advance(game.pk, force=True)
    return fresh(game)


def test_the_settings_page_offers_the_instructions_off_and_a_get_changes_nothing():
    game = start_game()
    before = list(Seat.objects.values()), list(Game.objects.values())
    html = Client().get(settings_path(seat(game))).content.decode()
    assert 'id="standing"' in html and '/settings/standing/"' in html
    assert "As Sheriff" in html and "Say “no offer” for me as soon as the inspection starts" in html
    assert 'name="black_market"' not in html  # a game without the Black Market
    assert 'name="no_offer" id="field-no_offer">' in html  # not checked
    assert (list(Seat.objects.values()), list(Game.objects.values())) == before
    response = Client().get(standing_path(seat(game)))
    assert response.status_code == 302 and response["Location"].endswith("/settings/#standing")


def test_a_player_sets_both_and_the_table_shows_them_to_them_alone():
    game = start_game()
    response = post(seat(game), no_offer="on", pass_on="on", pass_gold="7")
    assert [str(m) for m in response.context["messages"]] == [
        "Your standing instructions are saved."
    ]
    assert given(game) == standing.Instructions(no_offer=True, pass_gold=7)
    own = response.content.decode()  # back on the table
    assert "Your standing instructions" in own
    assert "As Sheriff: let pass any bag whose merchant offers you at least 7 gold." in own
    assert "As a merchant: say “no offer” as soon as the inspection starts." in own
    assert 'settings/#standing">Change them</a>' in own
    for other in (0, 2, 3):
        html = page(seat(game, other))
        assert "standing instructions" not in html.lower() and "at least 7 gold" not in html
    settings_html = Client().get(settings_path(seat(game))).content.decode()
    assert 'name="no_offer" id="field-no_offer" checked' in settings_html
    assert 'value="7"' in settings_html


def test_turning_them_off_takes_them_off_the_table():
    game = start_game()
    post(seat(game), no_offer="on", pass_on="on", pass_gold="7")
    post(seat(game), pass_gold="7", key="k2")  # both boxes unticked
    assert given(game) == standing.Instructions()
    assert "Your standing instructions" not in page(seat(game))


@pytest.mark.parametrize(
    "gold", ["", "0", "100", "abc", "7.5", "-3", "\uff17", "1" * 10, "7\x00", "99999999999"]
)
def test_a_bad_gold_is_refused_clearly_and_changes_nothing(gold):
    game = start_game()
    before = list(Seat.objects.values()), list(Game.objects.values())
    response = post(seat(game), no_offer="on", pass_on="on", pass_gold=gold)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your standing instructions are not saved." in html
    said = ("Give the gold as a whole number from 1 to 99.", "at most 10 characters", "Null char")
    assert any(words in html for words in said)
    assert (list(Seat.objects.values()), list(Game.objects.values())) == before


def test_a_gold_without_its_box_ticked_is_off():
    game = start_game()
    post(seat(game), pass_gold="12")
    assert given(game).pass_gold is None


def test_a_missing_or_odd_key_is_refused():
    game = start_game()
    for key in ("", "a b", "x" * 41):
        response = post(seat(game), no_offer="on", key=key)
        assert "Your standing instructions are not saved." in response.content.decode()
    assert fresh(game).standing == {}


def test_the_form_needs_its_csrf_token():
    game = start_game()
    response = post(seat(game), Client(enforce_csrf_checks=True), no_offer="on")
    assert response.status_code == 403
    assert fresh(game).standing == {}


def test_no_offer_set_during_the_inspection_is_said_at_once_and_logged_as_theirs():
    game = to_inspection(start_game())
    post(seat(game, 2), no_offer="on")
    said = GameEvent.objects.filter(game=game, type="no_offer_said").values_list("data", flat=True)
    assert [e["seat"] for e in said] == [2]
    assert "Cid has no offer to make." in page(seat(game, 0))
    assert "You have no offer to make." in page(seat(game, 2)) or "You said" in page(seat(game, 2))


def test_the_black_market_answer_is_the_engines_move_and_public():
    game = start_game(black_market=True)
    html = Client().get(settings_path(seat(game))).content.decode()
    assert 'name="black_market"' in html and "Everyone sees who has this one" in html
    post(seat(game), black_market="on")
    state = fresh(game).engine_state()
    assert state.black_market_standing == [1]
    kinds = GameEvent.objects.filter(game=game, type="black_market_standing_set")
    assert kinds.count() == 1
    post(seat(game), black_market="on", key="k2")  # already so: no second move
    assert kinds.count() == 1
    assert "Claim from the Black Market whenever you can, else no claim." in page(seat(game))
    post(seat(game), key="k3")
    assert fresh(game).engine_state().black_market_standing == []


def test_a_finished_game_has_no_instructions_to_set():
    game = start_game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    html = Client().get(settings_path(seat(game))).content.decode()
    assert 'id="standing"' not in html
    response = post(seat(game), no_offer="on")
    assert "This game is no longer in play." in response.content.decode()
    assert fresh(game).standing == {}


def test_six_players_the_instruction_is_a_deputys():
    game = start_game(players=("Ann", "Ben", "Cid", "Dee", "Eve", "Fay"))
    html = Client().get(settings_path(seat(game))).content.decode()
    assert "As a Deputy" in html and "An offer to both Deputies counts your half" in html
    response = post(seat(game), pass_on="on", pass_gold="4")
    assert "As a Deputy: let pass any bag whose merchant offers you at least 4 gold." in (
        response.content.decode()
    )


def test_spanish():
    game = start_game()
    Seat.objects.filter(pk=seat(game).pk).update(language="es")
    html = Client().get(settings_path(seat(game))).content.decode()
    assert "Instrucciones permanentes" in html
    response = post(seat(game), no_offer="on", pass_on="on", pass_gold="5")
    text = response.content.decode()
    assert "Tus instrucciones permanentes" in text
