"""A game as its organizer controls it: where it stands, who it waits for, its
deadline, each seat's email delivery and the log, with the version the control
forms carry. The admin's Controls panel and the organizer's own page both show it.

Only the spectator's view and projection are read (games.organizer.labels): an
organizer who also plays learns nothing here that the other players could not see.
"""

from games.core import deadlines
from games.models import Game, GameEvent
from games.organizer import labels
from games.organizer.control_actions import MAX_EXTENSION_HOURS
from games.present import bot_levels


def overview(game: Game, zone: str, when=deadlines.format_for) -> dict:
    """``when(moment, zone)`` words a time as {"local", "utc", "is_utc", ...}: the
    admin's English by default, a page's language with games.present.clock.deadline."""

    def moment(at, zone) -> str:
        return when(at, zone)["local"] if at is not None else labels.NONE

    state = game.engine_state()
    names = labels.seat_names(game)
    active = game.status == Game.Status.ACTIVE
    events = GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True)
    deadline = game.phase_deadline
    return {
        "version": game.version,  # for the forms' compare-and-set only; never shown
        "active": active,
        "phase": labels.phase_line(game.state, names),
        "waiting": labels.waiting_for(state, names) if active else "",
        "deadline": when(deadline, zone) if deadline is not None else None,
        "paused_at": moment(game.paused_at, zone) if game.paused_at else "",
        "max_hours": MAX_EXTENSION_HOURS,
        "seats": [
            {
                "seat": seat,
                "bot": bot_levels.short(seat.bot) if seat.bot else "",
                "delivery": "" if seat.bot else labels.delivery(seat, zone, moment),
            }
            for seat in game.seats.all()
        ],
        "bot_levels": bot_levels.CHOICES,
        "log": labels.game_log(state, events.iterator(chunk_size=500), names),
    }
