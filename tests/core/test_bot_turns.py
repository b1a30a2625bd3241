"""The bots at a table (games.core.bot_turns): they play through the path of every
move, with a delay, never past the deadline, get no email, and a failing bot's seat
plays its default."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.bots import bot, seen_by
from games.bots.turns import as_awaited, awaited_and_optional, fallback
from games.core import bot_turns, game_setup, moves
from games.core.game_setup import PlayerSpec
from games.engine.invariants import check_state
from games.models import Game, OutboxEmail

pytestmark = pytest.mark.django_db

PERSON = PlayerSpec(name="Alice", email="alice@example.org")


def _bots(count: int, level: str = "smuggler") -> list:
    names = ("Tuck (bot)", "Marian (bot)", "Much (bot)", "Will (bot)", "John (bot)", "Alan (bot)")
    return [PlayerSpec(name=names[i], email="", bot=level) for i in range(count)]


def _game(players: list, edition: int = 2, **timing) -> Game:
    return game_setup.create_game(
        name="With bots",
        players=players,
        config={"edition": edition},
        timing={"deadline_mode": "none", **timing},
    )


def _turn(game: Game, rnd) -> int:
    game.refresh_from_db()
    if game.bots_due_at is None:
        return 0
    return bot_turns.play(game.pk, now=game.bots_due_at, rnd=rnd)


@pytest.mark.parametrize(("players", "edition"), [(3, 1), (4, 2), (6, 2)])
def test_bots_alone_play_a_game_to_its_end(players, edition):
    game = _game(_bots(players, "smuggler")[:1] + _bots(players, "random")[1:], edition)
    rnd = random.Random(players)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.bots_due_at is not None, "the bots stopped with the game in play"
        _turn(game, rnd)
    assert game.status == Game.Status.FINISHED
    state = game.engine_state()
    assert check_state(state) == []
    replayed = engine.replay(list(game.events.order_by("seq").values_list("data", flat=True)))
    assert replayed.to_dict() == state.to_dict()
    assert not OutboxEmail.objects.filter(game=game).exists()  # a bot gets no email


def test_a_person_with_bots_is_asked_and_mailed_and_the_bots_wait_for_nobody_else():
    game = _game([PERSON, *_bots(3)])
    rnd = random.Random(1)
    person = game.seats.get(index=0)
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.engine_state()
        if awaited_and_optional(engine.actions(state), [0], {})[0]:
            events = list(game.events.order_by("seq").values_list("data", flat=True))
            command = bot("honest", rnd).decide(as_awaited(seen_by(state, 0, events)))
            command = command or fallback(state, 0)
            outcome = moves.submit(person, command, version=state.phase.since,
                                   key=f"k{state.seq}")  # fmt: skip
            assert outcome.accepted, outcome.message
        else:
            assert _turn(game, rnd) or game.bots_due_at is None
    assert game.status == Game.Status.FINISHED
    to = set(OutboxEmail.objects.filter(game=game).values_list("to", flat=True))
    assert to == {"alice@example.org"}


def test_the_bots_answer_after_the_delay_and_within_half_the_time_left():
    now = timezone.now()
    game = _game(_bots(4), deadline_mode="duration", market_minutes=60)
    assert now + timedelta(minutes=2) <= game.bots_due_at <= now + timedelta(minutes=4)
    assert bot_turns.play(game.pk, now=now) == 0  # not yet
    game = _game(_bots(4), deadline_mode="duration", market_minutes=2)
    assert game.bots_due_at <= game.phase_deadline - timedelta(seconds=55)
    practice = _game(_bots(4))
    assert practice.bots_due_at <= timezone.now() + timedelta(seconds=6)


def test_a_bot_that_raises_is_logged_and_its_seat_plays_its_default(monkeypatch, caplog):
    game = _game(_bots(4))

    def broken(level, rnd):
        raise RuntimeError("a broken bot")

    monkeypatch.setattr(bot_turns, "bot", broken)
    made = bot_turns.play(game.pk, now=game.bots_due_at)
    assert made == 3  # each merchant's market default: nothing traded
    assert "raised" in caplog.text
    game.refresh_from_db()
    assert game.engine_state().phase.kind == "load"


def test_a_refused_command_is_logged_and_the_default_played(monkeypatch, caplog):
    game = _game(_bots(4))

    class Cheat:
        def decide(self, seen):
            return {"type": "set_aside", "seat": seen.seat, "cards": [9999]}

    monkeypatch.setattr(bot_turns, "bot", lambda level, rnd: Cheat())
    assert bot_turns.play(game.pk, now=game.bots_due_at) == 3
    assert "refused" in caplog.text


def test_paused_or_finished_games_get_no_bot_turn():
    game = _game(_bots(4))
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now())
    assert bot_turns.play(game.pk, now=game.bots_due_at) == 0


def test_the_sweep_hands_a_due_bots_turn_to_a_worker_once(settings, monkeypatch):
    from games import tasks

    game = _game(_bots(4))
    handed = []
    monkeypatch.setattr(tasks.play_bots, "delay", handed.append)
    Game.objects.filter(pk=game.pk).update(bots_due_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_deadlines()
    tasks.sweep_deadlines()  # handed out already: not again before REQUEUE_AFTER
    assert handed == [game.pk]
    assert tasks.play_bots(game.pk) == 3  # the worker's turn: every merchant's market
    game.refresh_from_db()
    assert game.bots_queued_at is None and game.bots_due_at is not None  # the load is next


def test_bots_talk_now_and_then_in_their_language_from_the_table_alone(monkeypatch):
    from django.utils import translation

    from games.models import TalkMessage
    from games.words import bot_lines

    monkeypatch.setattr(bot_lines, "CHANCE", 1.0)
    spanish = [PlayerSpec(name=p.name, email="", language="es", bot="smuggler") for p in _bots(4)]
    game = _game(spanish)
    rnd = random.Random(5)
    for _ in range(400):
        game.refresh_from_db()
        if game.engine_state().round > 1 or game.status != Game.Status.ACTIVE:
            break
        _turn(game, rnd)
    said = set(TalkMessage.objects.filter(game=game).values_list("text", flat=True))
    with translation.override("es"):
        table = {str(line) for lines in bot_lines.LINES.values() for line in lines}
    assert said and said <= table
    assert not OutboxEmail.objects.filter(game=game).exists()


def test_a_bot_that_chose_to_wait_answers_an_offer_made_to_it_later():
    """A Sheriff's demand to a bot merchant that had nothing to say: it is asked again,
    and answers (accepts or refuses), as a person reads their demand email."""
    from games.models import Seat

    game = _game([PERSON, *_bots(3, "honest")])  # Alice is the first Sheriff
    rnd = random.Random(2)
    for _ in range(60):  # the bots play the market and load their bags
        game.refresh_from_db()
        if game.engine_state().phase.kind == "inspection":
            break
        state = game.engine_state()
        if awaited_and_optional(engine.actions(state), [0], {})[0]:
            alice = Seat.objects.get(game=game, index=0)
            moves.submit(alice, fallback(state, 0), version=state.phase.since, key=f"a{state.seq}")
        _turn(game, rnd)
    state = game.engine_state()
    assert state.phase.kind == "inspection" and state.sheriff == 0
    for _ in range(10):  # the merchants speak (an honest trader says "no offer")
        if not _turn(game, rnd):
            break
    state = Game.objects.get(pk=game.pk).engine_state()
    demand = {"type": "make_offer", "to": 1, "terms": {"gold": 1, "stand_goods": [],
              "sheriff": [{"bag": 1, "action": "pass"}]}}  # fmt: skip
    outcome = moves.submit(Seat.objects.get(game=game, index=0), demand,
                           version=state.phase.since, key="demand")  # fmt: skip
    assert outcome.accepted, outcome.message
    game.refresh_from_db()
    assert game.bots_due_at is not None  # the merchant is asked again
    _turn(game, rnd)
    answered = {e.type for e in game.events.filter(seq__gte=outcome.since)}
    assert answered & {"deal_made", "offer_refused"}, answered
