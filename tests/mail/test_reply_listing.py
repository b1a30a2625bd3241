"""What an email that asks for a move says a reply may do, once replies are read
(INBOUND_DOMAIN): the marker replies are cut at, the commands with the seat's own
choices, the numbered hand; in the reader's language; nothing of it otherwise."""

import pytest

from games.mail import emails
from games.models import Game, Seat
from games.words import i18n
from tests.support.builders import to_inspection
from tests.support.fixtures_pages import fresh, start_game

pytestmark = pytest.mark.django_db


def email_of(game, index: int, kind: str = "your_move") -> dict:
    """The email as the outbox renders it: in the seat's language."""
    seat = Seat.objects.get(game=game, index=index)
    with i18n.as_seat(seat):
        return emails.render(fresh(game), seat, fresh(game).engine_state(), kind)


def test_a_market_email_lists_the_replies_with_the_numbered_hand(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game()
    text, html = email_of(game, 1)["text"], email_of(game, 1)["html"]
    # The first line is the mail app's preview: what the email asks, then the marker.
    first = "Your move: choose the cards to set aside — Write your reply above this line —"
    assert text.splitlines()[0] == first
    assert "Write your reply above this line" in html
    assert "Or reply to this email with one of these, on its first line:" in text
    assert "  set aside 1 2\n  keep\n" in text
    assert "Your hand, numbered for replies: 1 " in text and "<code" in html


def test_the_sheriff_is_told_a_decision_by_reply_is_final(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game()
    state = to_inspection(game.engine_state(), {})  # the bargaining is over
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    text = email_of(game, state.sheriff)["text"]
    assert "  pass Ben\n" in text and "  inspect Cid\n" in text
    assert "A pass or an inspection by reply is final, as on your table." in text


def test_in_spanish(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game()
    Seat.objects.filter(game=game, index=1).update(language="es")
    text = email_of(game, 1)["text"]
    assert text.splitlines()[0].endswith(" — Escribe tu respuesta encima de esta línea —")
    assert "  aparta 1 2\n  me quedo\n" in text


def test_nothing_of_it_while_replies_are_not_read(settings):
    settings.INBOUND_DOMAIN = ""
    game = start_game()
    text = email_of(game, 1)["text"]
    assert "reply above this line" not in text and "set aside 1 2" not in text


def test_a_seat_with_no_move_gets_no_list(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game()
    sheriff = fresh(game).engine_state().sheriff  # the market waits for merchants only
    assert "Or reply to this email" not in email_of(game, sheriff, "start")["text"]


def test_a_first_edition_market_turn_shows_the_piles_from_their_top(settings):
    settings.INBOUND_DOMAIN = "in.example.org"
    game = start_game(edition=1)
    state = fresh(game).engine_state()
    seat = state.phase.seat
    text = email_of(game, seat)["text"]
    assert "  set aside 1 2 to pile 1\n" in text and "take 1 from pile 1" in text
    top = state.zones["discard:0"][-1]
    top_name = {"apples": "Apples", "cheese": "Cheese", "bread": "Bread", "chicken": "Chickens"}
    first = text.split("Discard pile 1, from the top: ", 1)[1].split(",")[0]
    assert first == top_name.get(state.type_of(top), first)  # contraband names vary
    assert "Discard pile 2, from the top: " in text
    assert "The last card you set aside ends on top of its pile" in text
    assert "Discard pile" not in email_of(game, (seat + 1) % 4)["text"]  # not their turn
