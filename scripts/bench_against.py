"""The table of scripts/bench_against.sh: the in-process figures of
`manage.py bench_moves`, run three times at REF and three times at HEAD, as the
median of each side and their ratio HEAD ÷ REF.

    python scripts/bench_against.py --ref LABEL --head LABEL --command TEXT DIR

DIR holds each run's output, ref.1.out ... and head.1.out .... An older
bench_moves prints fewer figures (no CPU, no round trips, no emails or whole
log; "queries" for statements): what a run does not print shows as "–".
Standard library only."""

import argparse
import math
import re
import statistics
import sys
from pathlib import Path

KINDS = ("page GET", "move POST", "email sent")
NUMBER = r"(\d+(?:\.\d+)?|nan)"
STATEMENTS = "(?:statements|queries)"  # "queries" in older outputs
HEADER = re.compile(r"^== in-process .*?, (\d+) moves$", re.M)
WHOLE_LOG = re.compile(
    rf"^whole log\s+(\d+) pages a game: page 1 p50\s+{NUMBER} ms\s+"
    rf"page \d+ p50\s+{NUMBER} ms\s+statements max (\d+)",
    re.M,
)
# A kind's line, figure by figure: each pattern's groups are the figures named beside it.
KIND_FIGURES = (
    (rf"^ *p50\s+{NUMBER} ms", ("p50 ms",)),
    (rf"its CPU\s+{NUMBER} ms", ("its CPU ms",)),
    (rf"round 1 p50\s+{NUMBER} ms", ("round 1 p50 ms",)),
    (rf"round (\d+) p50\s+{NUMBER} ms\s+{STATEMENTS}", ("last round", "last round p50 ms")),
    (rf"{STATEMENTS} p50 {NUMBER} max (\d+)", ("statements p50", "statements max")),
    (rf"round trips p50 {NUMBER}", ("round trips p50",)),
)


def parse(text: str) -> dict[str, float]:
    """The figures one run printed, by name ("page GET p50 ms", "whole log pages"...);
    a figure it did not print (or printed as nan) is absent."""
    found = {}

    def read(prefix: str, names: tuple, match: re.Match | None) -> None:
        if match:
            found.update(zip((f"{prefix}{name}" for name in names), match.groups(), strict=True))

    read("", ("moves",), HEADER.search(text))
    for kind in KINDS:
        line = re.search(rf"^{kind}\s+(.*)$", text, re.M)
        for pattern, names in KIND_FIGURES if line else ():
            read(f"{kind} ", names, re.search(pattern, line[1]))
    names = ("pages", "page 1 p50 ms", "last page p50 ms", "statements max")
    read("whole log ", names, WHOLE_LOG.search(text))
    figures = {name: float(value) for name, value in found.items()}
    return {name: value for name, value in figures.items() if not math.isnan(value)}


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the runs that printed it, and for each kind its
    last round's p50 over its round 1's (from those medians)."""
    names = {name for run in runs for name in run}
    middle = {name: statistics.median(run[name] for run in runs if name in run) for name in names}
    for kind in KINDS:
        first, last = middle.get(f"{kind} round 1 p50 ms"), middle.get(f"{kind} last round p50 ms")
        if first and last is not None:
            middle[f"{kind} last round ÷ round 1"] = last / first
    return middle


def rows(last_round: str) -> list[tuple[str, str, str]]:
    """(figure's name, its label in the table, its format), in the table's order."""
    table = [("moves", "moves played", ".0f")]
    for kind in KINDS:
        table += [
            (f"{kind} p50 ms", f"{kind} p50 ms", ".2f"),
            (f"{kind} its CPU ms", "  its CPU p50 ms", ".2f"),
            (f"{kind} round 1 p50 ms", "  round 1 p50 ms", ".2f"),
            (f"{kind} last round p50 ms", f"  round {last_round} p50 ms", ".2f"),
            (f"{kind} last round ÷ round 1", f"  round {last_round} ÷ round 1", ".2f"),
            (f"{kind} statements p50", "  statements p50", ".0f"),
            (f"{kind} statements max", "  statements max", ".0f"),
            (f"{kind} round trips p50", "  round trips p50", ".0f"),
        ]
    return [
        *table,
        ("whole log pages", "whole log: pages a game", ".0f"),
        ("whole log page 1 p50 ms", "  page 1 p50 ms", ".2f"),
        ("whole log last page p50 ms", "  last page p50 ms", ".2f"),
        ("whole log statements max", "  statements max", ".0f"),
    ]


def shown(value: float | None, form: str) -> str:
    return "–" if value is None else format(value, form)


def ratio(ref: float | None, head: float | None) -> str:
    return "–" if ref is None or head is None or ref == 0 else f"{head / ref:.2f}"


def table(ref_runs: list[dict], head_runs: list[dict]) -> str:
    ref, head = medians(ref_runs), medians(head_runs)
    rounds = {f"{side.get(f'{kind} last round', 0):.0f}" for side in (ref, head) for kind in KINDS}
    rounds.discard("0")
    last_round = rounds.pop() if len(rounds) == 1 else "last"
    lines = [f"{'median of each side':32} {'REF':>9} {'HEAD':>9} {'HEAD ÷ REF':>11}"]
    for name, label, form in rows(last_round):
        r, h = ref.get(name), head.get(name)
        lines.append(f"{label:32} {shown(r, form):>9} {shown(h, form):>9} {ratio(r, h):>11}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ref", required=True, help="REF's label")
    parser.add_argument("--head", required=True, help="HEAD's label")
    parser.add_argument("--command", required=True, help="the command that ran")
    parser.add_argument("outputs", type=Path, help="the folder of the runs' outputs")
    args = parser.parse_args(argv)
    ref = [parse(path.read_text()) for path in sorted(args.outputs.glob("ref.*.out"))]
    head = [parse(path.read_text()) for path in sorted(args.outputs.glob("head.*.out"))]
    print(args.command)
    print(f"REF  ({len(ref)} runs): {args.ref}\nHEAD ({len(head)} runs): {args.head}")
    print(table(ref, head))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
