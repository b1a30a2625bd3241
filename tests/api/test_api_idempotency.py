"""Commands are applied exactly once: 1,000 command POSTs, each sent three times with
the same Idempotency-Key, some of them across a database connection cut (the site
runs the request again) or a worker killed mid-request, before its commit or after it
(the client, left without an answer, sends it again)."""

import random
from unittest import mock

import pytest
from django.test import Client

from games import engine
from games.core import compiled, moves, standing
from games.models import Game, GameEvent, Submission
from tests.api.api_seats import ApiSeat, api_game
from tests.support.database_errors import failing_once, lost_connection

pytestmark = pytest.mark.django_db
COMMANDS = 1000


class WorkerKilled(BaseException):
    """A worker process dying mid-request: nothing after it runs, no answer is sent."""


def killed_once(real, after_commit: bool):
    def run(*args, **kwargs):
        run.calls += 1
        if run.calls == 1 and not after_commit:
            raise WorkerKilled
        result = real(*args, **kwargs)
        if run.calls == 1:
            raise WorkerKilled
        return result

    run.calls = 0
    return run


def send(player: ApiSeat, command: dict, version: int, key: str, fault: str):
    """The command sent as a client does until it gets an answer: the first try hit
    by ``fault``."""
    patches = {
        "cut": mock.patch.object(
            compiled, "insert", failing_once(compiled.insert, lost_connection())
        ),
        "killed_before_commit": mock.patch.object(
            standing, "follow", killed_once(standing.follow, after_commit=False)
        ),
        "killed_after_commit": mock.patch.object(
            moves, "submit", killed_once(moves.submit, after_commit=True)
        ),
    }
    if fault in patches:
        with patches[fault]:
            try:
                return player.command(command, version, key)
            except WorkerKilled:
                pass  # no answer: the client sends it again, below
    return player.command(command, version, key)


def choose(rnd: random.Random, seats: list) -> tuple:
    """A seat the game waits for and one of its example moves; while nobody is awaited
    (bargaining), any seat's."""
    found = []
    for player in seats:
        listed = player.get("/moves").json()
        for move in listed["moves"]:
            if move["example"]:
                found.append((listed["must_act"], player, move["example"], listed["version"]))
    awaited = [f for f in found if f[0]] or found
    assert awaited, "nobody can move"
    return rnd.choice(awaited)[1:]


def test_a_thousand_commands_each_sent_three_times_count_once():
    rnd = random.Random(5)
    faults = ["", "", "", "", "cut", "", "", "killed_before_commit", "", "killed_after_commit"]
    applied, games = 0, []
    while applied < COMMANDS:
        game, seats = api_game(players=("Ann", "Ben", "Cid", "Dee")[: rnd.choice((3, 4))])
        games.append(game)
        for player in seats:
            player.client = Client(HTTP_AUTHORIZATION=f"Bearer {player.token}")
        while applied < COMMANDS and Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
            player, command, version = choose(rnd, seats)
            key = f"k{applied}"
            answers = [send(player, command, version, key, faults[applied % len(faults)])]
            answers += [player.command(command, version, key) for _ in range(2)]
            statuses = [a.status_code for a in answers]
            if statuses[0] != 200:  # refused as it stands (stale, or the rules): never applied
                assert len(set(statuses)) == 1, statuses
                assert not Submission.objects.filter(key__endswith=f".api.{key}").exists()
                continue
            bodies = [a.json() for a in answers]
            assert statuses == [200, 200, 200]
            assert [b["repeated"] for b in bodies[1:]] == [True, True]
            assert len({b["version"] for b in bodies}) == 1
            assert Submission.objects.filter(key__endswith=f".api.{key}").count() == 1
            applied += 1
    assert Submission.objects.filter(key__contains=".api.").count() == COMMANDS
    for game in games:  # every log replays to the state kept: nothing applied twice
        events = list(
            GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True)
        )
        assert engine.replay(events) == Game.objects.get(pk=game.pk).engine_state()
