"""Presentation helpers for the seat page.

Everything here reads only a seat's view (``engine.view_for``) and its
projected log, never the raw state, so nothing the seat may not see can reach
the page. Card ids appear only where the page's own forms need them (the
viewer's hand, bag-free stand goods it may offer or ask for).
"""

import hashlib
import secrets
import threading
from collections import OrderedDict
from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.timesince import timeuntil
from django.utils.translation import (
    get_language,
    gettext_lazy,
    ngettext,
    pgettext,
    pgettext_lazy,
)
from django.utils.translation import gettext as _

from games import engine
from games.engine import CARD_TYPES, LEGAL_TYPES
from games.engine.cards import BLACK_MARKET_CLAIM
from games.engine.inspection import OFFER_LIMIT
from games.present.roles import (
    DEPUTIES,
    bound_by,
    call_of,
    deputies,
    inspectors,
    is_inspector,
    merchants,
    partner,
)
from games.words import goods_names, refusal_messages
from games.words.i18n import kept_per_language
from games.words.narrate import (
    Narrator,
    counted,
    deal_parties,
    from_the_bag,
    goods,
    idle_for,
    listed,
    terms_parts,
)

LOG_LINES = 40
LOG_PAGE_LINES = 100  # the whole log is read a page at a time: a page stays small
_ORDER = {name: i for i, name in enumerate(CARD_TYPES)}
# What a seat's move asks for, by phase: the preheader, the line mail apps show first.
ASKS = {
    "market": pgettext_lazy("what a move asks", "choose the cards to set aside"),
    "market_turn": pgettext_lazy("what a move asks", "take your market turn"),
    "load": pgettext_lazy("what a move asks", "load your bag and declare it"),
    "inspection": pgettext_lazy("what a move asks", "decide the bags"),
    "black_market": pgettext_lazy("what a move asks", "claim from the Black Market or pass"),
}
PHASE_TITLES = {
    "market": pgettext_lazy("a phase", "Market"),
    "market_turn": pgettext_lazy("a phase", "Market"),
    "load": pgettext_lazy("a phase", "Load your bag and declare"),
    "inspection": pgettext_lazy("a phase", "Inspection"),
    "black_market": pgettext_lazy("a phase", "Black Market"),
    "game_over": pgettext_lazy("a phase", "Game over"),
}
# Legal or contraband is told by a symbol and a word, never by colour alone.
KINDS = {
    "legal": ("✓", pgettext_lazy("a kind of goods", "legal goods")),
    "contraband": ("✗", pgettext_lazy("a kind of goods", "contraband")),
    "royal": ("♛", pgettext_lazy("a kind of goods", "royal goods (contraband)")),
}


def kinds_legend() -> str:
    """ "✓ legal goods · ✗ contraband · ♛ royal goods (contraband)", in the reader's language."""
    return " · ".join(f"{mark} {name}" for mark, name in KINDS.values())


KINDS_LEGEND = lazy(kinds_legend, str)()  # evaluated where it is shown
# An offer's status, as its tag says it.
STATUS_LABELS = {
    "open": pgettext_lazy("an offer", "open"),
    "accepted": pgettext_lazy("an offer", "accepted"),
    "withdrawn": pgettext_lazy("an offer", "withdrawn"),
    "lapsed": pgettext_lazy("an offer", "lapsed"),
    "refused": pgettext_lazy("an offer", "refused"),
}
# A bag on the table: waiting for its decision, or what was decided.
BAG_STATUS = {
    "waiting": pgettext_lazy("a bag", "waiting"),
    "passed": pgettext_lazy("a bag", "passed"),
    "inspected": pgettext_lazy("a bag", "inspected"),
}


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


# --- cards -----------------------------------------------------------------------------


def card(face: dict) -> dict:
    """A card the viewer may see: its id (for forms), label, kind, value and penalty."""
    return {"id": face["id"], **card_type(face["type"])}


def card_type(name: str) -> dict:
    """A kind of goods as the page and emails show it, its legality marked."""
    return dict(_card_type(name))  # a copy: callers may add to it


@kept_per_language(maxsize=256)
def _card_type(name: str) -> dict:
    kind = CARD_TYPES[name]
    mark, kind_name = KINDS[kind.kind]
    return {
        "type": kind.name,
        "label": goods_names.label(name),
        "kind": kind.kind,
        "mark": mark,
        "kind_name": str(kind_name),
        "value": kind.value,
        "penalty": kind.penalty,
    }


def cards(faces: list) -> list:
    return [card(f) for f in faces]


def grouped(types: list) -> list:
    """Type names -> [{"label", "count", "text", "kind", ...}], card-table order;
    "text" is the counted noun ("1 Chicken")."""
    counts: dict[str, int] = {}
    for name in types:
        counts[name] = counts.get(name, 0) + 1
    return [
        {**card_type(name), "count": n, "text": counted(n, name)}
        for name, n in sorted(counts.items(), key=lambda kv: _ORDER[kv[0]])
    ]


def goods_text(types: list) -> str:
    return goods(types)


def label(name: str) -> str:
    return goods_names.label(name)


def declaration_text(declaration: dict | None) -> str:
    if not declaration:
        return ""
    return counted(declaration["count"], declaration["declared"])


# --- the whole page --------------------------------------------------------------------


def seat_page(
    view: dict,
    names: list,
    *,
    game_name: str,
    log: list,
    log_all: bool,
    log_more: bool,
    log_next: int | None = None,
    deadline: dict | None,
    halted: str = "",
    halted_title: str = "",
    bargaining_until: dict | None = None,
    confirm: dict | None = None,
    sent: dict | None = None,
    openings: list = (),
    away: dict | None = None,
) -> dict:
    """``confirm``: a pass/inspect the Sheriff asked for (``?decide=...&bag=...``),
    shown for confirmation before it is sent. ``sent``: a refused form as the
    player filled it in (``forms.sent_back``), shown again in the same form.
    ``openings``: ``record_openings``, told to every player."""
    me = view["me"]["seat"]
    first_edition = view["config"]["edition"] == engine.FIRST_EDITION
    ctx = {
        "game_name": game_name,
        "names": names,
        "my_name": names[me],
        "me": me,
        "view": view,
        # The phase the page was rendered for: the service refuses a form from an
        # older phase as stale (moves of other seats in the same phase are fine).
        "version": view["phase"].get("since", view["version"]),
        "first_edition": first_edition,
        "is_sheriff": view["sheriff"] == me,
        "is_deputy": me in deputies(view),
        # The Sheriff or a Deputy: makes demands rather than offers.
        "is_inspector": is_inspector(view, me),
        "is_six": bool(deputies(view)),
        "over": view["phase"]["kind"] == "game_over",
        "phase": phase(view, names, None if halted else bargaining_until, halted_title),
        "mine": my_goods(view),
        "players": table(view, names, away),
        "piles": piles(view),
        "booty": booty(view),
        "black_market": black_market(view, names),
        "deadline": None if halted else deadline,
        "halted": halted,
        "openings": list(openings),
        "kinds_legend": kinds_legend(),
        "log": by_round(log),
        "log_all": log_all,
        "log_more": log_more,
        "log_next": log_next,
        "keys": FormKeys(),
    }
    ctx["moves"] = {} if halted else move_forms(view, names, sent)
    ctx["confirm"] = confirmation(ctx["moves"].get("decide"), confirm)
    if "offers" in view:
        ctx["offer_cap"] = offer_cap(view.get("offer_moves_left"), halted or ctx["over"])
        ctx["offers"] = offers(view, names, ctx["moves"], sent)
        ctx["closed_offers"] = sum(not o["live"] for o in ctx["offers"])
        ctx["deals"] = deals(view, names)
        ctx["opened_bags"] = [
            {"name": names[seat], "goods": grouped(types)}
            for seat, types in sorted(view["opened_bags"].items())
        ]
        # Honor among thieves: bags shown to this seat alone, as proof of missing goods.
        ctx["shown_bags"] = [
            {"name": names[seat], "goods": grouped([c["type"] for c in cards])}
            for seat, cards in sorted(view.get("shown_bags", {}).items())
        ]
    if ctx["over"]:
        ctx["scores"] = scores(view, names)
        ctx["seed"] = view["seed"]
        ctx["seed_check"] = hashlib.sha256(bytes.fromhex(view["seed"])).hexdigest()
        ctx["seed_ok"] = ctx["seed_check"] == view["seed_sha256"]
    return ctx


def waiting_to_speak(view: dict) -> list:
    """Merchants the Sheriff waits for before deciding their bag (bargaining)."""
    if view["phase"]["kind"] != "inspection" or view.get("bargaining_over"):
        return []
    return [s for s in undecided_bags(view) if not view["players"][s].get("spoken")]


def phase(
    view: dict, names: list, bargaining_until: dict | None = None, halted_title: str = ""
) -> dict:
    """The phase's title, what it asks of this seat (``ask``, for the preheader) and
    a hint; ``bargaining_until``: when the bargaining time ends, in the seat's zone;
    ``halted_title``: the title instead, while the game is stopped."""
    kind = view["phase"]["kind"]
    me = view["me"]["seat"]
    awaiting = view["phase"]["awaiting"]
    title = str(PHASE_TITLES.get(kind, kind))
    if kind == "market_turn":
        turn = view["phase"]["seat"]
        if turn == me:
            title = pgettext("a phase", "Market — your turn")
        else:
            title = pgettext("a phase", "Market — %(name)s's turn") % {"name": names[turn]}
    waiting = waiting_to_speak(view)
    my_turn = me in awaiting or me in waiting
    ask, ask_by = ASKS.get(kind, ""), None
    role = role_this_round(view, names)
    if kind == "market":
        if role:
            hint = role + " " + _("The merchants are choosing cards to trade.")
        elif my_turn:
            hint = _(
                "Choose up to 5 cards to set aside. You draw as many from the deck; "
                "everyone sees the cards you set aside."
            )
        else:
            hint = _(
                "Your market choice is in. The exchanges happen once every merchant has chosen."
            )
    elif kind == "market_turn":
        if my_turn:
            hint = _(
                "Set aside up to 5 cards and take as many back: first from the top of the "
                "discard piles if you like, the rest from the deck."
            )
        else:
            hint = _("Merchants take their market turns one by one, clockwise from the Sheriff.")
    elif kind == "load":
        if role:
            hint = (
                role
                + " "
                + _("The merchants are loading their bags. Declarations are revealed together.")
            )
        elif my_turn:
            hint = _(
                "Put 1 to 5 cards in your bag and declare one kind of legal goods. "
                "The number declared is the number of cards in the bag — the kind may be a lie."
            )
        else:
            hint = _("Your bag is closed. Declarations are revealed when every bag is in.")
    elif kind == "inspection":
        ask, ask_by, hint = inspection_hint(view, names, bargaining_until, my_turn)
    elif kind == "black_market":
        hint = black_market_hint(view, names, my_turn)
    else:
        hint = game_over_hint(view, names)
    return {
        "kind": kind,
        "title": halted_title or title,
        "hint": hint,
        "ask": str(ask) if my_turn else "",
        "ask_by": ask_by,  # when the ask is due, if not the phase deadline
        "bargaining_until": bargaining_until if waiting else None,
        "next": "" if my_turn else next_email(view, kind),
        "my_turn": my_turn,
        # Merchants still to speak (bargaining) are waited for too, if not by the deadline.
        "awaiting": [names[s] if s != me else str(YOU) for s in [*awaiting, *waiting]],
    }


# The reader, where a sentence names them among others: "Waiting for: Ann, you".
YOU = pgettext_lazy("subject", "you")
YOU_AFTER = pgettext_lazy("after a preposition", "you")


def game_over_hint(view: dict, names: list) -> str:
    """Who won, said to this seat."""
    me = view["me"]["seat"]
    winners = [s["seat"] for s in view["scores"] if s["winner"]]
    if winners == [me]:
        return _("The game is over. You won — well done!")
    named = capfirst(listed([str(YOU) if s == me else names[s] for s in winners]))
    if me in winners:
        return _("The game is over. %(names)s won — well done!") % {"names": named}
    return ngettext(
        "The game is over. %(names)s won.", "The game is over. %(names)s won.", len(winners)
    ) % {"names": named}


def role_this_round(view: dict, names: list) -> str:
    """For the Sheriff or a Deputy, what they are this round; "" for a merchant."""
    me = view["me"]["seat"]
    if view["sheriff"] == me:
        return _("You are the Sheriff this round.")
    other = partner(view, me)
    if other is None:
        return ""
    return _("You are a Deputy this round, with %(name)s.") % {"name": names[other]}


# What happens to a bag the two Deputies call (rules-decisions.md, Six players).
DEPUTY_CALLS = gettext_lazy(
    "If you both let it pass, it passes; if you both inspect it, you inspect it "
    "together (an honest merchant is paid half the penalties by each of you, a liar's "
    "fine goes to the Booty); if only one of you inspects, that Deputy inspects alone. "
    "Deals paid to both Deputies go to the Booty, shared between you when the bags are done."
)


def inspection_hint(view: dict, names: list, bargaining_until, my_turn: bool) -> tuple:
    """(ask, ask_by, hint) of the inspection for this seat."""
    me = view["me"]["seat"]
    six = bool(deputies(view))
    if is_inspector(view, me):
        ask, hint = inspector_hint(view, names, bargaining_until, my_turn)
        return ask, None, hint
    if me in waiting_to_speak(view):
        ask, hint = bargaining_hint(six, bargaining_until)
        return ask, bargaining_until, hint
    if six:
        hint = _(
            "The Deputies are calling the bags. You may make offers to one Deputy or to "
            "both (paid to the Booty) about your bag or anyone's. Everything said is public."
        )
    else:
        hint = _(
            "The Sheriff is deciding the bags. You may make offers to the Sheriff about "
            "your bag or anyone's. Everything said is public."
        )
    claim = " " + str(CLAIM_NOW) if claimable(view) else ""
    if not claim and decline_now(view):  # 3 face down, no set: say so now, spare the wait
        claim = " " + str(NO_CLAIM_NOW)
    return str(ASKS["inspection"]), None, hint + claim


def inspector_hint(view: dict, names: list, bargaining_until, my_turn: bool) -> tuple:
    """(ask, hint) of the inspection for the Sheriff or a Deputy."""
    me = view["me"]["seat"]
    six = bool(deputies(view))
    waiting = waiting_to_speak(view)
    rules = ""
    if six:
        other = {"name": names[partner(view, me)]}
        rules = " " + _("%(name)s calls each bag too.") % other + " " + str(DEPUTY_CALLS)
    if waiting and my_turn:
        if six:
            ask = pgettext("what a move asks", "bargain, then call the bags")
        else:
            ask = pgettext("what a move asks", "bargain, then decide the bags")
        who = {"names": listed([names[s] for s in waiting])}
        hint = " ".join(
            [
                bargaining_first(six, bargaining_until),
                _("Still to speak: %(names)s.") % who,
                _(
                    "Meanwhile you may make demands and accept offers — an accepted deal "
                    "is carried out at once."
                ),
            ]
        )
        return ask, hint + rules
    if my_turn:
        if six:
            ask = pgettext("what a move asks", "call the bags")
            what = _("Call every bag: let it pass or inspect it.")
        else:
            ask = str(ASKS["inspection"])
            what = _("Decide every bag: let it pass or inspect it.")
        first = _(
            "You may make demands and accept offers first — an accepted deal is carried "
            "out at once."
        )
        return ask, what + " " + first + rules
    if six:
        return "", _("You have called every bag; %(name)s has still to call some.") % other
    return "", _("Every bag is decided.")


# For the Sheriff or a Deputy (by ``six``): a bag waits for its merchant to speak,
# or for the end of the bargaining time.
BARGAINING_FIRST = {
    False: (
        gettext_lazy(
            "Bargaining comes first: you can decide a bag once its merchant has made an "
            "offer or said “no offer”."
        ),
        gettext_lazy(
            "Bargaining comes first: you can decide a bag once its merchant has made an "
            "offer or said “no offer”, or from %(time)s (your time)."
        ),
    ),
    True: (
        gettext_lazy(
            "Bargaining comes first: you can call a bag once its merchant has made an "
            "offer or said “no offer”."
        ),
        gettext_lazy(
            "Bargaining comes first: you can call a bag once its merchant has made an "
            "offer or said “no offer”, or from %(time)s (your time)."
        ),
    ),
}
# For a merchant the Sheriff (or, by ``six``, the Deputies) wait for: what is asked,
# the offer to make, and the wait without and with a bargaining time.
BARGAINING = {
    False: (
        pgettext_lazy("what a move asks", "make the Sheriff an offer or say “no offer”"),
        gettext_lazy(
            "Bargaining: offer the Sheriff gold or goods to let your bag pass (or to "
            "inspect someone else's), or say “no offer”."
        ),
        gettext_lazy("The Sheriff cannot decide your bag before you have."),
        gettext_lazy(
            "The Sheriff cannot decide your bag before you have (or until %(time)s, your time)."
        ),
    ),
    True: (
        pgettext_lazy("what a move asks", "make the Deputies an offer or say “no offer”"),
        gettext_lazy(
            "Bargaining: offer the Deputies gold or goods to let your bag pass (or to "
            "inspect someone else's), or say “no offer”."
        ),
        gettext_lazy("The Deputies cannot decide your bag before you have."),
        gettext_lazy(
            "The Deputies cannot decide your bag before you have (or until %(time)s, your time)."
        ),
    ),
}


def bargaining_first(six: bool, bargaining_until) -> str:
    """For the Sheriff or a Deputy: the bags wait for their merchants first."""
    plain, until = BARGAINING_FIRST[six]
    if bargaining_until is None:
        return str(plain)
    return until % {"time": bargaining_until["short"]}


def bargaining_hint(six: bool, bargaining_until) -> tuple:
    """(ask, hint) for a merchant the Sheriff (or the Deputies) wait for."""
    ask, offer, wait, wait_until = BARGAINING[six]
    if bargaining_until is not None:
        wait = wait_until % {"time": bargaining_until["short"]}
    return str(ask), " ".join([str(offer), str(wait), _("Everything said is public.")])


CLAIM_NOW = gettext_lazy(
    "Your bag is through: you may claim a Black Market card now (below), until the inspection ends."
)


# Why a merchant who cannot claim is asked all the same (issue 31).
WHY_ASKED = gettext_lazy(
    "Every bag is decided. You hold no 3 contraband of one kind a pile still takes, so "
    "you cannot claim: answer “No claim this round” and the round ends sooner. You are "
    "asked because the table waits for every merchant with 3 or more face-down goods, "
    "so that nobody can tell who holds three of a kind. To answer ahead next time, say "
    "“no claim” during the inspection, or give a standing answer (the Black Market panel)."
)


def standing_answer(view: dict, names: list) -> dict | None:
    """The Black Market panel's standing answer: the reader's, and who has one."""
    if "black_market_standing" not in view or view["phase"]["kind"] == "game_over":
        return None
    me = view.get("me", {}).get("seat")
    on = view["black_market_standing"]
    return {
        "mine": me in on,
        "can_set": me is not None,
        "who": listed([names[s] for s in on]) if on else "",
    }


NO_CLAIM_NOW = gettext_lazy(
    "Your bag is through. After the last bag, the table waits for every merchant with 3 "
    "or more face-down goods, so that nobody can tell who holds three of a kind. You "
    "cannot claim this round: say “No claim this round” now on your table and it will "
    "not wait for you."
)


def decline_now(view: dict) -> bool:
    """May this seat, whose bag is through, only say "no claim" (it cannot claim)?"""
    types = {m["type"] for m in view["my_moves"]["moves"]}
    through = view["players"][view["me"]["seat"]].get("bag_status") in ("passed", "inspected")
    return through and "decline_black_market" in types and "claim_black_market" not in types


def claimable(view: dict) -> bool:
    """May this seat claim from the Black Market or decline, now?"""
    return any(m["type"] == "claim_black_market" for m in view["my_moves"]["moves"])


def black_market_hint(view: dict, names: list, my_turn: bool) -> str:
    me = view["me"]["seat"]
    if my_turn and not claimable(view):
        return str(WHY_ASKED)
    if my_turn:
        return _(
            "Every bag is decided. You may still trade 3 contraband of one kind from your "
            "stand for the top card of that Black Market pile — or make no claim. Choices "
            "are sealed and carried out together, clockwise; a claim on a pile an earlier "
            "claimant emptied comes to nothing."
        )
    others = [names[s] for s in view["phase"].get("seats", []) if s != me]
    if not others:
        return _(
            "Every bag is decided. The merchants may still claim from the Black Market; "
            "then the round ends."
        )
    return ngettext(
        "Every bag is decided. %(names)s may still claim from the Black Market; then the "
        "round ends.",
        "Every bag is decided. %(names)s may still claim from the Black Market; then the "
        "round ends.",
        len(others),
    ) % {"names": listed(others)}


def next_email(view: dict, kind: str) -> str:
    """For a seat with nothing to do now: when it will hear from the game again."""
    sheriff = is_inspector(view, view["me"]["seat"])
    if kind == "market" and not sheriff:
        return _("We will email you when it is time to load your bag.")
    if kind in ("market", "market_turn", "load"):
        if kind == "market_turn" and not sheriff:
            return _("We will email you when it is your turn, and when the bags are on the table.")
        return _("We will email you when the bags are on the table.")
    if kind == "inspection" and not sheriff:
        return _("We will email you when an offer concerns you and when the round is over.")
    if kind in ("inspection", "black_market"):
        return _("We will email you when the round is over.")
    return ""


def my_goods(view: dict) -> dict:
    me = view["me"]
    mine = view["players"][me["seat"]]
    contraband = mine.get("contraband", [])
    claimed = mine.get("black_market", [])
    # Cards set aside for the market are still in the hand until every merchant
    # has chosen; they are listed once, as set aside.
    aside = me.get("set_aside", [])
    kept = [c for c in me["hand"] if c not in aside]
    return {
        "gold": mine["gold"],
        "hand": cards(kept),
        "set_aside": cards(aside),
        "bag": cards(me["bag"]),
        "declaration": declaration_text(me.get("declaration")),
        "bag_status": bag_status(mine),
        "bag_waiting": mine.get("bag_status") == "waiting",
        "stand": grouped([c["type"] for c in mine["stand"]]),
        "contraband": grouped([c["type"] for c in contraband]),
        # Claimed Black Market cards lie in the contraband pile and score their own value.
        "black_market": claimed_cards(view, claimed),
        "stand_value": sum(CARD_TYPES[c["type"]].value for c in mine["stand"] + contraband)
        + sum(c["value"] for c in claimed),
        # The same cards counted by kind ("3 Chickens"), as the emails list them.
        "counted": {
            "hand": grouped([c["type"] for c in kept]),
            "set_aside": grouped([c["type"] for c in aside]),
            "bag": grouped([c["type"] for c in me["bag"]]),
        },
    }


def table(view: dict, names: list, away: dict | None = None) -> list:
    """The seats' rows; ``away``: seat index -> when an away player is back
    (``away_notes``)."""
    kind = view["phase"]["kind"]
    over = kind == "game_over"
    rows = []
    for p in view["players"]:
        seat = p["seat"]
        deputy = p.get("is_deputy", False)
        status = seat_status(view, p)
        rows.append(
            {
                "seat": seat,
                "name": names[seat],
                "is_me": seat == view["me"]["seat"],
                "is_sheriff": p["is_sheriff"],
                "is_deputy": deputy,
                "sheriff_times": turns_as_inspector(view, p, over=over),
                "gold": p["gold"],
                "hand_size": p["hand_size"],
                "stand": grouped([c["type"] for c in p["stand"]]),
                "contraband_count": p["contraband_count"],  # face down
                # The contraband pile: face-down goods and claimed Black Market cards.
                "contraband_pile": p["contraband_count"] + len(p.get("black_market", [])),
                "black_market": claimed_cards(view, p.get("black_market", [])),
                "declaration": declaration_text(p.get("declaration")),
                "bag_status": bag_status(p),
                "bag_waiting": p.get("bag_status") == "waiting",
                "calls": bag_calls(view, names, p),
                "status": status_word(status, seat == view["me"]["seat"]),
                "status_key": status,  # the badge's style
                "away": (away or {}).get(seat, ""),
            }
        )
        rows[-1].update(_table_row_markup(rows[-1]))
    return rows


def _table_row_markup(row: dict) -> dict:
    """What the page's row of a seat prints, worked out here rather than by a
    dozen template conditions a row (the table was a sixth of a page's cost)."""
    classes = ["player"] + ["me"] * row["is_me"] + ["sheriff"] * row["is_sheriff"]
    badges = []
    if row["is_sheriff"]:
        badges.append({"style": "sheriff", "text": pgettext("a badge", "Sheriff")})
    if row["is_deputy"]:
        badges.append({"style": "sheriff", "text": pgettext("a badge", "Deputy")})
    if row["status"]:
        badges.append({"style": row["status_key"], "text": row["status"]})
    # The counts are whole numbers, and the catalogue's markup is trusted.
    gold, hand, contraband = row["gold"], row["hand_size"], row["contraband_pile"]
    stats = [
        ngettext("<b>%(count)s</b> gold", "<b>%(count)s</b> gold", gold) % {"count": gold},
        ngettext("<b>%(count)s</b> in hand", "<b>%(count)s</b> in hand", hand) % {"count": hand},
        ngettext("<b>%(count)s</b> contraband", "<b>%(count)s</b> contraband", contraband)
        % {"count": contraband},
    ]
    return {
        "classes": " ".join(classes),
        "badges": badges,
        "stats": [mark_safe(text) for text in stats],
    }


def bag_status(p: dict) -> str:
    """A bag on the table, in words: "waiting", "passed", "inspected" ("" with none)."""
    return str(BAG_STATUS.get(p.get("bag_status", ""), ""))


# The word on a seat's row, by status (the key is the badge's style).
SEAT_STATUS = {
    "to-play": pgettext_lazy("a seat", "to play"),
    "done": pgettext_lazy("a seat", "done"),
    "to-offer-or-say-no-offer": pgettext_lazy("a seat", "to offer or say no offer"),
    "calling-bags": pgettext_lazy("a seat", "calling bags"),
    "deciding": pgettext_lazy("a seat", "deciding"),
}


# The reader's own row, where a language tells "you" from "them" (Spanish "te toca").
MY_SEAT_STATUS = {
    "to-play": pgettext_lazy("your own seat", "to play"),
    "to-offer-or-say-no-offer": pgettext_lazy("your own seat", "to offer or say no offer"),
}


def status_word(status: str, own: bool) -> str:
    """The word on a row for a key of SEAT_STATUS; ``own``: the reader's row."""
    return str((own and MY_SEAT_STATUS.get(status)) or SEAT_STATUS.get(status, ""))


def seat_status(view: dict, p: dict) -> str:
    """A seat's row: what the table waits for from it, or that it is done (a key of
    SEAT_STATUS, or "")."""
    kind = view["phase"]["kind"]
    seat = p["seat"]
    awaiting = view["phase"]["awaiting"]
    if kind in ("market", "load", "black_market"):
        if seat in awaiting:
            return "to-play"
        return "done" if p.get("acted") else ""
    if kind == "market_turn":
        return "to-play" if seat in awaiting else ""
    if kind == "inspection":
        if seat in waiting_to_speak(view):
            return "to-offer-or-say-no-offer"
        return ("calling-bags" if p.get("is_deputy") else "deciding") if seat in awaiting else ""
    return ""


CALL_WORDS = {
    None: pgettext_lazy("a Deputy's call", "not called yet"),
    "pass": pgettext_lazy("a Deputy's call", "let pass"),
    "inspect": pgettext_lazy("a Deputy's call", "inspect"),
}


def bag_calls(view: dict, names: list, p: dict) -> list:
    """Six players: each Deputy's call on this merchant's bag, first-drawn first."""
    if p.get("bag_status") != "waiting" or not p.get("calls"):
        return []
    return [
        {"name": names[deputy], "call": str(CALL_WORDS[call]), "called": call is not None}
        for deputy, call in zip(deputies(view), p["calls"], strict=True)
    ]


def turns_as_inspector(view: dict, p: dict, *, over: bool) -> str:
    """How often a player has been the Sheriff (with 6 players: a Deputy), in words."""
    players = len(view["players"])
    if deputies(view) or p.get("times_deputy"):
        total = view["rounds"] * 2 // players  # two Deputies a round
        return role_times("Deputy", p["times_deputy"], total, now=p["is_deputy"], over=over)
    total = view["rounds"] // players
    return role_times("Sheriff", p["times_sheriff"], total, now=p["is_sheriff"], over=over)


def role_times(role: str, times: int, total: int, *, now: bool, over: bool) -> str:
    """How often a player has had a role ("Sheriff" or "Deputy"), in words: each
    player has it ``total`` times; ``times`` counts the current round."""
    values = {"times": times, "total": total, "ordinal": ordinal(times)}
    deputy = role == "Deputy"
    if over:
        if deputy:
            text = ngettext(
                "Deputy %(times)s of %(total)s times", "Deputy %(times)s of %(total)s times", total
            )
        else:
            text = ngettext(
                "Sheriff %(times)s of %(total)s times",
                "Sheriff %(times)s of %(total)s times",
                total,
            )
    elif now:
        if deputy:
            text = ngettext(
                "Deputy for the %(ordinal)s of %(total)s times",
                "Deputy for the %(ordinal)s of %(total)s times",
                total,
            )
        else:
            text = ngettext(
                "Sheriff for the %(ordinal)s of %(total)s times",
                "Sheriff for the %(ordinal)s of %(total)s times",
                total,
            )
    elif deputy:
        text = ngettext(
            "Deputy %(times)s of %(total)s times so far",
            "Deputy %(times)s of %(total)s times so far",
            total,
        )
    else:
        text = ngettext(
            "Sheriff %(times)s of %(total)s times so far",
            "Sheriff %(times)s of %(total)s times so far",
            total,
        )
    return text % values


# Ordinal numbers by their English suffix; a language with one form for all writes
# the same for each.
ORDINALS = {
    "st": pgettext_lazy("an ordinal number, as in '1st'", "%(n)sst"),
    "nd": pgettext_lazy("an ordinal number, as in '2nd'", "%(n)snd"),
    "rd": pgettext_lazy("an ordinal number, as in '3rd'", "%(n)srd"),
    "th": pgettext_lazy("an ordinal number, as in '4th'", "%(n)sth"),
}


def ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th' (in Spanish '1.ª')."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return ORDINALS[suffix] % {"n": n}


def piles(view: dict) -> dict:
    first_edition = view["config"]["edition"] == engine.FIRST_EDITION
    result = []
    for index, pile in enumerate(view["discard_piles"]):
        result.append(
            {
                "index": index,
                "number": index + 1,
                "size": len(pile),
                "top": card(pile[-1]) if pile else None,
                # 1st edition: players draw from these piles, so show them whole (top last).
                "cards": cards(pile) if first_edition else [],
            }
        )
    return {"deck_size": view["deck_size"], "removed": view["removed_count"], "discard": result}


def booty(view: dict) -> dict | None:
    """Six players: what the Deputies share when the bags are done (public)."""
    if "booty" not in view:
        return None
    return {
        "gold": view["booty"]["gold"],
        "goods": grouped([c["type"] for c in view["booty"]["goods"]]),
        "gold_out": view.get("gold_out", 0),
    }


def claimed_cards(view: dict, claimed: list) -> str:
    """A seat's Black Market cards with their values: "Pepper (30), Silk (34)"; the
    values are said to be provisional while the organizer gave none."""
    if not claimed:
        return ""
    text = ", ".join(f"{label(c['type'])} ({c['value']})" for c in claimed)
    if view.get("black_market", {}).get("provisional"):
        return _("%(cards)s — provisional values") % {"cards": text}
    return text


def black_market(view: dict, names: list) -> dict | None:
    """The Black Market piles (values top first, "provisional" while the organizer
    gave none), who claimed what, and the cards traded in, which left the game."""
    market = view.get("black_market")
    if market is None:
        return None
    return {
        "provisional": market["provisional"],
        "piles": [
            {
                "kind": kind,
                "label": label(kind),
                "values": list(reversed(values)),  # the top card first
                "top": values[-1] if values else None,
            }
            for kind, values in market["piles"].items()
        ],
        "out": grouped([c["type"] for c in view.get("out_of_game", [])]),
        "claim_cost": BLACK_MARKET_CLAIM,
        "standing": standing_answer(view, names),
    }


# --- moves ------------------------------------------------------------------------------


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


def bags_to_call(view: dict, seat: int) -> list:
    """The undecided bags this seat has still to decide (with 6 players: to call)."""
    if not is_inspector(view, seat):
        return []
    if not deputies(view):
        return undecided_bags(view)
    return [b for b in undecided_bags(view) if call_of(view, b, seat) is None]


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


NOT_SENT = {"cards": frozenset(), "fields": {}, "terms": {}}


def refused_here(sent: dict | None, move: str, **fields) -> bool:
    """Is the refused form ``sent`` this form: the same move and these fields?"""
    if not sent or sent["move"] != move:
        return False
    return all(sent["fields"].get(name) == str(value) for name, value in fields.items())


def undecided_bags(view: dict) -> list:
    return [s for s in merchants(view) if view["players"][s].get("bag_status") == "waiting"]


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
    chosen = {c["id"] for c in terms.get("stand_goods", [])}
    if payer == me:  # a merchant may offer any card of their own stand
        stand = payer_view["stand"] + payer_view.get("contraband", [])
    else:  # the Sheriff may ask only for the merchant's face-up legal goods
        stand = payer_view["stand"]
    stand_cards = [dict(card(c), checked=c["id"] in chosen) for c in stand]
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
        "stand_cards": stand_cards,
        "bag_max": bag_max,
        "bag_types": bag_types,
        "bag_open": bool(promised),
        "promise": terms.get("promise", ""),
        "actions": actions,
        "piles": first_edition and demand,
    }


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
        return refusal_messages.message("offer_limit", OFFER_LIMIT)
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


# --- end of game -------------------------------------------------------------------------


def scores(view: dict, names: list) -> list:
    me = view["me"]["seat"]
    rows = []
    for sheet in sorted(view["scores"], key=lambda s: (s["rank"], s["seat"])):
        rows.append(
            {
                "name": names[sheet["seat"]],
                "is_me": sheet["seat"] == me,
                "rank": sheet["rank"],
                "winner": sheet["winner"],
                "gold": sheet["gold"],
                "goods": [  # the sheet's value is the goods' total, not one card's
                    {**card_type(g["type"]), **g, "text": counted(g["count"], g["type"])}
                    for g in sheet["goods"]
                ],
                "goods_value": sheet["goods_value"],
                "black_market": claimed_cards(view, sheet.get("black_market", [])),
                "black_market_value": sheet.get("black_market_value", 0),
                "bonuses": [bonus(b) for b in sheet["bonuses"]],
                "bonus_total": sum(b["points"] for b in sheet["bonuses"]),
                "legal_cards": sheet["legal_cards"],
                "contraband_cards": sheet["contraband_cards"],
                "total": sheet["total"],
            }
        )
    return rows


def bonus(b: dict) -> dict:
    values = {"goods": label(b["type"]), "count": b["shared_by"]}
    king = b["title"] == "king"
    if b["shared_by"] <= 1:
        text = _("King of %(goods)s") if king else _("Queen of %(goods)s")
    elif king:
        text = ngettext(
            "King of %(goods)s (shared by %(count)s)",
            "King of %(goods)s (shared by %(count)s)",
            b["shared_by"],
        )
    else:
        text = ngettext(
            "Queen of %(goods)s (shared by %(count)s)",
            "Queen of %(goods)s (shared by %(count)s)",
            b["shared_by"],
        )
    return {"text": text % values, "points": b["points"]}


# --- deadline and log ----------------------------------------------------------------------


def halted(game, tz_name: str) -> str:
    """Why nothing moves now, if the organizer (or, when nobody moved any more, the
    game itself) stopped it; "" otherwise."""
    if game.status == "cancelled" and game.finished_at is not None:
        when = deadline(game.finished_at, tz_name)["local"]
        return _("The organizer cancelled this game on %(when)s. The table stays readable.") % {
            "when": when
        }
    if game.paused_itself:
        when = deadline(game.paused_at, tz_name)["local"]
        return _(
            "Paused since %(when)s: nobody moved for %(idle)s. "
            "No deadline runs until the organizer resumes the game."
        ) % {"when": when, "idle": idle_for(game.idle_phases)}
    if game.paused_at is not None:
        when = deadline(game.paused_at, tz_name)["local"]
        return _(
            "Paused by the organizer since %(when)s. No deadline runs until the game resumes."
        ) % {"when": when}
    return ""


def halted_title(game) -> str:
    """The title a stopped game shows instead of its phase's ("Load your bag and
    declare" would read as an instruction); "" while it runs."""
    if game.status == "cancelled":
        return pgettext("a phase", "Game cancelled")
    if game.paused_at is not None:
        return pgettext("a phase", "Game paused")
    return ""


def away_notes(seats, today) -> dict:
    """Seat index -> what the table is told of a player away now or later
    (``today``: a date): "away until Fri 28 Nov", "away Mon 30 Mar to Fri 3 Apr"."""
    days = _("D j M")  # a short date, as the language writes it
    notes = {}
    for seat in seats:
        if not (seat.away_from and seat.away_until) or seat.away_until < today:
            continue
        until = date_format(seat.away_until, days)
        if seat.away_from <= today:
            notes[seat.index] = _("away until %(until)s") % {"until": until}
        else:
            first = date_format(seat.away_from, days)
            notes[seat.index] = _("away %(first)s to %(until)s") % {"first": first, "until": until}
    return notes


def record_openings(openings, tz_name: str) -> list:
    """Each time the organizer opened the game's full record while it was in play
    (games.organizer.records), in the seat's zone: [{"when", "reason"}]. The reason is the
    organizer's raw text: templates isolate it (user_text, isolated)."""
    return [{"when": deadline(o.opened_at, tz_name)["local"], "reason": o.reason} for o in openings]


def deadline(when, tz_name: str) -> dict | None:
    """The phase deadline in the seat's time zone and in UTC, or None."""
    if when is None:
        return None
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone, tz_name = ZoneInfo("UTC"), "UTC"
    local = when.astimezone(zone)
    utc = when.astimezone(UTC)
    # Django's date format letters (docs: the "date" filter): day and month names
    # follow the active language, and so may the order.
    full = pgettext("a deadline, with its year", "D d M Y, H:i")
    short = pgettext("a deadline, without its year", "D d M, H:i")
    return {
        "when": when,
        "local": _("%(when)s (%(zone)s)") % {"when": date_format(local, full), "zone": tz_name},
        "short": date_format(local, short),
        "utc": _("%(when)s UTC") % {"when": date_format(utc, short)},
        "is_utc": tz_name == "UTC",
        "countdown": countdown(when),  # for a deadline still to come
    }


def countdown(when, now=None) -> str:
    """How long until a deadline, as a page says it: "in 2 hours, 5 minutes"; under
    a minute, never "in 0 minutes"; past, the game moves on at its next sweep."""
    seconds = (when - (now or timezone.now())).total_seconds()
    if seconds <= 0:
        return _("any moment now")
    if seconds < 60:
        return _("in less than a minute")
    return _("in %(time)s") % {"time": timeuntil(when, now)}


class _Narrated:
    """Log lines as a seat reads them, kept per process (a page shows dozens, and
    narrating them was a fifth of a page's cost). An event never changes once
    written, and its line depends only on the game, who reads it, in which
    language, and the players' names: all of them are in the key."""

    SIZE = 50_000  # lines, about 10 MB

    def __init__(self):
        self.lines: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def narrator(self, game: tuple | None, names: list, seat: int | None, state):
        """event -> its line, for this seat of this game (``game``: its ``kept_as``;
        None: nothing kept)."""
        narrator = Narrator.of_game(names, seat, state.config)

        def narrated(event) -> str:
            return narrator.line(engine.project_event(state, event, seat))

        if game is None:
            return narrated
        reader = (game, seat, get_language(), tuple(narrator.names))

        def kept(event) -> str:
            key = (reader, event["seq"])
            with self.lock:
                text = self.lines.get(key)
                if text is not None:
                    self.lines.move_to_end(key)
                    return text
            text = narrated(event)
            with self.lock:
                self.lines[key] = text
                if len(self.lines) > self.SIZE:
                    self.lines.popitem(last=False)
            return text

        return kept


NARRATED = _Narrated()


def kept_as(game) -> tuple:
    """A game, as kept lines name it: its id and its time of creation, since a
    database may give a deleted game's id again (SQLite does)."""
    return (game.pk, game.created_at)


def log_lines(
    state, events, names: list, seat: int, limit: int | None, game=None
) -> tuple[list, bool]:
    """Narrated log lines, newest first, from events given newest first, each with
    the round it belongs to (0: before the first round). Returns (lines, more)
    where ``more`` says whether older lines were left out. With ``game`` (a Game),
    lines narrated before are reused."""
    narrated = NARRATED.narrator(game and kept_as(game), names, seat, state)
    lines = []
    current = state.round  # the newest events belong to the round in play
    for event in events:
        line_round = current
        if event["type"] == "round_started":  # older events belong to the round before
            line_round, current = event["round"], event["round"] - 1
        text = narrated(event)
        if not text:
            continue
        if limit is not None and len(lines) >= limit:
            return lines, True
        lines.append({"seq": event["seq"], "text": text, "round": line_round})
    return lines, False


def log_page(
    state, events, names: list, seat: int, first_round: int, game=None
) -> tuple[list, int | None]:
    """A page of the whole log, from events given oldest first, starting in round
    ``first_round``: up to LOG_PAGE_LINES narrated lines, newest first (as
    ``log_lines``), and the seq to continue after (None on the last page)."""
    narrated = NARRATED.narrator(game and kept_as(game), names, seat, state)
    lines = []
    current = first_round
    for event in events:
        if event["type"] == "round_started":
            current = event["round"]
        text = narrated(event)
        if not text:
            continue
        if len(lines) == LOG_PAGE_LINES:
            return lines[::-1], lines[-1]["seq"]
        lines.append({"seq": event["seq"], "text": text, "round": current})
    return lines[::-1], None


def by_round(lines: list) -> list:
    """Log lines given newest first -> one group per round, in the order of play
    (the page's log and the emails tell the story the same way)."""
    groups: list = []
    for line in reversed(lines):
        if not groups or groups[-1]["round"] != line["round"]:
            number = line["round"]
            title = (
                _("Round %(number)s") % {"number": number}
                if number
                else _("Before the first round")
            )
            groups.append({"round": number, "title": title, "lines": []})
        groups[-1]["lines"].append(line)
    return groups
