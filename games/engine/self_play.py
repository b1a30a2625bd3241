"""Play many full games with random legal moves and check every invariant
after every step.

    python -m games.engine.self_play --games N --players 3|4|5|6 --edition 1|2
                                    [--seed S] [--royal] [--black-market]

The random players make and revise offers and demands, third-party offers,
accept deals, pass and inspect bags (with 6 players: each Deputy's calls, offers
to one Deputy or both), claim Black Market cards or decline, and let deadlines
pass (timeouts). They
also send refused commands now and then, which must leave the state untouched.
Prints games played, invariant failures (must be 0) and the median and p95
milliseconds per full game.

    python -m games.engine.self_play ... --timing

``--timing`` measures the engine alone: the same random players (without the
refused junk commands) play the games with no invariant check, and only the time
spent inside ``apply`` counts. Prints games played, commands applied, the median
and p95 milliseconds of ``apply`` per game, and the median over games of the
microseconds per command.
"""

import argparse
import json
import random
import statistics
import sys
import time

from .cards import BLACK_MARKET_TYPES, CARD_TYPES, LEGAL_TYPES
from .config import GameConfig
from .events import evolve
from .flow import actions
from .game import apply, new_game
from .inspection import DEPUTIES, call_of, undecided
from .invariants import (
    check_bargaining,
    check_no_leak,
    check_sealed_loading,
    check_state,
    check_view,
)
from .refusals import EngineError
from .table import Run, move_cards

MAX_STEPS = 20_000
TIMEOUT_CHANCE = 0.04
BARGAINING_END_CHANCE = 0.05
JUNK_CHANCE = 0.03
LOCKED_BAG_CHANCE = 0.3
REFUSE_AGAIN = 0.8
STANDING_CHANCE = 0.01


class RandomPlayers:
    """Chooses a random command among the moves ``actions`` offers.

    ``every_choice``: also make the choices no seat page offers yet — the order of
    confiscated goods, and the pile and order in a Sheriff's demand. The simulator and
    the property tests use them all; the fault drill (``manage.py chaos``) plays through
    the pages' forms, so it leaves them to their defaults."""

    def __init__(self, rnd: random.Random, every_choice: bool = False, junk: bool = True):
        self.rnd = rnd
        self.every_choice = every_choice
        self.sends_junk = junk  # False: no malformed commands (timing the engine alone)

    def command(self, state) -> dict:
        rnd = self.rnd
        options = actions(state)
        if rnd.random() < TIMEOUT_CHANCE:
            return {"type": "timeout"}
        if rnd.random() < BARGAINING_END_CHANCE:  # refused outside inspection: fine
            return {"type": "end_bargaining"}
        if rnd.random() < JUNK_CHANCE and self.sends_junk:
            return self.junk(state)
        if state.config.black_market and rnd.random() < STANDING_CHANCE:  # any time, any seat
            seat, standing = rnd.randrange(state.players), rnd.random() < 0.5
            return {"type": "set_black_market_standing", "seat": seat, "standing": standing}
        seats = [s for s, a in options.items() if a["moves"]]
        if not seats:  # a complete phase held for its deadline
            return {"type": "timeout"}
        seat = rnd.choice(seats)
        move = rnd.choice(options[seat]["moves"])
        if move["type"] == "refuse_offer" and rnd.random() < REFUSE_AGAIN:
            move = rnd.choice(options[seat]["moves"])  # refusals now and then, deals mostly
        return getattr(self, move["type"])(state, seat, move)

    # -- market and loading
    def _some(self, cards: list, low: int, high: int) -> list:
        high = min(high, len(cards))
        return self.rnd.sample(cards, self.rnd.randint(min(low, high), high))

    def set_aside(self, state, seat, move):
        return {"type": "set_aside", "seat": seat, "cards": self._some(state.hand(seat), 0, 5)}

    def market_turn(self, state, seat, move):
        rnd = self.rnd
        cards = self._some(state.hand(seat), 0, 5)
        sizes = dict(move["discard_piles"])
        draws = []
        for _ in range(rnd.randint(0, len(cards))):
            piles = [p for p, size in sizes.items() if size]
            if not piles:
                break
            pile = rnd.choice(piles)
            sizes[pile] -= 1
            draws.append(pile)
        draws += ["deck"] * (len(cards) - len(draws))
        order = rnd.sample(cards, len(cards))
        return {
            "type": "market_turn",
            "seat": seat,
            "cards": cards,
            "draws": draws,
            "pile": rnd.randint(0, 1),
            "order": order,
        }

    def load_bag(self, state, seat, move):
        rnd = self.rnd
        cards = self._some(state.hand(seat), 1, 5)
        if rnd.random() < 0.5:
            declared = state.type_of(cards[0])
            declared = declared if declared in LEGAL_TYPES else rnd.choice(LEGAL_TYPES)
        else:
            declared = rnd.choice(LEGAL_TYPES)
        return {
            "type": "load_bag",
            "seat": seat,
            "cards": cards,
            "declared": declared,
            "count": len(cards),
        }

    # -- inspection
    def _terms(self, state, payer: int, proposer: int, deputies=()) -> dict:
        """Terms of an offer; ``deputies``: those it binds (6 players), who must not
        have called the bags it names yet."""
        rnd = self.rnd
        bags = [
            m
            for m in undecided(state)
            if all(call_of(state, m, d) is None for d in deputies) or rnd.random() < 0.05
        ] or undecided(state)
        chosen = rnd.sample(bags, rnd.randint(1, min(2, len(bags))))
        terms = {
            "gold": rnd.choice([rnd.randint(0, min(state.gold[payer], 12)), state.gold[payer]]),
            "sheriff": [
                {"bag": b, "action": rnd.choice(["pass", "pass", "inspect"])} for b in chosen
            ],
        }
        if proposer != payer and self.every_choice:  # where and how confiscated goods go
            for action in terms["sheriff"]:
                if action["action"] == "inspect" and rnd.random() < 0.5:
                    action.update(pile=self._pile(state), **self._order())
        if rnd.random() < 0.3 and (proposer == payer or rnd.random() < 0.5):
            legal = [c for c in state.stand(payer) if CARD_TYPES[state.type_of(c)].is_legal]
            terms["stand_goods"] = self._some(legal, 0, 3)
        if rnd.random() < 0.3 and state.phase.decided[payer] is None:  # possibly a bluff
            terms["bag_goods"] = {rnd.choice(list(CARD_TYPES)): rnd.randint(1, 2)}
        if rnd.random() < 0.2:
            terms["promise"] = "I won't inspect you next time."
        return terms

    def make_offer(self, state, seat, move):
        rnd = self.rnd
        to = rnd.choice(move["to"])
        payer = to if state.is_inspector(seat) else seat
        command = {"type": "make_offer", "seat": seat, "to": to}
        deputies = ()
        if state.config.deputies:
            if state.is_inspector(seat):
                command["joint"] = move["joint"] and rnd.random() < 0.5
                deputies = state.deputies if command["joint"] else [seat]
            else:
                deputies = state.deputies if to == DEPUTIES else [to]
        return {**command, "terms": self._terms(state, payer, seat, deputies)}

    def revise_offer(self, state, seat, move):
        offer = state.phase.offers[str(self.rnd.choice(move["offers"]))]
        return {
            "type": "revise_offer",
            "seat": seat,
            "offer": offer["id"],
            "terms": self._terms(state, offer["payer"], seat, offer.get("deputies", ())),
        }

    def withdraw_offer(self, state, seat, move):
        return {"type": "withdraw_offer", "seat": seat, "offer": self.rnd.choice(move["offers"])}

    def accept_offer(self, state, seat, move):
        choice = self.rnd.choice(move["offers"])
        return {
            "type": "accept_offer",
            "seat": seat,
            "pile": self._pile(state),
            **self._order(),
            **choice,
        }

    def refuse_offer(self, state, seat, move):
        return {"type": "refuse_offer", "seat": seat, "offer": self.rnd.choice(move["offers"])}

    def say_no_offer(self, state, seat, move):
        return {"type": "say_no_offer", "seat": seat}

    # -- the Black Market
    def claim_black_market(self, state, seat, move):
        kinds = move["kinds"]
        if self.rnd.random() < 0.1:  # now and then a kind the stand cannot pay (refused)
            kinds = list(BLACK_MARKET_TYPES)
        return {"type": "claim_black_market", "seat": seat, "kind": self.rnd.choice(kinds)}

    def decline_black_market(self, state, seat, move):
        return {"type": "decline_black_market", "seat": seat}

    def _bag(self, state, move) -> int:
        """A decidable bag, or now and then one still locked for bargaining (refused)
        or, with 6 players, one this Deputy has already called (refused)."""
        if self.rnd.random() < LOCKED_BAG_CHANCE:
            return self.rnd.choice(undecided(state))
        return self.rnd.choice(move["bags"])

    def pass_bag(self, state, seat, move):
        return {"type": "pass_bag", "seat": seat, "bag": self._bag(state, move)}

    def inspect_bag(self, state, seat, move):
        bag = self._bag(state, move)
        return {
            "type": "inspect_bag",
            "seat": seat,
            "bag": bag,
            "pile": self._pile(state),
            **self._order(),
        }

    def _pile(self, state) -> int:
        return self.rnd.randrange(state.config.discard_pile_count)

    def _order(self) -> dict:
        """How confiscated goods are stacked: unsaid, a policy, or a ranking of kinds."""
        rnd = self.rnd
        if not self.every_choice:
            return {}
        pick = rnd.random()
        if pick < 0.4:
            return {}
        if pick < 0.7:
            return {"order": rnd.choice(["lowest_on_top", "highest_on_top"])}
        return {"order": rnd.sample(list(CARD_TYPES), rnd.randint(1, 4))}

    def junk(self, state) -> dict:
        rnd = self.rnd
        seat = rnd.randrange(state.players)
        return rnd.choice(
            [
                {"type": "load_bag", "seat": seat, "cards": [], "declared": "silk", "count": 0},
                {"type": "set_aside", "seat": seat, "cards": list(range(6))},
                {"type": "pass_bag", "seat": state.merchants()[0], "bag": seat},
                {"type": "accept_offer", "seat": seat, "offer": 1, "revision": 99},
                {"type": "make_offer", "seat": seat, "to": seat, "terms": {}},
                {"type": "market_turn", "seat": seat, "cards": [], "draws": ["deck", "discard:0"]},
                {"type": "claim_black_market", "seat": seat, "kind": "pepper"},
                {"type": "decline_black_market", "seat": seat},
                {"type": "nonsense"},
            ]
        )


def squeeze_deck(state, events: list, keep: int) -> object:
    """Move all but ``keep`` deck cards onto the discard pile(s), so that reshuffles
    (and, in the 1st edition, running dry) happen within a game."""
    run = Run(state)
    deck = list(state.zones["deck"][:-keep])
    piles = state.config.discard_pile_count
    for pile in range(piles):
        move_cards(run, deck[pile::piles], "deck", f"discard:{pile}", "setup")
    events += run.events
    return run.state


def play_game(
    config: GameConfig,
    seed: str,
    rnd: random.Random,
    deep_every: int = 1,
    squeeze: bool = False,
    hold: bool = False,
) -> dict:
    """One full game; returns {"failures": [...], "steps": n, "events": n, ...}.
    ``squeeze`` runs the deck dry; ``hold`` keeps complete phases until their deadline."""
    failures: list = []
    state, events = new_game(config, seed)
    if squeeze:
        state = squeeze_deck(state, events, keep=rnd.randint(0, 30))
    shadow = None  # the state rebuilt from JSON round-tripped events, step by step
    for event in events:
        shadow = evolve(shadow, json.loads(json.dumps(event)))
    players = RandomPlayers(rnd, every_choice=True)
    steps = refused = 0
    while not state.is_over() and steps < MAX_STEPS:
        steps += 1
        command = players.command(state)
        before, previous = state.to_json(), state
        try:
            state, new_events = apply(state, command, auto_advance=not hold)
        except EngineError:
            refused += 1
            if state.to_json() != before:
                failures.append(f"refused {command['type']} changed the state")
            continue
        if previous.to_json() != before:  # apply's working copy shares parts of it
            failures.append(f"step {steps}: {command['type']} changed the state it was given")
        failures += [f"step {steps}: {p}" for p in check_bargaining(previous, new_events)]
        events += new_events
        for event in new_events:
            shadow = evolve(shadow, json.loads(json.dumps(event)))
        if shadow.to_json() != state.to_json():
            failures.append(f"step {steps}: replayed state differs after {command['type']}")
        failures += [f"step {steps}: {p}" for p in check_state(state)]
        if steps % deep_every == 0 or state.is_over():
            seat = rnd.randrange(state.players)
            failures += check_view(state, seat) + check_view(state, None)
            failures += check_sealed_loading(state, events, seat, rnd)  # only while loading
        if failures:
            break
    if not state.is_over():
        failures.append(f"no end after {steps} steps")
    elif state.round != config.rounds or state.sheriff_turns != _expected_turns(config):
        failures.append(f"ended after round {state.round}, Sheriff turns {state.sheriff_turns}")
    if not failures:
        from .state import State

        if State.from_json(state.to_json()).hash() != state.hash():
            failures.append("JSON round trip changed the state")
        for seat in [*range(config.players), None]:
            failures += check_no_leak(state, events, seat, rnd)
    return {
        "failures": failures,
        "steps": steps,
        "refused": refused,
        "events": len(events),
        "state": state,
        "log": events,
    }


def time_game(
    config: GameConfig, seed: str, rnd: random.Random, squeeze: bool = False, hold: bool = False
) -> dict:
    """One full game with no invariant check, timing only the engine's ``apply``
    calls (refused ones included: refusing costs the engine time too). Returns
    {"seconds": time inside apply, "commands": n, "refused": n}."""
    state, events = new_game(config, seed)
    if squeeze:
        state = squeeze_deck(state, events, keep=rnd.randint(0, 30))
    players = RandomPlayers(rnd, every_choice=True, junk=False)
    seconds, commands, refused = 0.0, 0, 0
    while not state.is_over() and commands < MAX_STEPS:
        command = players.command(state)
        commands += 1
        started = time.perf_counter()
        try:
            state, _ = apply(state, command, auto_advance=not hold)
        except EngineError:
            refused += 1
        seconds += time.perf_counter() - started
    return {"seconds": seconds, "commands": commands, "refused": refused}


def _expected_turns(config: GameConfig) -> list:
    """Rounds each seat served as Sheriff (as Deputy with 6 players: two a round)."""
    per_round = 2 if config.deputies else 1
    return [config.rounds * per_round // config.players] * config.players


def _values(rnd: random.Random) -> dict:
    """Organizer's Black Market values: two cards a pile."""
    return {kind: [rnd.randint(1, 40), rnd.randint(1, 40)] for kind in BLACK_MARKET_TYPES}


def add_arguments(parser) -> None:
    """The options, shared by ``python -m games.engine.self_play`` and ``manage.py simulate``."""
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, choices=(3, 4, 5, 6), default=4)
    parser.add_argument("--edition", type=int, choices=(1, 2), default=2)
    parser.add_argument("--seed", type=int, default=None, help="master seed for reproducible runs")
    parser.add_argument("--royal", action="store_true", help="play with the Royal Goods")
    parser.add_argument(
        "--black-market",
        action="store_true",
        help="play with the Black Market (2nd edition; a quarter of the games with "
        "organizer's values instead of the provisional ones)",
    )
    parser.add_argument(
        "--deep-every",
        type=int,
        default=1,
        help="check views for leaks every N steps (1 = every step)",
    )
    parser.add_argument(
        "--timing",
        action="store_true",
        help="time the engine alone: no invariant check, no junk commands; prints "
        "commands applied, the median and p95 ms inside apply per game and the "
        "median µs per command",
    )


def check_arguments(args) -> str | None:
    """What is wrong with the options, or None."""
    if args.players == 6 and args.edition != 2:
        return "six players need the 2nd edition (--edition 2)"
    if args.black_market and args.edition != 2:
        return "the Black Market is a 2nd edition option (--edition 2)"
    return None


def _next_game(args, rnd: random.Random) -> tuple[str, GameConfig]:
    """The next game's seed and a random configuration within the options."""
    game_seed = f"{rnd.getrandbits(256):064x}"
    config = GameConfig(
        players=args.players,
        edition=args.edition,
        royal_goods=args.royal,
        first_sheriff=rnd.randrange(args.players),
        seven_card_hand=rnd.random() < 0.2,
        remove_ten=rnd.random() < 0.2,
        black_market=args.black_market,
        black_market_values=_values(rnd) if args.black_market and rnd.random() < 0.25 else None,
    )
    return game_seed, config


def _p95(values: list) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _games_line(args) -> str:
    return (
        f"games played: {args.games} (edition {args.edition}, {args.players} players"
        f"{', royal goods' if args.royal else ''}"
        f"{', black market' if args.black_market else ''})\n"
    )


def run(args, out=None, err=None) -> int:
    """Play ``args.games`` games; print the figures; 1 if any invariant failed.
    ``out`` and ``err`` default to the streams of the moment (tests capture them)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    master = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rnd = random.Random(master)
    if getattr(args, "timing", False):
        return run_timing(args, master, rnd, out)
    durations, failed, steps = [], 0, 0
    for number in range(args.games):
        game_seed, config = _next_game(args, rnd)
        started = time.perf_counter()
        squeeze = rnd.random() < 0.25  # a quarter of games run the deck dry
        hold = rnd.random() < 0.2  # some games wait for every deadline
        result = play_game(config, game_seed, rnd, args.deep_every, squeeze, hold)
        durations.append((time.perf_counter() - started) * 1000)
        steps += result["steps"]
        if result["failures"]:
            failed += 1
            err.write(f"game {number} (seed {game_seed}, {config}): {result['failures'][:3]}\n")
    out.write(
        f"master seed: {master}\n"
        f"{_games_line(args)}"
        f"invariant failures: {failed}\n"
        f"commands per game: {steps / max(1, args.games):.0f}\n"
        f"ms per full game: median {statistics.median(durations):.1f}, "
        f"p95 {_p95(durations):.1f}\n"
    )
    return 1 if failed else 0


def run_timing(args, master: int, rnd: random.Random, out) -> int:
    """``--timing``: play the games unchecked and print the time spent in ``apply``."""
    per_game_ms, per_command_us, commands, refused = [], [], 0, 0
    for _ in range(args.games):
        game_seed, config = _next_game(args, rnd)
        squeeze, hold = rnd.random() < 0.25, rnd.random() < 0.2  # as in a checked run
        result = time_game(config, game_seed, rnd, squeeze, hold)
        per_game_ms.append(result["seconds"] * 1000)
        per_command_us.append(result["seconds"] * 1e6 / max(1, result["commands"]))
        commands += result["commands"]
        refused += result["refused"]
    out.write(
        f"master seed: {master}\n"
        f"{_games_line(args)}"
        f"commands applied: {commands} ({refused} refused)\n"
        f"apply ms per game: median {statistics.median(per_game_ms):.2f}, "
        f"p95 {_p95(per_game_ms):.2f}\n"
        f"apply µs per command: median {statistics.median(per_command_us):.1f}\n"
    )
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    problem = check_arguments(args)
    if problem:
        parser.error(problem)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
