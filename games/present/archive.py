"""A finished game's archive as its page shows it (games/web/archive.py): the game's
facts, the score sheet, the awards and the reveal (games.present.reveal), the seed
check, and the replay, a step a round: that round's bags and deals as they really
were, its log as the table read it, and the table as the round left it.

The game is over, so everything is told: the score sheet is the spectator's (no
seat's hand is left to hide), and the table at each round's end shows every
seat's hand and face-down goods (games.engine.reveal.round_ends). Nothing here is
called for a game in play (games.core.archive answers None first).
"""

import hashlib
from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import engine
from games.present import game_log, seat_table
from games.present.cards import grouped, label


def facts(game, state, names: list, zone: str) -> dict:
    """The game's name, edition, rules, players, rounds and dates (in ``zone``)."""
    config = state.config
    rules = []
    if config.deputies:
        rules.append(_("Deputies (6 players)"))
    for on, name in (
        (config.royal_goods, _("Royal Goods")),
        (config.seven_card_hand, _("Seven Card Hand")),
        (config.remove_ten, _("Remove 10 Cards")),
        (config.black_market, _("Black Market")),
    ):
        if on:
            rules.append(name)
    return {
        "name": game.name,
        "edition": _("1st edition") if config.edition == engine.FIRST_EDITION else _("2nd edition"),
        "rules": rules,
        "players": names,
        "rounds": config.rounds,
        "started": _day(game.created_at, zone),
        "finished": _day(game.finished_at, zone),
    }


def _day(when, zone: str) -> str:
    """A date as the reader's language writes it, in ``zone``."""
    if when is None:
        return ""
    try:
        local = when.astimezone(ZoneInfo(zone or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        local = when.astimezone(UTC)
    return date_format(local, _("D j M Y"))


def overview(view: dict, names: list) -> dict:
    """The final score sheet (the reader's row marked, when the view is a seat's)
    and the seed check, from the final state's view."""
    seed_check = hashlib.sha256(bytes.fromhex(view["seed"])).hexdigest()
    return {
        "scores": seat_table.scores(view, names),
        "seed": view["seed"],
        "seed_sha256": view["seed_sha256"],
        "seed_check": seed_check,
        "seed_ok": seed_check == view["seed_sha256"],
    }


def steps_nav(steps: list, current: int | None) -> list:
    """Every round of the replay, for the links between them: {"number", "current"}."""
    return [{"number": s["number"], "current": s["number"] == current} for s in steps]


def step(
    steps: list, number: int, revealed: dict, events: list, state, names: list, game=None
) -> dict:
    """The replay's step of round ``number`` (1-based, one of ``steps``): the round's
    reveal (``revealed``: reveal.presented), its log lines (``events``: the round's,
    newest first) oldest first in groups, and the table as the round left it."""
    found = steps[number - 1]
    table = found["table"]
    return {
        "number": number,
        "rounds": len(steps),
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < len(steps) else None,
        "inspectors": _inspectors(table, names),
        "reveal": next((r for r in revealed["rounds"] if r["number"] == number), None),
        "log": _log(events, state, names, number, game),
        "table": [_seat_row(seat, table, names) for seat in table["seats"]],
    }


def _inspectors(table: dict, names: list) -> str:
    if table["deputies"]:
        return _("Deputies: %(names)s") % {"names": " · ".join(names[d] for d in table["deputies"])}
    return _("Sheriff: %(name)s") % {"name": names[table["sheriff"]]}


def _log(events: list, state, names: list, number: int, game) -> list:
    """The round's lines as the table read them, oldest first, in groups: the first
    round's come after the game's setup, under a title of their own."""
    lines, _more = game_log.log_lines(state, events, names, None, None, game=game)
    start = next((e["seq"] for e in events if e["type"] == "round_started"), None)
    in_round = _("Round %(number)s") % {"number": number}
    groups: list = []
    for line in reversed(lines):
        before = start is not None and line["seq"] < start
        title = _("Before the first round") if before else in_round
        if not groups or groups[-1]["title"] != title:
            groups.append({"title": title, "lines": []})
        groups[-1]["lines"].append(line["text"])
    return groups


def _seat_row(seat: dict, table: dict, names: list) -> dict:
    index = seat["seat"]
    change = seat["gold"] - seat["gold_before"]
    badges = []
    if index == table["sheriff"]:
        badges.append(pgettext("a badge", "Sheriff"))
    if index in table["deputies"]:
        badges.append(pgettext("a badge", "Deputy"))
    gold = ngettext("%(count)s gold", "%(count)s gold", seat["gold"]) % {"count": seat["gold"]}
    if change:
        gold = _("%(gold)s (%(change)s this round)") % {
            "gold": gold,
            "change": f"+{change}" if change > 0 else f"\u2212{-change}",
        }
    return {
        "name": names[index],
        "badges": badges,
        "gold": gold,
        "stand": grouped(seat["stand"]),
        "contraband": grouped(seat["contraband"]),
        "hand": grouped(seat["hand"]),
        "black_market": ", ".join(
            f"{label(c['type'])} ({c['value']})" for c in seat["black_market"]
        ),
    }
