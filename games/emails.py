"""Render one email for one seat, from that seat's view only.

Every email is personal (never a shared body), in HTML and plain text, with a
constant subject per game and threading headers so a game is one
conversation in the player's mail app.
"""

from zoneinfo import ZoneInfo

from django.conf import settings
from django.template.loader import render_to_string

from games import engine, links
from games.models import Game, GameEvent, Seat
from games.narrate import Narrator

HEADLINES = {
    "game_over": "The game is over — here are the scores",
    "your_move": "Your move",
    "deal": "Your offer was accepted",
    "offer": "A new offer concerns you",
}


def _domain() -> str:
    sender = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ")
    return sender or "localhost"


def thread_headers(game: Game, seat: Seat, key: str) -> dict:
    """Message-ID per email; every email of a seat's game refers to the same
    thread root, so mail apps show one conversation per game."""
    root = f"<{game.thread_token}.s{seat.index}@{_domain()}>"
    message_id = f"<{game.thread_token}.{key.replace(':', '.')}@{_domain()}>"
    return {"Message-ID": message_id, "In-Reply-To": root, "References": root}


def render(game: Game, seat: Seat, state, kind: str, key: str = "") -> dict:
    view = engine.view_for(state, seat.index)
    names = list(game.seats.order_by("index").values_list("name", flat=True))
    recent = [e.data for e in GameEvent.objects.filter(game=game, seq__gt=seat.notified_seq)]
    narrator = Narrator(names, seat.index)
    lines = narrator.lines(engine.project_log(state, recent, seat.index))
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        "players": players(view, names),
        "me": my_goods(view),
        "headline": HEADLINES[kind],
        "kind": kind,
        "happened": lines[-30:],
        "link": links.seat_url(seat),
        "deadline": format_deadline(game.phase_deadline, seat.timezone),
    }
    return {
        "to": seat.email,
        "subject": game.subject,
        "text": render_to_string("emails/message.txt", context),
        "html": render_to_string("emails/message.html", context),
        "headers": thread_headers(game, seat, key) if key else {},
    }


def format_deadline(when, tz_name: str) -> str:
    """'Tue 24 Nov, 18:00 (Europe/Paris) · 17:00 UTC', or '' without a deadline."""
    if when is None:
        return ""
    local = when.astimezone(ZoneInfo(tz_name or "UTC"))
    utc = when.astimezone(ZoneInfo("UTC"))
    text = f"{local:%a %d %b, %H:%M} ({tz_name})"
    return text if tz_name == "UTC" else f"{text} · {utc:%H:%M} UTC"


def label(name: str) -> str:
    return engine.CARD_TYPES[name].label


def _grouped(cards: list) -> str:
    from games.narrate import goods

    return goods([c["type"] for c in cards]) or "—"


def players(view: dict, names: list) -> list:
    rows = []
    for p in view["players"]:
        declaration = p.get("declaration")
        rows.append(
            {
                "name": names[p["seat"]],
                "is_sheriff": p["is_sheriff"],
                "is_me": p["seat"] == view.get("viewer"),
                "gold": p["gold"],
                "stand": _grouped(p["stand"]),
                "contraband_count": p["contraband_count"],
                "hand_size": p["hand_size"],
                "declaration": f"{declaration['count']} {label(declaration['declared'])}"
                if declaration
                else "",
                "bag_status": p.get("bag_status", ""),
            }
        )
    return rows


def my_goods(view: dict) -> dict:
    me = view["me"]
    mine = view["players"][me["seat"]]
    declaration = me.get("declaration")
    return {
        "hand": [label(c["type"]) for c in me["hand"]],
        "bag": _grouped(me["bag"]) if me["bag"] else "",
        "declaration": f"{declaration['count']} {label(declaration['declared'])}"
        if declaration
        else "",
        "stand": _grouped(mine["stand"]),
        "contraband": _grouped(mine.get("contraband", [])) if mine.get("contraband") else "",
        "gold": mine["gold"],
    }
