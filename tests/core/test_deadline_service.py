"""Deadlines, reminders, missed moves and the organizer's controls, with an
injected clock (no worker needed)."""

from datetime import datetime, time, timedelta
from unittest import mock

import pytest
from django.core import mail
from django.db import connection

from games import engine, tasks
from games.core import (
    bulk,
    controls,
    deadline_claims,
    deadline_runner,
    deadlines,
    game_setup,
    game_writes,
    links,
    moves,
    outbox_handoff,
    staged_advances,
    timers,
)
from games.engine.state import BlackMarketStep, Inspection, Load, Market, MarketTurn
from games.models import Game, GameEvent, OutboxEmail, Seat
from tests.support.builders import rig
from tests.support.clock_games import PLAYERS, T0, TIMING, fresh, new_game
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db
AHEAD = timedelta(minutes=1)


def log_types(game) -> list:
    return list(GameEvent.objects.filter(game=game).values_list("type", flat=True))


def test_a_new_phase_gets_its_deadline_and_reminder_time():
    game = new_game()
    assert game.phase_deadline == T0 + timedelta(minutes=60)
    assert game.reminder_at == T0 + timedelta(minutes=40)


def test_every_phase_a_game_waits_in_has_a_duration():
    """A phase kind with no duration has no deadline: a game would stall in it."""
    waiting = {phase.kind for phase in (Market, MarketTurn, Load, Inspection, BlackMarketStep)}
    assert set(deadlines.PHASE_KINDS) == waiting
    assert set(game_writes.policy(new_game()).durations) == waiting


def test_no_deadline_mode_sets_none():
    game = new_game(deadline_mode="none")
    assert game.phase_deadline is None and game.reminder_at is None


def test_the_deadline_fires_only_once_it_has_passed_and_applies_the_defaults():
    game = new_game()
    assert not timers.advance(game.pk, now=T0 + timedelta(minutes=59))
    assert timers.advance(game.pk, now=T0 + timedelta(minutes=60))
    game = fresh(game)
    assert game.engine_state().phase.kind == "load"
    assert "timed_out" in log_types(game)
    assert game.phase_deadline == T0 + timedelta(minutes=60 + 120)


def test_the_same_advance_delivered_twice_makes_one_transition():
    game = new_game()
    version = game.version
    later = T0 + timedelta(hours=1)
    assert timers.advance(game.pk, expected_version=version, now=later)
    assert not timers.advance(game.pk, expected_version=version, now=later)
    assert fresh(game).engine_state().phase.kind == "load"


def test_reminders_go_once_to_the_seats_that_still_owe_a_move():
    game = new_game()
    ben = game.seats.get(index=1)
    moves.submit(
        ben,
        {"type": "set_aside", "cards": []},
        version=game.engine_state().phase.since,
        key="ben",
        now=T0,
    )
    assert timers.send_reminders(game.pk, now=T0 + timedelta(minutes=39)) == 0
    assert timers.send_reminders(game.pk, now=T0 + timedelta(minutes=40)) == 1  # Cid only
    assert timers.send_reminders(game.pk, now=T0 + timedelta(minutes=41)) == 0
    reminders = OutboxEmail.objects.filter(key__contains=":remind")
    assert [r.to for r in reminders] == ["cid@example.org"]


def test_the_organizer_is_alerted_once_when_a_seat_misses_deadlines_in_a_row():
    game = new_game(miss_alert_after=2)
    now = T0
    for _ in range(2):  # market, then load: Ben and Cid miss both
        now = fresh(game).phase_deadline
        assert timers.advance(game.pk, now=now)
    assert OutboxEmail.objects.filter(to="org@example.org").count() == 2
    deliver_pending()  # an alert is written when it is sent
    alerts = [m for m in mail.outbox if m.to == ["org@example.org"]]
    assert sorted(a.subject.split("— ")[1] for a in alerts) == [
        "Ben is missing deadlines",
        "Cid is missing deadlines",
    ]
    assert Seat.objects.get(game=game, index=1).missed_in_a_row == 2


def test_a_move_resets_the_missed_count():
    game = new_game()
    timers.advance(game.pk, now=T0 + timedelta(hours=1))
    ben = Seat.objects.get(game=game, index=1)
    assert ben.missed_in_a_row == 1
    state = fresh(game).engine_state()
    card = state.hand(1)[0]
    moves.submit(
        ben,
        {"type": "load_bag", "cards": [card], "declared": "apples", "count": 1},
        version=state.phase.since,
        key="load",
        now=T0 + timedelta(hours=1),
    )
    assert Seat.objects.get(pk=ben.pk).missed_in_a_row == 0


def test_pause_and_resume_shift_the_deadline_by_the_paused_time():
    game = new_game()
    paused = controls.pause(game.pk, expected_version=game.version, now=T0 + timedelta(minutes=10))
    assert not timers.advance(game.pk, now=T0 + timedelta(hours=5))  # paused: no deadline
    resumed = controls.resume(
        game.pk, expected_version=paused.version, now=T0 + timedelta(hours=3, minutes=10)
    )
    assert resumed.phase_deadline == T0 + timedelta(hours=4)
    assert resumed.reminder_at == T0 + timedelta(hours=3, minutes=40)
    assert log_types(game).count("noted") == 2


def test_extend_is_bounded_and_safe_against_a_double_submit():
    game = new_game()
    with pytest.raises(game_writes.ServiceError):
        controls.extend(game.pk, expected_version=game.version, by=timedelta(days=8), now=T0)
    extended = controls.extend(
        game.pk, expected_version=game.version, by=timedelta(hours=2), now=T0
    )
    assert extended.phase_deadline == T0 + timedelta(hours=3)
    with pytest.raises(game_writes.ServiceError, match="changed meanwhile"):
        controls.extend(game.pk, expected_version=game.version, by=timedelta(hours=2), now=T0)
    assert fresh(game).phase_deadline == T0 + timedelta(hours=3)


def test_advance_now_applies_the_defaults_before_the_deadline():
    game = new_game()
    controls.advance_now(game.pk, expected_version=game.version, now=T0)
    assert fresh(game).engine_state().phase.kind == "load"


def test_replacing_a_player_revokes_old_links_and_sends_the_current_email(client):
    game = new_game()
    seat = game.seats.get(index=1)
    old_link = links.seat_url(seat).replace("http://testserver", "")
    deliver_pending()
    controls.replace_player(
        seat.pk,
        expected_version=game.version,
        name="Bea",
        email="bea@example.org",
        timezone_name="Europe/Rome",
        now=T0,
    )
    assert client.get(old_link).status_code == 410
    deliver_pending()
    welcome = [m for m in mail.outbox if m.to == ["bea@example.org"]]
    assert len(welcome) == 1 and "You have joined the game" in welcome[0].body
    assert "Bea takes over seat 2 from Ben." in [
        e.data.get("text") for e in GameEvent.objects.filter(game=game, type="noted")
    ]


def test_cancel_stops_the_game_and_its_deadlines():
    game = new_game()
    cancelled = controls.cancel(game.pk, expected_version=game.version, now=T0)
    assert cancelled.status == Game.Status.CANCELLED and cancelled.phase_deadline is None
    assert not timers.advance(game.pk, now=T0 + timedelta(days=1))


def test_a_game_without_early_advance_holds_a_complete_phase_until_its_deadline():
    game = new_game(advance_early=False)
    since = game.engine_state().phase.since
    for index in (1, 2):
        seat = game.seats.get(index=index)
        moves.submit(
            seat, {"type": "set_aside", "cards": []}, version=since, key=f"s{index}", now=T0
        )
    assert fresh(game).engine_state().phase.kind == "market"
    assert timers.advance(game.pk, now=T0 + timedelta(hours=1))
    assert fresh(game).engine_state().phase.kind == "load"
    assert "timed_out" not in log_types(game)


def test_emails_carry_the_deadline_as_a_calendar_event():
    new_game()
    deliver_pending()
    message = mail.outbox[0]
    assert message.attachments and message.attachments[0][0] == "deadline.ics"
    assert "DTSTART:20261123T100000Z" in message.attachments[0][1]


def test_the_calendar_event_names_the_game_and_deadline_but_not_the_seat_link():
    """A calendar entry is synced and shared; the link in it would let anyone play."""
    game = new_game()
    deliver_pending()
    for message in mail.outbox:
        seat = game.seats.get(email=message.to[0])
        # A token's first part (seat and link version) is the same whenever it is made.
        payload = links.make_token(seat).split(":")[0]
        assert f"/play/{payload}:" in message.body  # the email itself carries the link
        (name, content, _mimetype) = message.attachments[0]
        assert name == "deadline.ics"
        unfolded = content.replace("\r\n ", "")
        assert "Clockwork" in unfolded and "DTSTART:20261123T100000Z" in unfolded
        assert "/play/" not in unfolded
        assert payload not in unfolded
        assert "\r\nURL:" not in unfolded


class Sweeps:
    """Runs the beat's sweep at given instants with the tasks' ``delay`` recorded,
    not sent: what was handed to the workers, task by task."""

    def __init__(self):
        self.advance, self.remind, self.bargaining = [], [], []
        self.ahead = []  # (chunk, at, eta): deadlines handed out before they fall

    def hand_out_ahead(self, args, eta):
        chunk, at = args
        self.ahead.append((chunk, datetime.fromisoformat(at), eta))

    def at(self, *instants) -> None:
        with (
            mock.patch.object(tasks.advance_games, "delay", side_effect=self.advance.append),
            mock.patch.object(tasks.advance_games, "apply_async", side_effect=self.hand_out_ahead),
            mock.patch.object(tasks.remind_game, "delay", side_effect=self.remind.append),
            mock.patch.object(tasks.end_bargaining, "delay", side_effect=self.bargaining.append),
        ):
            for instant in instants:
                with mock.patch("games.core.deadline_sweep.timezone.now", return_value=instant):
                    tasks.sweep_deadlines()


def seconds_after(start, *seconds) -> list:
    return [start + timedelta(seconds=s) for s in seconds]


def test_the_sweep_hands_an_overdue_game_out_once_and_again_only_if_it_was_lost():
    game = new_game()
    sweeps = Sweeps()
    sweeps.at(*seconds_after(T0, 3600, 3601, 3602))  # overdue since T0 + 1 h; the worker is slow
    assert sweeps.advance == [[(game.pk, None)]]
    sweeps.at(T0 + timedelta(seconds=3640))  # the task was lost (Redis restarted): again
    assert sweeps.advance == [[(game.pk, None)]] * 2


def test_the_sweep_hands_a_due_reminder_out_once_and_again_only_if_it_was_lost():
    game = new_game()  # the reminder is due at T0 + 40 min
    sweeps = Sweeps()
    sweeps.at(T0 + timedelta(minutes=39, seconds=59))
    assert sweeps.remind == []
    due = T0 + timedelta(minutes=40)
    sweeps.at(*seconds_after(due, 0, 0.5, 1, 9))  # the worker is slow
    assert sweeps.remind == [game.pk]
    sweeps.at(due + timedelta(seconds=11))  # the task was lost: handed out again
    assert sweeps.remind == [game.pk] * 2
    assert fresh(game).remind_queued_at == due + timedelta(seconds=11)


def test_a_reminder_due_again_soon_after_the_last_one_was_handed_out_is_not_held_back():
    game = new_game()
    due = T0 + timedelta(minutes=40)
    sweeps = Sweeps()
    sweeps.at(due)
    # The organizer extends the deadline a little: the reminder is due again in 5 seconds.
    Game.objects.filter(pk=game.pk).update(reminder_at=due + timedelta(seconds=5))
    sweeps.at(*seconds_after(due, 4, 5, 6))
    assert sweeps.remind == [game.pk] * 2


def test_the_sweep_hands_an_ended_bargaining_time_out_once_and_again_only_if_it_was_lost():
    game = new_game()
    for _ in ("market", "load"):
        timers.advance(game.pk, now=T0, force=True)
    game = fresh(game)  # the inspection's bargaining time is half its 30 minutes
    assert game.bargaining_until == T0 + timedelta(minutes=15)
    sweeps = Sweeps()
    sweeps.at(*seconds_after(game.bargaining_until, -1, 0, 1, 2, 9))
    assert sweeps.bargaining == [game.pk]
    sweeps.at(game.bargaining_until + timedelta(seconds=30.5))
    assert sweeps.bargaining == [game.pk] * 2
    assert sweeps.advance == []  # the inspection's deadline is still 15 minutes away


def test_a_paused_game_is_not_swept():
    game = new_game()
    controls.pause(game.pk, expected_version=game.version, now=T0 + timedelta(minutes=1))
    sweeps = Sweeps()
    sweeps.at(T0 + timedelta(hours=3))
    assert (sweeps.advance, sweeps.remind, sweeps.bargaining) == ([], [], [])


def test_the_next_email_tells_what_timed_out():
    game = new_game()
    deliver_pending()
    timers.advance(game.pk, now=T0 + timedelta(hours=1))
    deliver_pending()
    latest = [m for m in mail.outbox if m.to == ["ben@example.org"]][-1]
    assert "Time ran out for you, Cid" in latest.body


# --- deadlines handed out ahead, worked out early, written at the deadline ---------------


def test_the_safety_sweep_leaves_a_deadline_to_the_process_that_holds_it():
    game = new_game()
    deadline = game.phase_deadline
    assert deadline_claims.claim("p1", deadline - timedelta(seconds=30), AHEAD, 10)
    sweeps = Sweeps()
    sweeps.at(*seconds_after(deadline, 0, 1, 2, 2.9))  # its lease holds until 3 s after
    assert sweeps.advance == []
    sweeps.at(deadline + timedelta(seconds=3.5))  # the process died: the sweep takes over
    assert sweeps.advance == [[(game.pk, None)]]
    assert fresh(game).deadline_claimed_by == deadline_claims.SWEEP_HOLDER


def test_two_processes_claim_a_deadline_once_and_a_lapsed_claim_is_taken_over():
    game = new_game()
    deadline = game.phase_deadline
    early = deadline - timedelta(seconds=30)
    assert deadline_claims.claim("p1", early, AHEAD, 10) == [(game.pk, deadline)]
    assert deadline_claims.claim("p2", early, AHEAD, 10) == []
    lapsed = deadline + deadline_claims.LEASE_AFTER_DEADLINE + timedelta(seconds=0.1)
    assert deadline_claims.claim("p2", lapsed, AHEAD, 10) == [(game.pk, deadline)]
    # p1 wakes up: the game is p2's to write now.
    assert timers.advance_many([(game.pk, None)], now=lapsed, holder="p1") == 0
    assert timers.advance_many([(game.pk, None)], now=lapsed, holder="p2") == 1
    assert fresh(game).deadline_claimed_until is None  # the next phase is unclaimed


def test_a_process_still_writing_keeps_its_claims_past_their_leases():
    game = new_game()
    deadline = game.phase_deadline
    deadline_claims.claim("p1", deadline - timedelta(seconds=30), AHEAD, 10)
    late = deadline + deadline_claims.LEASE_AFTER_DEADLINE + timedelta(seconds=5)
    deadline_claims.beat("p1", late - timedelta(seconds=1))  # busy with a long burst
    assert deadline_claims.claim("p2", late, AHEAD, 10) == []
    sweeps = Sweeps()
    sweeps.at(late)
    assert sweeps.advance == []
    silent = late + deadline_claims.ALIVE_FOR  # then it stops saying so
    assert deadline_claims.claim("p2", silent, AHEAD, 10) == [(game.pk, deadline)]


def test_a_new_deadline_is_claimed_afresh():
    game = new_game()
    deadline = game.phase_deadline
    deadline_claims.claim("p1", deadline - timedelta(seconds=30), AHEAD, 10)
    controls.extend(game.pk, expected_version=game.version, by=timedelta(hours=1), now=T0)
    later = fresh(game).phase_deadline
    assert deadline_claims.claim("p2", later - timedelta(seconds=30), AHEAD, 10) == [
        (game.pk, later)
    ]


class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


def test_two_deadline_processes_share_a_burst_and_write_each_game_once(monkeypatch):
    monkeypatch.setattr(deadline_runner, "CLAIM_BATCH", 2)
    monkeypatch.setattr(deadline_runner, "WRITE_CHUNK", 2)
    monkeypatch.setattr(deadline_runner, "UNPLANNED_AT_MOST", 2)
    games = [new_game() for _ in range(6)]
    deadline = games[0].phase_deadline
    clock = Clock(deadline - timedelta(seconds=30))
    runners = [deadline_runner.DeadlineRunner(f"p{i}", ahead=AHEAD, clock=clock) for i in (1, 2)]
    for _ in range(10):  # ahead: they claim and plan by turns
        for runner in runners:
            runner.step()
    held = [{pk for games in r.held.values() for pk in games} for r in runners]
    assert held[0] and held[1] and not held[0] & held[1]
    assert held[0] | held[1] == {game.pk for game in games}
    assert all(plan is not None for r in runners for g in r.held.values() for plan in g.values())
    clock.now = deadline
    with mock.patch.object(timers, "_transition", side_effect=AssertionError("recomputed")):
        for _ in range(5):
            for runner in runners:
                runner.step()
    assert sum(r.written for r in runners) == len(games)
    # On PostgreSQL every plan was staged and written by the one statement (a failing
    # statement would fall back to the ordinary path unseen).
    staged = len(games) if connection.vendor == "postgresql" else 0
    assert sum(r.written_staged for r in runners) == staged
    for game in games:
        assert fresh(game).engine_state().phase.kind == "load"
        assert GameEvent.objects.filter(game=game, type="timed_out").count() == 1


@pytest.mark.parametrize("failing", ["stage", "write"])
def test_a_failing_staged_write_leaves_the_games_to_the_ordinary_path(monkeypatch, failing):
    games = [new_game() for _ in range(2)]
    deadline = games[0].phase_deadline
    clock = Clock(deadline - timedelta(seconds=30))
    runner = deadline_runner.DeadlineRunner("p1", ahead=AHEAD, clock=clock)
    monkeypatch.setattr(staged_advances, failing, mock.Mock(side_effect=RuntimeError("broken")))
    for _ in range(3):
        runner.step()
    clock.now = deadline
    for _ in range(3):
        runner.step()
    assert runner.written == 2 and runner.written_staged == 0
    for game in games:
        assert GameEvent.objects.filter(game=game, type="timed_out").count() == 1


@pytest.mark.django_db(transaction=True)  # the emails are handed over on commit
def test_a_burst_s_emails_go_to_the_email_workers_once_it_is_written(monkeypatch):
    """While a process writes the deadlines falling together, their emails are in the
    outbox but no task sends them (the machine is the writes'); then all are sent."""
    monkeypatch.setattr(deadline_runner, "WRITE_CHUNK", 2)
    games = [new_game() for _ in range(4)]
    deadline = games[0].phase_deadline
    clock = Clock(deadline - timedelta(seconds=30))
    runner = deadline_runner.DeadlineRunner("p1", ahead=AHEAD, clock=clock)
    for _ in range(3):
        runner.step()
    before = set(OutboxEmail.objects.values_list("pk", flat=True))
    clock.now = deadline
    task = outbox_handoff.app.tasks[outbox_handoff.SEND_EMAILS]
    with mock.patch.object(task, "delay") as delay:
        runner.step()
        runner.step()
        assert runner.written == 4 and not delay.called
        owed = set(OutboxEmail.objects.exclude(pk__in=before).values_list("pk", flat=True))
        assert owed and {pk for ids in runner.unsent for pk in ids} == owed
        runner.step()  # nothing due: the burst is written
        assert {pk for call in delay.call_args_list for pk in call.args[0]} == owed
        assert not runner.unsent


def test_a_process_claims_as_it_plans_but_takes_everything_due_in_the_last_seconds(monkeypatch):
    monkeypatch.setattr(deadline_runner, "CLAIM_BATCH", 2)
    monkeypatch.setattr(deadline_runner, "UNPLANNED_AT_MOST", 2)
    games = [new_game() for _ in range(6)]
    deadline = games[0].phase_deadline
    clock = Clock(deadline - timedelta(seconds=30))
    runner = deadline_runner.DeadlineRunner("p1", ahead=AHEAD, clock=clock)
    runner.step()
    runner.step()  # two claimed: they are planned before more are claimed
    assert len(runner.held[deadline]) == 2
    clock.now = deadline - timedelta(seconds=3)
    for _ in range(2):
        runner.step()
    assert len(runner.held[deadline]) == 6


def test_a_process_stopping_releases_its_claims_for_another_to_take_at_once():
    game = new_game()
    deadline = game.phase_deadline
    clock = Clock(deadline - timedelta(seconds=30))
    first = deadline_runner.DeadlineRunner("p1", ahead=AHEAD, clock=clock)
    first.step()
    assert first.held
    assert first.release() == 1
    second = deadline_runner.DeadlineRunner("p2", ahead=AHEAD, clock=clock)
    second.step()
    assert game.pk in second.held[deadline]


def test_a_transition_worked_out_ahead_is_written_as_it_was_planned():
    game = new_game()
    deadline = game.phase_deadline
    late = set(engine.awaiting(game.engine_state()))
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    with mock.patch.object(timers, "_transition", side_effect=AssertionError("recomputed")):
        assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans) == 1
    moved = fresh(game)
    assert moved.engine_state().phase.kind == "load"
    assert moved.phase_deadline == deadline + timedelta(minutes=120)
    assert moved.engine_state().to_dict() == plans[game.pk].state.to_dict()
    missed = {s.index: s.missed_in_a_row for s in moved.seats.all()}
    assert missed == {index: int(index in late) for index in range(3)}


def test_a_move_after_the_plan_is_kept_and_the_deadline_still_falls():
    game = new_game()
    deadline = game.phase_deadline
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    first, *others = engine.awaiting(game.engine_state())
    # One merchant chooses in the last seconds: the phase goes on (the others have not).
    outcome = moves.submit(
        game.seats.get(index=first),
        {"type": "set_aside", "cards": []},
        version=game.phase_since,
        key="last-second",
    )
    assert outcome.accepted
    assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans) == 1
    moved = fresh(game)
    assert moved.engine_state().phase.kind == "load"
    missed = {s.index: s.missed_in_a_row for s in moved.seats.all()}
    assert missed[first] == 0 and all(missed[i] == 1 for i in others)  # their move counted
    assert GameEvent.objects.filter(game=game, type="timed_out").count() == 1


def test_a_plan_changes_nothing_when_the_deadline_was_moved_meanwhile():
    game = new_game()
    deadline = game.phase_deadline
    plans = timers.plan_advances([(game.pk, None)], at=deadline)
    controls.extend(game.pk, expected_version=game.version, by=timedelta(hours=1), now=deadline)
    assert timers.advance_many([(game.pk, None)], now=deadline, plans=plans) == 0
    assert fresh(game).engine_state().phase.kind == "market"


def test_many_deadlines_at_once_take_the_set_wide_writes():
    """From bulk.FAST_FROM rows on, PostgreSQL takes COPY: the same rows result."""
    games = [new_game() for _ in range(bulk.FAST_FROM + 5)]
    deadline = games[0].phase_deadline
    targets = [(game.pk, None) for game in games]
    before = set(OutboxEmail.objects.values_list("pk", flat=True))
    plans = timers.plan_advances(targets, at=deadline)
    assert timers.advance_many(targets, now=deadline, plans=plans) == len(games)
    for game in games:
        moved = fresh(game)
        assert moved.engine_state().phase.kind == "load"
        assert moved.version == plans[game.pk].state.seq
        seqs = list(GameEvent.objects.filter(game=game).values_list("seq", flat=True))
        assert seqs == list(range(moved.version))
        assert {s.missed_in_a_row for s in moved.seats.all()} <= {0, 1}
    owed = OutboxEmail.objects.exclude(pk__in=before)
    assert set(owed.values_list("game_id", flat=True)) == {game.pk for game in games}
    deliver_pending()
    assert not OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING).exists()


# --- the Black Market step (docs/engine.md section 12) ------------------------------------


def black_market_game(**timing) -> Game:
    """A Black Market game whose seat 1 holds 3 Silk on its stand from the start, so
    that when the inspection times out (every bag passes) the Black Market step
    waits for seat 1's claim."""
    game = game_setup.create_game(
        name="Silk Road",
        players=PLAYERS,
        config={"edition": 2, "black_market": True},
        seed="d1" * 32,
        organizer_email="org@example.org",
        timing={**TIMING, "abandon_after": 0, **timing},  # every phase times out here
        now=T0,
    )
    rigged = rig(game.engine_state(), "stand:1", ["silk"] * 3)
    Game.objects.filter(pk=game.pk).update(state=rigged.to_dict())
    return fresh(game)


def to_black_market_step(game) -> datetime:
    """Every phase times out at its deadline until the Black Market step; when it began."""
    while fresh(game).engine_state().phase.kind != "black_market":
        now = fresh(game).phase_deadline
        assert timers.advance(game.pk, now=now)
    assert fresh(game).engine_state().phase.seats == [1]
    return now


@pytest.mark.parametrize(
    ("timing", "lasts"),
    [
        ({}, timedelta(minutes=3)),  # blank: a tenth of the 30-minute inspection
        ({"black_market_minutes": 45}, timedelta(minutes=45)),
        ({"inspection_minutes": 25}, timedelta(minutes=2.5)),
    ],
)
def test_the_black_market_step_gets_its_own_deadline(timing, lasts):
    game = black_market_game(**timing)
    began = to_black_market_step(game)
    assert fresh(game).phase_deadline == began + lasts


def test_the_black_market_step_falls_at_the_daily_time_in_daily_mode():
    game = black_market_game(deadline_mode="daily", daily_time=time(18, 0), reminder_minutes=0)
    began = to_black_market_step(game)
    deadline = fresh(game).phase_deadline
    assert (deadline.hour, deadline.minute) == (18, 0) and began < deadline


def test_the_black_market_step_has_no_deadline_when_the_organizer_says_so():
    game = black_market_game(black_market_minutes=0)
    to_black_market_step(game)
    assert fresh(game).phase_deadline is None


def test_the_sweep_times_the_black_market_step_out_with_no_claim():
    game = black_market_game()
    to_black_market_step(game)
    deadline = fresh(game).phase_deadline
    missed = game.seats.get(index=1).missed_in_a_row
    clock = Clock(deadline - timedelta(seconds=30))
    runner = deadline_runner.DeadlineRunner("p1", ahead=AHEAD, clock=clock)
    runner.step()
    runner.step()  # claimed, then planned
    clock.now = deadline
    runner.step()
    assert runner.written == 1
    game = fresh(game)
    state = game.engine_state()
    assert state.round == 2 and state.phase.kind == "market"
    [timed_out] = GameEvent.objects.filter(game=game, type="timed_out").order_by("-seq")[:1]
    assert (timed_out.data["phase"], timed_out.data["seats"]) == ("black_market", [1])
    assert state.claims[1] == [] and "black_market_claimed" not in log_types(game)
    assert game.seats.get(index=1).missed_in_a_row == missed + 1  # Ben's choice timed out


def test_the_black_market_step_reminds_only_the_merchant_it_waits_for():
    game = black_market_game(black_market_minutes=60)  # the reminder: 20 minutes before
    began = to_black_market_step(game)
    assert fresh(game).reminder_at == began + timedelta(minutes=40)
    before = set(OutboxEmail.objects.values_list("pk", flat=True))
    assert timers.send_reminders(game.pk, now=began + timedelta(minutes=40)) == 1
    reminders = OutboxEmail.objects.exclude(pk__in=before).filter(key__contains=":remind")
    assert [r.to for r in reminders] == ["ben@example.org"]


def test_a_chunk_that_fails_is_advanced_game_by_game_the_broken_one_left(monkeypatch):
    """One broken game must not hold up the others of its chunk (the safety sweep's
    task and a deadline process both write chunks so)."""
    games = [new_game() for _ in range(3)]
    broken = games[1].pk
    real = timers._transition

    def transition(game, *args):
        if game.pk == broken:
            raise RuntimeError("a broken game")
        return real(game, *args)

    monkeypatch.setattr(timers, "_transition", transition)
    due = T0 + timedelta(minutes=60)
    with mock.patch("games.core.timers.timezone.now", return_value=due):
        assert timers.advance_chunk([(game.pk, None) for game in games]) == 2
    assert [fresh(game).version > game.version for game in games] == [True, False, True]
