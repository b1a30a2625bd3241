"""The bargaining panel: offers and demands with the buttons a seat may use on
them, the form that writes an offer's terms, and the deals made this round.
A refused form comes back filled in as it was sent (``refused_here``).
"""

from collections import Counter

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games import engine
from games.engine import CARD_TYPES
from games.engine.inspection import MAX_OFFER_MOVES
from games.present.cards import card_type, declaration_text
from games.present.roles import (
    DEPUTIES,
    YOU,
    YOU_AFTER,
    bound_by,
    call_of,
    deputies,
    inspectors,
    is_inspector,
    partner,
    undecided_bags,
)
from games.words import refusal_messages
from games.words.narrate import deal_parties, from_the_bag, listed, terms_parts

# An offer's status, as its tag says it.
STATUS_LABELS = {
    "open": pgettext_lazy("an offer", "open"),
    "accepted": pgettext_lazy("an offer", "accepted"),
    "withdrawn": pgettext_lazy("an offer", "withdrawn"),
    "lapsed": pgettext_lazy("an offer", "lapsed"),
    "refused": pgettext_lazy("an offer", "refused"),
}


NOT_SENT = {"cards": frozenset(), "fields": {}, "terms": {}}


def refused_here(sent: dict | None, move: str, **fields) -> bool:
    """Is the refused form ``sent`` this form: the same move and these fields?"""
    if not sent or sent["move"] != move:
        return False
    return all(sent["fields"].get(name) == str(value) for name, value in fields.items())


def terms_form(
    view: dict,
    names: list,
    *,
    proposer: int,
    recipient,
    terms: dict | None = None,
    joint: bool | None = None,
    binds: list | None = None,
) -> dict:
    """The fields of an offer (new, or a revision prefilled with ``terms``).
    ``recipient``: a seat, or "deputies" (both Deputies). ``joint``: a Deputy's
    demand may be made for both Deputies (None: not a choice here). ``binds``:
    the inspectors a revised offer binds (a new one: worked out here)."""
    me = view["me"]["seat"]
    demand = is_inspector(view, proposer)
    payer = recipient if demand else proposer
    payer_view = view["players"][payer]
    terms = terms or {}
    binds = binds or bound_by(view, recipient, proposer)
    if payer == me:  # a merchant may offer any card of their own stand
        stand = payer_view["stand"] + payer_view.get("contraband", [])
    else:  # the Sheriff may ask only for the merchant's face-up legal goods
        stand = payer_view["stand"]
    bag_max = 0
    if payer_view.get("bag_status") == "waiting":
        bag_max = payer_view["declaration"]["count"]
    promised = terms.get("bag_goods", {})
    bag_types = [
        {**card_type(name), "name": name, "value": promised.get(name, 0)}
        for name, kind in CARD_TYPES.items()
        if kind.kind != "royal" or view["config"]["royal_goods"]
    ]
    chosen_actions = {a["bag"]: a for a in terms.get("sheriff", [])}
    first_edition = view["config"]["edition"] == engine.FIRST_EDITION
    actions = []
    for seat in undecided_bags(view):
        if any(call_of(view, seat, d) is not None for d in binds):
            continue  # a Deputy's call is final: no deal can bind it again
        given = chosen_actions.get(seat)
        if given:
            selected = given["action"]
        elif not terms and seat == payer:
            selected = "pass"  # a merchant's own bag defaults to "pass"
        else:
            selected = ""
        actions.append(
            {
                "seat": seat,
                "name": names[seat],
                "is_mine": seat == me,
                # Raw (names isolated): the template escapes it (|bdi).
                "label": (
                    _("Your bag")
                    if seat == me
                    else pgettext("a form label", "%(name)s's bag")
                    % {"name": capfirst(names[seat])}
                ),
                "declaration": declaration_text(view["players"][seat].get("declaration")),
                "selected": selected,
                "pile": (given or {}).get("pile", 0),
            }
        )
    return {
        "to": recipient,
        "to_name": str(THE_DEPUTIES) if recipient == DEPUTIES else names[recipient],
        "payer": payer,
        "payer_is_me": payer == me,
        "payer_name": str(YOU) if payer == me else names[payer],
        "payer_gold": payer_view["gold"],
        "is_demand": demand,
        "who_acts": who_acts(view, names, binds, me),
        "joint": joint,
        "joint_partner": names[partner(view, me)] if joint else "",
        "gold": terms.get("gold", 0),
        "stand_kinds": stand_kinds(stand, terms),
        "bag_max": bag_max,
        "bag_types": bag_types,
        "bag_open": bool(promised),
        "promise": terms.get("promise", ""),
        "actions": actions,
        "piles": first_edition and demand,
    }


def stand_kinds(stand: list, terms: dict) -> list:
    """The kinds of goods on a stand that an offer may give, each with how many
    there are (``have``) and how many the terms give (``value``): a number field
    per kind, as goods of a kind are alike (the engine takes the first of them,
    ``stand_counts``). ``terms``: a revised offer's (cards by id) or a refused
    form's (counts as typed, ``stand_counts``)."""
    have = Counter(c["type"] for c in stand)
    given = Counter(c.get("type") for c in terms.get("stand_goods", []))
    typed = terms.get("stand_counts", {})
    return [
        {**card_type(kind), "name": kind, "have": have[kind], "value": typed.get(kind, given[kind])}
        for kind in CARD_TYPES  # the rulebook's order, as the bag's goods
        if have[kind]
    ]


THE_DEPUTIES = pgettext_lazy("an offer's recipient", "the Deputies")
# An "Accept this offer/demand" button's name for screen readers ends with whose offer it is,
# as a page may show several such buttons.
WHOSE_OFFER = gettext_lazy("%(who)s's offer #%(id)s")
WHOSE_DEMAND = gettext_lazy("%(who)s's demand #%(id)s")


def who_acts(view: dict, names: list, binds: list, me: int) -> str:
    """Who carries out a deal's passes and inspections ("the Sheriff", "Ann", ...)."""
    return deal_parties(names, me, binds if deputies(view) else None)[0]


def offer_cap(left: int | None, halted) -> str:
    """What the page says as a seat nears the most offers one may make or change in
    an inspection (the engine's MAX_OFFER_MOVES)."""
    if left is None or halted or left > 5:
        return ""
    if left == 0:
        return refusal_messages.text("offer_limit", {"count": MAX_OFFER_MOVES})
    return ngettext(
        "You may make or change %(count)s more offer this inspection.",
        "You may make or change %(count)s more offers this inspection.",
        left,
    ) % {"count": left}


def offers(view: dict, names: list, forms: dict, sent: dict | None = None) -> list:
    me = view["me"]["seat"]
    acceptable = forms.get("accept_offer", {})
    revisable = forms.get("revise_offer", set())
    withdrawable = forms.get("withdraw_offer", set())
    first_edition = view["config"]["edition"] == engine.FIRST_EDITION
    result = []
    for offer in sorted(view["offers"], key=lambda o: (o["status"] != "open", -o["id"])):
        oid = offer["id"]
        binds = offer.get("deputies") or inspectors(view)
        if offer["proposer"] == me:
            who = pgettext("who made an offer", "You")
        else:
            who = names[offer["proposer"]]
        is_demand = offer["proposer"] != offer["payer"]
        payer = str(YOU_AFTER) if offer["payer"] == me else names[offer["payer"]]
        paid = {"payer": payer, "payee": payee_name(view, names, binds, me)}
        entry = {
            "id": oid,
            "revision": offer["revision"],
            "status": offer["status"],
            "open": offer["status"] == "open",
            # Withdrawn and lapsed offers fold away: a page stays short after many.
            "live": offer["status"] in ("open", "accepted"),
            "status_text": str(STATUS_LABELS.get(offer["status"], offer["status"])),
            "heading": f"{who} → {recipient_name(offer, names, me)}",
            "kind": pgettext("an offer", "Demand") if is_demand else pgettext("an offer", "Offer"),
            # Said to screen readers beside each "Accept" and "Refuse": whose offer it is.
            "whose": (WHOSE_DEMAND if is_demand else WHOSE_OFFER) % {"who": who, "id": oid},
            "paid": _("Paid by %(payer)s to %(payee)s:") % paid,
            "acts": capfirst(_("%(who)s will:") % {"who": who_acts(view, names, binds, me)}),
            "terms": terms_parts(offer["terms"], names, me),
            "agreement": agreement(offer, names, me),
            "mine": offer["proposer"] == me,
            "to_me": offer["recipient"] == me or oid in acceptable,
            "can_accept": acceptable.get(oid) == offer["revision"],
            "can_withdraw": oid in withdrawable,
            "can_refuse": oid in forms.get("refuse_offer", set()),
            "is_demand": is_demand,
            # The Sheriff chooses the pile for goods confiscated by the deal (1st edition).
            "accept_pile": first_edition
            and view["sheriff"] == me
            and any(a["action"] == "inspect" for a in offer["terms"]["sheriff"]),
        }
        if oid in revisable:
            refused = refused_here(sent, "revise_offer", offer=oid)
            terms = sent["terms"] if refused else offer["terms"]
            tf = terms_form(
                view, names, proposer=me, recipient=offer["recipient"], terms=terms, binds=binds
            )
            entry["revise"] = dict(tf, again=refused)
        result.append(entry)
    return result


def recipient_name(offer: dict, names: list, me: int) -> str:
    """Whom an offer is made to; a Deputy's demand for both Deputies says so."""
    if offer["recipient"] == DEPUTIES:
        return str(THE_DEPUTIES)
    to = str(YOU_AFTER) if offer["recipient"] == me else names[offer["recipient"]]
    if len(offer.get("deputies", [])) == 2 and offer["proposer"] in offer["deputies"]:
        return _("%(recipient)s, for both Deputies") % {"recipient": to}
    return to


def payee_name(view: dict, names: list, binds: list, me: int) -> str:
    """Who is paid: the Sheriff, a Deputy, or the Booty (both Deputies)."""
    return deal_parties(names, me, binds if deputies(view) else None)[1]


def agreement(offer: dict, names: list, me: int) -> str:
    """Six players, an open offer needing several acceptances: who has accepted the
    current revision and who has still to."""
    if offer["status"] != "open" or len(offer.get("deputies", [])) < 2:
        return ""
    seats = sorted({offer["payer"], *offer["deputies"]} - {offer["proposer"]})
    name = {seat: str(YOU_AFTER) if seat == me else names[seat] for seat in seats}
    done = listed([name[s] for s in seats if s in offer.get("accepted", [])])
    left = listed([name[s] for s in seats if s not in offer.get("accepted", [])])
    if done:
        return _("Accepted by %(done)s; waiting for %(left)s to accept.") % {
            "done": done,
            "left": left,
        }
    return _("waiting for %(left)s to accept.") % {"left": left}


def deals(view: dict, names: list) -> list:
    me = view["me"]["seat"]
    offered = {o["id"]: o for o in view.get("offers", [])}
    result = []
    for d in view["deals"]:
        # With six players, the Deputies the deal binds are its offer's.
        binds = offered.get(d["offer"], {}).get("deputies") or inspectors(view)
        result.append(
            {
                "offer": d["offer"],
                "revision": d["revision"],
                "payer": str(YOU) if d["payer"] == me else names[d["payer"]],
                "who_acts": who_acts(view, names, binds, me),
                "terms": terms_parts(d["terms"], names, me),
                "said": deal_said(view, names, d, binds),
            }
        )
    return result


def deal_said(view: dict, names: list, deal: dict, binds: list) -> str:
    """A deal made this round, in a sentence: who paid what, what they promised from
    their bag (paid only when it passes, and only what is really in it), and what is
    done for it."""
    me = view["me"]["seat"]
    paid_now = terms_parts({**deal["terms"], "bag_goods": {}}, names, me)
    bag_goods = deal["terms"].get("bag_goods")
    values = {
        "payer": names[deal["payer"]],
        "gives": " + ".join(paid_now["gives"]),
        "bag": from_the_bag(bag_goods) if bag_goods else "",
        "who": who_acts(view, names, binds, me),
        "does": ", ".join(paid_now["does"]),
    }
    mine = deal["payer"] == me
    if bag_goods and paid_now["gives"]:
        if mine:
            said = _("you paid %(gives)s and promised %(bag)s; %(who)s will %(does)s.")
        else:
            said = _("%(payer)s paid %(gives)s and promised %(bag)s; %(who)s will %(does)s.")
    elif bag_goods:
        if mine:
            said = _("you promised %(bag)s; %(who)s will %(does)s.")
        else:
            said = _("%(payer)s promised %(bag)s; %(who)s will %(does)s.")
    elif paid_now["gives"]:
        if mine:
            said = _("you paid %(gives)s; %(who)s will %(does)s.")
        else:
            said = _("%(payer)s paid %(gives)s; %(who)s will %(does)s.")
    elif mine:
        said = _("you paid nothing; %(who)s will %(does)s.")
    else:
        said = _("%(payer)s paid nothing; %(who)s will %(does)s.")
    return said % values
