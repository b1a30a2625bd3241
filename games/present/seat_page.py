"""What a seat may see, built in one place: the seat page (games.web.views), the
emails (games.mail.emails), a reply's move (games.mail.reply_moves) and the API
(games.api) all start from a ``SeatView``. It holds the seat's projection of the
game (``engine.view_for``), never the state's hidden parts, with the table's names
and times; each reader words or serialises it its own way.
"""

from dataclasses import dataclass
from datetime import datetime

from games import engine
from games.core import selectors
from games.models import Game, Seat
from games.words import user_text


@dataclass(frozen=True)
class SeatView:
    seat: Seat
    game: Game
    state: engine.State  # read by the presenters that project events; never shown whole
    view: dict  # engine.view_for(state, seat.index): all the seat may know of the table
    seats: list  # the game's seats in seat order
    names: list  # their names, made safe to show (user_text.names)

    @property
    def version(self) -> int:
        """The phase version a move is made against (moves.submit's ``version``)."""
        return self.view["phase"]["since"] if self.view.get("phase") else self.view["version"]

    @property
    def halted(self) -> bool:
        return self.game.status == Game.Status.CANCELLED or self.game.paused_at is not None

    @property
    def deadline(self) -> datetime | None:
        return None if self.halted else self.game.phase_deadline

    @property
    def bargaining_until(self) -> datetime | None:
        return None if self.halted else self.game.bargaining_until


def seat_view(
    seat: Seat, *, game: Game | None = None, seats: list | None = None, state=None
) -> SeatView:
    """``seat``'s view of its game. ``game`` (the seat's, when read apart from it),
    ``seats`` (in seat order) and ``state``: read already by the caller, if so, so
    that a view costs no statement beyond what its caller has not read yet."""
    game = game if game is not None else seat.game
    state = state if state is not None else game.engine_state()
    seats = seats if seats is not None else selectors.seats_of(game)
    names = user_text.names(s.name for s in seats)
    return SeatView(seat, game, state, engine.view_for(state, seat.index), seats, names)
