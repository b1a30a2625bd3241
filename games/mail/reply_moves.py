"""A reply's move: its first line read (games.present.reply_commands) against the
seat's view of the game as it is now, for games.core.replies to make the page's
way. The core cannot read commands itself: their words live above it."""

from games.core.game_writes import ServiceError
from games.core.replies import ReplyMove
from games.present import move_done
from games.present.move_fields import FormError
from games.present.reply_commands import read
from games.present.seat_page import seat_view


def read_move(seat, text: str) -> ReplyMove | None:
    """The move ``text`` asks for (None: it is talk); ServiceError with the
    reason when it reads as a command that cannot be one."""
    seen = seat_view(seat)
    try:  # names as typed, not as shown: reply_words.seat_named folds them itself
        command = read(text, seen.view, [s.name for s in seen.seats])
    except FormError as error:
        raise ServiceError("bad_command", str(error)) from None
    if command is None:
        return None
    return ReplyMove(
        command,
        lambda outcome: move_done.told(seat, command["type"], outcome, seen.names),
    )
