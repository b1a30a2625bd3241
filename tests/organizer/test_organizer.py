"""Organizers create games with the creategame command or in the admin; the
game starts at once and its first emails are owed."""

import re
from datetime import timedelta
from io import StringIO
from zoneinfo import ZoneInfo

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
    assert OutboxEmail.objects.filter(game=game).count() == 3  # everyone hears the game begin
    assert "/play/" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann <ann@example.org>", "Ben <ben@example.org>"], "3 to 6 players"),
        (["Ann"] * 3, "Name <email>"),
        (["Ann <a@example.org> Mars/Base"] * 3, "Unknown timezone"),
        ([f"P{i} <p{i}@example.org>" for i in range(7)], "3 to 6 players"),
        (["A" * 61 + " <a@example.org>"] * 3, "at most 60 characters"),
        (["you <you@example.org>"] * 3, 'No player may be called "You"'),
        (["Ann\u202e <a@example.org>"] * 3, "one line of plain text"),
        (["Ann\x07 <a@example.org>"] * 3, "one line of plain text"),
        (["Ann <ann@example>"] * 3, "is not an email address"),
        (["Ann <a b@example.org>"] * 3, "is not an email address"),
        (["Ann <ann@example.org>, Ben <ben@example.org>"] * 3, "Name <email>"),
    ],
)
def test_creategame_refuses_bad_input_clearly(players, message):
    args = ["creategame", "--name", "Bad"]
    for p in players:
        args += ["--player", p]
    with pytest.raises(CommandError, match=message):
        call_command(*args)
    assert not Game.objects.exists()


SIX_PLAYERS = [f"--player={n} <{n.lower()}@example.org>" for n in ("A", "B", "C", "D", "E", "F")]
FOUR_PLAYERS = SIX_PLAYERS[:4]


def test_creategame_starts_a_six_player_game_with_deputies(capsys):
    call_command("creategame", "--name", "Six", *SIX_PLAYERS)
    game = Game.objects.get(name="Six")
    state = game.engine_state()
    assert state.config.deputies and state.sheriff is None and game.seats.count() == 6
    assert OutboxEmail.objects.filter(game=game).count() == 6
    assert capsys.readouterr().out.count("/play/") == 6


def test_creategame_starts_a_black_market_game_with_the_provisional_values():
    call_command(
        "creategame", "--name", "Market", "--black-market", *FOUR_PLAYERS, stdout=StringIO()
    )
    config = Game.objects.get(name="Market").engine_config
    assert config.black_market and config.black_market_provisional


def test_creategame_takes_the_organizers_black_market_values():
    values = ["--black-market-values", "Pepper=40,35", "silk=31/50"]
    call_command(
        "creategame", "--name", "M", "--black-market", *values, *SIX_PLAYERS, stdout=StringIO()
    )
    config = Game.objects.get(name="M").engine_config
    assert config.deputies and not config.black_market_provisional
    # The mead pile, not given, keeps its provisional values; the higher card is on top.
    assert config.black_market_piles == {"pepper": [40, 35], "mead": [32, 29], "silk": [50, 31]}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--edition", "1", *SIX_PLAYERS[4:]], "Six players need the 2nd edition"),
        (["--edition", "1", "--black-market"], "The Black Market is a 2nd edition option"),
        (["--black-market-values", "pepper=40,35"], "--black-market-values needs --black-market"),
        (["--black-market", "--black-market-values", "pepper"], "kind=value,value"),
        (["--black-market", "--black-market-values", "=40,35"], "kind=value,value"),
        (["--black-market", "--black-market-values", "pepper=40"], "The Pepper pile holds two"),
        (["--black-market", "--black-market-values", "mead=0,1"], "two whole numbers from 1"),
        (["--black-market", "--black-market-values", "crossbow=9,9"], "the piles are pepper"),
        (["--black-market", "--black-market-values", "silk=1,2", "SILK=3,4"], "silk pile twice"),
        (["--black-market", "--black-market-values"], "expected at least one argument"),
        (["--black-market-minutes", "-1"], "0 or more"),
    ],
)
def test_creategame_refuses_bad_six_player_or_black_market_options(extra, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("creategame", "--name", "Bad", *FOUR_PLAYERS, *extra)
    assert not Game.objects.exists()


def test_the_admin_creates_and_starts_a_game(client):
    User.objects.create_superuser("org", "org@example.org", "pw")
    client.force_login(User.objects.get(username="org"))
    response = client.post(
        "/admin/games/game/add/",
        {
            "name": "Admin game",
            "organizer_email": "org@example.org",
            "players": "Ann <ann@example.org>\nBen <ben@example.org> Europe/Berlin\n"
            "Cid <cid@example.org>\nDee <dee@example.org>",
            "edition": "2",
            "first_sheriff": "2",  # seats are numbered from 1: the second player listed
            "seed": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Admin game")
    assert game.engine_state().sheriff == 1 and game.seats.count() == 4
    assert OutboxEmail.objects.filter(game=game).count() == 4  # everyone hears the game begin
    page = client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200 and "first Sheriff: seat 2 (Ben)" in page.content.decode()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--name", "Friday\nBcc: x@example.org"], "one line of plain text"),
        (["--name", "Friday\u2066"], "one line of plain text"),
        (["--name", "F" * 101], "at most 100 characters"),
        (["--name", " "], "needs a name"),
        (["--organizer", "org@"], "is not an email address"),
    ],
)
def test_creategame_refuses_a_bad_name_or_organizer_address(extra, message):
    players = [f"--player={n} <{n.lower()}@example.org>" for n in ("Ann", "Ben", "Cid")]
    with pytest.raises(CommandError, match=message):
        call_command("creategame", "--name", "Friday", *players, *extra)
    assert not Game.objects.exists()


def test_creategame_takes_deadline_settings():
    call_command(
        "creategame",
        "--name",
        "Timed",
        "--player",
        "Ann <ann@example.org>",
        "--player",
        "Ben <ben@example.org>",
        "--player",
        "Cid <cid@example.org>",
        "--deadlines",
        "duration",
        "--market-minutes",
        "30",
        "--reminder-minutes",
        "10",
        "--no-early-advance",
        "--abandon-after",
        "0",
        "--black-market-minutes",
        "15",
        stdout=StringIO(),
    )
    game = Game.objects.get(name="Timed")
    assert game.abandon_after == 0 and game.black_market_minutes == 15
    assert (game.deadline_mode, game.market_minutes, game.reminder_minutes) == ("duration", 30, 10)
    assert not game.advance_early and game.load_minutes == 24 * 60  # the default stays
    assert game.phase_deadline - game.created_at < timedelta(minutes=31)
    assert game.phase_deadline - game.created_at > timedelta(minutes=29)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--deadlines", "daily"], "--daily-time"),
        (["--deadlines", "daily", "--daily-time", "25:00"], "HH:MM"),
        (["--deadline-timezone", "Mars/Base"], "unknown time zone"),
        (["--market-minutes", "-5"], "0 or more"),
        (["--load-minutes", "9" * 15], r"at most 525600 \(a year\)"),
        (["--reminder-minutes", "1e300"], r"at most 525600 \(a year\)"),
        (["--abandon-after", "99999"], "at most 32767"),
    ],
)
def test_creategame_refuses_bad_deadline_settings(extra, message):
    args = ["creategame", "--name", "Bad"]
    for p in ("Ann <a@example.org>", "Ben <b@example.org>", "Cid <c@example.org>"):
        args += ["--player", p]
    with pytest.raises(CommandError, match=message):
        call_command(*args, *extra)
    assert not Game.objects.exists()


ADMIN_GAME = {
    "name": "Timed admin game",
    "organizer_email": "org@example.org",
    "players": "Ann <ann@example.org>\nBen <ben@example.org>\nCid <cid@example.org>",
    "edition": "2",
    "first_sheriff": "1",
    "seed": "",
    "deadline_mode": "daily",
    "market_minutes": "1440",
    "market_turn_minutes": "720",
    "load_minutes": "1440",
    "inspection_minutes": "1440",
    "bargaining_minutes": "90",
    "black_market_minutes": "45",
    "daily_time": "18:00",
    "deadline_timezone": "Europe/Paris",
    "skip_weekends": "on",
    "reminder_minutes": "120",
    "advance_early": "on",
    "miss_alert_after": "2",
    "abandon_after": "4",
}


def test_the_admin_add_form_takes_deadline_settings(client):
    User.objects.create_superuser("org", "org@example.org", "pw")
    client.force_login(User.objects.get(username="org"))
    form = client.get("/admin/games/game/add/").content.decode()
    assert 'name="deadline_mode"' in form
    assert re.search(r'<input type="checkbox" name="advance_early"[^>]* checked>', form)
    response = client.post("/admin/games/game/add/", ADMIN_GAME)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Timed admin game")
    assert (game.deadline_mode, game.deadline_timezone, game.skip_weekends) == (
        "daily",
        "Europe/Paris",
        True,
    )
    assert game.phase_deadline is not None and game.reminder_at is not None
    assert game.abandon_after == 4 and game.bargaining_minutes == 90
    assert game.black_market_minutes == 45
    assert "Bargaining time, minutes" in form and "Black Market step, minutes" in form
    local = game.phase_deadline.astimezone(ZoneInfo("Europe/Paris"))
    assert local.strftime("%H:%M") == "18:00" and local.weekday() < 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deadline_timezone": "Mars/Base"}, "Unknown time zone"),
        ({"daily_time": ""}, "Daily deadlines need a time of day"),
        ({"market_minutes": "9" * 15}, "less than or equal to 525600"),
        ({"black_market_minutes": "525601"}, "less than or equal to 525600"),
        ({"reminder_minutes": "1e300"}, "less than or equal to 525600"),
    ],
)
def test_the_admin_add_form_refuses_bad_deadline_settings(client, change, message):
    User.objects.create_superuser("org", "org@example.org", "pw")
    client.force_login(User.objects.get(username="org"))
    response = client.post("/admin/games/game/add/", {**ADMIN_GAME, **change})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Game.objects.exists()


# --- the demo game (make run) ----------------------------------------------------------------


def demo(*args) -> str:
    out = StringIO()
    call_command("demo_game", *args, stdout=out)
    return out.getvalue()


def test_the_demo_is_four_players_without_the_black_market_and_made_once():
    assert "Created 'Demo game'" in demo()
    game = Game.objects.get()
    assert [s.name for s in game.seats.all()] == ["Alice", "Bob", "Carol", "Dave"]
    assert not game.engine_config.black_market
    assert "'Demo game' exists" in demo() and Game.objects.count() == 1


def test_a_six_player_black_market_demo_is_a_game_of_its_own():
    demo()
    output = demo("--players", "6", "--black-market")
    assert "Created 'Demo game (6 players, Black Market)'" in output
    assert "Eve: " in output and "Frank: " in output
    game = Game.objects.get(name="Demo game (6 players, Black Market)")
    config = game.engine_config
    assert config.deputies and config.black_market and config.black_market_provisional
    assert "exists" in demo("--players", "6", "--black-market") and Game.objects.count() == 2


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["--players", "6"], "Demo game (6 players)"),
        (["--black-market"], "Demo game (Black Market)"),
    ],
)
def test_each_demo_option_alone_makes_its_own_demo(args, name):
    demo(*args)
    assert Game.objects.get().name == name


def test_the_demo_refuses_a_player_count_the_game_does_not_have():
    with pytest.raises(CommandError, match="invalid choice"):
        demo("--players", "7")
