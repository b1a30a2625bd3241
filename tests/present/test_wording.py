"""What a player reads, in plain words: counted nouns ("1 Chicken", never
"card(s)"), one discard pile in the 2nd edition, set-aside cards listed once,
how often each player is the Sheriff, and legal or contraband told by a
symbol and a word, not by colour alone — on the page and in the emails."""

import re

import pytest
from django.core import mail
from django.test import Client

from games.core import timers
from games.engine import CARD_TYPES, project_log
from games.mail import emails
from games.models import Game, GameEvent
from games.present import cards, seat_table
from games.words.narrate import Narrator, goods
from tests.support.fixtures_pages import form_for, fresh, path_of, post_form, start_game
from tests.support.mailplay import deliver_pending, html_of

pytestmark = pytest.mark.django_db

# A count of one next to a plural name, or a "card(s)" left over.
ONE_PLURAL = re.compile(r"\b1 (Apples|Chickens|Green Apples|Golden Apples|Crossbows)\b")
MARKS = {kind: mark for kind, (mark, _) in cards.KINDS.items()}


def texts_of_a_whole_game(game: Game) -> list:
    """Every page (each seat, each phase) and every email of a game played to its end."""
    seen = []
    while True:
        for seat in game.seats.all():
            seen.append(Client().get(path_of(seat)).content.decode())
        deliver_pending()
        seen += [m.body for m in mail.outbox] + [html_of(m) for m in mail.outbox]
        mail.outbox.clear()
        if fresh(game).status != Game.Status.ACTIVE:
            return seen
        timers.advance(game.pk, force=True)


# --- counted nouns and piles -----------------------------------------------------------


def test_goods_are_counted_nouns():
    assert goods(["chicken"]) == "1 Chicken"
    assert goods(["chicken", "chicken", "crossbow", "cheese"]) == "1 Cheese, 2 Chickens, 1 Crossbow"
    assert goods(["apples", "crossbow", "crossbow"]) == "1 Apple, 2 Crossbows"
    assert CARD_TYPES["royal_rooster"].counted(2) == "2 Royal Roosters"
    assert CARD_TYPES["green_apples"].counted(1) == "1 Green Apple"


def test_a_second_edition_game_reads_plainly_from_start_to_end(client):
    game = start_game(edition=2)
    for index in (1, 2, 3):  # each sets one card aside: discards to tell
        path = path_of(game.seats.get(index=index))
        form = form_for(client.get(path).content.decode(), "set_aside")
        post_form(client, path, form, cards=form.values("cards")[:1])
    everything = "\n".join(texts_of_a_whole_game(game))
    assert "(s)" not in everything
    assert not ONE_PLURAL.search(everything), ONE_PLURAL.search(everything)
    assert not re.search(r"\bpile [12]\b", everything)  # one pile: "the discard pile"
    assert "Put on the discard pile: " in everything


def test_the_first_edition_names_its_two_piles_by_number(client):
    game = start_game(edition=1)
    path = path_of(game.seats.get(index=game.engine_state().phase.seat))
    form = form_for(client.get(path).content.decode(), "market_turn")
    post_form(client, path, form, cards=form.values("cards")[:2], from_pile_1="1", pile="1")
    state = fresh(game).engine_state()
    events = [e.data for e in GameEvent.objects.filter(game=game)]
    names = ["Ann", "Ben", "Cid", "Dee"]
    lines = Narrator(names, 1, piles=2).lines(project_log(state, events, 1))
    assert (
        "You set aside 2 cards, took 1 from the discard piles, drew 1 from the deck, "
        "discarded onto discard pile 2." in lines
    )
    assert any(re.match(r"You took 1 \w[\w ]* from discard pile 2\.", line) for line in lines)
    assert any(line.startswith("Put on discard pile 2: ") for line in lines)
    assert not any(re.search(r"the discard pile\b(?!s)", line) for line in lines)


def test_a_declaration_of_one_is_one_chicken_on_the_page_and_in_the_email(client):
    game = start_game()
    for index in (1, 2, 3):
        path = path_of(game.seats.get(index=index))
        post_form(client, path, form_for(client.get(path).content.decode(), "set_aside"))
    for index in (1, 2, 3):
        path = path_of(game.seats.get(index=index))
        form = form_for(client.get(path).content.decode(), "load_bag")
        post_form(client, path, form, cards=form.values("cards")[:1], declared="chicken")
    html = client.get(path_of(game.seats.get(index=0))).content.decode()
    assert "Declared <strong>1 Chicken</strong>" in html
    assert "Ben: 1 Chicken; Cid: 1 Chicken; Dee: 1 Chicken" in html  # the log
    assert "1 Chickens" not in html
    deliver_pending()
    to_sheriff = [m for m in mail.outbox if m.to == ["ann@example.org"]][-1]
    assert "declared 1 Chicken" in to_sheriff.body and "1 Chickens" not in to_sheriff.body


# --- set-aside cards are not in the hand -------------------------------------------------


def test_set_aside_cards_are_listed_once_not_in_the_hand(client):
    game = start_game()
    ben = game.seats.get(index=1)
    path = path_of(ben)
    form = form_for(client.get(path).content.decode(), "set_aside")
    aside = form.values("cards")[:2]
    post_form(client, path, form, cards=aside)
    mine = client.get(path).context["mine"]
    assert sorted(str(c["id"]) for c in mine["set_aside"]) == sorted(aside)
    assert len(mine["hand"]) == 4 and not {str(c["id"]) for c in mine["hand"]} & set(aside)
    state = fresh(game).engine_state()
    text = emails.render(fresh(game), ben, state, "resend")["text"]
    hand_line = next(line for line in text.splitlines() if line.startswith("Hand: "))
    in_hand = sum(int(n) for n in re.findall(r"(\d+) ", hand_line))
    assert in_hand == 4
    assert "Set aside this market: " in text


# --- how often each player is the Sheriff --------------------------------------------------


def test_the_sheriff_turns_are_told_in_words(client):
    game = start_game()
    html = client.get(path_of(game.seats.get(index=1))).content.decode()
    assert "Sheriff for the 1st of 2 times" in html  # Ann, the Sheriff now
    assert html.count("Sheriff 0 of 2 times so far") == 3
    assert not re.search(r"Sheriff <b>\d+</b>/\d", html)
    assert (
        seat_table.role_times("Sheriff", 2, 2, now=True, over=False)
        == "Sheriff for the 2nd of 2 times"
    )
    assert seat_table.role_times("Sheriff", 2, 2, now=False, over=True) == "Sheriff 2 of 2 times"


# --- legal or contraband: a symbol and a word, not colour alone ------------------------------


def test_every_card_on_the_page_carries_its_mark(client):
    game = start_game(royal_goods=True)
    for _ in range(4):  # a round and a half: goods on the stands, a new hand
        timers.advance(game.pk, force=True)
    html = client.get(path_of(game.seats.get(index=2))).content.decode()
    chips = re.findall(r'<span class="card k-(\w+)">(.*?)<span class="card-name">', html)
    tiles = re.findall(
        r'<label class="tile k-(\w+)">(.*?)<span class="tile-name">',
        html,
        re.S,
    )
    assert chips and tiles
    for kind, inside in chips + tiles:
        label = cards.KINDS[kind][1]
        assert f'aria-label="{label}"' in inside and f">{MARKS[kind]}" in inside, inside
    assert str(cards.KINDS_LEGEND) in html
    assert cards.KINDS_LEGEND == "✓ legal goods · ✗ contraband · ♛ royal goods (contraband)"


def test_every_card_in_the_email_carries_its_mark():
    game = start_game()
    cid = game.seats.get(index=2)
    state = game.engine_state()
    sent = emails.render(game, cid, state, "resend")
    hand_line = next(line for line in sent["text"].splitlines() if line.startswith("Hand: "))
    hand = [state.type_of(card_id) for card_id in state.hand(2)]
    for name in set(hand):
        kind = CARD_TYPES[name]
        counted = kind.counted(hand.count(name))
        assert f"{MARKS[kind.kind]} {counted}" in hand_line  # "✓ 2 Chickens"
        assert f"{MARKS[kind.kind]}</span> {counted}</span>" in sent["html"]
    legend = str(cards.KINDS_LEGEND)  # lazy: in the reader's language
    assert legend in sent["text"] and legend in sent["html"]
