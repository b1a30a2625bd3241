"""After the game: the final page and the final email tell the reveal (every bag
as it really was, every deal) and the awards, in the reader's language; nothing of
it before the end."""

import pytest

from games.core import after_game
from games.mail import emails
from games.models import Seat
from games.words import i18n
from tests.support.fixtures_pages import fresh, path_of, start_game
from tests.support.mailplay import deliver_pending
from tests.support.played_games import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(settings):
    game = start_game()
    return play_to_the_end(game)


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def test_the_final_page_shows_the_awards_and_every_bag_of_every_round(client, finished):
    html = client.get(path_of(seat(finished, 1))).content.decode()
    assert "Awards" in html and "The reveal" in html
    told = after_game.told(finished, finished.engine_state())
    assert html.count('class="reveal-round"') == finished.engine_state().config.rounds
    assert html.count('class="reveal-bag') == len(told["story"]["bags"])
    assert html.count('class="reveal-deal"') == len(told["story"]["deals"]) > 0
    assert "Most honest merchant" in html and "not truthful" in html


def test_the_final_email_tells_it_too_in_spanish(finished):
    reader = seat(finished, 2)
    reader.language = "es"
    with i18n.as_seat(reader):
        email = emails.render(fresh(finished), reader, finished.engine_state(), "game_over")
    assert "PREMIOS" in email["text"] and "LA REVELACIÓN" in email["text"]
    assert "Ronda 1 · Sheriff: " in email["text"] and "dentro:" in email["text"]
    assert "La revelación" in email["html"]


def test_nothing_is_revealed_before_the_end(client, settings):
    game = start_game()
    deliver_pending()
    assert after_game.told(game, game.engine_state()) is None
    html = client.get(path_of(seat(game, 1))).content.decode()
    assert "The reveal" not in html and "Awards" not in html
    with i18n.as_seat(seat(game, 1)):
        email = emails.render(game, seat(game, 1), game.engine_state(), "round_over")
    assert "THE REVEAL" not in email["text"]


def test_the_final_email_reveals_every_pairs_private_messages_when_the_game_does(settings):
    from django.utils import timezone

    from games.core import talk
    from games.models import Game

    game = start_game()
    Game.objects.filter(pk=game.pk).update(talk_private=True, reveal_private=True)
    ann, cid = seat(game, 0), seat(game, 2)
    talk.post(ann, "Ben, pass me and I owe you.", timezone.now(), to_index=1)
    talk.post(cid, "Everyone: hello.", timezone.now())
    finished = play_to_the_end(game)
    with i18n.as_seat(cid):
        email = emails.render(fresh(finished), cid, finished.engine_state(), "game_over")
    assert "PRIVATE MESSAGES, REVEALED" in email["text"]
    assert "Ann, privately from Ann to Ben" in email["text"]
    assert (
        "Ben, pass me and I owe you." in email["text"]
        and "Everyone: hello." not in email["text"].split("PRIVATE MESSAGES, REVEALED")[1]
    )
    Game.objects.filter(pk=game.pk).update(reveal_private=False)
    with i18n.as_seat(cid):
        kept = emails.render(fresh(finished), cid, finished.engine_state(), "game_over")
    assert "PRIVATE MESSAGES, REVEALED" not in kept["text"]
    assert "pass me and I owe you" not in kept["text"]
