"""Abandoned games: after ``abandon_after`` phases in a row that reach their
deadline with nobody having moved, the game pauses itself, tells the players
and the organizer, instead of mailing silent players to the end. With an
injected clock, as in the deadline service tests."""

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client

from games import engine
from games.core import controls, game_setup, moves, timers
from games.models import GameEvent, OutboxEmail
from games.words.narrate import Narrator
from tests.support.clock_games import PLAYERS, T0, TIMING, fresh
from tests.support.fixtures_pages import path_of
from tests.support.mailplay import deliver_pending, html_of

pytestmark = pytest.mark.django_db

PAUSED_ITSELF = "The game paused itself: nobody moved for 3 phases in a row."


def new_game(organizer_email="org@example.org", **timing):
    game = game_setup.create_game(
        name="Quiet table",
        players=PLAYERS,
        config={"edition": 2},
        seed="a5" * 32,
        organizer_email=organizer_email,
        timing={**TIMING, **timing},
        now=T0,
    )
    deliver_pending()
    mail.outbox.clear()
    return game


def silent_deadline(game) -> bool:
    """The current phase reaches its deadline with nobody having moved."""
    return timers.advance(game.pk, now=fresh(game).phase_deadline)


def notes(game) -> list:
    return [e.data["text"] for e in GameEvent.objects.filter(game=game, type="noted")]


def ben_loads(game):
    """Ben, a merchant, makes his move in the load phase."""
    state = fresh(game).engine_state()
    assert state.phase.kind == "load"
    card = state.hand(1)[0]
    outcome = moves.submit(
        game.seats.get(index=1),
        {"type": "load_bag", "cards": [card], "declared": "apples", "count": 1},
        version=state.phase.since,
        key="ben-loads",
    )
    assert outcome.accepted


def test_three_silent_deadlines_in_a_row_pause_the_game_and_tell_everyone():
    game = new_game()
    assert silent_deadline(game) and silent_deadline(game)  # the market, the load
    assert fresh(game).paused_at is None and fresh(game).idle_phases == 2
    deliver_pending()
    mail.outbox.clear()

    third = fresh(game).phase_deadline
    assert silent_deadline(game)  # the inspection: the round ends, round 2 begins
    paused = fresh(game)
    assert paused.paused_at == third and paused.engine_state().round == 2
    assert notes(game) == [PAUSED_ITSELF]
    assert not timers.advance(game.pk, now=third + timedelta(days=9))  # no deadline runs

    deliver_pending()
    players = {m.to[0]: m.body for m in mail.outbox if m.to[0] != "org@example.org"}
    assert sorted(players) == ["ann@example.org", "ben@example.org", "cid@example.org"]
    for body in players.values():  # one email each, instead of the new round's
        assert body.startswith("The game paused itself — Quiet table")
        assert "nobody moved for 3 phases in a row. No deadline runs until the organizer" in body
        assert PAUSED_ITSELF in body and "Deadline:" not in body
        assert "Time ran out for" in body  # what the last deadline did
    [alert] = [m for m in mail.outbox if m.to == ["org@example.org"]]
    assert alert.subject == "Sheriff of Nottingham: Quiet table — the game paused itself"
    organizer_page = f"/organize/{game.pk}/"
    assert organizer_page in alert.body and organizer_page in html_of(alert)
    admin_page = f"/admin/games/game/{game.pk}/change/"  # where its settings are changed
    assert "Deadline settings" in alert.body and admin_page in html_of(alert)
    assert "nobody moved for 3 phases in a row" in alert.body and "Resume the game" in alert.body


def test_the_page_says_why_the_game_is_paused_and_offers_no_move():
    game = new_game()
    for _ in range(3):
        silent_deadline(game)
    html = Client().get(path_of(game.seats.get(index=1))).content.decode()
    assert "nobody moved for 3 phases in a row" in html and PAUSED_ITSELF in html
    assert "Paused by the organizer" not in html
    assert "Deadline:" not in html and 'name="move"' not in html


def test_a_move_in_between_starts_the_count_again():
    game = new_game()
    silent_deadline(game)  # the market: 1
    ben_loads(game)
    assert fresh(game).idle_phases == 0
    silent_deadline(game)  # the load: Cid missed it, but Ben moved
    assert fresh(game).idle_phases == 0
    silent_deadline(game)  # the inspection: 1
    silent_deadline(game)  # round 2's market: 2
    assert fresh(game).paused_at is None and fresh(game).idle_phases == 2
    silent_deadline(game)  # round 2's load: 3
    assert fresh(game).paused_at is not None


def test_a_phase_that_ended_early_because_everyone_moved_breaks_the_run():
    game = new_game(bargaining_minutes=0)  # the Sheriff may decide at once
    silent_deadline(game)
    silent_deadline(game)  # 2 in a row; now the Sheriff decides every bag at once
    state = fresh(game).engine_state()
    ann = game.seats.get(index=0)
    for key, bag in enumerate(state.merchants()):
        since = fresh(game).engine_state().phase.since
        moves.submit(ann, {"type": "pass_bag", "bag": bag}, version=since, key=f"pass{key}")
    assert fresh(game).engine_state().round == 2 and fresh(game).idle_phases == 0
    silent_deadline(game)  # round 2's market: the first of a new run
    assert fresh(game).paused_at is None and fresh(game).idle_phases == 1


def test_after_a_resume_the_game_goes_on_with_a_fresh_count():
    game = new_game()
    for _ in range(3):
        silent_deadline(game)
    paused = fresh(game)
    later = paused.paused_at + timedelta(days=2)
    resumed = controls.resume(game.pk, expected_version=paused.version, now=later)
    assert resumed.paused_at is None and resumed.idle_phases == 0
    assert resumed.phase_deadline == later + timedelta(minutes=60)  # a whole market again
    assert silent_deadline(game) and silent_deadline(game)
    assert fresh(game).paused_at is None and fresh(game).idle_phases == 2
    assert silent_deadline(game)
    assert fresh(game).paused_at is not None and notes(game).count(PAUSED_ITSELF) == 2


def test_zero_means_never():
    game = new_game(abandon_after=0)
    for _ in range(6):
        assert silent_deadline(game)
    assert fresh(game).paused_at is None and fresh(game).idle_phases == 6
    assert PAUSED_ITSELF not in notes(game)


def test_the_organizers_advance_now_does_not_count():
    game = new_game()
    silent_deadline(game)
    silent_deadline(game)
    controls.advance_now(game.pk, expected_version=fresh(game).version)  # the inspection
    assert fresh(game).paused_at is None and fresh(game).idle_phases == 2
    silent_deadline(game)  # round 2's market: the third silent deadline in a row
    assert fresh(game).paused_at is not None


def test_without_an_organizer_address_the_game_still_pauses():
    game = new_game(organizer_email="")
    for _ in range(3):
        silent_deadline(game)
    assert fresh(game).paused_at is not None
    assert not OutboxEmail.objects.filter(kind="idle_alert").exists()
    assert OutboxEmail.objects.filter(kind="paused_itself").count() == 3


def test_the_games_own_note_is_not_signed_by_the_organizer_and_replays_exactly():
    state, log = engine.new_game({"edition": 2, "players": 3}, "a5" * 32)
    state, noted = engine.apply(state, {"type": "note", "text": PAUSED_ITSELF, "by": "game"})
    assert noted[0]["by"] == "game"
    assert engine.replay(log + noted).hash() == state.hash()
    narrator = Narrator(["Ann", "Ben", "Cid"], 1, piles=1)
    assert narrator.line(noted[0]) == PAUSED_ITSELF
    _, by_organizer = engine.apply(state, {"type": "note", "text": "The game is paused."})
    assert narrator.line(by_organizer[0]) == "Organizer: The game is paused."
    with pytest.raises(engine.EngineError):
        engine.apply(state, {"type": "note", "text": "Hello", "by": "Ben"})


def test_the_pause_note_carries_its_code_and_how_long_nobody_moved():
    """Read in each reader's language from these, not from its English text."""
    game = new_game()
    for _ in range(3):
        silent_deadline(game)
    [note] = GameEvent.objects.filter(game=game, type="noted")
    assert note.data["code"] == "paused_itself" and note.data["params"] == {"phases": 3}
    assert note.data["text"] == PAUSED_ITSELF


def test_a_notes_code_and_params_are_checked_and_replay_exactly():
    state, log = engine.new_game({"edition": 2, "players": 3}, "a5" * 32)
    command = {"type": "note", "text": PAUSED_ITSELF, "by": "game"}
    coded = {**command, "code": "paused_itself", "params": {"phases": 3}}
    state, noted = engine.apply(state, coded)
    assert noted[0]["code"] == "paused_itself" and noted[0]["params"] == {"phases": 3}
    assert engine.replay(log + noted).hash() == state.hash()
    for wrong in (
        {"params": {"phases": 3}},  # params without a code
        {"code": "two words"},
        {"code": "paused_itself", "params": {"phases": True}},
        {"code": "paused_itself", "params": {"phases": [3]}},
        {"code": "paused_itself", "params": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}},
    ):
        with pytest.raises(engine.EngineError):
            engine.apply(state, {**command, **wrong})
