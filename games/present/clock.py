"""Times as a seat reads them, in its own zone: the phase deadline and its
countdown, why a stopped game does not move, players away, and when the
organizer opened the full record. Pages and emails share these lines.
"""

from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.words.narrate import idle_for

# The zones a form offers to choose from (a searchable list).
ZONES = sorted(available_timezones() - {"localtime"})


def halted(game, tz_name: str) -> str:
    """Why nothing moves now, if the organizer (or, when nobody moved any more, the
    game itself) stopped it; "" otherwise."""
    if game.status == "cancelled" and game.finished_at is not None:
        when = deadline(game.finished_at, tz_name)["local"]
        return _("The organizer cancelled this game on %(when)s. The table stays readable.") % {
            "when": when
        }
    if game.paused_itself:
        when = deadline(game.paused_at, tz_name)["local"]
        return _(
            "Paused since %(when)s: nobody moved for %(idle)s. "
            "No deadline runs until the organizer resumes the game."
        ) % {"when": when, "idle": idle_for(game.idle_phases)}
    if game.paused_at is not None:
        when = deadline(game.paused_at, tz_name)["local"]
        return _(
            "Paused by the organizer since %(when)s. No deadline runs until the game resumes."
        ) % {"when": when}
    return ""


def halted_title(game) -> str:
    """The title a stopped game shows instead of its phase's ("Load your bag and
    declare" would read as an instruction); "" while it runs."""
    if game.status == "cancelled":
        return pgettext("a phase", "Game cancelled")
    if game.paused_at is not None:
        return pgettext("a phase", "Game paused")
    return ""


def away_notes(seats, today) -> dict:
    """Seat index -> what the table is told of a player away now or later
    (``today``: a date): "away until Fri 28 Nov", "away Mon 30 Mar to Fri 3 Apr"."""
    days = _("D j M")  # a short date, as the language writes it
    notes = {}
    for seat in seats:
        if not (seat.away_from and seat.away_until) or seat.away_until < today:
            continue
        until = date_format(seat.away_until, days)
        if seat.away_from <= today:
            notes[seat.index] = _("away until %(until)s") % {"until": until}
        else:
            first = date_format(seat.away_from, days)
            notes[seat.index] = _("away %(first)s to %(until)s") % {"first": first, "until": until}
    return notes


def record_openings(openings, tz_name: str) -> list:
    """Each time the organizer opened the game's full record while it was in play
    (games.organizer.records), in the seat's zone: [{"when", "reason"}]. The reason is the
    organizer's raw text: templates isolate it (user_text, isolated)."""
    return [{"when": deadline(o.opened_at, tz_name)["local"], "reason": o.reason} for o in openings]


def deadline(when, tz_name: str) -> dict | None:
    """The phase deadline in the seat's time zone and in UTC, or None."""
    if when is None:
        return None
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone, tz_name = ZoneInfo("UTC"), "UTC"
    local = when.astimezone(zone)
    utc = when.astimezone(UTC)
    # Django's date format letters (docs: the "date" filter): day and month names
    # follow the active language, and so may the order.
    full = pgettext("a deadline, with its year", "D d M Y, H:i")
    short = pgettext("a deadline, without its year", "D d M, H:i")
    return {
        "when": when,
        "local": _("%(when)s (%(zone)s)") % {"when": date_format(local, full), "zone": tz_name},
        "short": date_format(local, short),
        "utc": _("%(when)s UTC") % {"when": date_format(utc, short)},
        "is_utc": tz_name == "UTC",
        "countdown": countdown(when),  # for a deadline still to come
    }


def countdown(when, now=None) -> str:
    """How long until a deadline, as a page says it: "in 2 hours, 5 minutes"; under
    a minute, never "in 0 minutes"; past, the game moves on at its next sweep."""
    seconds = (when - (now or timezone.now())).total_seconds()
    if seconds <= 0:
        return _("any moment now")
    if seconds < 60:
        return _("in less than a minute")
    return _("in %(time)s") % {"time": timeuntil(when, now)}
