"""The bots' levels, each chosen by name (LEVELS): how a seat decides its next
command from what it may know (a ``Seen``), with its own seeded random source, so
that no decision is a fixed function of the view and a replay is exact.

- ``random``: any legal move, with random details: the baseline.
- ``honest``: declares truthfully, never bribes, inspects rarely.
- ``smuggler``: weighs each choice by its expected gold: loads contraband when the
  table's record of inspections makes it pay, bluffs at a tunable rate, bribes with
  gold, goods and promises; as an inspector it reads the declared count, the
  merchant's record of lies and the offers on the table, makes demands and takes
  the offers worth more than opening the bag.

``decide`` returns a command, or None when the bot chooses to wait (nothing it must
do now). The engine still judges every command; see docs/bots.md.
"""

import math
from collections import Counter

from games.engine import CARD_TYPES, LEGAL_TYPES
from games.engine.inspection import MAX_OPEN_OFFERS

from .record import Record

PROMISE = "I won't inspect you next time."
# The phases whose one move is the seat's own choice of cards: the market (or a 1st
# edition market turn) and loading the bag.
CARD_PHASES = ("market", "market_turn", "load")


def _value(card: dict) -> int:
    return CARD_TYPES[card["type"]].value


def _legal(card: dict) -> bool:
    return CARD_TYPES[card["type"]].is_legal


def _best_legal_type(hand: list) -> str:
    """The legal kind the hand holds most of (then the dearest), or the cheapest
    legal kind if it holds none."""
    counts = Counter(c["type"] for c in hand if _legal(c))
    if not counts:
        return min(LEGAL_TYPES, key=lambda t: CARD_TYPES[t].value)
    return max(counts, key=lambda t: (counts[t], CARD_TYPES[t].value))


def _offer(seen, offer_id: int) -> dict | None:
    return next((o for o in seen.view.get("offers", []) if o["id"] == offer_id), None)


def _undecided(seen, merchant: int, inspector=None) -> bool:
    """The merchant's bag is still open to a deal with ``inspector`` (a Deputy's
    seat, or DEPUTIES for both; with 6 players each Deputy calls it apart)."""
    player = seen.view["players"][merchant]
    if player.get("bag_status") != "waiting":
        return False
    deputies = seen.view.get("deputies")
    if not deputies or "calls" not in player:
        return True
    calls = dict(zip(deputies, player["calls"], strict=False))
    named = deputies if inspector is None or not isinstance(inspector, int) else [inspector]
    return all(calls.get(d) is None for d in named)


def _payable(seen, offer: dict) -> bool:
    """The offer's payer still holds the gold it names (every purse is public)."""
    return offer["terms"].get("gold", 0) <= seen.view["players"][offer["payer"]]["gold"]


def _is_inspector(seen) -> bool:
    me = seen.view["players"][seen.seat]
    return me["is_sheriff"] or me.get("is_deputy", False)


class Bot:
    """A level: ``decide(seen)`` -> command or None. Subclasses name a method per
    move type they play their own way; any other falls back to a random one."""

    name = ""
    acts_unasked = 0.3  # the chance of an optional move (an offer) when not awaited

    def __init__(self, rnd):
        self.rnd = rnd

    def decide(self, seen) -> dict | None:
        if not seen.moves:
            return None
        if not seen.must_act and self.rnd.random() >= self.acts_unasked:
            return None
        kind = self.choose(seen)
        if kind is None:
            return None
        move = seen.move(kind)
        build = getattr(self, kind, None) or getattr(self, "random_" + kind)
        command = build(seen, move)
        return None if command is None else {"type": kind, "seat": seen.seat, **command}

    def choose(self, seen) -> str | None:
        return self.rnd.choice(seen.moves)["type"]

    # --- random details for every move type -------------------------------------------

    def _some(self, cards: list, low: int, high: int) -> list:
        high = min(high, len(cards))
        return self.rnd.sample(cards, self.rnd.randint(min(low, high), high))

    def random_set_aside(self, seen, move):
        cards = self._some([c["id"] for c in seen.hand], 0, move["max_cards"])
        return {"cards": cards}

    def random_market_turn(self, seen, move):
        cards = self._some([c["id"] for c in seen.hand], 0, move["max_cards"])
        return {"cards": cards, "draws": ["deck"] * len(cards), "pile": 0}

    def random_load_bag(self, seen, move):
        cards = self._some(seen.hand, move["min_cards"], move["max_cards"])
        declared = self.rnd.choice(LEGAL_TYPES)
        return {"cards": [c["id"] for c in cards], "declared": declared, "count": len(cards)}

    def random_make_offer(self, seen, move):
        to = self.rnd.choice(move["to"])
        return self._offer_to(seen, move, to, gold=self.rnd.randint(0, min(seen.gold, 6)))

    def _offer_to(self, seen, move, to, gold: int, action: str = "pass", **extra):
        """An offer (a bribe from a merchant, a demand from an inspector) on the
        merchant's bag: ``gold`` paid by the merchant, the bag passed or inspected."""
        inspector = _is_inspector(seen)
        merchant, deputy = (to, seen.seat) if inspector else (seen.seat, to)
        if not isinstance(merchant, int) or not _undecided(seen, merchant, deputy):
            return None
        open_offers = [
            o for o in seen.view.get("offers", [])
            if o["proposer"] == seen.seat and o["status"] == "open"
        ]  # fmt: skip
        if len(open_offers) >= MAX_OPEN_OFFERS or seen.view.get("offer_moves_left", 1) <= 0:
            return None
        payer_gold = seen.view["players"][merchant]["gold"]
        terms = {"gold": min(gold, payer_gold), "sheriff": [{"bag": merchant, "action": action}]}
        command = {"to": to, "terms": {**terms, **extra}}
        if "joint" in move:
            command["joint"] = False
        return command

    def random_revise_offer(self, seen, move):
        offer = _offer(seen, self.rnd.choice(move["offers"]))
        if offer is None:
            return None
        payer_gold = seen.view["players"][offer["payer"]]["gold"]
        terms = dict(offer["terms"], gold=self.rnd.randint(0, min(6, payer_gold)))
        terms.pop("stand_goods", None)
        return {"offer": offer["id"], "terms": terms}

    def random_withdraw_offer(self, seen, move):
        return {"offer": self.rnd.choice(move["offers"])}

    def random_accept_offer(self, seen, move):
        return {**self.rnd.choice(move["offers"]), "pile": 0}

    def random_refuse_offer(self, seen, move):
        return {"offer": self.rnd.choice(move["offers"])}

    def random_say_no_offer(self, seen, move):
        return {}

    def random_pass_bag(self, seen, move):
        return {"bag": self.rnd.choice(move["bags"])}

    def random_inspect_bag(self, seen, move):
        return {"bag": self.rnd.choice(move["bags"]), "pile": 0}

    def random_claim_black_market(self, seen, move):
        return {"kind": self.rnd.choice(move["kinds"])}

    def random_decline_black_market(self, seen, move):
        return {}


class RandomBot(Bot):
    name = "random"


class HonestTrader(Bot):
    """Truthful bags, no bribes; as an inspector, a rare look and any gold taken."""

    name = "honest"
    acts_unasked = 0.0
    inspects = 0.1

    def choose(self, seen) -> str | None:
        kinds = [m["type"] for m in seen.moves]
        if seen.phase in CARD_PHASES:
            return kinds[0]
        if "accept_offer" in kinds and self._takes(seen):
            return "accept_offer"
        if "say_no_offer" in kinds:
            return "say_no_offer"
        if "refuse_offer" in kinds:
            return "refuse_offer"
        if "pass_bag" in kinds:
            return "inspect_bag" if self.rnd.random() < self.inspects else "pass_bag"
        if "decline_black_market" in kinds:
            return "decline_black_market"
        return None

    def _takes(self, seen) -> list:
        """The offers worth taking. As inspector: any gold. As merchant: a demand of
        at most 1 gold, which it can pay."""
        taken = []
        for choice in seen.move("accept_offer")["offers"]:
            offer = _offer(seen, choice["offer"])
            if offer is None or not _payable(seen, offer):
                continue
            gold = offer["terms"].get("gold", 0)
            if gold > 0 if _is_inspector(seen) else gold <= 1:
                taken.append(choice)
        return taken

    def set_aside(self, seen, move):
        return {"cards": self._discards(seen, move["max_cards"])}

    def market_turn(self, seen, move):
        cards = self._discards(seen, move["max_cards"])
        return {"cards": cards, "draws": ["deck"] * len(cards), "pile": 0}

    def _discards(self, seen, most: int) -> list:
        """Everything but the kind worth declaring: the cheapest first."""
        keep = self._keeps(seen)
        others = [c for c in seen.hand if c["type"] not in keep]
        self.rnd.shuffle(others)  # equal values in any order
        others.sort(key=_value)
        # Now and then a card kept that might have gone: not the same hand every time.
        count = min(most, len(others))
        if count and self.rnd.random() < 0.3:
            count -= 1
        return [c["id"] for c in others[:count]]

    def _keeps(self, seen) -> set:
        return {_best_legal_type(seen.hand)}

    def load_bag(self, seen, move):
        declared = _best_legal_type(seen.hand)
        cards = [c for c in seen.hand if c["type"] == declared][: move["max_cards"]]
        if not cards:  # a hand of contraband alone: the cheapest card, declared as bread
            cards = sorted(seen.hand, key=_value)[:1]
        return {"cards": [c["id"] for c in cards], "declared": declared, "count": len(cards)}

    def accept_offer(self, seen, move):
        return {**self._takes(seen)[0], "pile": 0}


class Smuggler(HonestTrader):
    """An expected-value player (see the module's note). ``bluff``: how often it
    smuggles or bribes against the odds."""

    name = "smuggler"
    acts_unasked = 0.5

    def __init__(self, rnd, bluff: float = 0.2):
        super().__init__(rnd)
        self.bluff = bluff

    # --- as a merchant ------------------------------------------------------------------

    def _keeps(self, seen) -> set:
        return {_best_legal_type(seen.hand)} | {c["type"] for c in seen.hand if not _legal(c)}

    def load_bag(self, seen, move):
        declared = _best_legal_type(seen.hand)
        legal = [c for c in seen.hand if c["type"] == declared][: move["max_cards"]]
        contraband = sorted((c for c in seen.hand if not _legal(c)), key=_value, reverse=True)
        room = move["max_cards"] - len(legal)
        smuggled = contraband[:room] if room > 0 else contraband[:1]
        if smuggled and room <= 0:
            legal = legal[:-1]
        p = Record(seen.log).inspection_rate()
        gain = sum(_value(c) for c in smuggled)
        risk = sum(CARD_TYPES[c["type"]].penalty for c in smuggled)
        honest_bonus = p * 2 * len(legal)  # the penalty an inspector pays for an honest bag
        worth = (1 - p) * gain - p * (risk + gain) > honest_bonus
        if smuggled and (worth or self.rnd.random() < self.bluff):
            cards = legal + smuggled
        else:
            cards = legal or sorted(seen.hand, key=_value)[:1]
        return {"cards": [c["id"] for c in cards], "declared": declared, "count": len(cards)}

    def _lying(self, seen) -> bool:
        declaration = seen.me.get("declaration") or {}
        return any(c["type"] != declaration.get("declared") for c in seen.me["bag"])

    def _at_risk(self, seen) -> int:
        """Gold lost if my bag is opened: the fine and the contraband's value."""
        declared = (seen.me.get("declaration") or {}).get("declared")
        wrong = [c for c in seen.me["bag"] if c["type"] != declared]
        return sum(CARD_TYPES[c["type"]].penalty + _value(c) for c in wrong)

    # --- as an inspector ----------------------------------------------------------------

    def _suspicion(self, seen, merchant: int) -> float:
        """The chance this merchant's bag holds a lie: the table's base rate, the
        merchant's own record, the declared count and whether they offered gold."""
        player = seen.view["players"][merchant]
        record = Record(seen.log)
        p = 0.5 * record.lie_rate() + 0.5 * record.lie_rate(merchant)
        count = (player.get("declaration") or {}).get("count", 0)
        p += 0.04 * max(0, count - 2)
        offered = any(
            o["proposer"] == merchant and o["payer"] == merchant
            for o in seen.view.get("offers", [])
        )
        if offered:
            p += 0.2
        return min(0.95, max(0.02, p))

    def _inspection_worth(self, seen, merchant: int) -> float:
        """Expected gold of opening the bag: a fine if it lies, a penalty if not."""
        count = (seen.view["players"][merchant].get("declaration") or {}).get("count", 1)
        p = self._suspicion(seen, merchant)
        return p * 3 * count - (1 - p) * 2 * count

    def choose(self, seen) -> str | None:
        kinds = [m["type"] for m in seen.moves]
        if seen.phase in CARD_PHASES:
            return kinds[0]
        if "claim_black_market" in kinds:
            return "claim_black_market"
        if "decline_black_market" in kinds:
            return "decline_black_market"
        if _is_inspector(seen):
            return self._choose_as_inspector(seen, kinds)
        return self._choose_as_merchant(seen, kinds)

    def _choose_as_merchant(self, seen, kinds) -> str | None:
        if "accept_offer" in kinds:  # a demand: pay it if it costs less than the risk
            return "accept_offer" if self._affordable_demands(seen) else "refuse_offer"
        mine = [o for o in seen.view.get("offers", []) if o["proposer"] == seen.seat]
        tempted = self._lying(seen) or self.rnd.random() < self.bluff / 2
        if "make_offer" in kinds and not mine and tempted:
            return "make_offer"
        if "say_no_offer" in kinds:
            return "say_no_offer"
        return None

    def _affordable_demands(self, seen) -> list:
        """The demands open to me that cost less than the risk and that I can pay."""
        risk = self._at_risk(seen) * 0.7
        found = []
        for choice in seen.move("accept_offer")["offers"]:
            offer = _offer(seen, choice["offer"])
            gold = offer["terms"].get("gold", 0) if offer else None
            if gold is not None and gold <= min(risk, seen.gold):
                found.append((gold, choice))
        return [choice for _gold, choice in sorted(found, key=lambda pair: pair[0])]

    def make_offer(self, seen, move):
        to = self._inspector_to(seen, move)
        if _is_inspector(seen):
            worth = self._inspection_worth(seen, to)
            return self._offer_to(seen, move, to, gold=max(1, round(worth)))
        at_risk = self._at_risk(seen)
        gold = max(1, math.ceil(at_risk * self.rnd.uniform(0.3, 0.6)))
        extra = {}
        if gold > seen.gold:  # short of gold: some goods from the stand
            stand = sorted(seen.view["players"][seen.seat]["stand"], key=_value)
            extra["stand_goods"] = [c["id"] for c in stand[:1]]
        if self.rnd.random() < 0.3:
            extra["promise"] = PROMISE
        return self._offer_to(seen, move, to, gold=min(gold, seen.gold), **extra)

    def _inspector_to(self, seen, move):
        targets = [t for t in move["to"] if isinstance(t, int)] or move["to"]
        if _is_inspector(seen):  # demand of the most suspect merchant still waiting
            waiting = [m for m in targets if isinstance(m, int) and _undecided(seen, m, seen.seat)]
            return max(waiting or targets, key=lambda m: self._inspection_worth(seen, m))
        return self.rnd.choice(targets)

    def _choose_as_inspector(self, seen, kinds) -> str | None:
        if "accept_offer" in kinds and self._bribe_worth_taking(seen):
            return "accept_offer"
        if "refuse_offer" in kinds and seen.must_act:
            return "refuse_offer"
        mine = [o for o in seen.view.get("offers", []) if o["proposer"] == seen.seat]
        if "make_offer" in kinds and not mine and self.rnd.random() < 0.5:
            return "make_offer"
        if "pass_bag" in kinds:
            bag = self._next_bag(seen)
            hunch = self.rnd.gauss(0, 1.5)  # a read of the merchant's face
            return "inspect_bag" if self._inspection_worth(seen, bag) + hunch > 0 else "pass_bag"
        return None

    def _bribe_worth_taking(self, seen) -> bool:
        for choice in seen.move("accept_offer")["offers"]:
            offer = _offer(seen, choice["offer"])
            if offer is None or not _payable(seen, offer):
                continue
            merchant = offer["payer"]
            if offer["terms"].get("gold", 0) >= self._inspection_worth(seen, merchant):
                return True
        return False

    def accept_offer(self, seen, move):
        if not _is_inspector(seen):  # the cheapest demand worth paying
            return {**self._affordable_demands(seen)[0], "pile": 0}

        def gold(choice):
            offer = _offer(seen, choice["offer"])
            return offer["terms"].get("gold", 0) if offer and _payable(seen, offer) else -1

        return {**max(move["offers"], key=gold), "pile": 0}

    def _next_bag(self, seen) -> int:
        return seen.move("pass_bag")["bags"][0]

    def pass_bag(self, seen, move):
        return {"bag": self._next_bag(seen)}

    def inspect_bag(self, seen, move):
        return {"bag": self._next_bag(seen), "pile": 0}


LEVELS = {bot.name: bot for bot in (RandomBot, HonestTrader, Smuggler)}


def bot(level: str, rnd):
    """The bot of ``level`` (a name of LEVELS) with its random source; ValueError
    for a level that does not exist."""
    try:
        return LEVELS[level](rnd)
    except KeyError:
        raise ValueError(f"no bot level {level!r}: one of {', '.join(LEVELS)}") from None
