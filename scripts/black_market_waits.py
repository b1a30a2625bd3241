"""How long the table waits on the Black Market step, over random games.

    .venv/bin/python scripts/black_market_waits.py [--games 300] [--players 4] [--seed 1]

Random full games (the engine alone), played by scripted "humans" who answer only
when asked: they load random bags (contraband often); the Sheriff decides the bags
at random hours of the inspection (bargaining over), letting a bag pass 70 % of the
time; a merchant asked about the Black Market answers (a claim when their stand
allows one, else no claim) after a delay drawn uniformly between 10 minutes and
one phase (the game's pacing: 24 h phases, the default of a new game). The step
lasts from the last bag until every merchant it waits for has answered, or its
deadline (then: no claim). Printed per way of playing: steps waited on, merchants
asked (and how many of them could claim), claims, and the table's total and
median wait per step, in hours and as a share of a phase.

The ways of playing:
  before     asked when the step starts; its deadline is half the inspection
  after      asked as soon as their bag is through (an email), in the inspection;
             the step's deadline is a tenth of the inspection
  ahead      after, and a merchant who, when the inspection asks them to bargain,
             sees that even a passed bag cannot give them 3 of a kind, says
             "no claim this round" then
  standing   after, and every merchant has the standing answer on
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (
    GameConfig,
    apply,
    black_market,
    new_game,
)
from games.engine.black_market import claimable, may_still_claim
from games.engine.cards import BLACK_MARKET_CLAIM, BLACK_MARKET_TYPES
from games.engine.self_play import RandomPlayers

PHASE_HOURS = 24.0
MODES = {  # step deadline (share of the inspection); asked when the bag is through;
    # "no claim" said ahead when it is sure; standing answers
    "before": (1 / 2, False, False, False),
    "after": (1 / 10, True, False, False),
    "ahead": (1 / 10, True, True, False),
    "standing": (1 / 10, True, False, True),
}


def could_reach_a_claim(state, seat: int) -> bool:
    """Might this merchant hold 3 of one kind once their bag is through?"""
    goods = [state.type_of(c) for c in state.stand(seat) + state.bag(seat)]
    return any(
        goods.count(kind) >= BLACK_MARKET_CLAIM and state.black_market[kind]
        for kind in BLACK_MARKET_TYPES
    )


def answer(state, seat: int) -> dict:
    """A merchant's answer when asked: a claim if their stand allows one, else none."""
    kinds = claimable(state, seat)
    if kinds:
        return {"type": "claim_black_market", "seat": seat, "kind": kinds[0]}
    return {"type": "decline_black_market", "seat": seat}


def play(config: GameConfig, seed: str, rnd: random.Random, mode: str) -> tuple:
    """One game; returns ([(wait hours, merchants asked, of whom could claim)] per
    step, claims made)."""
    share, asked_early, ahead, standing = MODES[mode]
    state, _ = new_game(config, seed)
    if standing:
        for seat in range(config.players):
            command = {"type": "set_black_market_standing", "seat": seat, "standing": True}
            state, _ = apply(state, command)
    loader = RandomPlayers(rnd, junk=False)
    steps = []
    while not state.is_over():
        kind = state.phase.kind
        if kind == "load":
            for seat in [s for s in state.merchants() if state.phase.declarations[s] is None]:
                move = {"min_cards": 1, "max_cards": 5}
                state, _ = apply(state, loader.load_bag(state, seat, move))
        elif kind == "inspection":
            state, steps_now = inspect(state, rnd, share, asked_early, ahead)
            steps += steps_now
        else:  # the market: nothing set aside
            state, _ = apply(state, {"type": "timeout"})
    return steps, sum(len(claimed) for claimed in state.claims)


def inspect(state, rnd: random.Random, share: float, asked_early: bool, ahead: bool) -> tuple:
    """One inspection: the Sheriff decides the bags at random times of the phase;
    returns the state after it (and its Black Market step, if any) and the step."""
    if ahead:  # when asked to bargain, at the start
        for seat in state.merchants():
            if not could_reach_a_claim(state, seat):
                state, _ = apply(state, {"type": "decline_black_market", "seat": seat})
    state, _ = apply(state, {"type": "end_bargaining"})
    bags = [s for s in state.merchants() if state.phase.decided[s] is None]
    times = sorted(rnd.uniform(0, PHASE_HOURS) for _ in bags)
    answers = {}  # seat -> the hour their answer comes, once they are asked
    for bag, at in zip(bags, times, strict=True):
        for seat, when in sorted(answers.items(), key=lambda a: a[1]):
            if when <= at and state.phase.kind == "inspection":  # answered in the inspection
                state, _ = apply(state, answer(state, seat))
                del answers[seat]
        action = "pass_bag" if rnd.random() < 0.7 else "inspect_bag"
        state, _ = apply(state, {"type": action, "seat": state.sheriff, "bag": bag})
        if asked_early and state.phase.kind == "inspection" and may_still_claim(state, bag):
            answers[bag] = at + rnd.uniform(10 / 60, PHASE_HOURS)  # asked now, by email
    if state.phase.kind != "black_market":
        return state, []
    last = times[-1]
    seats = list(black_market.awaited(state))
    can = [s for s in seats if claimable(state, s)]
    for seat in seats:
        answers.setdefault(seat, last + rnd.uniform(10 / 60, PHASE_HOURS))  # asked at the step
    deadline = last + share * PHASE_HOURS
    wait = min(max(answers[s] for s in seats), deadline) - last
    for seat in sorted(seats, key=answers.get):
        if answers[seat] <= deadline:  # else the deadline answers for them: no claim
            state, _ = apply(state, answer(state, seat))
    if state.phase.kind == "black_market":
        state, _ = apply(state, {"type": "timeout"})
    return state, [(wait, len(seats), len(can))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, choices=(3, 4, 5), default=4)  # one Sheriff
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    config = GameConfig(players=args.players, edition=2, black_market=True)
    print(
        f"{args.games} games, {args.players} players, phases of {PHASE_HOURS:g} h, seed {args.seed}"
    )
    for mode in MODES:
        rnd = random.Random(args.seed)  # the same deals for every mode
        steps, claims = [], 0
        for number in range(args.games):
            game_steps, game_claims = play(config, f"{args.seed:08x}{number:024x}", rnd, mode)
            steps += game_steps
            claims += game_claims
        waited = [s for s in steps if s[1]]
        waits = [s[0] for s in waited]
        total = sum(waits)
        median = statistics.median(waits) if waits else 0.0
        print(
            f"{mode:9} steps waited on {len(waited) / args.games:5.2f}/game"
            f" · merchants asked {sum(s[1] for s in steps) / args.games:5.2f}/game"
            f" (could claim {sum(s[2] for s in steps) / args.games:4.2f})"
            f" · claims {claims / args.games:4.2f}/game"
            f" · wait {total / args.games:5.1f} h/game, median {median:4.1f} h"
            f" = {median / PHASE_HOURS:4.0%} of a phase per step"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
