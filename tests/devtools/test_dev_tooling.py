"""The development commands say things once and start what they are asked to:
creategame's first deadline, a fresh demo game once the last one is over, and a
file-system broker that does not warn about a host it has no use for."""

import logging
from io import StringIO

import pytest
from django.core.management import call_command
from kombu import Connection

from games.models import Game

pytestmark = pytest.mark.django_db

PLAYERS = [
    *("--player", "Ann <ann@example.org>"),
    *("--player", "Ben <ben@example.org>"),
    *("--player", "Cid <cid@example.org>"),
]


def creategame(*extra) -> str:
    out = StringIO()
    call_command(
        "creategame", "--name", "Clock", *PLAYERS, "--deadlines", "duration", *extra, stdout=out
    )
    return out.getvalue()


def deadline_line(output: str) -> str:
    return next(line for line in output.splitlines() if "First deadline" in line)


def test_creategame_says_a_utc_deadline_once():
    line = deadline_line(creategame("--market-minutes", "5"))
    assert line.count("UTC") == 1, line
    assert line.count(":") == 2, line  # "First deadline:" and one time


def test_creategame_says_a_local_deadline_with_its_utc_time():
    line = deadline_line(creategame("--market-minutes", "5", "--deadline-timezone", "Europe/Paris"))
    assert "(Europe/Paris)" in line and line.endswith("UTC)"), line


def demo(*args) -> str:
    out = StringIO()
    call_command("demo_game", *args, stdout=out)
    return out.getvalue()


def test_demo_game_is_found_again_while_it_is_in_play():
    demo()
    assert "exists" in demo()
    assert Game.objects.filter(name="Demo game").count() == 1


def test_a_finished_demo_game_gives_way_to_a_fresh_one():
    demo()
    Game.objects.filter(name="Demo game").update(status=Game.Status.FINISHED)
    output = demo()
    assert "Created 'Demo game'" in output
    fresh = Game.objects.filter(name="Demo game", status=Game.Status.ACTIVE).get()
    assert f"game {fresh.pk}" in output
    assert demo().count(f"game {fresh.pk}") == 1  # and that one is found again


def test_demo_game_new_starts_a_fresh_one_at_once():
    demo()
    assert "Created" in demo("--new")
    assert Game.objects.filter(name="Demo game", status=Game.Status.ACTIVE).count() == 2
    assert f"game {Game.objects.latest('pk').pk}" in demo()  # the newest is the one shown


def test_the_file_system_broker_does_not_warn_about_a_hostname(tmp_path, caplog):
    options = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path / "control"),
    }
    broker = Connection(
        "filesystem://", transport="games.devtools.dev_broker:Transport", transport_options=options
    )
    with caplog.at_level(logging.WARNING, logger="kombu"):
        with broker, broker.SimpleQueue("q") as queue:
            queue.put({"hello": 1})
            assert queue.get(timeout=1).payload == {"hello": 1}
        broker.clone()
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]
