"""Dates and times as the admin shows them when nothing more specific is said:
with the zone, e.g. "Tue 24 Nov 2026, 18:00 UTC" (never a bare "6 p.m.")."""

DATETIME_FORMAT = "D j M Y, H:i T"
SHORT_DATETIME_FORMAT = "D j M Y, H:i T"
DATE_FORMAT = "D j M Y"
TIME_FORMAT = "H:i"
