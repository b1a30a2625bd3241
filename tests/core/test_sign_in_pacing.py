"""The sign-in's pacing under parallel requests, on PostgreSQL: the count and the
new row are one step, so 30 asks at once for one address store at most the
address's hourly allowance (and from one client, the client's). Runs whenever the
database is PostgreSQL (always under CI); SQLite lets one writer in at a time."""

import pytest
from django.db import connection

from games.core import sign_in
from games.models import OutboxEmail, SignIn
from tests.support.together import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def test_thirty_parallel_asks_for_one_address_store_at_most_five(settings):
    assert settings.SIGN_IN_PER_ADDRESS_HOURLY == 5
    asks = [lambda i=i: sign_in.ask("ann@example.org", f"client-{i}", "en") for i in range(30)]
    owed = run_together(*asks)
    stored = SignIn.objects.filter(email="ann@example.org").count()
    print(f"30 parallel sign-in asks: {stored} stored, {sum(owed)} emails owed")
    assert stored == sum(owed) == 5
    assert OutboxEmail.objects.filter(kind="sign_in").count() == 5


def test_thirty_parallel_asks_from_one_client_store_at_most_its_allowance(settings):
    settings.SIGN_IN_PER_CLIENT_HOURLY = 7
    asks = [lambda i=i: sign_in.ask(f"p{i}@example.org", "one-client", "en") for i in range(30)]
    assert sum(run_together(*asks)) == 7
    assert SignIn.objects.filter(client="one-client").count() == 7


def test_thirty_parallel_asks_for_lost_links_store_at_most_five():
    from games.core import my_links

    asks = [lambda i=i: my_links.ask("ann@example.org", f"client-{i}", "en") for i in range(30)]
    run_together(*asks)
    assert SignIn.objects.filter(email="ann@example.org", purpose="links").count() == 5
