"""Honor among thieves, as the players read it: a merchant who promised bag goods
their bag did not hold shows its cards to the Sheriff alone (2nd ed: "you must
prove you don't have them by showing the cards in your bag and Stand to the
Sheriff"). The Sheriff's page and emails show them; nobody else's do."""

import pytest
from django.test import Client

from games.core import game_setup, moves, timers
from games.models import Game
from tests.support.builders import rig
from tests.support.fixtures_pages import fresh, path_of
from tests.support.mailplay import mails_by_name as mails

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cid", "Dee")
ANN, BEN = 0, 1  # Ann is the first Sheriff
BAG = ["cheese", "cheese", "pepper"]
SHOWN_TO_ANN = (
    "Ben shows you the cards of their bag, proof that the goods promised in deal #1 "
    "are not there: 2 Cheese, 1 Pepper."
)
SHOWN_TO_OTHERS = (
    "Ben shows the Sheriff the cards of their bag, proof that the goods promised in deal #1 "
    "are not there."
)


def submit(game: Game, index: int, command: dict, key: str) -> None:
    seat = game.seats.get(index=index)
    since = fresh(game).engine_state().phase.since
    assert moves.submit(seat, command, version=since, key=key).accepted


def smuggler_short_of_silk() -> Game:
    """Ben carries 2 Cheese and a Pepper declared as Cheese, promises Ann a Silk from
    his bag to pass, and Ann accepts."""
    game = game_setup.create_game(
        name="Honor",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES],
        config={"edition": 2},
        seed="5e" * 32,
    )
    timers.advance(game.pk, force=True)  # the market: nothing set aside
    game = fresh(game)
    state = rig(game.engine_state(), f"hand:{BEN}", [*BAG, "apples", "apples", "apples"])
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    bag = [c for c in state.hand(BEN) if state.type_of(c) != "apples"]
    load = {"type": "load_bag", "cards": bag, "declared": "cheese", "count": 3}
    submit(game, BEN, load, "load")
    timers.advance(game.pk, force=True)  # the others load their default bags
    terms = {"gold": 0, "bag_goods": {"silk": 1}, "sheriff": [{"bag": BEN, "action": "pass"}]}
    submit(game, BEN, {"type": "make_offer", "to": ANN, "terms": terms}, "offer")
    submit(game, ANN, {"type": "accept_offer", "offer": 1, "revision": 1}, "accept")
    return fresh(game)


def page(game: Game, index: int) -> str:
    response = Client().get(path_of(game.seats.get(index=index)))
    assert response.status_code == 200
    return response.content.decode()


def section(html: str, heading: str) -> str:
    start = html.index(heading)
    return html[start : html.index("</ul>", start)]


def test_the_sheriff_reads_the_shown_bag_on_his_page_and_in_his_log():
    game = smuggler_short_of_silk()
    assert game.engine_state().phase.decided[BEN] == "passed"
    html = page(game, ANN)
    shown = section(html, "Bags shown to you alone")
    assert "Ben" in shown and "Pepper" in shown and "Cheese" in shown
    assert SHOWN_TO_ANN in html
    for other in (BEN, 2, 3):
        html = page(game, other)
        assert "Bags shown to you alone" not in html
        assert SHOWN_TO_ANN not in html
    assert SHOWN_TO_OTHERS in page(game, 2)
    assert (
        "You show the Sheriff the cards of your bag, proof that the goods you promised in deal "
        "#1 are not there: 2 Cheese, 1 Pepper."
    ) in page(game, BEN)


def test_the_deal_says_the_bag_goods_were_promised_not_paid():
    """Goods promised from a bag are paid only if the bag passes holding them: the deal
    line never says a Silk was paid that was never in the bag."""
    game = smuggler_short_of_silk()
    for index, said in ((ANN, "Ben promised 1 Silk from the bag"), (BEN, "you promised")):
        html = page(game, index)
        assert said in html
        assert "paid 1 Silk" not in html


def test_the_sheriffs_email_tells_what_he_was_shown_and_the_others_do_not():
    game = smuggler_short_of_silk()
    mails()  # the emails the deal owed
    timers.advance(game.pk, force=True)  # the inspection ends, so does the round
    sent = mails()
    assert SHOWN_TO_ANN in sent["Ann"].body
    for name in ("Cid", "Dee"):
        assert SHOWN_TO_OTHERS in sent[name].body
        assert "2 Cheese, 1 Pepper" not in sent[name].body


def test_six_players_the_deputies_of_the_deal_read_the_cards_and_the_others_read_who():
    from django.utils import translation

    from games.engine import apply, project_event
    from games.words.narrate import Narrator
    from tests.support.builders import start, terms, to_inspection, with_deputies

    six = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]
    state = with_deputies(start(players=6), 0, 1)  # Ann and Ben are the Deputies
    state = to_inspection(state, {2: (["cheese", "pepper"], "cheese")})
    offer = {"type": "make_offer", "seat": 2, "to": "deputies"}
    state, _ = apply(state, {**offer, "terms": terms(bag_goods={"silk": 1}, passes=[2])})
    state, _ = apply(state, {"type": "accept_offer", "seat": 0, "offer": 1, "revision": 1})
    state, events = apply(state, {"type": "accept_offer", "seat": 1, "offer": 1, "revision": 1})
    [shown] = [e for e in events if e["type"] == "bag_goods_shown"]

    def line(seat):
        return Narrator.of_game(six, seat, state.config).line(project_event(state, shown, seat))

    with translation.override("en"):
        assert line(0) == (
            "Cid shows you the cards of their bag, proof that the goods promised in deal #1 "
            "are not there: 1 Cheese, 1 Pepper."
        )
        assert line(2) == (
            "You show Ann and Ben the cards of your bag, proof that the goods you promised in "
            "deal #1 are not there: 1 Cheese, 1 Pepper."
        )
        assert (
            line(3)
            == line(None)
            == (
                "Cid shows Ann and Ben the cards of their bag, proof that the goods promised in "
                "deal #1 are not there."
            )
        )
    with translation.override("es"):
        assert line(3).startswith("Cid enseña a Ann y Ben las cartas de su Saco")
