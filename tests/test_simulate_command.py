"""``manage.py simulate``: the engine's simulator as a management command, with the
six-player and Black Market options."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import simulate


def test_six_players_with_the_black_market_play_to_the_end_with_no_failure():
    out = StringIO()
    call_command(
        "simulate",
        "--games",
        "1",
        "--players",
        "6",
        "--black-market",
        "--seed",
        "7",
        "--deep-every",
        "10",
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert "games played: 1 (edition 2, 6 players, black market)" in lines
    assert "invariant failures: 0" in lines


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--players", "6", "--edition", "1"], "six players need the 2nd edition"),
        (["--black-market", "--edition", "1"], "a 2nd edition option"),
    ],
)
def test_options_the_rules_refuse_are_refused(options, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate", "--games", "1", *options, stdout=StringIO())


def test_the_module_refuses_them_too():
    with pytest.raises(SystemExit):
        simulate.main(["--games", "1", "--players", "6", "--edition", "1"])
