"""Awards for a finished game, each defined once here from the reveal
(games.engine.reveal.story) and documented in docs/players.md ("Awards").

An award goes to the seat with the highest score, every tied seat sharing it; it
is not given when nobody scores above zero (a game where nobody lied has no
luckiest liar). A share ("3 of 4 bags") is compared as a fraction; equal
fractions tie whatever their sizes.
"""

from dataclasses import dataclass
from fractions import Fraction

from .cards import card
from .state import BOOTY


@dataclass(frozen=True)
class Score:
    """One seat's score for an award: ``count`` alone, or ``count`` of ``out_of``."""

    count: float
    out_of: int | None = None

    @property
    def value(self) -> Fraction | float:
        return Fraction(int(self.count), self.out_of) if self.out_of else self.count


def most_honest(story: dict, players: int) -> dict:
    """The highest share of truthful bags (only the declared goods, as many as declared)."""
    return _share(story["bags"], players, lambda bag: bag["truthful"])


def boldest_smuggler(story: dict, players: int) -> dict:
    """The most contraband (and royal goods) value brought in by bags that passed."""
    scores: dict = {}
    for bag in story["bags"]:
        if bag["outcome"] == "passed":
            scores[bag["seat"]] = scores.get(bag["seat"], 0) + bag["smuggled_value"]
    return {seat: Score(value) for seat, value in scores.items()}


def biggest_briber(story: dict, players: int) -> dict:
    """The most gold, and goods at their value, paid in deals (offers and demands alike)."""
    scores: dict = {}
    for deal in story["deals"]:
        scores[deal["payer"]] = scores.get(deal["payer"], 0) + _paid(deal)
    return {seat: Score(value) for seat, value in scores.items()}


def most_bribed_sheriff(story: dict, players: int) -> dict:
    """The most gold, and goods at their value, received in deals as Sheriff or Deputy;
    what went to the Booty (6 players) counts half to each Deputy of the deal."""
    scores: dict = {}
    for deal in story["deals"]:
        if deal["payee"] == BOOTY:
            receivers = deal.get("deputies") or _deputies_of(story, deal)
            for deputy in receivers:
                scores[deputy] = scores.get(deputy, 0) + _paid(deal) / len(receivers)
        elif isinstance(deal["payee"], int):
            scores[deal["payee"]] = scores.get(deal["payee"], 0) + _paid(deal)
    return {seat: Score(value) for seat, value in scores.items()}


def sternest_sheriff(story: dict, players: int) -> dict:
    """The highest share of inspections among the bags the seat decided as Sheriff
    (6 players: among a Deputy's calls)."""
    decided: dict = {}
    inspected: dict = {}
    for bag in story["bags"]:
        judges = bag["calls"] or {bag["sheriff"]: bag["outcome"]}
        for judge, call in judges.items():
            decided[judge] = decided.get(judge, 0) + 1
            inspected[judge] = inspected.get(judge, 0) + (call in ("inspect", "inspected"))
    return {seat: Score(inspected[seat], decided[seat]) for seat in decided}


def luckiest_liar(story: dict, players: int) -> dict:
    """The most bags that were not truthful and passed all the same."""
    return _bags_counted(story, lambda bag: not bag["truthful"] and bag["outcome"] == "passed")


def most_caught(story: dict, players: int) -> dict:
    """The most bags inspected and found not truthful."""
    return _bags_counted(story, lambda bag: not bag["truthful"] and bag["outcome"] == "inspected")


# Each award's name (its key in the words above) and rule, in the order shown.
AWARDS = {
    "most_honest": most_honest,
    "boldest_smuggler": boldest_smuggler,
    "luckiest_liar": luckiest_liar,
    "most_caught": most_caught,
    "biggest_briber": biggest_briber,
    "most_bribed_sheriff": most_bribed_sheriff,
    "sternest_sheriff": sternest_sheriff,
}


def awards(story: dict, players: int) -> list:
    """[{"award", "seats", "score"}] for each award given, in AWARDS order; ``score``
    is the winners' Score."""
    given = []
    for name, rule in AWARDS.items():
        scores = rule(story, players)
        best = max((score.value for score in scores.values()), default=0)
        if best <= 0:
            continue
        seats = sorted(seat for seat, score in scores.items() if score.value == best)
        given.append({"award": name, "seats": seats, "score": scores[seats[0]]})
    return given


def _bags_counted(story: dict, counts) -> dict:
    """Per merchant: how many of their bags ``counts`` (merchants with none score nothing)."""
    scores: dict = {}
    for bag in story["bags"]:
        if counts(bag):
            scores[bag["seat"]] = scores.get(bag["seat"], 0) + 1
    return {seat: Score(value) for seat, value in scores.items()}


def _share(bags: list, players: int, counts) -> dict:
    """Per merchant: how many of their bags ``counts``, out of all their bags."""
    mine: dict = {}
    counted: dict = {}
    for bag in bags:
        mine[bag["seat"]] = mine.get(bag["seat"], 0) + 1
        counted[bag["seat"]] = counted.get(bag["seat"], 0) + bool(counts(bag))
    return {seat: Score(counted[seat], mine[seat]) for seat in mine}


def _paid(deal: dict) -> int:
    return deal["gold"] + sum(card(kind).value for kind in deal["goods"])


def _deputies_of(story: dict, deal: dict) -> list:
    """The Deputies who called the deal's bags (the Booty's sharers)."""
    called = {
        deputy
        for bag in story["bags"]
        if bag["round"] == deal["round"] and bag["deal"] == deal["offer"]
        for deputy in bag["calls"]
    }
    return sorted(called)
