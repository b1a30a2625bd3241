"""Games of the 2nd edition's new rules, driven through the engine for the narration
tests: six named seats, random full games (the organizer moving them on now and
then), and ``Table``s set up at a six-player inspection or a Black Market step,
keeping every event. The English and the Spanish narration tests read the same ones."""

import random

from games.engine import GameConfig, apply, new_game, project_event
from games.engine.refusals import EngineError
from games.engine.self_play import RandomPlayers
from games.words.narrate import Narrator
from tests.support.builders import rig, start, to_inspection, with_deputies

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]
ANN, BEN, CID, DEE, EVE, FAY = range(6)
ORGANIZER_CHANCE = 0.02


def play(config: GameConfig, number: int) -> tuple:
    """A full random game: random legal moves, missed deadlines, the organizer moving
    the game on now and then. Returns (state, events)."""
    rnd = random.Random(f"narrate-{number}")
    state, events = new_game(config, f"{number:02x}" * 32)
    agent = RandomPlayers(rnd, every_choice=True)
    while not state.is_over():
        command = agent.command(state)
        if rnd.random() < ORGANIZER_CHANCE:
            command = {"type": "timeout", "by": "organizer"}
        try:
            state, new = apply(state, command)
        except EngineError:
            continue
        events += new
    return state, events


class Table:
    """A game driven command by command, keeping every event."""

    def __init__(self, state):
        self.state, self.events = state, []

    def do(self, command: str, /, **fields) -> list:
        self.state, new = apply(self.state, {"type": command, **fields})
        self.events += new
        return new

    def lines(self, viewer, events=None, **options) -> list:
        narrator = Narrator(NAMES[: self.state.players], viewer, piles=1, **options)
        return narrator.lines(self.projected(viewer, events))

    def projected(self, viewer, events=None) -> list:
        return [project_event(self.state, e, viewer) for e in events or self.events]


def six_player_inspection(**options) -> Table:
    """Round 1 of a six-player game, Ann (drawn first) and Ben the Deputies: Cid honest
    (2 Cheese), Dee honest (2 Apples), Eve lying (an Apple and a Pepper declared as
    Apples), Fay honest (1 Bread)."""
    state = with_deputies(start(players=6, **options), ANN, BEN)
    return Table(
        to_inspection(
            state,
            {
                CID: (["cheese", "cheese"], "cheese"),
                DEE: (["apples", "apples"], "apples"),
                EVE: (["apples", "pepper"], "apples"),
                FAY: (["bread"], "bread"),
            },
        )
    )


def deal(gold: int, **actions) -> dict:
    return {"gold": gold, "sheriff": [{"bag": b, "action": a} for a, b in actions.items()]}


def black_market_step() -> Table:
    """Ben, Cid and Dee each hold 3 Mead on their stand; every bag has passed, so the
    Black Market step waits for all three."""
    state = start(black_market=True)
    for seat in (1, 2, 3):
        state = rig(state, f"stand:{seat}", ["mead"] * 3)
    table = Table(to_inspection(state, {1: (["apples"], "apples")}))
    for bag in (1, 2, 3):
        table.do("pass_bag", seat=0, bag=bag)
    assert table.state.phase.kind == "black_market"
    return table
