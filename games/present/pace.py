"""A game's pace in one line of words, for the organizer's form and the
invitations: "One phase a day at 18:00 Madrid time, weekends off"."""

from datetime import time, timedelta

from django.utils.translation import gettext as _

from games.core.deadlines import human


def zone_name(zone: str) -> str:
    """'Europe/Madrid' -> 'Madrid', 'America/Argentina/Buenos_Aires' -> 'Buenos Aires'."""
    return (zone or "UTC").rsplit("/", 1)[-1].replace("_", " ")


def _hours(minutes) -> str:
    return human(timedelta(minutes=int(minutes or 0)))


def summary(timing: dict, edition: int = 2) -> str:
    """The deadline settings (Game's fields, a time of day as a time or "HH:MM")."""
    mode = timing.get("deadline_mode") or "none"
    if mode == "daily":
        at = timing.get("daily_time")
        at = at if isinstance(at, time) else time.fromisoformat(at or "18:00")
        words = {"time": at.strftime("%H:%M"), "zone": zone_name(timing.get("deadline_timezone"))}
        if timing.get("skip_weekends"):
            return _("One phase a day at %(time)s %(zone)s time, weekends off") % words
        return _("One phase a day at %(time)s %(zone)s time, every day") % words
    if mode == "duration":
        market = timing.get("market_minutes" if edition == 2 else "market_turn_minutes")
        words = {
            "market": _hours(market),
            "load": _hours(timing.get("load_minutes")),
            "inspection": _hours(timing.get("inspection_minutes")),
        }
        if edition == 2:
            text = _("Market %(market)s, loading %(load)s, inspection %(inspection)s")
        else:
            text = _("Each market turn %(market)s, loading %(load)s, inspection %(inspection)s")
        return text % words
    return _("No deadlines: each phase waits until everyone has moved")
