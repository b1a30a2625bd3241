"""What a bot may know, and nothing more: its seat's view (``engine.view_for``), the
moves open to it now (``engine.actions``) and the game log as that seat may know
it (``engine.project_log``). ``seen_by`` is the one place a bot's input touches the
state; the levels (games/bots/levels.py) decide from a ``Seen`` alone."""

from dataclasses import dataclass

from games.engine import project_log, view_for


@dataclass(frozen=True)
class Seen:
    seat: int
    view: dict
    moves: list  # the move descriptions open to the seat now
    must_act: bool  # the phase waits for this seat
    log: list  # the events so far, as this seat may know them

    def move(self, kind: str) -> dict | None:
        return next((m for m in self.moves if m["type"] == kind), None)

    @property
    def me(self) -> dict:
        return self.view["me"]

    @property
    def hand(self) -> list:
        return self.view["me"]["hand"]

    @property
    def gold(self) -> int:
        return self.view["players"][self.seat]["gold"]

    @property
    def phase(self) -> str:
        return self.view["phase"]["kind"]


def seen_by(state, seat: int, events: list = ()) -> Seen:
    """All ``seat`` may know of ``state`` and of the game's ``events`` so far."""
    view = view_for(state, seat)
    mine = view["my_moves"]
    return Seen(seat, view, mine["moves"], mine["must_act"], project_log(state, events, seat))
