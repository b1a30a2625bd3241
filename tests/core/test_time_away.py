"""Time away: a player marks days away in their own zone; when a deadline falls
while the phase waits for them, the game waits (the phase starts again when they
are back), up to the game's cap, or the missed-move defaults apply, as the
organizer chose. The arithmetic (games/core/deadlines.py) across zones and DST."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.core import deadlines, game_setup, timers
from games.core.links import settings_url
from games.models import Game, Seat
from tests.support.fixtures_pages import fresh, path_of

T0 = datetime(2026, 3, 27, 9, 0, tzinfo=UTC)  # a Friday; Europe's clocks change on Sunday 29
TODAY = timezone.localdate()  # the table is told of absences now or to come
HOUR = timedelta(hours=1)


# --- the arithmetic -------------------------------------------------------------------------


def test_an_away_window_runs_from_the_first_local_midnight_to_the_end_of_the_last_day():
    start, end = deadlines.away_window(date(2026, 3, 28), date(2026, 3, 29), "Europe/Madrid")
    assert start == datetime(2026, 3, 27, 23, 0, tzinfo=UTC)  # CET, UTC+1
    assert end == datetime(2026, 3, 29, 22, 0, tzinfo=UTC)  # CEST, UTC+2 after the change
    assert end - start == timedelta(hours=47)  # the 29th had 23 hours


@pytest.mark.parametrize(
    ("zone", "start"),
    [
        ("America/Los_Angeles", datetime(2026, 3, 28, 7, 0, tzinfo=UTC)),
        ("Asia/Tokyo", datetime(2026, 3, 27, 15, 0, tzinfo=UTC)),
        ("Pacific/Chatham", datetime(2026, 3, 27, 10, 15, tzinfo=UTC)),
    ],
)
def test_the_same_days_away_are_other_instants_in_other_zones(zone, start):
    assert deadlines.away_window(date(2026, 3, 28), date(2026, 3, 28), zone)[0] == start


def test_back_from_away_follows_windows_that_touch_or_overlap_and_ignores_later_ones():
    now = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)
    first = (now - HOUR, now + HOUR)
    touching = (now + HOUR, now + 5 * HOUR)
    later = (now + 6 * HOUR, now + 9 * HOUR)
    assert deadlines.back_from_away(now, [later, touching, first]) == now + 5 * HOUR
    assert deadlines.back_from_away(now, [later]) is None
    assert deadlines.back_from_away(now, []) is None


def test_the_phase_starts_again_when_the_player_is_back_within_the_cap():
    rules = deadlines.DeadlinePolicy(mode="duration", durations={"load": timedelta(hours=24)})
    back = T0 + 30 * HOUR
    deadline, used = deadlines.waiting_for_away(rules, "load", T0, back, timedelta(days=7))
    assert (deadline, used) == (back + timedelta(hours=24), 30 * HOUR)
    deadline, used = deadlines.waiting_for_away(rules, "load", T0, back, 10 * HOUR)
    assert (deadline, used) == (T0 + 10 * HOUR, 10 * HOUR)  # the cap: then defaults


def test_in_daily_mode_the_returning_player_gets_the_next_daily_time():
    rules = deadlines.DeadlinePolicy(mode="daily", daily_time=time(20, 0), timezone="Europe/Madrid")
    back = datetime(2026, 3, 29, 22, 0, tzinfo=UTC)  # Monday 00:00 in Madrid (CEST)
    deadline, _ = deadlines.waiting_for_away(rules, "market", T0, back, timedelta(days=7))
    assert deadline == datetime(2026, 3, 30, 18, 0, tzinfo=UTC)  # Monday 20:00 CEST


# --- the game waits, or not ------------------------------------------------------------------

pytestmark = pytest.mark.django_db
PACE = {"deadline_mode": "duration", "market_minutes": 60, "load_minutes": 60}


def new_game(**settings) -> Game:
    game = game_setup.create_game(
        name="Away",
        players=[
            game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ["Ann", "Ben", "Cid"]
        ],
        config={"edition": 2},
        seed="a7" * 32,
        timing=PACE,
        now=T0,
    )
    Game.objects.filter(pk=game.pk).update(**settings)
    return fresh(game)


def away(game, index: int, first: date, last: date) -> None:
    Seat.objects.filter(game=game, index=index).update(away_from=first, away_until=last)


def test_a_deadline_falling_while_an_awaited_player_is_away_waits_for_them():
    game = new_game()
    away(game, 1, date(2026, 3, 27), date(2026, 3, 28))  # Ben, in UTC
    at = game.phase_deadline
    assert timers.advance(game.pk, now=at)
    game = fresh(game)
    assert game.engine_state().phase.kind == "market"  # nobody's default was played
    back = datetime(2026, 3, 29, 0, 0, tzinfo=UTC)
    assert game.phase_deadline == back + timedelta(minutes=60)
    assert game.away_minutes_used == (back - at) / timedelta(minutes=1)
    assert Seat.objects.get(game=game, index=1).missed_in_a_row == 0


def test_without_waiting_for_away_players_the_defaults_apply():
    game = new_game(away_pauses=False)
    away(game, 1, date(2026, 3, 27), date(2026, 3, 28))
    assert timers.advance(game.pk, now=game.phase_deadline)
    assert fresh(game).engine_state().phase.kind == "load"


def test_the_cap_of_waiting_is_for_the_whole_game():
    game = new_game(away_cap_days=1, away_minutes_used=23 * 60)
    away(game, 1, date(2026, 3, 27), date(2026, 4, 5))
    at = game.phase_deadline
    assert timers.advance(game.pk, now=at)
    game = fresh(game)
    assert game.phase_deadline == at + HOUR and game.away_minutes_used == 24 * 60
    assert timers.advance(game.pk, now=game.phase_deadline)
    assert fresh(game).engine_state().phase.kind == "load"  # the cap is spent: defaults


def test_a_player_away_who_is_not_awaited_changes_nothing():
    game = new_game()
    sheriff = game.engine_state().sheriff
    away(game, sheriff, date(2026, 3, 27), date(2026, 3, 28))
    assert timers.advance(game.pk, now=game.phase_deadline)
    assert fresh(game).engine_state().phase.kind == "load"


def test_a_player_marks_time_away_in_the_settings_and_the_table_is_told():
    game = new_game()
    ben = Seat.objects.get(game=game, index=1)
    data = {
        "name": "Ben",
        "timezone": "Europe/Madrid",
        "language": "en",
        "notify": "results",
        "digest_hour": "",
        "away_from": str(TODAY),
        "away_until": str(TODAY + timedelta(days=5)),
    }
    Client().post(settings_url(ben).split("testserver")[-1], data)
    ben.refresh_from_db()
    assert (ben.away_from, ben.away_until) == (TODAY, TODAY + timedelta(days=5))
    ann = Seat.objects.get(game=game, index=0)
    html = Client().get(path_of(ann)).content.decode()
    assert "away until" in html and "Ben" in html


def test_the_table_is_told_of_an_absence_in_each_readers_language():
    from django.utils import translation

    from games.present.clock import away_notes

    ben = Seat(index=1, away_from=date(2030, 1, 2), away_until=date(2030, 1, 5))
    today = date(2029, 12, 30)
    assert away_notes([ben], today) == {1: "away Wed 2 Jan to Sat 5 Jan"}
    with translation.override("es"):
        assert away_notes([ben], today) == {1: "fuera del mié 2 ene al sáb 5 ene"}
        assert away_notes([ben], date(2030, 1, 3)) == {1: "fuera hasta el sáb 5 ene"}
    assert away_notes([ben], date(2030, 1, 6)) == {}


@pytest.mark.parametrize(
    ("first", "last", "said"),
    [
        ("2026-03-28", "", "Give both days"),
        ("2026-03-28", "2026-03-20", "ends before it begins"),
        ("2026-03-28", "2026-07-28", "at most 60 days"),
        ("yesterday", "2026-03-28", "Enter a valid date"),
    ],
)
def test_a_wrong_time_away_is_refused_and_changes_nothing(first, last, said):
    game = new_game()
    ben = Seat.objects.get(game=game, index=1)
    data = {"name": "Ben", "timezone": "UTC", "language": "en", "notify": "results"}
    url = settings_url(ben).split("testserver")[-1]
    response = Client().post(url, {**data, "away_from": first, "away_until": last})
    assert said in response.content.decode()
    ben.refresh_from_db()
    assert ben.away_from is None and ben.away_until is None
