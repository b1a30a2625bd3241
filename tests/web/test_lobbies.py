"""Self-service games: the organizer's form, invitations by email and by the join
link, accepting and declining, the start, and who may see or change what."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.core import lobbies
from games.models import Game, Invitation, Lobby, OutboxEmail, Person, Seat
from tests.support.lobby_forms import NEW_GAME, ORIGIN, signed_in
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db


def create(client: Client, **changes) -> Lobby:
    response = client.post("/new/", {**NEW_GAME, **changes}, **ORIGIN)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Lobby.objects.latest("pk")


def mails_to(address: str) -> list:
    deliver_pending()
    return [m for m in mail.outbox if m.to == [address]]


def invitation_path(message) -> str:
    return re.search(r"http://testserver(/invitation/[^/\s]+/)", message.body)[1]


def accept(path: str, player: str, client: Client | None = None, **fields):
    client = client or Client()
    data = {"answer": "accept", "name": player, "timezone": "Europe/London", "language": "en"}
    return client.post(path, {**data, **fields}, **ORIGIN)


def asks_alice(response) -> bool:
    """The page names whom to ask (a name is isolated from the text around it)."""
    return (
        re.search(r"Ask (<bdi>)?Alice(</bdi>)?, who set up this game", response.content.decode())
        is not None
    )


def test_a_signed_out_visitor_is_sent_to_sign_in_and_back():
    response = Client().get("/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/sign-in/?next=/new/")


def test_the_form_shows_a_first_games_defaults_and_the_pace_in_words():
    page = signed_in("alice@example.org").get("/new/").content.decode()
    assert 'value="18:00"' in page and "One phase a day at 18:00" in page


def test_a_game_set_up_invites_by_email_in_the_organizers_language():
    lobby = create(signed_in("alice@example.org"))
    assert lobby.organizer_email == "alice@example.org" and lobby.players == 4
    assert lobby.timing["daily_time"] == "18:00" and lobby.timing["skip_weekends"]
    assert [(i.name, i.status) for i in lobby.invitations.all()] == [
        ("Alice", "accepted"),
        ("Bob", "invited"),
        ("carol", "invited"),
    ]
    [message] = mails_to("bob@example.org")
    assert message.subject == "Alice invites you to play Sheriff of Nottingham: Friday smugglers"
    assert "One phase a day at 18:00 Madrid time, weekends off" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    html = message.alternatives[0][0]
    assert "Accept or decline" in html and "Never invite me again" in html


def test_an_invitation_reads_in_the_organizers_language():
    client = signed_in("ana@example.org")
    client.post("/new/", {**NEW_GAME, "my_name": "Ana"}, HTTP_ACCEPT_LANGUAGE="es", **ORIGIN)
    [message] = mails_to("bob@example.org")
    assert message.subject.startswith("Ana te invita")


def test_everyone_accepts_and_the_organizer_starts_the_game():
    organizer = signed_in("alice@example.org")
    lobby = create(organizer)
    scanner = Client()
    for address, name in (("bob@example.org", "Bob"), ("carol@example.org", "Carol")):
        path = invitation_path(mails_to(address)[0])
        assert scanner.get(path).status_code == 200  # a scanner's GET changes nothing
        assert Invitation.objects.get(email=address).status == "invited"
        response = accept(path, name)
        assert response.status_code == 302
    assert lobbies.taken(lobby) == 3
    # The join link's page, and its confirmation by email.
    join = f"/join/{lobby.join_token}/"
    page = Client().get(join)
    assert page.status_code == 200 and "3 of 4 seats taken" in page.content.decode()
    sent = Client().post(
        join, {"name": "Dave", "email": "dave@example.org", "timezone": "UTC"}, **ORIGIN
    )
    assert sent.status_code == 200 and "Check your email" in sent.content.decode()
    [confirm] = mails_to("dave@example.org")
    assert confirm.subject == "Confirm your seat at Friday smugglers"
    dave = Client()
    assert accept(invitation_path(confirm), "Dave", dave).status_code == 302
    # Accepting signed Dave in: his email proved the address.
    assert "dave@example.org" in dave.get("/").content.decode()
    [full] = mails_to("alice@example.org")
    assert full.subject == "Every seat is taken: start Friday smugglers"
    # A full table's join link explains itself.
    gone = Client().get(join)
    assert gone.status_code == 410 and asks_alice(gone)
    response = organizer.post(f"/new/{lobby.pk}/action/", {"action": "start"}, **ORIGIN)
    assert response.status_code == 302
    lobby.refresh_from_db()
    game = lobby.game
    assert lobby.status == "started" and game.status == Game.Status.ACTIVE
    # As listed: the organizer first, then the invitations in order.
    assert [s.name for s in game.seats.all()] == ["Alice", "Bob", "Carol", "Dave"]
    assert game.deadline_mode == "daily" and game.daily_time.hour == 18
    assert game.engine_state().sheriff == 0  # the first seat listed, as chosen
    assert game.talk == Game.Talk.ALL  # the default
    assert game.organizer_email == "alice@example.org"
    assert len(mails_to("dave@example.org")) == 2  # the confirmation, then the game's first
    # The invitation's link has done its work: it says so and leads to signing in,
    # never to the table (whoever holds the email is not the player for that).
    after = Client().get(invitation_path(confirm))
    page = after.content.decode()
    assert after.status_code == 410 and "This game has started" in page
    assert "/sign-in/?next=/my/" in page and "/play/" not in page


def test_the_join_link_closed_or_cancelled_says_so_and_whom_to_ask():
    organizer = signed_in("alice@example.org")
    lobby = create(organizer)
    join = f"/join/{lobby.join_token}/"
    organizer.post(f"/new/{lobby.pk}/action/", {"action": "close_link"}, **ORIGIN)
    page = Client().get(join)
    assert page.status_code == 410
    assert "closed this join link" in page.content.decode() and asks_alice(page)
    organizer.post(f"/new/{lobby.pk}/action/", {"action": "open_link"}, **ORIGIN)
    assert Client().get(join).status_code == 200
    organizer.post(f"/new/{lobby.pk}/action/", {"action": "cancel", "confirm": "1"}, **ORIGIN)
    assert "cancelled" in Client().get(join).content.decode()
    assert Client().get("/join/not-a-token/").status_code == 404


def test_nobody_joins_a_full_game_and_nobody_takes_anothers_invitation():
    lobby = create(signed_in("alice@example.org"), players="3")
    bob_path = invitation_path(mails_to("bob@example.org")[0])
    carol_path = invitation_path(mails_to("carol@example.org")[0])
    assert accept(bob_path, "Bob").status_code == 302
    assert accept(carol_path, "Carol").status_code == 302
    lobby.refresh_from_db()
    assert lobbies.is_full(lobby)
    # Eve has only the join link: it is closed to her.
    eve = Client().post(
        f"/join/{lobby.join_token}/",
        {"name": "Eve", "email": "eve@example.org", "timezone": "UTC"},
        **ORIGIN,
    )
    assert eve.status_code == 410 and not Invitation.objects.filter(email="eve@example.org")
    # An invitation's token is its own: guessing one finds nothing.
    assert Client().get("/invitation/guess/").status_code == 404
    with pytest.raises(lobbies.LobbyError):
        lobbies.join_by_link(lobby, "Eve", "eve@example.org", "en", "UTC", "client")


def test_a_join_request_keeps_the_last_free_seat_until_it_lapses():
    lobby = create(signed_in("alice@example.org"), players="3", invitees="bob@example.org")
    lobbies.join_by_link(lobby, "Carol", "carol@example.org", "en", "UTC", "client")
    # Alice, Bob's invitation and Carol's request: no seat is left to ask for.
    with pytest.raises(lobbies.LobbyError, match="Every seat is taken or promised"):
        lobbies.join_by_link(lobby, "Dave", "dave@example.org", "en", "UTC", "client")
    carol = Invitation.objects.get(email="carol@example.org")
    lapsed = timezone.now() - timedelta(minutes=61)
    Invitation.objects.filter(pk=carol.pk).update(last_sent_at=lapsed)
    lobbies.join_by_link(lobby, "Dave", "dave@example.org", "en", "UTC", "client")
    dave = Invitation.objects.get(email="dave@example.org")
    # Carol confirms too late: the seat is Dave's to confirm, and Bob's is Bob's.
    with pytest.raises(lobbies.LobbyError, match="Every seat is taken"):
        lobbies.accept(carol.pk, name="Carol", timezone_name="UTC", language="en")
    lobbies.accept(dave.pk, name="Dave", timezone_name="UTC", language="en")
    bob = Invitation.objects.get(email="bob@example.org")
    lobbies.accept(bob.pk, name="Bob", timezone_name="UTC", language="en")
    assert lobbies.taken(lobby) == 3


def test_another_person_cannot_see_or_change_a_lobby():
    lobby = create(signed_in("alice@example.org"))
    mallory = signed_in("mallory@example.org")
    assert mallory.get(f"/new/{lobby.pk}/").status_code == 404
    for action in ("start", "cancel", "close_link", "invite"):
        data = {"action": action, "confirm": "1", "invitee": "m@example.org"}
        assert mallory.post(f"/new/{lobby.pk}/action/", data, **ORIGIN).status_code == 404
    lobby.refresh_from_db()
    assert lobby.status == "open" and lobby.join_open and lobby.invitations.count() == 3
    # Signed out: to the sign-in page, with nothing of the game.
    response = Client().get(f"/new/{lobby.pk}/")
    assert response.status_code == 302 and "Friday" not in response.content.decode()


def test_the_organizer_removes_resends_and_fills_a_seat():
    organizer = signed_in("alice@example.org")
    lobby = create(organizer)
    bob = Invitation.objects.get(email="bob@example.org")
    action = f"/new/{lobby.pk}/action/"
    # Sent a moment ago: not again yet (no invitation twice by a double tap).
    organizer.post(action, {"action": "resend", "invitation": bob.pk}, **ORIGIN)
    assert OutboxEmail.objects.filter(kind="invitation", to="bob@example.org").count() == 1
    Invitation.objects.filter(pk=bob.pk).update(last_sent_at=timezone.now() - timedelta(hours=1))
    organizer.post(action, {"action": "resend", "invitation": bob.pk}, **ORIGIN)
    assert OutboxEmail.objects.filter(kind="invitation", to="bob@example.org").count() == 2
    organizer.post(
        action,
        {"action": "fill", "invitation": bob.pk, "invitee": "Erin <erin@example.org>"},
        **ORIGIN,
    )
    assert Invitation.objects.get(pk=bob.pk).status == "removed"
    erin = Invitation.objects.get(email="erin@example.org")
    assert erin.status == "invited" and erin.position == bob.position
    organizer.post(action, {"action": "remove", "invitation": erin.pk}, **ORIGIN)
    assert Invitation.objects.get(pk=erin.pk).status == "removed"
    page = accept(invitation_path(mails_to("erin@example.org")[0]), "Erin")
    assert Invitation.objects.get(pk=erin.pk).status == "removed"
    assert page.status_code == 410 and "This invitation was withdrawn" in page.content.decode()


def test_never_invite_me_again_is_one_click_and_holds():
    create(signed_in("alice@example.org"))
    message = mails_to("bob@example.org")[0]
    never = re.search(r"http://testserver(/invitation/[^/\s]+/never/)", message.body)[1]
    assert Client().get(never).status_code == 200  # a page with a button
    assert not Person.objects.filter(no_invitations_at__isnull=False).exists()
    one_click = Client(enforce_csrf_checks=True).post(never, {"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200
    assert Invitation.objects.get(email="bob@example.org").status == "declined"
    other = create(signed_in("zoe@example.org"), invitees="")
    with pytest.raises(lobbies.LobbyError, match="asked not to receive"):
        lobbies.invite(other.pk, "Bob", "bob@example.org")


def test_invitations_are_paced_per_organizer(settings):
    settings.INVITATIONS_PER_ORGANIZER_DAILY = 3
    organizer = signed_in("alice@example.org")
    lobby = create(organizer, players="6", invitees="b@example.org\nc@example.org")
    lobbies.invite(lobby.pk, "D", "d@example.org")
    with pytest.raises(lobbies.LobbyError, match="many invitations"):
        lobbies.invite(lobby.pk, "E", "e@example.org")


def test_a_start_time_starts_a_full_table_by_itself():
    organizer = signed_in("alice@example.org")
    soon = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    lobby = create(organizer, players="3", start_at=soon, deadline_timezone="UTC")
    assert lobby.start_at is not None
    for address in ("bob@example.org", "carol@example.org"):
        accept(invitation_path(mails_to(address)[0]), address[0].upper())
    assert lobbies.start_due(timezone.now()) == []  # not yet
    [game] = lobbies.start_due(timezone.now() + timedelta(days=2))
    assert Seat.objects.filter(game=game).count() == 3


@pytest.mark.parametrize(
    "changes",
    [
        {"name": "\x00"},
        {"name": "x" * 5000},
        {"players": "9"},
        {"players": "\x00"},
        {"invitees": "not an address"},
        {"invitees": "a@example.org\n" * 6},
        {"deadline_timezone": "Mars/Base"},
        {"daily_time": "25:99"},
        {"black_market_pepper": "1, 2", "black_market": ""},
        {"edition": "1", "black_market": "on"},
        {"start_at": "2001-01-01T10:00"},
        {"my_name": "You"},
        {"first_sheriff": "5"},
        {"first_sheriff": "\x00"},
    ],
)
def test_a_bad_form_says_why_and_sets_up_nothing(changes):
    response = signed_in("alice@example.org").post("/new/", {**NEW_GAME, **changes}, **ORIGIN)
    assert response.status_code == 400
    assert "Not set up yet." in response.content.decode()
    assert not Lobby.objects.exists() and not OutboxEmail.objects.exists()


@pytest.mark.parametrize("field", ["name", "timezone", "language", "answer"])
def test_any_bytes_in_an_answer_change_nothing(field):
    create(signed_in("alice@example.org"))
    path = invitation_path(mails_to("bob@example.org")[0])
    response = accept(path, "Bob", **{field: "\x00\xff" if field != "answer" else "\x00"})
    assert response.status_code in (302, 400)
    assert Invitation.objects.get(email="bob@example.org").status == "invited"


def test_the_pace_preview_words_the_settings_and_changes_nothing():
    client = signed_in("alice@example.org")
    query = {"deadline_mode": "daily", "daily_time": "07:30", "deadline_timezone": "Asia/Tokyo"}
    answer = client.get("/new/pace/", {**query, "skip_weekends": "on"})
    assert answer.content.decode() == "One phase a day at 07:30 Tokyo time, weekends off"
    spanish = client.get("/new/pace/", query, HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.content.decode() == "Una fase al día a las 07:30, hora de Tokyo, todos los días"
    hours = {"deadline_mode": "duration", "market_minutes": "720", "load_minutes": "1440"}
    assert client.get("/new/pace/", hours).content.decode() == (
        "Market 12 hours, loading 1 day, inspection 1 day"
    )
    assert client.get("/new/pace/", {"deadline_timezone": "\x00"}).status_code == 200
    assert not Lobby.objects.exists()


def test_a_double_tap_on_set_up_sends_each_invitation_once():
    organizer = signed_in("alice@example.org")
    first = organizer.post("/new/", NEW_GAME, **ORIGIN)
    second = organizer.post("/new/", NEW_GAME, **ORIGIN)
    assert first["Location"] == second["Location"]
    assert Lobby.objects.count() == 1
    assert len(mails_to("bob@example.org")) == 1


def test_new_games_are_paced_per_organizer(settings):
    settings.LOBBIES_PER_ORGANIZER_DAILY = 2
    organizer = signed_in("alice@example.org")
    for name in ("One", "Two"):
        create(organizer, name=name, invitees="")
    refused = organizer.post("/new/", {**NEW_GAME, "name": "Three", "invitees": ""}, **ORIGIN)
    assert refused.status_code == 400 and "many games today" in refused.content.decode()
    assert Lobby.objects.count() == 2


def test_the_first_sheriff_is_the_seat_chosen_in_the_order_listed():
    organizer = signed_in("alice@example.org")
    lobby = create(organizer, players="3", first_sheriff="2")
    for address, name in (("bob@example.org", "Bob"), ("carol@example.org", "Carol")):
        accept(invitation_path(mails_to(address)[0]), name)
    game = lobbies.start(lobby.pk)
    assert [s.name for s in game.seats.all()] == ["Alice", "Bob", "Carol"]
    assert game.engine_state().sheriff == 1


def test_the_talk_setting_chosen_at_set_up_is_the_games():
    organizer = signed_in("alice@example.org")
    lobby = create(organizer, players="3", talk="inspection")
    for address, name in (("bob@example.org", "Bob"), ("carol@example.org", "Carol")):
        accept(invitation_path(mails_to(address)[0]), name)
    assert lobbies.start(lobby.pk).talk == Game.Talk.INSPECTION
    refused = organizer.post("/new/", {**NEW_GAME, "name": "Other", "talk": "loud"}, **ORIGIN)
    assert refused.status_code == 400
