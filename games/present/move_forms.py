"""The form a seat is offered for each move: one function per move (the moves
registry, games.present.moves, says which move uses which), the Sheriff's (or a
Deputy's) bag decisions and their confirmation step, and the one-time form keys.
A refused form comes back filled in as it was sent.
"""

import secrets

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.engine import LEGAL_TYPES
from games.present.cards import cards, declaration_text, label
from games.present.offers import NOT_SENT, refused_here, terms_form
from games.present.roles import bags_to_call, call_of, partner, undecided_bags, waiting_to_speak
from games.present.seat_table import CALL_WORDS


class FormKeys:
    """One-time keys for the page's forms: a random base per rendering, and a
    different key for each form (``{{ keys.next }}`` in a template)."""

    def __init__(self):
        self.base = secrets.token_urlsafe(16)
        self.count = 0

    @property
    def next(self) -> str:
        self.count += 1
        return f"{self.base}.{self.count}"


def _typed(sent: dict | None, kind: str) -> dict:
    """The refused form ``sent`` if it was this move's, else an empty one."""
    return sent if refused_here(sent, kind) else NOT_SENT


def _hand(view: dict, again: dict) -> list:
    """The seat's hand, each card ticked as the refused form had it."""
    return [dict(c, checked=c["id"] in again["cards"]) for c in cards(view["me"]["hand"])]


# --- one form per move: (view, names, move, sent) -> the form's context ------------------


def set_aside_form(view: dict, names: list, move: dict, sent: dict | None) -> dict:
    return {"max_cards": move["max_cards"], "hand": _hand(view, _typed(sent, move["type"]))}


def market_turn_form(view: dict, names: list, move: dict, sent: dict | None) -> dict:
    again = _typed(sent, move["type"])
    typed = again["fields"]
    return {
        "max_cards": move["max_cards"],
        "hand": _hand(view, again),
        "piles": [
            {
                "index": index,
                "number": index + 1,
                "size": len(pile),
                "cards": cards(pile),
                "max": min(len(pile), move["max_cards"]),
                "taken": typed.get(f"from_pile_{index}", "0"),
                "chosen": typed.get("pile", "0") == str(index),
            }
            for index, pile in enumerate(view["discard_piles"])
        ],
        "top": typed.get("top", ""),
    }


def load_bag_form(view: dict, names: list, move: dict, sent: dict | None) -> dict:
    again = _typed(sent, move["type"])
    return {
        "hand": _hand(view, again),
        "min_cards": move["min_cards"],
        "max_cards": move["max_cards"],
        "legal_types": [(name, label(name)) for name in LEGAL_TYPES],
        "declared": again["fields"].get("declared", ""),
    }


def say_no_offer_form(view: dict, names: list, move: dict, sent: dict | None) -> bool:
    return True


def make_offer_form(view: dict, names: list, move: dict, sent: dict | None) -> list:
    """One offer form per seat the offer may be made to (or "deputies")."""
    me, kind = view["me"]["seat"], move["type"]
    forms = []
    for to in move["to"]:
        refused = refused_here(sent, kind, to=to)
        terms = sent["terms"] if refused else None
        tf = terms_form(
            view, names, proposer=me, recipient=to, terms=terms, joint=move.get("joint")
        )
        if not tf["actions"]:
            continue  # every bag it could name is called already: nothing to offer
        joint_again = refused and sent["fields"].get("joint") == "yes"
        forms.append(dict(tf, again=refused, joint_again=joint_again))
    return forms


def accept_offer_form(view: dict, names: list, move: dict, sent: dict | None) -> dict:
    """Offer id -> the revision that may be accepted (the offers panel's buttons)."""
    return {o["offer"]: o["revision"] for o in move["offers"]}


def offer_ids_form(view: dict, names: list, move: dict, sent: dict | None) -> set:
    """The offers this move may be made on (the offers panel's buttons)."""
    return set(move["offers"])


def claim_black_market_form(view: dict, names: list, move: dict, sent: dict | None) -> dict:
    return claim_form(view, move, _typed(sent, move["type"])["fields"])


def decline_black_market_form(view: dict, names: list, move: dict, sent: dict | None) -> dict:
    return {"ahead": move.get("ahead", False)}


def decide_forms(view: dict, names: list) -> dict:
    """The Sheriff's (a Deputy's) bags, as one form: {"decide": ...}, or {} when
    this seat has no bag to decide now."""
    if view["phase"]["kind"] == "inspection" and bags_to_call(view, view["me"]["seat"]):
        return {"decide": decide_form(view, names)}
    return {}


def decide_form(view: dict, names: list) -> dict:
    """Every bag still to decide: its buttons, or whom it waits for (bargaining);
    for a Deputy, the other Deputy's call beside it."""
    me = view["me"]["seat"]
    waiting = set(waiting_to_speak(view))
    other = partner(view, me)
    return {
        "first_edition": view["config"]["edition"] == engine.FIRST_EDITION,
        "deputy": other is not None,
        "partner": names[other] if other is not None else "",
        "bags": [
            {
                "seat": seat,
                "name": names[seat],
                "declaration": declaration_text(view["players"][seat].get("declaration")),
                "locked": seat in waiting,
                "partner_call": call_of(view, seat, other) if other is not None else None,
            }
            for seat in bags_to_call(view, me)
        ],
        # A Deputy's calls so far on bags the other Deputy has still to call.
        "called": [
            {"name": names[seat], "call": CALL_WORDS[call_of(view, seat, me)]}
            for seat in undecided_bags(view)
            if other is not None and call_of(view, seat, me) is not None
        ],
    }


def claim_form(view: dict, move: dict, typed: dict) -> dict:
    """The Black Market claim: the piles this seat's stand can pay for (3 contraband
    of the pile's kind), each with the value of its top card."""
    piles = view["black_market"]["piles"]
    return {
        "kinds": [
            {
                "kind": kind,
                "label": label(kind),
                "value": piles[kind][-1],
                "chosen": typed.get("kind") == kind,
            }
            for kind in move.get("kinds", [])
            if piles[kind]
        ],
        "provisional": view["black_market"]["provisional"],
        "sealed": view["phase"]["kind"] == "black_market",
    }


CONFIRM = {
    "pass": (
        "pass_bag",
        gettext_lazy("Let %(name)s's bag pass?"),
        gettext_lazy("Yes, let it pass"),
    ),
    "inspect": (
        "inspect_bag",
        gettext_lazy("Inspect %(name)s's bag?"),
        gettext_lazy("Yes, inspect it"),
    ),
}


def confirmation(decide: dict | None, asked: dict | None) -> dict | None:
    """The decision the Sheriff asked for, to confirm before it is final; None when
    nothing (or nothing valid now) was asked. Input comes from the query string."""
    if not decide or not asked or asked.get("decide") not in CONFIRM:
        return None
    bag = next((b for b in decide["bags"] if str(b["seat"]) == asked.get("bag")), None)
    if bag is None or bag["locked"]:
        return None
    move, question, button = CONFIRM[asked["decide"]]
    chooses = decide["first_edition"] and move == "inspect_bag"
    pile = asked.get("pile") if chooses else None
    order = asked.get("order") if chooses else None
    return {
        "move": move,
        "bag": bag,
        "question": question % {"name": bag["name"]},
        "button": str(button),
        "pile": pile if pile in ("0", "1") else None,
        "order": order if order in ORDER_WORDS else None,
        "order_words": str(ORDER_WORDS.get(order, "")),
        "deputies": deputy_outcome(decide, bag, asked["decide"]),
    }


def deputy_outcome(decide: dict, bag: dict, mine: str) -> str:
    """For a Deputy confirming a call: what it does with the other Deputy's call."""
    if not decide["deputy"]:
        return ""
    theirs = bag["partner_call"]
    partner_name = {"name": decide["partner"]}
    if theirs is None:
        text = _("%(name)s has not called this bag yet; the bag is decided once both have.")
    elif mine == theirs == "pass":
        text = _("%(name)s called “let pass”: the bag passes.")
    elif mine == theirs == "inspect":
        text = _("%(name)s called “inspect”: you inspect it together.")
    elif mine == "inspect":
        text = _("%(name)s called “let pass”: you inspect it alone, and pay or receive alone.")
    else:
        text = _("%(name)s called “inspect”: %(name)s inspects it alone.")
    return text % partner_name


# How the 1st-edition Sheriff stacks confiscated goods (move_fields.ORDERS), as a page says it.
ORDER_WORDS = {
    "lowest_on_top": gettext_lazy("the lowest value on top"),
    "highest_on_top": gettext_lazy("the highest value on top"),
}
