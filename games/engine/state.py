"""The game state: cards in zones, gold, round, and the current phase.

Every card has an identity (an int) and sits in exactly one zone, a list whose
last element is the top. Zone names: ``deck``, ``box`` (removed from the game),
``discard:P``, and per seat ``hand:S``, ``bag:S``, ``stand:S`` (legal goods face
up, contraband face down) and ``aside:S`` (cards set aside during the market).
Six players add ``booty`` (goods paid to both Deputies, shared at the end of
the inspection); the Black Market adds ``out`` (the contraband revealed for a
claim, out of the game, face up).

Six players (2nd edition) have no Sheriff (``sheriff`` is None) but two Deputies
a round, drawn from the Deputy deck; "the inspectors" are the Sheriff, or the
Deputies.

The state changes only through ``events.evolve``; it serializes to JSON with a
schema version and has a stable hash.
"""

import hashlib
import json
from dataclasses import dataclass, field, fields

from .config import GameConfig

SCHEMA_VERSION = 1
BOOTY = "booty"  # six players: the Booty tile, a zone of cards and a purse
GOLD_OUT = "out"  # gold that left the game (the Booty's odd coin)
OUT = "out"  # the zone of cards that left the game face up (Black Market claims)


# --- phases: small types carrying just what they need -------------------------


@dataclass
class Market:
    """2nd edition: every merchant submits a set-aside at once."""

    kind = "market"
    pending: list  # per seat: list of card ids, or None while awaited
    since: int = 0  # seq of the event that started this phase: pages name it to detect staleness


@dataclass
class MarketTurn:
    """1st edition: one merchant's market turn, clockwise from the Sheriff's left."""

    kind = "market_turn"
    seat: int
    since: int = 0
    done: bool = False  # the turn is taken (the phase may wait for its deadline)


@dataclass
class Load:
    """Load and declare: sealed declarations, revealed together."""

    kind = "load"
    declarations: list  # per seat: {"declared": type, "count": n} or None
    since: int = 0


@dataclass
class Inspection:
    kind = "inspection"
    declarations: list  # per seat: {"declared", "count"} or None (Sheriff, or no bag)
    decided: list  # per seat: None (undecided), "passed", "inspected" or "none" (no bag)
    # Six players: per seat, each Deputy's call on that bag, in the order of
    # ``State.deputies`` (None: not yet; "pass" or "inspect"); None for seats with no bag.
    calls: list = field(default_factory=list)
    offers: dict = field(default_factory=dict)  # str(offer id) -> offer dict
    next_offer: int = 1
    deals: list = field(default_factory=list)
    owed_bag_goods: list = field(default_factory=list)  # [{"payer", "to", "goods", "deal"}]
    revealed: dict = field(default_factory=dict)  # str(seat) -> card types of an opened bag
    # Honor among thieves: a bag shown to those promised goods it did not hold,
    # str(seat) -> {"to": [seats], "cards": [card ids]}.
    shown: dict = field(default_factory=dict)
    since: int = 0
    # Bargaining (see inspection.py): merchants who made an offer or said "no offer",
    # sorted so that the order they spoke in leaves no trace; and whether its time is over.
    spoken: list = field(default_factory=list)
    bargaining_over: bool = False
    # Black Market: merchants who said they make no claim this round (sorted).
    declined: list = field(default_factory=list)


@dataclass
class BlackMarketStep:
    """Black Market: the last bag is decided while merchants who could claim have
    neither claimed nor declined; the inspection stays open for them alone. Their
    choices are sealed and resolve together, clockwise."""

    kind = "black_market"
    seats: list  # the merchants it waits for, clockwise
    choices: list  # per seat: None (awaited, or not in it), a card type, or "none"
    since: int = 0


@dataclass
class GameOver:
    kind = "game_over"
    scores: list
    since: int = 0


PHASES = {
    cls.kind: cls for cls in (Market, MarketTurn, Load, Inspection, BlackMarketStep, GameOver)
}
_FIELD_NAMES = {kind: tuple(f.name for f in fields(cls)) for kind, cls in PHASES.items()}


_JSON_SCALARS = frozenset((str, int, float, bool, type(None)))
_STRING_KEYS = {str}


def json_copy(data):
    """``json.loads(json.dumps(data))`` without the text in between: a deep copy of
    plain JSON data, tuples turned into lists. Anything else (a key that is not a
    string, a type JSON does not know) still goes through JSON, so it converts or
    fails exactly as the round trip does."""
    kind = type(data)
    if kind is dict:
        if set(map(type, data)) <= _STRING_KEYS:
            return {k: v if type(v) in _JSON_SCALARS else json_copy(v) for k, v in data.items()}
    elif kind is list or kind is tuple:
        return [v if type(v) in _JSON_SCALARS else json_copy(v) for v in data]
    elif kind in _JSON_SCALARS:
        return data
    return json.loads(json.dumps(data))


def phase_to_dict(phase) -> dict | None:
    if phase is None:
        return None
    # Phase fields hold plain JSON data only; callers copy when they need to.
    return {"kind": phase.kind, **{f.name: getattr(phase, f.name) for f in fields(phase)}}


def copy_phase(phase):
    """A copy of ``phase`` that evolving cannot change the original through. Its
    containers, and those directly inside them (an offer, a bag's Deputy calls), are
    new; deeper values (an offer's terms) are shared: event handlers only ever
    replace those, never change them in place (see events.py). A deep copy of the
    phase on every command was most of ``apply``'s time."""
    if phase is None:
        return None
    return type(phase)(
        **{name: _copy_two_levels(getattr(phase, name)) for name in _FIELD_NAMES[phase.kind]}
    )


def _copy_two_levels(value):
    kind = type(value)
    if kind is dict:
        return {key: _copy_one_level(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [_copy_one_level(item) for item in value]
    return value


def _copy_one_level(value):
    kind = type(value)
    if kind is dict:
        return dict(value)
    if kind is list or kind is tuple:
        return list(value)
    return value


def phase_from_dict(data: dict | None):
    if data is None:
        return None
    data = dict(data)
    return PHASES[data.pop("kind")](**data)


# --- the state ----------------------------------------------------------------


@dataclass
class State:
    config: GameConfig
    seed: str  # secret until the game ends; never in a view before then
    seed_sha256: str
    card_types: list  # card id -> card type name
    zones: dict  # zone name -> list of card ids, top last
    gold: list  # per seat
    round: int = 0
    sheriff: int | None = 0  # None with 6 players (Deputies)
    # per seat: rounds served as Sheriff, or as Deputy with 6 players
    sheriff_turns: list = field(default_factory=list)
    phase: object = None
    shuffles: int = 0  # shuffles done so far (names the next shuffle's stream)
    seq: int = 0  # events applied so far
    schema: int = SCHEMA_VERSION
    # Six players: this round's Deputies (first drawn first), the Deputy deck (seats,
    # top last), its shuffles so far, the Booty's gold and the gold that left the game.
    deputies: list = field(default_factory=list)
    deputy_deck: list = field(default_factory=list)
    deputy_shuffles: int = 0
    booty_gold: int = 0
    gold_out: int = 0
    # Black Market: values left per pile (top last), and per seat the cards claimed,
    # [{"type", "value", "round"}].
    black_market: dict = field(default_factory=dict)
    claims: list = field(default_factory=list)
    # Seats whose standing answer to the Black Market step is "claim when I can, else
    # no claim" (sorted; public: the table sees the step never waits for them).
    black_market_standing: list = field(default_factory=list)

    # -- convenient reads
    @property
    def players(self) -> int:
        return self.config.players

    def hand(self, seat: int) -> list:
        return self.zones[f"hand:{seat}"]

    def bag(self, seat: int) -> list:
        return self.zones[f"bag:{seat}"]

    def stand(self, seat: int) -> list:
        return self.zones[f"stand:{seat}"]

    def type_of(self, card_id: int) -> str:
        return self.card_types[card_id]

    def inspectors(self) -> list:
        """Who decides the bags this round: the Sheriff, or the two Deputies."""
        return list(self.deputies) if self.config.deputies else [self.sheriff]

    def is_inspector(self, seat) -> bool:
        return seat in self.inspectors()

    def first_inspector(self) -> int:
        """The Sheriff, or the first-drawn Deputy: play goes clockwise from their left."""
        return self.deputies[0] if self.config.deputies else self.sheriff

    def clockwise(self) -> list:
        """Every seat clockwise from the first inspector's left, the first inspector last."""
        n, first = self.players, self.first_inspector()
        return [(first + k) % n for k in range(1, n + 1)]

    def merchants(self) -> list:
        """Merchants clockwise, starting from the Sheriff's (first Deputy's) left."""
        inspectors = self.inspectors()
        return [seat for seat in self.clockwise() if seat not in inspectors]

    def claimed_this_round(self, seat: int) -> bool:
        return any(c["round"] == self.round for c in self.claims[seat]) if self.claims else False

    def is_over(self) -> bool:
        return isinstance(self.phase, GameOver)

    # -- copies, JSON, hash
    def clone(self) -> "State":
        """An independent copy: changing it in any way leaves this state as it was."""
        return self._copy(phase=phase_from_dict(json_copy(phase_to_dict(self.phase))))

    def working_copy(self) -> "State":
        """The copy ``apply`` evolves: like ``clone``, but sharing the phase's deeper
        values with this state (``copy_phase``), which only ``evolve`` may change."""
        return self._copy(phase=copy_phase(self.phase))

    def _copy(self, phase) -> "State":
        return State(
            config=self.config,
            seed=self.seed,
            seed_sha256=self.seed_sha256,
            card_types=self.card_types,  # never mutated after game start
            zones={name: list(cards) for name, cards in self.zones.items()},
            gold=list(self.gold),
            round=self.round,
            sheriff=self.sheriff,
            sheriff_turns=list(self.sheriff_turns),
            phase=phase,
            shuffles=self.shuffles,
            seq=self.seq,
            schema=self.schema,
            deputies=list(self.deputies),
            deputy_deck=list(self.deputy_deck),
            deputy_shuffles=self.deputy_shuffles,
            booty_gold=self.booty_gold,
            gold_out=self.gold_out,
            black_market={kind: list(values) for kind, values in self.black_market.items()},
            claims=[[dict(c) for c in seat] for seat in self.claims],
            black_market_standing=list(self.black_market_standing),
        )

    def to_dict(self) -> dict:
        return {
            "schema": self.schema,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "seed_sha256": self.seed_sha256,
            "card_types": list(self.card_types),
            "zones": {name: list(cards) for name, cards in sorted(self.zones.items())},
            "gold": list(self.gold),
            "round": self.round,
            "sheriff": self.sheriff,
            "sheriff_turns": list(self.sheriff_turns),
            "phase": json_copy(phase_to_dict(self.phase)),
            "shuffles": self.shuffles,
            "seq": self.seq,
            **self._extras(),
        }

    def _extras(self) -> dict:
        """Fields of the optional rules, only in games that use them (so the JSON of
        every other game keeps its shape)."""
        extras = {}
        if self.config.deputies:
            extras.update(
                deputies=list(self.deputies),
                deputy_deck=list(self.deputy_deck),
                deputy_shuffles=self.deputy_shuffles,
                booty_gold=self.booty_gold,
                gold_out=self.gold_out,
            )
        if self.config.black_market:
            extras.update(
                black_market={kind: list(values) for kind, values in self.black_market.items()},
                claims=[[dict(c) for c in seat] for seat in self.claims],
            )
            if self.black_market_standing:  # (games before it keep their JSON's shape)
                extras["black_market_standing"] = list(self.black_market_standing)
        return extras

    @classmethod
    def from_dict(cls, data: dict) -> "State":
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"unsupported state schema {data.get('schema')!r}")
        return cls(
            config=GameConfig.from_dict(data["config"]),
            seed=data["seed"],
            seed_sha256=data["seed_sha256"],
            card_types=list(data["card_types"]),
            zones={name: list(cards) for name, cards in data["zones"].items()},
            gold=list(data["gold"]),
            round=data["round"],
            sheriff=data["sheriff"],
            sheriff_turns=list(data["sheriff_turns"]),
            phase=phase_from_dict(json_copy(data["phase"])),  # shares nothing with ``data``
            shuffles=data["shuffles"],
            seq=data["seq"],
            schema=data["schema"],
            deputies=list(data.get("deputies", [])),
            deputy_deck=list(data.get("deputy_deck", [])),
            deputy_shuffles=data.get("deputy_shuffles", 0),
            booty_gold=data.get("booty_gold", 0),
            gold_out=data.get("gold_out", 0),
            black_market={k: list(v) for k, v in data.get("black_market", {}).items()},
            claims=[[dict(c) for c in seat] for seat in data.get("claims", [])],
            black_market_standing=list(data.get("black_market_standing", [])),
        )

    def to_json(self) -> str:
        return canonical_json(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "State":
        return cls.from_dict(json.loads(text))

    def hash(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()


def canonical_json(data) -> str:
    """Byte-stable JSON: sorted keys, no spaces, ASCII only."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
