"""The seat page keeps the log lines it narrated (game_log.NARRATED): a kept line
is the line narrating would give, for that seat, language and names only."""

import pytest
from django.utils import translation

from games.models import Game, GameEvent
from games.present import game_log
from games.words import user_text
from tests.support.fixtures_pages import fresh, start_game

pytestmark = pytest.mark.django_db


def _lines(game, seat, names=None, kept=True, known_as=None):
    """``known_as``: the Game the lines are kept under, when not ``game`` itself."""
    state = fresh(game).engine_state()
    events = list(
        GameEvent.objects.filter(game=game).order_by("-seq").values_list("data", flat=True)
    )
    names = user_text.names(names or [s.name for s in game.seats.order_by("index")])
    lines, _more = game_log.log_lines(
        state, events, names, seat, None, game=(known_as or game) if kept else None
    )
    return [line["text"] for line in lines]


def test_each_seat_reads_its_own_lines_with_the_lines_kept():
    game = start_game()
    by_seat = {seat: _lines(game, seat, kept=False) for seat in range(4)}
    # Each seat is told its own draw, which the others are not: the lines differ.
    assert len({tuple(lines) for lines in by_seat.values()}) == 4
    for _ in range(2):  # narrated once, then read from what was kept
        for seat, expected in by_seat.items():
            assert _lines(game, seat) == expected
    assert _lines(game, None) == _lines(game, None, kept=False)  # a spectator's view too


def test_a_kept_line_follows_the_language_and_the_names():
    game = start_game()
    english = _lines(game, 1)
    with translation.override("es"):
        spanish = _lines(game, 1)
        assert spanish == _lines(game, 1, kept=False)
    assert spanish != english
    renamed = _lines(game, 1, names=["Zed", "Ben", "Cid", "Dee"])
    assert any("Zed" in line for line in renamed)
    assert not any("Zed" in line for line in english)


def test_a_game_given_a_deleted_games_id_does_not_read_its_lines():
    """SQLite may give a deleted game's id again (and a test's rolled-back one)."""
    game = start_game(edition=2)
    _lines(game, 0)
    again = start_game(edition=1)
    expected = _lines(again, 0, kept=False)
    same_id = Game(pk=game.pk, created_at=again.created_at)  # as if the id came round again
    assert _lines(again, 0, known_as=same_id) == expected != _lines(game, 0)
