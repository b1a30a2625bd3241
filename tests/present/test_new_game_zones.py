"""The new-game form speaks in the zone its zone field shows, and the organizer's
own seat gets the organizer's own zone, not the deadlines' (a trial's finding: the
pace said "18:00 UTC" beside Europe/London; the organizer's seat took Madrid)."""

import re

import pytest

from games.models import Invitation, Lobby, Person
from tests.web.test_lobbies import NEW_GAME, ORIGIN, create, signed_in

pytestmark = pytest.mark.django_db


def zone_field(html: str) -> str:
    return re.search(r'name="deadline_timezone"[^>]*value="([^"]*)"', html)[1]


def pace_now(html: str) -> str:
    return re.search(r'id="pace-now"[^>]*>.*?<strong>(.*?)</strong>', html, re.S)[1]


def organizers_seat(lobby: Lobby) -> Invitation:
    return lobby.invitations.get(via=Invitation.Via.ORGANIZER)


def test_without_script_the_form_shows_the_persons_own_zone_in_both_places():
    client = signed_in("alice@example.org")
    Person.objects.update_or_create(
        email="alice@example.org", defaults={"timezone": "Europe/London"}
    )
    html = client.get("/new/").content.decode()
    assert zone_field(html) == "Europe/London"
    assert pace_now(html) == "One phase a day at 18:00 London time, every day"


def test_a_form_sent_back_with_an_error_words_the_pace_it_shows():
    client = signed_in("alice@example.org")
    response = client.post("/new/", {**NEW_GAME, "name": ""}, **ORIGIN)
    html = response.content.decode()
    assert response.status_code == 400 and zone_field(html) == "Europe/Madrid"
    assert pace_now(html) == "One phase a day at 18:00 Madrid time, weekends off"


def test_the_organizers_seat_takes_their_devices_zone_not_the_deadlines():
    lobby = create(signed_in("alice@example.org"), my_timezone="Europe/London")
    assert lobby.timing["deadline_timezone"] == "Europe/Madrid"
    assert organizers_seat(lobby).timezone == "Europe/London"


def test_the_organizers_chosen_zone_comes_first():
    client = signed_in("alice@example.org")
    Person.objects.update_or_create(
        email="alice@example.org", defaults={"timezone": "America/Bogota"}
    )
    lobby = create(client, my_timezone="Europe/London")
    assert organizers_seat(lobby).timezone == "America/Bogota"


@pytest.mark.parametrize("sent", ["", "Mars/Base", "\x00\xff" * 40, "UTC' OR 1=1"])
def test_without_a_known_zone_of_their_own_the_deadlines_zone_is_theirs(sent):
    lobby = create(signed_in("alice@example.org"), my_timezone=sent)
    assert organizers_seat(lobby).timezone == "Europe/Madrid"
