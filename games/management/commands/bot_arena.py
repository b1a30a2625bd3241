"""Bots against each other, through the engine alone (games/bots/arena.py), and the
figures that say how they play:

    manage.py bot_arena --games 2000 --players 4 --seats smuggler,random,random,random --seed 1

Seats rotate from game to game, so that each level sits everywhere in turn. Prints
the illegal commands, the bots' errors, the stalled phases and the invariant
failures (each must be 0), each level's win rate with its 95 % interval (Wilson),
its behaviour (lying bags, inspections, bribes and demands, per game) and its
decision time p50/p99. ``--mixed`` plays every shape instead (both editions, 3 to
6 players, the Black Market on and off, levels drawn at random for each seat).
"""

import hashlib
import math
import random
import statistics
import time

from django.core.management.base import BaseCommand, CommandError

from games.bots import LEVELS
from games.bots.arena import play
from games.engine import GameConfig
from games.management.commands.bench_deadlines import percentile

Z95 = 1.96


def wilson(wins: float, n: int) -> tuple:
    """The 95 % Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = p + Z95**2 / (2 * n)
    spread = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n))
    scale = 1 + Z95**2 / n
    return ((centre - spread) / scale, (centre + spread) / scale)


class Command(BaseCommand):
    help = "Play bots against each other and print how legal, strong and fast they are."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6))
        parser.add_argument("--edition", type=int, default=2, choices=(1, 2))
        parser.add_argument("--black-market", action="store_true")
        parser.add_argument(
            "--seats", default="smuggler,random,random,random", help="a level for each seat"
        )
        parser.add_argument("--seed", default="1")
        parser.add_argument("--mixed", action="store_true", help="every shape, levels drawn")
        parser.add_argument("--checked", action="store_true", help="check invariants each step")

    def handle(self, *args, **o):
        seats = [s.strip() for s in o["seats"].split(",")]
        unknown = [s for s in seats if s not in LEVELS]
        if unknown:
            raise CommandError(f"no bot level {unknown[0]!r}: one of {', '.join(LEVELS)}")
        if not o["mixed"] and len(seats) != o["players"]:
            raise CommandError(f"--seats names {len(seats)} levels for {o['players']} players")
        if o["edition"] == 1 and o["black_market"]:
            raise CommandError("the Black Market is a 2nd edition option")
        draw = random.Random(o["seed"])
        totals = {"illegal": 0, "errors": 0, "stalled": 0, "failures": 0}
        games, wins, decisions, behaviour = {}, {}, {}, {}
        started = time.monotonic()
        for number in range(o["games"]):
            config, levels = self.game(number, seats, o, draw)
            seed = hashlib.sha256(f"{o['seed']}:{number}".encode()).hexdigest()
            result = play(config, seed, levels, checked=o["checked"])
            for key in ("illegal", "errors", "stalled"):
                totals[key] += getattr(result, key)
            totals["failures"] += len(result.failures)
            for failure in result.failures[:3]:
                self.stderr.write(f"game {number}: {failure}")
            for level in set(levels):
                games[level] = games.get(level, 0) + levels.count(level)
            for seat in result.winners:
                wins[levels[seat]] = wins.get(levels[seat], 0) + 1 / len(result.winners)
            for level, times in result.decision_ms.items():
                decisions.setdefault(level, []).extend(times)
            for level, counts in result.behaviour.items():
                mine = behaviour.setdefault(level, {})
                for what, n in counts.items():
                    mine[what] = mine.get(what, 0) + n
        self.report(o, totals, games, wins, decisions, behaviour, time.monotonic() - started)

    def game(self, number: int, seats: list, o: dict, draw: random.Random):
        if not o["mixed"]:
            turn = number % len(seats)  # rotated: every level sits everywhere
            config = GameConfig.from_dict(
                {"edition": o["edition"], "players": o["players"],
                 "black_market": o["black_market"]}
            )  # fmt: skip
            return config, seats[turn:] + seats[:turn]
        players = draw.randint(3, 6)
        edition = 2 if players == 6 else draw.choice((1, 2))
        black_market = edition == 2 and draw.random() < 0.5
        config = GameConfig.from_dict(
            {"edition": edition, "players": players, "black_market": black_market}
        )
        return config, [draw.choice(sorted(LEVELS)) for _ in range(players)]

    def report(self, o, totals, games, wins, decisions, behaviour, seconds) -> None:
        say = self.stdout.write
        say(f"games: {o['games']} in {seconds:.1f} s")
        say(f"illegal commands: {totals['illegal']}")
        say(f"bot errors: {totals['errors']}")
        say(f"stalled phases: {totals['stalled']}")
        say(f"invariant and other failures: {totals['failures']}")
        for level in sorted(games):
            seats = games[level]
            # A level's win rate per seat it held: seats of one level share its wins.
            rate = wins.get(level, 0) / seats
            low, high = wilson(wins.get(level, 0), seats)
            say(f"win rate {level}: {rate:.2f} (95% {low:.2f}–{high:.2f}; {seats} seats)")
        for level in sorted(behaviour):
            counts = behaviour[level]
            bags = counts.get("bags", 0)
            lying = counts.get("lying bags", 0) / bags if bags else 0.0
            per_seat = {k: v / games[level] for k, v in sorted(counts.items())}
            figures = ", ".join(f"{k} {v:.2f}" for k, v in per_seat.items())
            say(f"behaviour {level}: lying bags {lying:.2f} of bags; per seat-game: {figures}")
        for level in sorted(decisions):
            times = decisions[level]
            say(
                f"decision ms {level}: p50 {statistics.median(times):.3f} / "
                f"p99 {percentile(times, 99):.3f} ({len(times)} decisions)"
            )
