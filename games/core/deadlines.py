"""Phase deadlines: computing, pausing, extending, displaying and exporting them.

Pure functions over timezone-aware datetimes; no database, no clock, and nothing
of Django but gettext (the words of durations and errors are translatable).
The current instant is always passed in as ``now``. Every datetime returned is
in UTC (``datetime.UTC``); naive datetimes are rejected with ``ValueError``.

Local wall-clock rule (used for daily deadlines and for moving a deadline off a
weekend): a local date and time is attached to the organizer's zone with
``fold=0`` and then round-tripped through UTC.

* A nonexistent local time (in the spring-forward gap, e.g. 02:30 on the last
  Sunday of March in Europe/Paris) is read with the offset in force before the
  gap, so it lands just after the gap: 02:30 becomes 03:30 local (01:30 UTC).
* An ambiguous local time (repeated in the autumn fall-back) resolves to its
  first occurrence, the one still on summer time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

__all__ = [
    "MAX_EXTENSION",
    "MAX_MINUTES",
    "MODES",
    "PHASE_KINDS",
    "DeadlinePolicy",
    "ExtensionError",
    "black_market_minutes",
    "extend",
    "format_for",
    "ics",
    "phase_deadline",
    "reminder_time",
    "resume",
]

MODES = ("none", "duration", "daily")
# "black_market": the Black Market step, the short wait for the merchants who could still
# claim when the last bag is decided (docs/engine.md section 12).
PHASE_KINDS = ("market", "market_turn", "load", "inspection", "black_market")
MAX_EXTENSION = timedelta(days=7)
BLACK_MARKET_SHARE = 10  # the Black Market step lasts a tenth of the inspection by default
# The longest time an organizer may give a phase or a reminder, in minutes (a year):
# far beyond any game, and far from what datetime arithmetic can overflow on.
MAX_MINUTES = 365 * 24 * 60

_SATURDAY = 5  # date.weekday(): Monday is 0, Saturday 5, Sunday 6
_DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Zulu"})
_UNITS = (
    (86400, ngettext_lazy("%(count)d day", "%(count)d days", "count")),
    (3600, ngettext_lazy("%(count)d hour", "%(count)d hours", "count")),
    (60, ngettext_lazy("%(count)d minute", "%(count)d minutes", "count")),
    (1, ngettext_lazy("%(count)d second", "%(count)d seconds", "count")),
)


@dataclass(frozen=True)
class DeadlinePolicy:
    """How an organizer's game sets phase deadlines.

    mode: "none" (no deadlines), "duration" (a fixed time per phase kind) or
        "daily" (the next occurrence of a local wall-clock time).
    durations: phase kind (one of PHASE_KINDS) -> timedelta, for mode "duration";
        a kind not listed has no deadline.
    daily_time: the local wall-clock time of the daily deadline (mode "daily").
    timezone: the organizer's IANA zone, for daily times and for weekends.
    skip_weekends: no deadline may fall on a Saturday or Sunday in `timezone`.
    min_gap: daily mode: the deadline is the first daily time at least this far
        after `now`.
    reminder_before: remind players this long before the deadline (None: never).
    """

    mode: str = "none"
    durations: dict = field(default_factory=dict)
    daily_time: time | None = None
    timezone: str = "UTC"
    skip_weekends: bool = False
    min_gap: timedelta = timedelta(hours=1)
    reminder_before: timedelta | None = None


class ExtensionError(ValueError):
    """An extension that is not positive or exceeds the allowed maximum."""


# -- helpers ---------------------------------------------------------------------------


def _utc(value: datetime, name: str) -> datetime:
    """`value` converted to UTC; naive datetimes are a programming error."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, got {value!r}")
    return value.astimezone(UTC)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc


def _local_to_utc(day: date, at: time, zone: tzinfo) -> datetime:
    """The UTC instant of wall-clock `day` `at` in `zone` (see the module docstring).

    fold=0 takes the pre-transition offset, so a time in a spring-forward gap is
    pushed forward by the gap and an ambiguous fall-back time is its first occurrence.
    """
    local = datetime.combine(day, at.replace(tzinfo=None, fold=0)).replace(tzinfo=zone, fold=0)
    return local.astimezone(UTC)


def _is_weekend(day: date) -> bool:
    return day.weekday() >= _SATURDAY


def human(delta: timedelta) -> str:
    """A short rendering of a duration in the active language: '7 days',
    '1 day 2 hours', '1 minute 30 seconds'."""
    seconds = int(delta.total_seconds())
    parts = []
    for size, unit in _UNITS:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(unit % {"count": count})
    return " ".join(parts) or _UNITS[-1][1] % {"count": 0}


# -- computing deadlines ---------------------------------------------------------------


def phase_deadline(policy: DeadlinePolicy, phase_kind: str, now: datetime) -> datetime | None:
    """The deadline (UTC) of a phase of kind `phase_kind` starting at `now`, or None.

    - "none": None.
    - "duration": now + policy.durations[phase_kind]; a kind with no duration has
      no deadline (None). With skip_weekends, a result on a Saturday or Sunday
      (in policy.timezone) moves to the following Monday at the same local
      wall-clock time.
    - "daily": the first occurrence of policy.daily_time in policy.timezone that
      is >= now + policy.min_gap, skipping Saturdays and Sundays if
      skip_weekends. The UTC instant follows DST (Europe/Paris 18:00 is 17:00
      UTC in winter, 16:00 UTC in summer). A daily time inside a spring-forward
      gap resolves to just after the gap (02:30 -> 03:30 local); an ambiguous
      fall-back time resolves to its first occurrence (fold=0).

    Raises ValueError for an unknown mode or zone, a naive `now`, or mode
    "daily" without a daily_time.
    """
    if policy.mode not in MODES:
        raise ValueError(f"unknown deadline mode {policy.mode!r}; expected one of {MODES}")
    now = _utc(now, "now")
    if policy.mode == "none":
        return None
    zone = _zone(policy.timezone)
    if policy.mode == "duration":
        duration = policy.durations.get(phase_kind)
        if duration is None:
            return None
        deadline = now + duration
        if policy.skip_weekends:
            local = deadline.astimezone(zone)
            if _is_weekend(local.date()):
                monday = local.date() + timedelta(days=7 - local.weekday())
                deadline = _local_to_utc(monday, local.time(), zone)
        return deadline
    # mode == "daily"
    if policy.daily_time is None:
        raise ValueError("deadline mode 'daily' needs a daily_time")
    earliest = now + policy.min_gap
    # Start a day early: a gap around midnight can push a wall-clock time into the next day.
    day = earliest.astimezone(zone).date() - timedelta(days=1)
    while True:
        if not (policy.skip_weekends and _is_weekend(day)):
            candidate = _local_to_utc(day, policy.daily_time, zone)
            if candidate >= earliest:
                return candidate
        day += timedelta(days=1)


def reminder_time(
    policy: DeadlinePolicy, deadline: datetime | None, now: datetime
) -> datetime | None:
    """When to remind players of `deadline` (UTC), or None.

    None if there is no deadline, no reminder_before, or the reminder would fall
    before `now` (the phase is shorter than the reminder lead: too late to help).
    """
    if deadline is None or policy.reminder_before is None:
        return None
    at = _utc(deadline, "deadline") - policy.reminder_before
    return None if at < _utc(now, "now") else at


def bargaining_end(
    minutes: int | None, deadline: datetime | None, now: datetime
) -> datetime | None:
    """When an inspection's bargaining time (see rules-decisions.md) runs out, or None.

    ``minutes`` is the organizer's setting: 0 means no bargaining time (it is over
    at ``now``); None means half the time to the inspection's ``deadline`` (no limit
    when the phase has no deadline). Never later than the deadline, which decides
    every bag anyway.
    """
    now = _utc(now, "now")
    if minutes == 0:
        return now
    if minutes is None:
        return None if deadline is None else now + (_utc(deadline, "deadline") - now) / 2
    end = now + timedelta(minutes=minutes)
    return end if deadline is None else min(end, _utc(deadline, "deadline"))


def black_market_minutes(minutes: int | None, inspection_minutes: int) -> float:
    """How long the Black Market step lasts, in minutes (0: no deadline).

    ``minutes`` is the organizer's setting; None means a tenth of the inspection
    time: the bags are all decided and most merchants it waits for cannot claim
    (the table waits for all who might, so as not to tell who can), so the step
    costs the table a small fraction of a phase; a merchant can answer ahead (see
    engine/black_market.py). An inspection without a deadline gives a step without one.
    """
    return inspection_minutes / BLACK_MARKET_SHARE if minutes is None else minutes


def resume(deadline: datetime | None, paused_at: datetime, resumed_at: datetime) -> datetime | None:
    """The deadline after a pause: shifted by the paused time (resumed_at - paused_at).

    None stays None. A negative pause (resumed before paused) raises ValueError.
    """
    paused_for = _utc(resumed_at, "resumed_at") - _utc(paused_at, "paused_at")
    if paused_for < timedelta(0):
        raise ValueError(f"resumed_at ({resumed_at}) is before paused_at ({paused_at})")
    if deadline is None:
        return None
    return _utc(deadline, "deadline") + paused_for


def extend(
    deadline: datetime | None,
    by: timedelta,
    now: datetime,
    max_extension: timedelta = MAX_EXTENSION,
) -> datetime:
    """The deadline pushed back by `by`, which must be > 0 and <= `max_extension`.

    Extends from `now` when there is no deadline yet or it has already passed.
    Raises ExtensionError (a ValueError) when `by` is out of bounds.
    """
    if by <= timedelta(0):
        raise ExtensionError(_("an extension must be longer than 0, got %(given)s") % {"given": by})
    if by > max_extension:
        raise ExtensionError(
            _("an extension may be at most %(most)s, got %(given)s")
            % {"most": human(max_extension), "given": human(by)}
        )
    now = _utc(now, "now")
    base = now if deadline is None else _utc(deadline, "deadline")
    return max(base, now) + by


# -- displaying and exporting ----------------------------------------------------------


def _stamp(when: datetime, with_year: bool) -> str:
    year = f" {when.year}" if with_year else ""
    return (
        f"{_DAY_NAMES[when.weekday()]} {when.day} {_MONTH_NAMES[when.month - 1]}{year}, "
        f"{when:%H:%M}"
    )


def format_for(when: datetime, tz_name: str) -> dict:
    """`when` for display to a player in zone `tz_name` (unknown zones fall back to UTC).

    {"local": "Mon 23 Nov 2026, 18:00 (Europe/Paris)",
     "utc": "Mon 23 Nov, 17:00 UTC",
     "is_utc": False}
    Day names and months are English regardless of locale; is_utc is True when
    the local rendering is UTC itself (so a template can show a single line).
    """
    when = _utc(when, "when")
    try:
        zone = _zone(tz_name) if tz_name else None
    except ValueError:
        zone = None
    if zone is None or zone.key in _UTC_NAMES:
        zone_label, zone = "UTC", ZoneInfo("UTC")
    else:
        zone_label = zone.key
    local = when.astimezone(zone)
    return {
        "local": f"{_stamp(local, with_year=True)} ({zone_label})",
        "utc": f"{_stamp(when, with_year=False)} UTC",
        "is_utc": zone_label == "UTC",
    }


def _ics_uri(value: str) -> str:
    """A URI value is not TEXT (no escaping), but must not break the line structure."""
    return value.replace("\r", "").replace("\n", "")


def _ics_param(value: str) -> str:
    """A language tag as a parameter value: letters, digits and hyphens only."""
    return "".join(char for char in value if char.isascii() and (char.isalnum() or char == "-"))


def ics(
    summary: str,
    when: datetime,
    uid: str,
    url: str,
    now: datetime,
    description: str = "",
    language: str = "",
) -> str:
    """A one-event iCalendar (RFC 5545) document for a deadline at `when`.

    The event starts at `when` (UTC), lasts 15 minutes, links to `url` (none if
    empty), is described by `description` (else by `url`) and carries a display
    alarm one hour before. DTSTAMP is `now`. Lines are CRLF-terminated and folded
    at 75 octets; TEXT values are escaped. `language` (a tag such as "es"), if
    given, says which language the summary and description are written in.
    """
    start = _utc(when, "when")
    description = description or url
    # The LANGUAGE parameter (RFC 5545 §3.2.10), on the texts written for the reader.
    language = _ics_param(language)
    tagged = {"parameters": {"LANGUAGE": language}} if language else {}
    event = icalendar.Event()
    event.add("uid", uid)
    event.add("dtstamp", _utc(now, "now"))
    event.add("dtstart", start)
    event.add("dtend", start + timedelta(minutes=15))
    event.add("summary", summary, **tagged)
    if url:
        event.add("url", _ics_uri(url))
    if description:
        event.add("description", description, **tagged)
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary, **tagged)
    alarm.add("trigger", timedelta(hours=-1))
    event.add_component(alarm)
    calendar = icalendar.Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//sheriff_pbem//deadline//EN")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add_component(event)
    return calendar.to_ical().decode()


# -- time away ---------------------------------------------------------------------------


def away_window(first: date, last: date, tz_name: str) -> tuple[datetime, datetime]:
    """A player's time away, the days ``first`` to ``last`` inclusive in their own
    zone, as UTC instants: from the start of the first day to the end of the last
    (a day of 23 or 25 hours across a daylight-saving change counts as it is)."""
    zone = _zone(tz_name)
    return _local_to_utc(first, time(0), zone), _local_to_utc(
        last + timedelta(days=1), time(0), zone
    )


def back_from_away(now: datetime, windows: list) -> datetime | None:
    """When the absence under way at ``now`` ends (None: nobody is away now).
    Windows that overlap or touch one under way extend it."""
    now = _utc(now, "now")
    back = None
    for start, end in sorted(windows):
        if start <= (back or now) and end > (back or now):
            back = end
    return back


def waiting_for_away(
    policy: DeadlinePolicy, phase_kind: str, now: datetime, back: datetime, cap: timedelta
) -> tuple[datetime | None, timedelta]:
    """A deadline that fell while a player it waits for is away: the phase starts
    again when they are back (its full time, or the next daily time), so they get
    the whole phase. ``cap``: the waiting left in this game; when the absence is
    longer, the game waits only that long. Returns (new deadline, waiting used)."""
    now = _utc(now, "now")
    paused = _utc(back, "back") - now
    if paused > cap:
        return now + cap, cap
    return phase_deadline(policy, phase_kind, back), paused
