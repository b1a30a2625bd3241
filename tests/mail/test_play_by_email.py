"""Whole games played only through the emails each player receives: read the
link out of the latest email, open the page, fill in one of its forms, post
it — bribes, demands, a third-party deal, passes and inspections — until
everyone holds the score sheet. Along the way: no email or page depends on
anything its seat may not see, and mail scanners opening every link change
nothing."""

import re

import pytest
from django.core import mail
from django.test import Client

from games.core import game_setup
from games.engine import CARD_TYPES
from games.models import Game, GameEvent
from tests.support.email_players import NAMES, play_through_email
from tests.support.mailplay import deliver_pending, html_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("players_count", "edition"), [(4, 2), (3, 1)], ids=["4p-2nd-edition", "3p-1st-edition"]
)
def test_a_whole_game_played_through_the_emails(players_count, edition):
    game, players = play_through_email(players_count, edition, seed="5e" * 32, rnd_seed=11)

    state = game.engine_state()
    assert state.is_over() and state.round == game.engine_config.rounds
    kinds = [e.type for e in GameEvent.objects.filter(game=game)]
    for needed in ("deal_made", "bag_passed", "bag_inspected", "offer_made"):
        assert needed in kinds, f"the game never had a {needed}"
    deals = [e.data for e in GameEvent.objects.filter(game=game, type="offer_made")]
    third_party = [
        d
        for d in deals
        if any(a["bag"] != d["offer"]["payer"] for a in d["offer"]["terms"]["sheriff"])
    ]
    assert third_party, "no third-party offer was made"
    for player in players:  # everyone got the reveal and the score sheet
        last = player.mails[-1]
        assert "The game is over" in last.body and "SCORES" in last.body
        assert state.seed in last.body
        assert_threads_tell_moves_from_news(game, player.mails)


# The most emails one conversation of a seat may hold (the whole game was one
# conversation of over a hundred: a reader could not tell what asked a move).
MAX_THREAD = 12
PREHEADER = re.compile(r'<div style="display:none;max-height:0;overflow:hidden;">([^<]*)</div>')


def assert_threads_tell_moves_from_news(game: Game, mails: list) -> None:
    """Every email asking a move says so first in its subject; news never does; one
    conversation per round and kind (its References), whose emails share the subject
    but for the words that say what each is, and no conversation grows long."""
    threads: dict = {}
    for message in mails:
        # The first line a mail app shows of it (the preheader) says what it asks.
        asks = PREHEADER.search(html_of(message)).group(1).startswith("Your move:")
        assert message.subject.startswith("Your move") == asks, (message.subject, message.body)
        assert game.name in message.subject
        root = message.extra_headers["References"]
        assert message.extra_headers["In-Reply-To"] == root
        # "Your move — a demand: Game, round 2" -> "Your move: Game, round 2"
        threads.setdefault(root, []).append(re.sub(r" — [^:]*:", ":", message.subject, count=1))
    for subjects in threads.values():
        assert len(set(subjects)) == 1, subjects
        assert len(subjects) <= MAX_THREAD, (len(subjects), subjects[0])
    assert mails[-1].subject.startswith("Game over: ")


@pytest.mark.parametrize(
    ("players_count", "black_market", "needed"),
    [
        (6, False, ("deputy_decided", "deal_made", "booty_shared", "bag_inspected")),
        (4, True, ("black_market_claimed", "deal_made", "bag_inspected")),
        (6, True, ("deputy_decided", "booty_shared", "black_market_claimed")),
    ],
    ids=["6p-deputies", "4p-black-market", "6p-black-market"],
)
def test_the_new_rules_played_through_the_emails(players_count, black_market, needed):
    game, players = play_through_email(
        players_count, 2, seed="6d" * 32, rnd_seed=5, black_market=black_market
    )

    state = game.engine_state()
    assert state.is_over() and state.round == game.engine_config.rounds
    kinds = {e.type for e in GameEvent.objects.filter(game=game)}
    for event in needed:
        assert event in kinds, f"the game never had a {event}"
    for player in players:  # everyone got the reveal and the score sheet
        last = player.mails[-1]
        assert "The game is over" in last.body and "SCORES" in last.body
        assert state.seed in last.body
    if black_market:  # the claims show on the score sheet
        claimant = next(seat for seat, claimed in enumerate(state.claims) if claimed)
        assert "Black Market" in players[claimant].mails[-1].body


def four_player_game(name: str, seed: str) -> Game:
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES[:4]]
    return game_setup.create_game(name=name, players=players, config={"edition": 2}, seed=seed)


def test_emails_are_personal_and_threaded():
    game = four_player_game("Threads", "77" * 32)
    deliver_pending()
    sent = mail.outbox
    assert len(sent) == 4 and all(len(m.to) == 1 for m in sent)  # one per recipient
    bodies = {m.to[0]: m.body for m in sent}
    assert len(set(bodies.values())) == 4  # never a shared body
    for message in sent:
        # The Sheriff waits while the merchants choose their cards.
        seat = game.seats.get(email=message.to[0])
        sheriff = seat.index == game.engine_state().sheriff
        subject = f"{'News' if sheriff else 'Your move'} — the game begins: Threads, round 1"
        assert html_of(message) and message.subject == subject
        assert message.extra_headers["Message-ID"] != message.extra_headers["In-Reply-To"]
        # Each merchant's own hand is in its email, counted by kind ("2 Chickens").
        state = game.engine_state()
        seat = game.seats.get(email=message.to[0])
        hand = [state.type_of(card_id) for card_id in state.hand(seat.index)]
        for kind in set(hand):
            assert CARD_TYPES[kind].counted(hand.count(kind)) in message.body


def test_mail_scanners_opening_every_link_change_nothing():
    game = four_player_game("Scanners", "99" * 32)
    deliver_pending()
    before = (Game.objects.get(pk=game.pk).state, GameEvent.objects.filter(game=game).count())
    scanner = Client()
    for message in mail.outbox:
        for url in set(re.findall(r"https?://[^\s\"'<>]+", message.body + html_of(message))):
            path = url.replace("http://testserver", "")
            scanner.get(path)
            scanner.head(path)
    after = (Game.objects.get(pk=game.pk).state, GameEvent.objects.filter(game=game).count())
    assert after == before
