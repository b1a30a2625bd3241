"""The reveal and the awards of a finished game (games.core.after_game), in the
reader's words: round by round, each bag declared and as it really was, passed or
opened, who paid whom; each deal; then the awards with what earned them."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.state import BOOTY
from games.present.cards import grouped
from games.words.narrate import counted, goods

AWARD_TITLES = {
    "most_honest": gettext_lazy("Most honest merchant"),
    "boldest_smuggler": gettext_lazy("Boldest smuggler"),
    "luckiest_liar": gettext_lazy("Luckiest liar"),
    "most_caught": gettext_lazy("Caught red-handed"),
    "biggest_briber": gettext_lazy("Biggest briber"),
    "most_bribed_sheriff": gettext_lazy("Most bribed Sheriff"),
    "sternest_sheriff": gettext_lazy("Sternest Sheriff"),
}


def presented(told: dict | None, names: list) -> dict | None:
    """{"awards": [...], "rounds": [...]} for the final page and email; None before the end."""
    if told is None:
        return None
    return {
        "awards": [_award(given, names) for given in told["awards"]],
        "rounds": _rounds(told["story"], names),
    }


def _award(given: dict, names: list) -> dict:
    score = given["score"]
    count = int(score.count) if float(score.count).is_integer() else round(score.count, 1)
    details = {
        "most_honest": lambda: _("%(count)s of %(of)s bags truthful"),
        "boldest_smuggler": lambda: _("contraband worth %(count)s brought in"),
        "luckiest_liar": lambda: ngettext(
            "%(count)s lying bag passed", "%(count)s lying bags passed", count
        ),
        "most_caught": lambda: ngettext(
            "%(count)s lying bag opened", "%(count)s lying bags opened", count
        ),
        "biggest_briber": lambda: _("%(count)s paid in deals, gold and goods"),
        "most_bribed_sheriff": lambda: _("%(count)s received in deals, gold and goods"),
        "sternest_sheriff": lambda: _("opened %(count)s of %(of)s bags"),
    }
    return {
        "key": given["award"],
        "title": str(AWARD_TITLES[given["award"]]),
        "names": [names[seat] for seat in given["seats"]],
        "detail": details[given["award"]]() % {"count": count, "of": score.out_of},
    }


def _holder(names: list, holder) -> str:
    return _("the Booty") if holder == BOOTY else names[holder]


def _rounds(story: dict, names: list) -> list:
    rounds: dict = {}
    for bag in story["bags"]:
        entry = rounds.setdefault(bag["round"], {"number": bag["round"], "bags": [], "deals": []})
        entry.setdefault("judges", _judges(bag, names))
        entry["bags"].append(_bag(bag, names))
    for deal in story["deals"]:
        entry = rounds.setdefault(deal["round"], {"number": deal["round"], "bags": [], "deals": []})
        entry["deals"].append(_deal(deal, names))
    return [rounds[number] for number in sorted(rounds)]


def _judges(bag: dict, names: list) -> str:
    if bag["calls"]:
        return _("Deputies: %(names)s") % {"names": " · ".join(names[d] for d in bag["calls"])}
    return _("Sheriff: %(name)s") % {"name": names[bag["sheriff"]]}


def _bag(bag: dict, names: list) -> dict:
    if bag["outcome"] == "passed":
        outcome = _("Passed")
    else:
        outcome = _("Opened by %(names)s") % {
            "names": " · ".join(names[s] for s in bag["inspectors"])
        }
    if bag["deal"] is not None:
        outcome = _("%(outcome)s (deal #%(offer)s)") % {"outcome": outcome, "offer": bag["deal"]}
    return {
        "name": names[bag["seat"]],
        "declared": counted(bag["count"], bag["declared"]),
        "inside": grouped(bag["contents"]),
        "truthful": bag["truthful"],
        "outcome": outcome,
        "paid": [_paid(entry, names) for entry in bag["penalties"]],
    }


def _paid(entry: dict, names: list) -> str:
    what = _gold_and_goods(entry["gold"], entry["goods"])
    return _("%(payer)s paid %(payee)s %(what)s") % {
        "payer": _holder(names, entry["from"]),
        "payee": _holder(names, entry["to"]),
        "what": what,
    }


def _gold_and_goods(gold: int, kinds: list) -> str:
    parts = [ngettext("%(count)s gold", "%(count)s gold", gold) % {"count": gold}] if gold else []
    if kinds:
        parts.append(goods(kinds))
    return _(" and ").join(parts) or _("nothing")


def _deal(deal: dict, names: list) -> dict:
    bags = []
    for entry in deal["bags"]:
        words = _("pass %(name)s's bag") if entry["action"] == "pass" else _("open %(name)s's bag")
        bags.append(words % {"name": names[entry["bag"]]})
    return {
        "offer": deal["offer"],
        "said": _("%(payer)s paid %(payee)s %(what)s, to %(bags)s")
        % {
            "payer": names[deal["payer"]],
            "payee": _holder(names, deal["payee"]),
            "what": _gold_and_goods(deal["gold"], deal["goods"]),
            "bags": ", ".join(bags),
        },
        "demand": deal["demand"],
        "promise": deal["promise"],
    }
