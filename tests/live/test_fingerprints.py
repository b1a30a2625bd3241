"""The fingerprint an open page polls (games.core.live): it moves when what the
page shows moves, and never with what its reader may not see."""

import pytest
from django.utils import timezone

from games.core import controls, links, live, moves, talk
from games.engine import default_commands
from games.models import Game
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


def seat_tag(seat) -> str:
    return live.seat(links.read(links.make_token(seat))).tag


def first_move(game: Game):
    """The default move of the first seat awaited, made."""
    state = game.engine_state()
    command = default_commands(state)[0]
    seat = game.seats.get(index=command["seat"])
    outcome = moves.submit(seat, command, version=state.phase.since, key=f"k{game.version}")
    assert outcome.accepted, outcome.message
    return seat


def test_a_seats_tag_holds_still_until_something_moves():
    game = start_game()
    ann = game.seats.get(index=0)
    before = seat_tag(ann)
    assert before and seat_tag(ann) == before
    first_move(game)
    assert seat_tag(ann) != before


def test_talk_moves_the_tags_of_those_who_may_read_it_only():
    game = start_game()
    game.talk_private = True
    game.save(update_fields=["talk_private"])
    ann, ben, cid = (game.seats.get(index=i) for i in range(3))
    tags = {s.pk: seat_tag(s) for s in (ann, ben, cid)}
    person = live.person(cid.email).tag
    talk.post(ben, "just between us", timezone.now(), to_index=0)
    assert seat_tag(ann) != tags[ann.pk]  # written to
    assert seat_tag(ben) != tags[ben.pk]  # wrote it
    assert seat_tag(cid) == tags[cid.pk]  # a private line between two others: nothing
    assert live.person(cid.email).tag == person
    talk.post(ben, "hello all", timezone.now())
    assert seat_tag(cid) != tags[cid.pk]
    assert live.person(cid.email).tag != person


def test_a_replaced_players_page_is_gone():
    game = start_game()
    dee = game.seats.get(index=3)
    link = links.read(links.make_token(dee))
    controls.replace_player(
        dee.pk, expected_version=game.version, name="Eve", email="eve@example.org"
    )
    assert live.seat(link).gone


def test_my_games_and_the_organizers_page_move_with_a_move():
    game = start_game()
    game.organizer_email = "Org@Example.org"
    game.save(update_fields=["organizer_email"])
    mine, organized = live.person("ann@example.org").tag, live.organized(game.pk, "org@example.org")
    assert not organized.gone
    first_move(game)
    assert live.person("ANN@example.org").tag != mine
    assert live.organized(game.pk, "org@example.org").tag != organized.tag
    assert live.organized(game.pk, "someone@example.org").gone


def test_a_poll_token_reads_back_and_nothing_else_does():
    token = live.token_for(live.PERSON, " Ann@Example.org ")
    assert live.read_token(token) == (live.PERSON, "ann@example.org", 0)
    for junk in ("", "x", token[:-2] + "zz", "\x00\xff", "a:b"):
        assert live.read_token(junk) is None


def test_every_move_that_moves_the_fingerprint_shows_on_every_seats_page():
    """The game's version, in every fingerprint, moves with each accepted command:
    over random games of every table, each command changes every seat's own view,
    so a poll's "something changed" never tells of a move the page would not show
    (a bag loaded shows as a merchant no longer awaited, a deck draw as a hand's size)."""
    import random

    from games import engine
    from tests.support.random_commands import random_commands

    tables = [
        {"players": p, "edition": e, "black_market": bm}
        for p in (3, 4, 5, 6)
        for e in (1, 2)
        for bm in (False, True)
        if not (e == 1 and (bm or p == 6))
    ]
    checked = 0
    for state, command in random_commands(random.Random(42), tables, 250):
        try:
            after, _ = engine.apply(state, command)
        except engine.EngineError:
            continue
        for seat in range(state.players):
            assert engine.view_for(state, seat) != engine.view_for(after, seat), command
        checked += 1
    assert checked > 1000
