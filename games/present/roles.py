"""Who inspects this round, as a seat's view tells it.

With 3 to 5 players one Sheriff decides the bags; with 6 (2nd edition) two
Deputies call each bag and there is no Sheriff. Pages and emails ask these
helpers instead of reading ``view["sheriff"]``, so both tables read the same
way everywhere. Only the view is read, never the state. Whom the table waits for (undecided
bags, merchants still to speak) is told here too, for the same reason.
"""

from django.utils.translation import pgettext_lazy

DEPUTIES = "deputies"  # an offer's recipient when it is made to both Deputies
# The reader, where a sentence names them among others: "Waiting for: Ann, you".
YOU = pgettext_lazy("subject", "you")
YOU_AFTER = pgettext_lazy("after a preposition", "you")


def deputies(view: dict) -> list:
    """This round's Deputies, the first drawn first ([] with a Sheriff)."""
    return list(view.get("deputies") or [])


def inspectors(view: dict) -> list:
    """The seats that decide the bags this round: the Sheriff, or the two Deputies."""
    return [view["sheriff"]] if view["sheriff"] is not None else deputies(view)


def is_inspector(view: dict, seat) -> bool:
    return seat in inspectors(view)


def merchants(view: dict) -> list:
    """Merchant seats clockwise from the left of the Sheriff (or of the first-drawn
    Deputy), skipping the inspectors: the order bags are listed and resolved in."""
    n = len(view["players"])
    first = inspectors(view)[0]
    skip = set(inspectors(view))
    return [s for s in ((first + i) % n for i in range(1, n)) if s not in skip]


def partner(view: dict, seat: int) -> int | None:
    """The other Deputy, for a Deputy; None otherwise."""
    pair = deputies(view)
    return pair[1 - pair.index(seat)] if seat in pair else None


def call_of(view: dict, bag: int, deputy: int):
    """A Deputy's call on a merchant's bag: None (not yet), "pass" or "inspect"."""
    calls = view["players"][bag].get("calls")
    if not calls or deputy not in deputies(view):
        return None
    return calls[deputies(view).index(deputy)]


def bound_by(view: dict, recipient, proposer: int, *, joint: bool = False) -> list:
    """The inspectors an offer binds: with a Sheriff, the Sheriff; with Deputies,
    the Deputy it is made to or by, or both (``"deputies"``, or a joint demand)."""
    if view["sheriff"] is not None:
        return [view["sheriff"]]
    if recipient == DEPUTIES or joint:
        return deputies(view)
    return [proposer if proposer in deputies(view) else recipient]


def waiting_to_speak(view: dict) -> list:
    """Merchants the Sheriff waits for before deciding their bag (bargaining)."""
    if view["phase"]["kind"] != "inspection" or view.get("bargaining_over"):
        return []
    return [s for s in undecided_bags(view) if not view["players"][s].get("spoken")]


def bags_to_call(view: dict, seat: int) -> list:
    """The undecided bags this seat has still to decide (with 6 players: to call)."""
    if not is_inspector(view, seat):
        return []
    if not deputies(view):
        return undecided_bags(view)
    return [b for b in undecided_bags(view) if call_of(view, b, seat) is None]


def undecided_bags(view: dict) -> list:
    return [s for s in merchants(view) if view["players"][s].get("bag_status") == "waiting"]
