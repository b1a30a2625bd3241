"""games.core.deadlines: pure deadline arithmetic (no database, no clock)."""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.core.deadlines import (
    MAX_EXTENSION,
    PHASE_KINDS,
    DeadlinePolicy,
    ExtensionError,
    black_market_minutes,
    extend,
    format_for,
    ics,
    phase_deadline,
    reminder_time,
    resume,
)

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")


def utc(*args):
    return datetime(*args, tzinfo=UTC)


def daily(at, tz="UTC", **kwargs):
    return DeadlinePolicy(mode="daily", daily_time=at, timezone=tz, **kwargs)


# -- modes -----------------------------------------------------------------------------


def test_mode_none_has_no_deadline():
    assert phase_deadline(DeadlinePolicy(), "market", utc(2026, 11, 23, 12)) is None


def test_unknown_mode_is_an_error():
    with pytest.raises(ValueError, match="mode"):
        phase_deadline(DeadlinePolicy(mode="weekly"), "market", utc(2026, 11, 23, 12))


def test_naive_now_is_rejected():
    with pytest.raises(ValueError, match="aware"):
        phase_deadline(daily(time(18)), "market", datetime(2026, 11, 23, 12))


def test_daily_mode_needs_a_time():
    with pytest.raises(ValueError, match="daily_time"):
        phase_deadline(DeadlinePolicy(mode="daily"), "market", utc(2026, 11, 23, 12))


# -- duration mode ---------------------------------------------------------------------

DURATIONS = {
    "market": timedelta(days=2),
    "market_turn": timedelta(hours=12),
    "load": timedelta(days=1),
    "inspection": timedelta(hours=36),
    "black_market": timedelta(hours=6),
}


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("market", utc(2026, 11, 25, 9, 30)),
        ("market_turn", utc(2026, 11, 23, 21, 30)),
        ("load", utc(2026, 11, 24, 9, 30)),
        ("inspection", utc(2026, 11, 24, 21, 30)),
        ("black_market", utc(2026, 11, 23, 15, 30)),
    ],
)
def test_duration_per_phase_kind(kind, expected):
    policy = DeadlinePolicy(mode="duration", durations=DURATIONS)
    result = phase_deadline(policy, kind, utc(2026, 11, 23, 9, 30))
    assert result == expected
    assert result.tzinfo is UTC


def test_every_phase_kind_a_game_can_wait_in_has_a_duration():
    # The Black Market step too: a kind left out would have no deadline, and stall the game.
    assert set(DURATIONS) == set(PHASE_KINDS)


@pytest.mark.parametrize(
    ("minutes", "inspection", "expected"),
    [(None, 30, 3), (None, 25, 2.5), (None, 0, 0), (45, 30, 45), (0, 30, 0)],
)
def test_the_black_market_step_lasts_a_tenth_of_the_inspection_unless_set(
    minutes, inspection, expected
):
    assert black_market_minutes(minutes, inspection) == expected


def test_the_black_market_step_falls_at_the_daily_time_like_every_phase():
    policy = daily(time(18), "Europe/Paris")
    assert phase_deadline(policy, "black_market", utc(2026, 11, 23, 9)) == utc(2026, 11, 23, 17)


def test_duration_missing_kind_has_no_deadline():
    policy = DeadlinePolicy(mode="duration", durations={"market": timedelta(days=1)})
    assert phase_deadline(policy, "inspection", utc(2026, 11, 23, 9)) is None


def test_duration_returns_utc_for_a_non_utc_now():
    policy = DeadlinePolicy(mode="duration", durations={"load": timedelta(hours=5)})
    now = datetime(2026, 11, 23, 10, tzinfo=PARIS)  # 09:00 UTC
    result = phase_deadline(policy, "load", now)
    assert result == utc(2026, 11, 23, 14)
    assert result.tzinfo is UTC


def test_duration_skip_weekends_friday_evening_moves_to_monday_same_local_time():
    # Fri 20 Nov 2026 20:00 in New York is Sat 01:00 UTC; +1 day is Sat 20:00 local,
    # which moves to Mon 23 Nov 20:00 local = Tue 24 Nov 01:00 UTC.
    policy = DeadlinePolicy(
        mode="duration",
        durations={"load": timedelta(days=1)},
        timezone="America/New_York",
        skip_weekends=True,
    )
    now = datetime(2026, 11, 20, 20, tzinfo=NEW_YORK)
    assert phase_deadline(policy, "load", now) == utc(2026, 11, 24, 1)


def test_duration_skip_weekends_sunday_moves_to_monday():
    # Sat 21 Nov 2026 10:00 New York + 1 day = Sun 10:00 -> Mon 23 Nov 10:00 EST = 15:00 UTC.
    policy = DeadlinePolicy(
        mode="duration",
        durations={"load": timedelta(days=1)},
        timezone="America/New_York",
        skip_weekends=True,
    )
    now = datetime(2026, 11, 21, 10, tzinfo=NEW_YORK)
    assert phase_deadline(policy, "load", now) == utc(2026, 11, 23, 15)


def test_duration_skip_weekends_uses_the_local_weekday_not_utc():
    # Thu 19 Nov 20:00 New York + 1 day = Fri 20:00 local, already Saturday in UTC: kept.
    policy = DeadlinePolicy(
        mode="duration",
        durations={"load": timedelta(days=1)},
        timezone="America/New_York",
        skip_weekends=True,
    )
    now = datetime(2026, 11, 19, 20, tzinfo=NEW_YORK)
    assert phase_deadline(policy, "load", now) == utc(2026, 11, 21, 1)


def test_duration_weekend_is_not_skipped_unless_asked():
    policy = DeadlinePolicy(
        mode="duration", durations={"load": timedelta(days=1)}, timezone="America/New_York"
    )
    now = datetime(2026, 11, 20, 20, tzinfo=NEW_YORK)
    assert phase_deadline(policy, "load", now) == utc(2026, 11, 22, 1)


def test_duration_skip_weekends_keeps_local_time_across_dst():
    # Fri 26 Mar 2027 18:00 CET + 1 day = Sat 18:00 -> Mon 29 Mar 18:00 CEST = 16:00 UTC.
    policy = DeadlinePolicy(
        mode="duration",
        durations={"market": timedelta(days=1)},
        timezone="Europe/Paris",
        skip_weekends=True,
    )
    now = datetime(2027, 3, 26, 18, tzinfo=PARIS)
    assert now == utc(2027, 3, 26, 17)
    assert phase_deadline(policy, "market", now) == utc(2027, 3, 29, 16)


# -- daily mode ------------------------------------------------------------------------


def test_daily_before_todays_time_is_today():
    policy = daily(time(18), "Europe/Paris")
    now = utc(2026, 11, 23, 9)  # Monday 10:00 Paris
    assert phase_deadline(policy, "market", now) == utc(2026, 11, 23, 17)


def test_daily_after_todays_time_is_tomorrow():
    policy = daily(time(18), "Europe/Paris")
    now = utc(2026, 11, 23, 18)  # Monday 19:00 Paris
    assert phase_deadline(policy, "market", now) == utc(2026, 11, 24, 17)


def test_daily_min_gap_respected():
    # 17:30 Paris: today's 18:00 is only 30 minutes away, less than the default 1 hour.
    policy = daily(time(18), "Europe/Paris")
    assert phase_deadline(policy, "market", utc(2026, 11, 23, 16, 30)) == utc(2026, 11, 24, 17)
    # Exactly min_gap away is allowed (>=).
    assert phase_deadline(policy, "market", utc(2026, 11, 23, 16)) == utc(2026, 11, 23, 17)
    # A larger gap pushes further.
    wide = daily(time(18), "Europe/Paris", min_gap=timedelta(hours=30))
    assert phase_deadline(wide, "market", utc(2026, 11, 23, 9)) == utc(2026, 11, 24, 17)


def test_daily_skip_weekends_friday_after_the_time_goes_to_monday():
    policy = daily(time(18), "Europe/Paris", skip_weekends=True)
    now = datetime(2026, 11, 20, 19, tzinfo=PARIS)  # Friday 19:00 Paris
    assert phase_deadline(policy, "market", now) == utc(2026, 11, 23, 17)


def test_daily_without_skip_weekends_friday_evening_goes_to_saturday():
    policy = daily(time(18), "Europe/Paris")
    now = datetime(2026, 11, 20, 19, tzinfo=PARIS)
    assert phase_deadline(policy, "market", now) == utc(2026, 11, 21, 17)


def test_daily_skip_weekends_on_saturday_morning_goes_to_monday():
    policy = daily(time(18), "Europe/Paris", skip_weekends=True)
    now = datetime(2026, 11, 21, 9, tzinfo=PARIS)
    assert phase_deadline(policy, "market", now) == utc(2026, 11, 23, 17)


def test_daily_weekend_is_judged_in_the_organizer_zone():
    # 23:00 in Tokyo on Friday is 14:00 UTC Friday; Fri 20 Nov 23:00 JST is still a weekday.
    policy = daily(time(23), "Asia/Tokyo", skip_weekends=True)
    now = utc(2026, 11, 20, 1)  # Fri 10:00 JST
    assert phase_deadline(policy, "market", now) == utc(2026, 11, 20, 14)
    # After that, the next weekday deadline is Mon 23 Nov 23:00 JST.
    assert phase_deadline(policy, "market", utc(2026, 11, 20, 14, 30)) == utc(2026, 11, 23, 14)


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        # Paris, spring forward on Sunday 28 March 2027.
        (datetime(2027, 3, 27, 9, tzinfo=PARIS), utc(2027, 3, 27, 17)),  # Sat, CET
        (datetime(2027, 3, 28, 9, tzinfo=PARIS), utc(2027, 3, 28, 16)),  # the Sunday, CEST
        (datetime(2027, 3, 29, 9, tzinfo=PARIS), utc(2027, 3, 29, 16)),  # Mon, CEST
        (datetime(2027, 3, 27, 19, tzinfo=PARIS), utc(2027, 3, 28, 16)),  # across the change
        # Paris, fall back on Sunday 31 October 2027.
        (datetime(2027, 10, 30, 9, tzinfo=PARIS), utc(2027, 10, 30, 16)),  # Sat, CEST
        (datetime(2027, 10, 31, 9, tzinfo=PARIS), utc(2027, 10, 31, 17)),  # the Sunday, CET
        (datetime(2027, 11, 1, 9, tzinfo=PARIS), utc(2027, 11, 1, 17)),  # Mon, CET
        (datetime(2027, 10, 30, 19, tzinfo=PARIS), utc(2027, 10, 31, 17)),  # across the change
    ],
)
def test_daily_paris_across_dst(now, expected):
    assert phase_deadline(daily(time(18), "Europe/Paris"), "market", now) == expected


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        # New York, spring forward on Sunday 14 March 2027.
        (datetime(2027, 3, 13, 9, tzinfo=NEW_YORK), utc(2027, 3, 13, 23)),  # EST
        (datetime(2027, 3, 15, 9, tzinfo=NEW_YORK), utc(2027, 3, 15, 22)),  # EDT
        (datetime(2027, 3, 13, 19, tzinfo=NEW_YORK), utc(2027, 3, 14, 22)),  # across
        # New York, fall back on Sunday 7 November 2027.
        (datetime(2027, 11, 6, 9, tzinfo=NEW_YORK), utc(2027, 11, 6, 22)),  # EDT
        (datetime(2027, 11, 8, 9, tzinfo=NEW_YORK), utc(2027, 11, 8, 23)),  # EST
        (datetime(2027, 11, 6, 19, tzinfo=NEW_YORK), utc(2027, 11, 7, 23)),  # across
    ],
)
def test_daily_new_york_across_dst(now, expected):
    assert phase_deadline(daily(time(18), "America/New_York"), "market", now) == expected


def test_daily_time_in_spring_forward_gap_lands_just_after_the_gap():
    # 02:30 does not exist in Paris on 28 March 2027 (02:00 CET -> 03:00 CEST):
    # it resolves to 03:30 CEST = 01:30 UTC.
    policy = daily(time(2, 30), "Europe/Paris")
    result = phase_deadline(policy, "market", datetime(2027, 3, 27, 12, tzinfo=PARIS))
    assert result == utc(2027, 3, 28, 1, 30)
    assert result.astimezone(PARIS).time() == time(3, 30)
    # The days around it are ordinary.
    assert phase_deadline(policy, "market", datetime(2027, 3, 26, 12, tzinfo=PARIS)) == utc(
        2027, 3, 27, 1, 30
    )
    assert phase_deadline(policy, "market", datetime(2027, 3, 28, 12, tzinfo=PARIS)) == utc(
        2027, 3, 29, 0, 30
    )


def test_daily_time_in_new_york_gap():
    # 02:30 does not exist in New York on 14 March 2027: 03:30 EDT = 07:30 UTC.
    policy = daily(time(2, 30), "America/New_York")
    now = datetime(2027, 3, 13, 12, tzinfo=NEW_YORK)
    assert phase_deadline(policy, "market", now) == utc(2027, 3, 14, 7, 30)


def test_daily_ambiguous_fall_back_time_uses_the_first_occurrence():
    # 02:30 happens twice in Paris on 31 October 2027; the first is CEST = 00:30 UTC.
    policy = daily(time(2, 30), "Europe/Paris")
    now = datetime(2027, 10, 30, 12, tzinfo=PARIS)
    assert phase_deadline(policy, "market", now) == utc(2027, 10, 31, 0, 30)


def test_daily_deadline_is_always_the_first_valid_daily_time():
    # Brute force over a year of hourly clocks in Paris with weekends skipped.
    policy = daily(time(18), "Europe/Paris", skip_weekends=True)
    now = utc(2027, 1, 1)
    while now < utc(2028, 1, 1):
        result = phase_deadline(policy, "market", now)
        local = result.astimezone(PARIS)
        assert local.time() == time(18)
        assert local.weekday() < 5
        assert result >= now + policy.min_gap
        # Nothing valid in between: the previous weekday's 18:00 was too early.
        previous = local - timedelta(days=3 if local.weekday() == 0 else 1)
        assert previous.replace(tzinfo=PARIS).astimezone(UTC) < now + policy.min_gap
        now += timedelta(hours=1)


def test_unknown_policy_timezone_is_a_value_error():
    with pytest.raises(ValueError, match="Mars/Olympus"):
        phase_deadline(daily(time(18), "Mars/Olympus"), "market", utc(2026, 11, 23))


# -- reminders -------------------------------------------------------------------------


def test_reminder_time_normal():
    policy = DeadlinePolicy(reminder_before=timedelta(hours=6))
    deadline = utc(2026, 11, 24, 17)
    assert reminder_time(policy, deadline, utc(2026, 11, 23, 12)) == utc(2026, 11, 24, 11)


def test_reminder_time_exactly_now_is_kept():
    policy = DeadlinePolicy(reminder_before=timedelta(hours=6))
    now = utc(2026, 11, 24, 11)
    assert reminder_time(policy, utc(2026, 11, 24, 17), now) == now


def test_reminder_time_too_late_is_none():
    # The phase lasts 2 hours; a 6-hour reminder would be in the past.
    policy = DeadlinePolicy(reminder_before=timedelta(hours=6))
    assert reminder_time(policy, utc(2026, 11, 24, 17), utc(2026, 11, 24, 15)) is None


def test_reminder_time_without_reminder_or_deadline_is_none():
    now = utc(2026, 11, 23, 12)
    assert reminder_time(DeadlinePolicy(), utc(2026, 11, 24, 17), now) is None
    policy = DeadlinePolicy(reminder_before=timedelta(hours=6))
    assert reminder_time(policy, None, now) is None


# -- pause / resume --------------------------------------------------------------------


def test_resume_shifts_by_the_paused_time():
    deadline = utc(2026, 11, 24, 17)
    assert resume(deadline, utc(2026, 11, 23, 10), utc(2026, 11, 23, 13)) == utc(2026, 11, 24, 20)


def test_resume_across_a_dst_change_shifts_by_elapsed_time():
    # Paused Sat 27 Mar 2027 22:00 Paris (CET), resumed Sun 28 Mar 03:00 (CEST):
    # 5 wall-clock hours but only 4 real hours.
    paused = datetime(2027, 3, 27, 22, tzinfo=PARIS)
    resumed = datetime(2027, 3, 28, 3, tzinfo=PARIS)
    assert resume(utc(2027, 3, 29, 16), paused, resumed) == utc(2027, 3, 29, 20)


def test_resume_none_stays_none():
    assert resume(None, utc(2026, 11, 23, 10), utc(2026, 11, 23, 13)) is None


def test_resume_zero_pause_keeps_the_deadline():
    at = utc(2026, 11, 23, 10)
    assert resume(utc(2026, 11, 24, 17), at, at) == utc(2026, 11, 24, 17)


def test_resume_negative_pause_is_an_error():
    with pytest.raises(ValueError):
        resume(utc(2026, 11, 24, 17), utc(2026, 11, 23, 13), utc(2026, 11, 23, 10))
    with pytest.raises(ValueError):
        resume(None, utc(2026, 11, 23, 13), utc(2026, 11, 23, 10))


# -- extensions ------------------------------------------------------------------------

NOW = utc(2026, 11, 23, 12)


@pytest.mark.parametrize("by", [timedelta(0), timedelta(hours=-1)])
def test_extend_must_be_positive(by):
    with pytest.raises(ExtensionError, match="longer than 0"):
        extend(utc(2026, 11, 24, 17), by, NOW)


def test_extend_over_the_maximum_names_the_bound():
    with pytest.raises(ExtensionError, match="at most 7 days"):
        extend(utc(2026, 11, 24, 17), timedelta(days=7, seconds=1), NOW)
    with pytest.raises(ExtensionError, match="at most 2 hours"):
        extend(utc(2026, 11, 24, 17), timedelta(hours=3), NOW, max_extension=timedelta(hours=2))


def test_extension_error_is_a_value_error():
    assert issubclass(ExtensionError, ValueError)


def test_extend_by_exactly_the_maximum_is_allowed():
    assert timedelta(days=7) == MAX_EXTENSION
    assert extend(utc(2026, 11, 24, 17), MAX_EXTENSION, NOW) == utc(2026, 12, 1, 17)


def test_extend_adds_to_a_future_deadline():
    assert extend(utc(2026, 11, 24, 17), timedelta(days=1), NOW) == utc(2026, 11, 25, 17)


def test_extend_without_a_deadline_starts_from_now():
    assert extend(None, timedelta(hours=5), NOW) == utc(2026, 11, 23, 17)


def test_extend_a_passed_deadline_starts_from_now():
    assert extend(utc(2026, 11, 22, 17), timedelta(hours=5), NOW) == utc(2026, 11, 23, 17)


# -- display ---------------------------------------------------------------------------


def test_format_for_paris():
    assert format_for(utc(2026, 11, 23, 17), "Europe/Paris") == {
        "local": "Mon 23 Nov 2026, 18:00 (Europe/Paris)",
        "utc": "Mon 23 Nov, 17:00 UTC",
        "is_utc": False,
    }


def test_format_for_local_date_differs_from_utc():
    # 23:30 UTC on Monday is Tuesday 08:30 in Tokyo.
    assert format_for(utc(2026, 11, 23, 23, 30), "Asia/Tokyo") == {
        "local": "Tue 24 Nov 2026, 08:30 (Asia/Tokyo)",
        "utc": "Mon 23 Nov, 23:30 UTC",
        "is_utc": False,
    }


def test_format_for_utc():
    assert format_for(utc(2026, 11, 3, 7, 5), "UTC") == {
        "local": "Tue 3 Nov 2026, 07:05 (UTC)",
        "utc": "Tue 3 Nov, 07:05 UTC",
        "is_utc": True,
    }


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "../etc/passwd", None])
def test_format_for_unknown_zone_falls_back_to_utc(zone):
    assert format_for(utc(2026, 11, 23, 17), zone) == {
        "local": "Mon 23 Nov 2026, 17:00 (UTC)",
        "utc": "Mon 23 Nov, 17:00 UTC",
        "is_utc": True,
    }


# -- iCalendar -------------------------------------------------------------------------


def unfold(text):
    return text.replace("\r\n ", "")


def test_ics_contains_the_fields():
    text = ics(
        "Market phase ends",
        datetime(2026, 11, 23, 18, tzinfo=PARIS),
        "game-42-phase-7@sheriff.test",
        "https://sheriff.test/g/42",
        utc(2026, 11, 20, 8, 1, 2),
    )
    lines = unfold(text).split("\r\n")
    assert lines[-1] == ""  # ends with CRLF
    lines = lines[:-1]
    assert lines[0] == "BEGIN:VCALENDAR"
    assert lines[-1] == "END:VCALENDAR"
    for expected in [
        "VERSION:2.0",
        "PRODID:-//sheriff_pbem//deadline//EN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        "UID:game-42-phase-7@sheriff.test",
        "DTSTAMP:20261120T080102Z",
        "DTSTART:20261123T170000Z",
        "DTEND:20261123T171500Z",
        "SUMMARY:Market phase ends",
        "URL:https://sheriff.test/g/42",
        "DESCRIPTION:https://sheriff.test/g/42",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT1H",
        "END:VALARM",
        "END:VEVENT",
    ]:
        assert expected in lines
    # The alarm is nested inside the event, which is inside the calendar.
    order = [lines.index(x) for x in ("BEGIN:VEVENT", "BEGIN:VALARM", "END:VALARM", "END:VEVENT")]
    assert order == sorted(order)


def test_ics_lines_are_crlf_terminated():
    text = ics("x", utc(2026, 11, 23, 17), "u", "https://s.test/", utc(2026, 11, 20))
    assert text.endswith("\r\n")
    assert "\n" not in text.replace("\r\n", "")
    assert "\r" not in text.replace("\r\n", "")


def test_ics_folds_long_lines_at_75_octets():
    summary = "Deadline for the inspection phase of a very long game name " * 3 + "éééééé" * 10
    url = "https://sheriff.test/games/" + "x" * 200
    text = ics(summary, utc(2026, 11, 23, 17), "u", url, utc(2026, 11, 20))
    physical = text.split("\r\n")[:-1]
    assert max(len(line.encode("utf-8")) for line in physical) <= 75
    assert any(line.startswith(" ") for line in physical)
    assert any(len(line.encode("utf-8")) == 75 for line in physical)
    logical = unfold(text).split("\r\n")
    assert f"SUMMARY:{summary}" in logical
    assert f"URL:{url}" in logical


def test_ics_escapes_text_values():
    text = ics(
        "Sheriff; bribes, goods\\contraband\nline two",
        utc(2026, 11, 23, 17),
        "id;1,2",
        "https://s.test/a?b=1,2;c",
        utc(2026, 11, 20),
    )
    lines = unfold(text).split("\r\n")
    assert "SUMMARY:Sheriff\\; bribes\\, goods\\\\contraband\\nline two" in lines
    assert "UID:id\\;1\\,2" in lines
    assert "DESCRIPTION:https://s.test/a?b=1\\,2\\;c" in lines
    # URL is a URI value, not TEXT: left unescaped.
    assert "URL:https://s.test/a?b=1,2;c" in lines


def test_ics_newlines_cannot_inject_properties():
    text = ics("a\r\nEND:VCALENDAR", utc(2026, 11, 23, 17), "u", "https://x\r\nX:1", NOW)
    lines = unfold(text).split("\r\n")
    assert lines.count("END:VCALENDAR") == 1
    assert "X:1" not in lines
