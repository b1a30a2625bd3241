"""Notes stored before notes carried a code are given theirs once, by a migration,
so that old games read them in each player's language like new ones."""

import importlib

import pytest
from django.utils import translation

from games.words.narration.note_lines import coded_note

migration = importlib.import_module("games.migrations.0019_notes_with_codes")


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        (
            "The game paused itself: nobody moved for 3 phases in a row.",
            "paused_itself",
            {"phases": 3},
        ),
        ("The game paused itself: nobody moved for a whole phase.", "paused_itself", {"phases": 1}),
        (
            "Zoë takes over seat 2 from Ben.",
            "seat_replaced",
            {"new": "Zoë", "seat": 2, "old": "Ben"},
        ),
    ],
)
def test_an_old_note_gets_the_code_and_params_a_new_one_is_written_with(text, code, params):
    assert migration.coded(text) == {"code": code, "params": params}
    with translation.override("en"):
        assert coded_note(code, params).replace("\u2068", "").replace("\u2069", "") == text
    with translation.override("es"):  # and now read in each player's language
        assert "nobody" not in coded_note(code, params)
        assert "takes over" not in coded_note(code, params)


def test_any_other_note_is_left_as_it_was():
    assert migration.coded("The game is paused.") is None
    assert migration.coded("The game paused itself: nobody moved for many phases.") is None
