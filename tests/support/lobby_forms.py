"""A game set up on the site as its organizer's form sends it, for the tests of the
lobby, its invitations and its join link."""

from django.test import Client

from games.core import sign_in

ORIGIN = {"HTTP_ORIGIN": "http://testserver"}

NEW_GAME = {
    "name": "Friday smugglers",
    "players": "4",
    "i_play": "on",
    "my_name": "Alice",
    "deadline_mode": "daily",
    "daily_time": "18:00",
    "deadline_timezone": "Europe/Madrid",
    "skip_weekends": "on",
    "edition": "2",
    "random_order": "0",
    "invitees": "Bob <bob@example.org>\ncarol@example.org",
    "advance_early": "on",
    "away_pauses": "on",
    "first_sheriff": "1",
    "talk": "all",
}


def signed_in(address: str) -> Client:
    client = Client()
    client.force_login(sign_in.person_for(address))
    return client
