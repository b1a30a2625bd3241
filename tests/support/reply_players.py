"""Players who play a whole game by replies alone, each writing a line its email
listed (games.present.reply_commands.listed): set aside or keep, load the first
cards declaring their first card's goods if legal, sometimes an offer, else "no
offer"; pass, inspect or accept; claim from the Black Market or not."""

import random

from games import engine
from games.present import reply_commands

LEGAL = ("apples", "cheese", "bread", "chicken")


def choose(view: dict, names: list, rnd: random.Random) -> str | None:
    """What the seat of ``view`` replies; None if its list has nothing that moves
    the game on."""
    listed = reply_commands.listed(view, names)
    if any(line.startswith("load ") for line in listed):
        hand = view["me"]["hand"]
        count = rnd.randint(1, min(5, len(hand)))
        kind = hand[0]["type"] if hand[0]["type"] in LEGAL else "cheese"
        cards = " ".join(str(n) for n in range(1, count + 1))
        return f"load {cards} declare {count} {kind}"
    accepting = [line for line in listed if line.startswith("accept ")]
    if accepting and rnd.random() < 0.6:
        return rnd.choice(accepting)
    decisions = [line for line in listed if line.startswith(("pass ", "inspect "))]
    if decisions:
        return rnd.choice(decisions)
    offers = [line for line in listed if line.startswith("offer ")]
    if offers and "no offer" in listed and rnd.random() < 0.3:
        return rnd.choice(offers)
    if "no offer" in listed:  # a claim can wait; the Sheriff waits for this word
        return "no offer"
    simple = [
        line
        for line in listed
        if line in ("keep", "no claim") or line.startswith(("set aside", "claim "))
    ]
    return rnd.choice(simple) if simple else None


def next_reply(state, names: list, rnd: random.Random) -> tuple | None:
    """(seat, text): a seat the phase waits for that a reply can move now, else a
    merchant whose word the Sheriff waits for in the bargaining (an offer or "no
    offer"). None when only the bargaining time's end can move the game on (every
    merchant has spoken and an offer lapsed)."""
    actions = engine.actions(state)
    chosen = {i: choose(engine.view_for(state, i), names, rnd) for i in actions}
    able = [i for i, action in actions.items() if action["must_act"] and chosen[i]]
    able = able or [i for i in actions if (chosen[i] or "").startswith(("no offer", "offer "))]
    if not able:
        assert state.phase.kind == "inspection" and not state.phase.bargaining_over, actions
        return None
    return able[0], chosen[able[0]]
