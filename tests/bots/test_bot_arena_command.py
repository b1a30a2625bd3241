"""``manage.py bot_arena``: the figures it prints, and a clear refusal of bad input."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_it_prints_legality_strength_behaviour_and_cost():
    out = StringIO()
    call_command("bot_arena", games=8, players=3, seats="smuggler,honest,random",
                 seed="t", checked=True, stdout=out)  # fmt: skip
    text = out.getvalue()
    for line in ("illegal commands: 0", "bot errors: 0", "stalled phases: 0",
                 "invariant and other failures: 0"):  # fmt: skip
        assert line in text
    for level in ("smuggler", "honest", "random"):
        assert f"win rate {level}: " in text and "(95% " in text
        assert f"behaviour {level}: lying bags " in text
        assert f"decision ms {level}: p50 " in text


def test_mixed_shapes_play_too():
    out = StringIO()
    call_command("bot_arena", games=6, mixed=True, seed="m", stdout=out)
    assert "illegal commands: 0" in out.getvalue()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seats": "smuggler,grandmaster,random,random"}, "no bot level 'grandmaster'"),
        ({"seats": "smuggler,random"}, "2 levels for 4 players"),
        ({"edition": 1, "black_market": True}, "2nd edition option"),
    ],
)
def test_bad_input_gets_a_clear_message(options, message):
    with pytest.raises(CommandError, match=message):
        call_command("bot_arena", games=1, stdout=StringIO(), **options)
