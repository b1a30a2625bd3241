"""The table's public record, read from the log as a seat may know it: how often
bags were opened, and how often an opened bag held a lie (the whole table's, or
one merchant's). Smoothed toward a prior, so that a game's first bags do not
swing a bot from one extreme to the other."""

from dataclasses import dataclass, field

PRIOR_INSPECTED = 0.3  # opened bags, before the table has shown its habits
PRIOR_LYING = 0.35  # lies among opened bags
PRIOR_WEIGHT = 3  # how many bags the prior counts for


@dataclass
class Record:
    log: list
    decided: int = 0
    opened: dict = field(default_factory=dict)  # merchant -> bags opened
    lies: dict = field(default_factory=dict)  # merchant -> opened bags that lied

    def __post_init__(self):
        for event in self.log:
            if event["type"] == "bag_passed":
                self.decided += 1
            elif event["type"] == "bag_inspected":
                self.decided += 1
                seat = event["seat"]
                self.opened[seat] = self.opened.get(seat, 0) + 1
                if not event["honest"]:
                    self.lies[seat] = self.lies.get(seat, 0) + 1

    def inspection_rate(self) -> float:
        opened = sum(self.opened.values())
        return (opened + PRIOR_INSPECTED * PRIOR_WEIGHT) / (self.decided + PRIOR_WEIGHT)

    def lie_rate(self, merchant: int | None = None) -> float:
        if merchant is None:
            opened, lies = sum(self.opened.values()), sum(self.lies.values())
        else:
            opened, lies = self.opened.get(merchant, 0), self.lies.get(merchant, 0)
        return (lies + PRIOR_LYING * PRIOR_WEIGHT) / (opened + PRIOR_WEIGHT)
