"""A game with bots at the table, played by its people through their emails: every
page and email of a person depends on nothing their seat may not see, as in a game of
people alone (tests/support/email_players.py checks each), and a bot gets no email."""

import pytest
from django.core import mail

from games.models import OutboxEmail
from tests.support.email_players import play_through_email

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("players", "bots", "black_market"),
    [
        (4, {1: "smuggler", 3: "honest"}, False),
        (6, {0: "smuggler", 2: "random", 5: "smuggler"}, True),
    ],
    ids=["4p-two-bots", "6p-three-bots-black-market"],
)
def test_pages_and_emails_with_bots_hide_what_they_hid_before(players, bots, black_market):
    game, people = play_through_email(
        players, 2, seed="b0" * 32, rnd_seed=3, black_market=black_market, bots=bots
    )
    assert game.engine_state().is_over()
    assert len(people) == players - len(bots)
    addressed = {address for message in mail.outbox for address in message.to}
    assert "" not in addressed and all(address.endswith("@example.org") for address in addressed)
    bot_seats = game.seats.filter(index__in=bots)
    assert not OutboxEmail.objects.filter(seat__in=bot_seats).exists()
    for person in people:  # the people read the bots' names as bots' to the end
        assert "(bot)" in person.mails[-1].body
