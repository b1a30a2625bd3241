"""Seating bots: "Play now", "Add a bot" in the lobby, handing a seat to a bot from
the organizer's page and taking it back. Bad input (a level that does not exist, a
seat taken, a finished game's seat, any bytes) gets a clear message and changes nothing."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games.core import controls, game_setup, lobbies, practice, rematch
from games.core.game_writes import ServiceError
from games.models import Game, Invitation, Lobby, OutboxEmail, Seat
from tests.organizer.organizer_page import post
from tests.organizer.organizer_page import signed_in as organizer_signed_in
from tests.support.lobby_forms import ORIGIN, signed_in
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db

ME = "me@example.org"
PLAY_NOW = {"my_name": "Me", "players": "4", "level": "smuggler", "edition": "2"}


def play_now(client: Client, **changes):
    return client.post("/play-now/", {**PLAY_NOW, **changes}, **ORIGIN)


# --- Play now -----------------------------------------------------------------------------


def test_play_now_starts_a_practice_game_and_lands_on_the_table():
    client = signed_in(ME)
    assert "Play now, against bots" in client.get("/").content.decode()
    response = play_now(client, players="5", edition="2", black_market="on")
    assert response.status_code == 302 and response["Location"].startswith("/play/")
    game = Game.objects.get(practice=True)
    assert game.deadline_mode == Game.DeadlineMode.NONE and game.organizer_email == ME
    assert game.engine_config.black_market and game.engine_config.players == 5
    assert sorted(game.bots.values()) == ["smuggler"] * 4 and game.bots_due_at is not None
    names = list(game.seats.values_list("name", flat=True))
    assert names.count("Me") == 1 and sum(n.endswith(" (bot)") for n in names) == 4
    page = client.get(response["Location"]).content.decode()
    assert "(bot)" in page
    assert not OutboxEmail.objects.exists()  # a practice game is played at the table


def test_play_now_asks_a_signed_out_visitor_to_sign_in_first():
    response = Client().get("/play-now/")
    assert response.status_code == 302 and response["Location"].startswith("/sign-in/")
    assert Client().post("/play-now/", PLAY_NOW, **ORIGIN).status_code == 302
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"level": "grandmaster"}, "Select a valid choice"),
        ({"players": "9"}, "Select a valid choice"),
        ({"edition": "1", "black_market": "on"}, "The Black Market is a 2nd edition rule."),
        ({"my_name": "Sneaky (bot)"}, "marks a bot"),
        ({"my_name": "a\u202eb"}, "one line of plain text"),
        ({"level": "\udcff".encode("utf-8", "surrogatepass").decode("latin-1")}, "Select"),
    ],
)
def test_play_now_refuses_bad_input_and_starts_nothing(changes, said):
    response = play_now(signed_in(ME), **changes)
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not Game.objects.exists()


def test_a_person_keeps_a_few_practice_games_in_play_at_most():
    client = signed_in(ME)
    for _ in range(practice.MAX_IN_PLAY):
        assert play_now(client).status_code == 302
    response = play_now(client)
    assert response.status_code == 400 and "practice games in play" in response.content.decode()
    assert Game.objects.count() == practice.MAX_IN_PLAY
    with pytest.raises(practice.PracticeError):
        practice.start(email="x@example.org", name="X", level="nope", config={"players": 3})


# --- the lobby ----------------------------------------------------------------------------


def lobby(players: int = 3) -> Lobby:
    return lobbies.open_lobby(
        organizer_email=ME,
        organizer_name="Me",
        organizer_language="en",
        name="Two of us",
        players=players,
        config={"edition": 2},
        timing={"deadline_mode": "duration"},
    )


def lobby_action(client, table: Lobby, **data) -> list:
    response = client.post(f"/new/{table.pk}/action/", data, follow=True, **ORIGIN)
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_bots_fill_a_lobby_and_play_in_the_game_it_starts():
    client, table = signed_in(ME), lobby()
    said = lobby_action(client, table, action="add_bot", level="honest")
    assert said and said[0].endswith("takes a seat.")
    lobby_action(client, table, action="add_bot", level="random")
    page = client.get(f"/new/{table.pk}/").content.decode()
    assert "honest trader bot" in page and "beginner bot" in page and 'id="add-bot"' not in page
    said = lobby_action(client, table, action="add_bot", level="smuggler")
    assert "Every seat is taken or promised" in said[0] and "Nothing was done" in said[0]
    lobby_action(client, table, action="start")
    game = Game.objects.get()
    assert sorted(game.bots.values()) == ["honest", "random"]
    bots = Seat.objects.filter(game=game, index__in=[int(i) for i in game.bots])
    assert all(seat.email == "" and seat.name.endswith(" (bot)") for seat in bots)
    deliver_pending()
    assert set(OutboxEmail.objects.filter(game=game).values_list("to", flat=True)) == {ME}


@pytest.mark.parametrize("level", ["", "grandmaster", "x" * 5000, "smuggler\x00"])
def test_a_bot_level_that_does_not_exist_adds_nothing(level):
    client, table = signed_in(ME), lobby()
    said = lobby_action(client, table, action="add_bot", level=level)
    assert said == ["There is no such bot: choose one of the list. Nothing was done."]
    assert table.invitations.count() == 1  # the organizer's own seat


def test_a_bot_removed_frees_its_seat_and_a_started_lobby_takes_none():
    client, table = signed_in(ME), lobby()
    lobby_action(client, table, action="add_bot", level="honest")
    bot = table.invitations.get(via=Invitation.Via.BOT)
    lobby_action(client, table, action="remove", invitation=str(bot.pk))
    assert lobbies.promised(table) == 1
    lobby_action(client, table, action="add_bot", level="honest")
    lobby_action(client, table, action="add_bot", level="honest")
    lobby_action(client, table, action="start")
    with pytest.raises(lobbies.LobbyError):
        lobbies.add_bot(table.pk, "honest")


# --- the organizer's page -----------------------------------------------------------------


def friday() -> Game:
    return game_setup.create_game(
        name="Friday",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org"),
            game_setup.PlayerSpec("Ben", "ben@example.org"),
            game_setup.PlayerSpec("Cid", "cid@example.org"),
        ],
        config={"edition": 2},
        organizer_email=ME,
        timing={"deadline_mode": "duration"},
    )


def test_a_seat_handed_to_a_bot_and_taken_back_tells_the_table():
    game, org = friday(), organizer_signed_in(ME)
    ben = game.seats.get(index=1)
    old_link_version = ben.link_version
    status, said, page = post(org, game, "to_bot", seat=ben.pk, level="smuggler")
    assert status == 302 and "instead of Ben" in said[0], said
    ben.refresh_from_db()
    game.refresh_from_db()
    assert game.bots == {"1": "smuggler"} and ben.email == "" and ben.name.endswith(" (bot)")
    assert ben.link_version > old_link_version  # Ben's links no longer work
    assert OutboxEmail.objects.filter(to="ben@example.org", kind="replaced").count() == 1
    log = [e.data for e in game.events.filter(type="noted")]
    assert log[-1]["params"]["old"] == "Ben" and log[-1]["params"]["new"] == ben.name
    assert "Resend" not in page.content.decode().split(ben.name)[1].split("</li>")[0]

    status, _said, refused = post(org, game, "resend", seat=ben.pk)
    assert status == 400 and "A bot gets no email" in refused.content.decode()

    status, said, _page = post(
        org, game, "replace", seat=ben.pk, name="Dee", email="dee@example.org", timezone=""
    )
    assert status == 302, said
    game.refresh_from_db()
    assert game.bots == {} and game.seats.get(index=1).email == "dee@example.org"


@pytest.mark.parametrize("level", ["", "grandmaster", "\x00", "1" * 999])
def test_a_bot_level_that_does_not_exist_takes_no_seat(level):
    game, org = friday(), organizer_signed_in(ME)
    version = game.version
    status, _said, page = post(org, game, "to_bot", seat=game.seats.get(index=1).pk, level=level)
    assert status == 400 and "There is no such bot" in page.content.decode()
    game.refresh_from_db()
    assert game.bots == {} and game.version == version


def test_a_bots_seat_is_not_handed_to_a_bot_again_nor_a_finished_games_seat():
    game = friday()
    seat = game.seats.get(index=2)
    controls.hand_to_bot(seat.pk, expected_version=game.version, level="honest")
    game.refresh_from_db()
    with pytest.raises(ServiceError, match="A bot plays this seat already"):
        controls.hand_to_bot(seat.pk, expected_version=game.version, level="smuggler")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ServiceError, match="no longer in play"):
        controls.hand_to_bot(
            game.seats.get(index=0).pk, expected_version=game.version, level="honest"
        )
    assert Game.objects.get(pk=game.pk).bots == {"2": "honest"}


def test_a_rematch_seats_the_bots_again():
    client = signed_in(ME)
    play_now(client, players="3")
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    new = rematch.play_again(
        game.pk, name="Again", seat_ids=list(game.seats.values_list("pk", flat=True))
    ).game
    assert new.practice and sorted(new.bots.values()) == ["smuggler", "smuggler"]


def test_a_cancelled_game_gives_its_bots_no_more_turns():
    client = signed_in(ME)
    play_now(client)
    game = Game.objects.get()
    controls.cancel(game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED and game.bots_due_at is None
