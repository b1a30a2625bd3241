"""``manage.py simulate``: the engine's simulator as a management command, with the
six-player and Black Market options, and ``--timing``."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import self_play


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
        self_play.main(["--games", "1", "--players", "6", "--edition", "1"])


NUMBER = r"(\d+(?:\.\d+)?)"


def test_timing_prints_the_time_spent_in_apply():
    out = StringIO()
    call_command(
        "simulate", "--games", "2", "--players", "5", "--seed", "1", "--timing", stdout=out
    )
    text = out.getvalue()
    assert "games played: 2 (edition 2, 5 players)" in text
    assert "invariant failures" not in text  # nothing is checked: only the engine is timed
    commands = re.search(rf"^commands applied: {NUMBER} \({NUMBER} refused\)$", text, re.M)
    per_game = re.search(rf"^apply ms per game: median {NUMBER}, p95 {NUMBER}$", text, re.M)
    per_command = re.search(rf"^apply µs per command: median {NUMBER}$", text, re.M)
    assert commands and per_game and per_command, text
    assert int(commands[1]) > 0
    assert float(per_game[1]) > 0 and float(per_game[2]) >= float(per_game[1])
    assert float(per_command[1]) > 0


def test_the_module_times_too(capsys):
    assert self_play.main(["--games", "1", "--players", "3", "--edition", "1", "--timing"]) == 0
    assert re.search(rf"apply ms per game: median {NUMBER}", capsys.readouterr().out)
