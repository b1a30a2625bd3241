"""The move forms a seat is offered: exactly the moves its view allows
(``view["my_moves"]``), each form's context by move type, the Sheriff's (or a
Deputy's) bag decisions and their confirmation step, and the one-time form keys.
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


def move_forms(view: dict, names: list, sent: dict | None = None) -> dict:
    """Form contexts for exactly the moves in view["my_moves"], by move type;
    the form of a refused move (``sent``) filled in again as it was sent."""
    me = view["me"]["seat"]
    forms: dict = {}
    for move in view["my_moves"]["moves"]:
        kind = move["type"]
        again = sent if refused_here(sent, kind) else NOT_SENT
        typed = again["fields"]
        hand = [dict(c, checked=c["id"] in again["cards"]) for c in cards(view["me"]["hand"])]
        if kind == "set_aside":
            forms[kind] = {"max_cards": move["max_cards"], "hand": hand}
        elif kind == "market_turn":
            forms[kind] = {
                "max_cards": move["max_cards"],
                "hand": hand,
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
        elif kind == "load_bag":
            forms[kind] = {
                "hand": hand,
                "min_cards": move["min_cards"],
                "max_cards": move["max_cards"],
                "legal_types": [(name, label(name)) for name in LEGAL_TYPES],
                "declared": typed.get("declared", ""),
            }
        elif kind == "say_no_offer":
            forms[kind] = True
        elif kind == "make_offer":
            forms[kind] = []
            for to in move["to"]:
                refused = refused_here(sent, kind, to=to)
                terms = sent["terms"] if refused else None
                tf = terms_form(
                    view, names, proposer=me, recipient=to, terms=terms, joint=move.get("joint")
                )
                if not tf["actions"]:
                    continue  # every bag it could name is called already: nothing to offer
                joint_again = refused and sent["fields"].get("joint") == "yes"
                forms[kind].append(dict(tf, again=refused, joint_again=joint_again))
        elif kind == "accept_offer":
            forms[kind] = {o["offer"]: o["revision"] for o in move["offers"]}
        elif kind in ("revise_offer", "withdraw_offer", "refuse_offer"):
            forms[kind] = set(move["offers"])
        elif kind == "claim_black_market":
            forms[kind] = claim_form(view, move, typed)
        elif kind == "decline_black_market":
            forms[kind] = {"ahead": move.get("ahead", False)}
    if view["phase"]["kind"] == "inspection" and bags_to_call(view, me):
        forms["decide"] = decide_form(view, names)
    return forms


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


# How the 1st-edition Sheriff stacks confiscated goods (forms.ORDERS), as a page says it.
ORDER_WORDS = {
    "lowest_on_top": gettext_lazy("the lowest value on top"),
    "highest_on_top": gettext_lazy("the highest value on top"),
}
