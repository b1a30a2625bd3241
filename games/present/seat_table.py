"""The table a seat sees: its own goods, every seat's row (gold, stand, bag,
whom the table waits for), the discard piles, the Booty, the Black Market and,
at the end, the score sheets. Shared by the seat page and the emails.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy
from markupsafe import Markup

from games import engine
from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_CLAIM
from games.present.cards import card, card_type, cards, declaration_text, grouped, label
from games.present.roles import deputies, waiting_to_speak
from games.words.narrate import counted, listed

# A bag on the table: waiting for its decision, or what was decided.
BAG_STATUS = {
    "waiting": pgettext_lazy("a bag", "waiting"),
    "passed": pgettext_lazy("a bag", "passed"),
    "inspected": pgettext_lazy("a bag", "inspected"),
}


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
        "stats": [Markup(text) for text in stats],
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


# --- end of game -------------------------------------------------------------------------


def scores(view: dict, names: list) -> list:
    """The score sheets, best first; a seat's view marks its own (a spectator's, none)."""
    me = view.get("me", {}).get("seat")
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
