"""Organizers create games with the creategame command or in the admin; the
game starts at once and its first emails are owed."""

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.models import Game, OutboxEmail

pytestmark = pytest.mark.django_db


def test_creategame_starts_a_game_and_owes_the_first_emails(capsys):
    call_command(
        "creategame",
        "--name",
        "Thursday",
        "--edition",
        "1",
        "--royal",
        "--player",
        "Ann <ann@example.org> Europe/Paris",
        "--player",
        "Ben <ben@example.org>",
        "--player",
        "Cid <cid@example.org> Asia/Tokyo",
        "--seed",
        "cd" * 32,
    )
    game = Game.objects.get(name="Thursday")
    assert game.engine_config.edition == 1 and game.engine_config.royal_goods
    assert [s.timezone for s in game.seats.all()] == ["Europe/Paris", "UTC", "Asia/Tokyo"]
    assert OutboxEmail.objects.filter(game=game).count() == 1  # 1st ed: one market turn
    assert "/play/" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann <ann@example.org>", "Ben <ben@example.org>"], "3 to 5 players"),
        (["Ann"] * 3, "Name <email>"),
        (["Ann <a@example.org> Mars/Base"] * 3, "Unknown timezone"),
        ([f"P{i} <p{i}@example.org>" for i in range(6)], "6-player"),
    ],
)
def test_creategame_refuses_bad_input_clearly(players, message):
    args = ["creategame", "--name", "Bad"]
    for p in players:
        args += ["--player", p]
    with pytest.raises(CommandError, match=message):
        call_command(*args)
    assert not Game.objects.exists()


def test_the_admin_creates_and_starts_a_game(client):
    User.objects.create_superuser("org", "org@example.org", "pw")
    client.login(username="org", password="pw")
    response = client.post(
        "/admin/games/game/add/",
        {
            "name": "Admin game",
            "organizer_email": "org@example.org",
            "players": "Ann <ann@example.org>\nBen <ben@example.org> Europe/Berlin\n"
            "Cid <cid@example.org>\nDee <dee@example.org>",
            "edition": "2",
            "first_sheriff": "1",
            "seed": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Admin game")
    assert game.engine_state().sheriff == 1 and game.seats.count() == 4
    assert OutboxEmail.objects.filter(game=game).count() == 3
    page = client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200 and "/play/" in page.content.decode()
