"""The seat page as a whole, and the phase line it opens with.

``seat_page`` assembles the page from the presenters beside this module (cards,
seat_table, moves, move_forms, offers, game_log, clock); ``phase`` is the title, what the phase
asks of this seat and a hint, which the emails show too.

Every presenter reads only a seat's view (``engine.view_for``) and its
projected log, never the raw state, so nothing the seat may not see can reach
the page. Card ids appear only where the page's own forms need them (the
viewer's hand, bag-free stand goods it may offer or ask for).
"""

import hashlib

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games import engine
from games.present.cards import grouped, kinds_legend
from games.present.game_log import by_round
from games.present.move_forms import FormKeys, confirmation
from games.present.moves import seat_forms
from games.present.offers import deals, offer_cap, offers
from games.present.roles import YOU, deputies, is_inspector, partner, waiting_to_speak
from games.present.seat_table import black_market, booty, my_goods, piles, scores, table
from games.words.narrate import listed

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
# The phase named for anyone (My games, the organizer's labels): not an instruction.
PHASE_NAMES = {
    "market": gettext_lazy("Market"),
    "market_turn": gettext_lazy("Market"),
    "load": gettext_lazy("Load and declare"),
    "inspection": gettext_lazy("Inspection"),
    "black_market": gettext_lazy("Black Market step"),
    "game_over": gettext_lazy("Game over"),
}


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
    ctx["moves"] = {} if halted else seat_forms(view, names, sent)
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


def phase(
    view: dict, names: list, bargaining_until: dict | None = None, halted_title: str = ""
) -> dict:
    """The phase's title, what it asks of this seat (``ask``, for the preheader) and
    a hint; ``bargaining_until``: when the bargaining time ends, in the seat's zone;
    ``halted_title``: the title instead, while the game is stopped."""
    kind = view["phase"]["kind"]
    title = market_turn(view, names) or str(PHASE_TITLES.get(kind, kind))
    waiting = waiting_to_speak(view)
    my_turn = is_my_turn(view)
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
        "awaiting": awaited(view, names),
    }


def is_my_turn(view: dict) -> bool:
    """Does the phase wait for this seat: its move, or (bargaining) its word?"""
    me = view["me"]["seat"]
    return me in view["phase"]["awaiting"] or me in waiting_to_speak(view)


def awaited(view: dict, names: list) -> list:
    """Whom the phase waits for, by name (the viewer as "you"). Merchants still to
    speak (bargaining) are waited for too, if not by the deadline."""
    me = view.get("me", {}).get("seat")
    waited = [*view["phase"]["awaiting"], *waiting_to_speak(view)]
    return [names[s] if s != me else str(YOU) for s in waited]


def market_turn(view: dict, names: list) -> str:
    """Whose 1st edition market turn it is ("" in any other phase); the viewer's, if
    the view has one, is "your turn"."""
    if view["phase"]["kind"] != "market_turn":
        return ""
    turn = view["phase"]["seat"]
    if turn == view.get("me", {}).get("seat"):
        return pgettext("a phase", "Market — your turn")
    return pgettext("a phase", "Market — %(name)s's turn") % {"name": names[turn]}


def phase_name(view: dict, names: list) -> str:
    """The phase named for anyone, the spectator included: "Inspection"."""
    kind = view["phase"]["kind"]
    return market_turn(view, names) or str(PHASE_NAMES.get(kind, kind))


def game_over_hint(view: dict, names: list) -> str:
    """Who won, said to this seat (to nobody's in particular for a spectator's view)."""
    me = view.get("me", {}).get("seat")
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
            "both (paid to the Booty) about your bag or anyone's. The whole table sees every offer."
        )
    else:
        hint = _(
            "The Sheriff is deciding the bags. You may make offers to the Sheriff about "
            "your bag or anyone's. The whole table sees every offer."
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
    return str(ask), " ".join([str(offer), str(wait), _("The whole table sees every offer.")])


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
