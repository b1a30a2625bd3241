"""scripts/bench_against.py, the table of scripts/bench_against.sh: what it reads
from bench_moves' output, old and new, and the medians and ratios it prints."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_against.py"
spec = importlib.util.spec_from_file_location("bench_against", SCRIPT)
bench_against = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_against)

# The in-process part of bench_moves' output, as printed at 9ca3201 (the format since)...
NEW = """\
== in-process (postgresql, Django test client), 2 whole 5-player games, 320 moves
page GET   p50   5.82 ms   (its CPU  4.95 ms)   round 1 p50   5.18 ms   round 10 p50   5.51 ms   statements p50 3 max 3 (round trips p50 1)
move POST  p50   7.52 ms   (its CPU  4.84 ms)   round 1 p50   7.23 ms   round 10 p50   6.53 ms   statements p50 4 max 5 (round trips p50 4)
email sent p50   9.95 ms   (its CPU  6.30 ms)   round 1 p50  10.26 ms   round 10 p50   8.78 ms   statements p50 7 max 8 (round trips p50 7)
whole log  3 pages a game: page 1 p50   6.98 ms   page 3 p50  10.10 ms   statements max 6
"""  # noqa: E501
# ... and at f4c75d1: no CPU, no round trips, no emails, no whole log, "queries".
OLD = """\
== in-process (postgresql, Django test client), 2 whole 3-player games, 144 moves
page GET   p50   9.82 ms   round 1 p50   9.36 ms   round 9 p50  11.34 ms   queries p50 3 max 3
move POST  p50  11.17 ms   round 1 p50  11.03 ms   round 9 p50  11.53 ms   queries p50 6 max 8
"""


def test_every_figure_of_the_current_output_is_read():
    figures = bench_against.parse("removed 12 rows left by an earlier run\n" + NEW)
    assert figures["moves"] == 320
    assert figures["page GET p50 ms"] == 5.82 and figures["page GET its CPU ms"] == 4.95
    assert figures["page GET round 1 p50 ms"] == 5.18
    assert figures["page GET last round"] == 10 and figures["page GET last round p50 ms"] == 5.51
    assert figures["move POST statements p50"] == 4 and figures["move POST statements max"] == 5
    assert figures["email sent round trips p50"] == 7
    assert figures["whole log pages"] == 3 and figures["whole log last page p50 ms"] == 10.10
    assert figures["whole log page 1 p50 ms"] == 6.98 and figures["whole log statements max"] == 6
    assert len(figures) == 1 + 3 * 8 + 4


def test_an_older_output_gives_what_it_prints_and_queries_count_as_statements():
    figures = bench_against.parse(OLD)
    assert figures == {
        "moves": 144,
        "page GET p50 ms": 9.82,
        "page GET round 1 p50 ms": 9.36,
        "page GET last round": 9,
        "page GET last round p50 ms": 11.34,
        "page GET statements p50": 3,
        "page GET statements max": 3,
        "move POST p50 ms": 11.17,
        "move POST round 1 p50 ms": 11.03,
        "move POST last round": 9,
        "move POST last round p50 ms": 11.53,
        "move POST statements p50": 6,
        "move POST statements max": 8,
    }


def test_a_figure_printed_as_nan_is_missing():
    figures = bench_against.parse(NEW.replace("(its CPU  6.30 ms)", "(its CPU   nan ms)"))
    assert "email sent its CPU ms" not in figures and "email sent p50 ms" in figures


def test_the_median_of_each_figure_and_the_last_round_over_the_first():
    runs = [
        {"page GET round 1 p50 ms": ms, "page GET last round p50 ms": 2 * ms} for ms in (4, 6, 5)
    ]
    runs[1]["page GET p50 ms"] = 7  # printed by one run only
    middle = bench_against.medians(runs)
    assert middle["page GET round 1 p50 ms"] == 5 and middle["page GET p50 ms"] == 7
    assert middle["page GET last round ÷ round 1"] == pytest.approx(2)
    assert "move POST last round ÷ round 1" not in middle


def test_the_table_shows_each_side_the_ratio_and_a_dash_for_what_one_side_lacks():
    old = bench_against.parse(OLD)
    new = bench_against.parse(NEW.replace("round 10", "round 9"))
    lines = bench_against.table([old, old, old], [new, new, new]).splitlines()
    assert lines[0].split() == ["median", "of", "each", "side", "REF", "HEAD", "HEAD", "÷", "REF"]

    def cells(label: str) -> list:  # the first row of that label
        return next(line[32:].split() for line in lines if line[:32].strip() == label)

    assert cells("page GET p50 ms") == ["9.82", "5.82", "0.59"]
    assert cells("its CPU p50 ms") == ["–", "4.95", "–"]
    assert cells("round 9 p50 ms") == ["11.34", "5.51", "0.49"]
    assert cells("round 9 ÷ round 1") == ["1.21", "1.06", "0.88"]
    assert cells("statements p50") == ["3", "3", "1.00"]
    assert cells("email sent p50 ms") == ["–", "9.95", "–"]
    assert cells("whole log: pages a game") == ["–", "3", "–"]
