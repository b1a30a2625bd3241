"""What a move and a page cost in SQL statements, counted (not timed): a move is
the link's seat with the table's seats, the game's row locked, its events with its
row (one statement on PostgreSQL), its form key, and the outbox when it owes emails
(at most five on PostgreSQL); a page is the seat (and whether the record was ever
opened), the table's seats, the recent log, and the table talk's newest messages,
in one round trip on PostgreSQL; an email sent, three round trips on PostgreSQL. The
transaction's own BEGIN and COMMIT are not counted.
(Timings: manage.py bench_moves.)"""

from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.devtools.bench import inprocess
from games.devtools.bench.inprocess import round_trips, statements
from games.devtools.bench.player import next_step
from games.mail import outbox
from games.models import OutboxEmail, Submission
from tests.support.fixtures_pages import form_for, fresh, path_of, start_game

pytestmark = pytest.mark.django_db


def most_statements_a_move_takes() -> int:
    """The outbox aside: four on PostgreSQL (its events and its row in one), five elsewhere."""
    return 4 if connection.vendor == "postgresql" else 5


def test_a_move_takes_four_statements_and_a_page_five():
    MOVE_STATEMENTS = most_statements_a_move_takes()
    game = start_game()
    seat = game.seats.get(index=1)
    client = Client()
    with CaptureQueriesContext(connection) as page:
        html = client.get(path_of(seat)).content.decode()
    step = next_step(html)
    assert step.method == "post" and step.data["move"] == "set_aside"
    with CaptureQueriesContext(connection) as move:
        response = client.post(path_of(seat), step.data)
    assert response.status_code == 302
    # The talk's one statement included, and the fingerprint its poll compares.
    assert len(statements(page)) <= 5, statements(page)
    assert len(statements(move)) <= MOVE_STATEMENTS, statements(move)
    if connection.vendor == "postgresql":  # the five in one round trip
        assert len(round_trips(page)) == 1, round_trips(page)


def test_the_same_form_twice_counts_once_and_says_so():
    game = start_game()
    seat = game.seats.get(index=1)
    client = Client()
    step = next_step(client.get(path_of(seat)).content.decode())
    client.post(path_of(seat), step.data)
    again = client.post(path_of(seat), step.data, follow=True)
    assert "That form was already sent; it counted once." in again.content.decode()
    assert Submission.objects.filter(game=game).count() == 1


def test_an_offer_sent_twice_is_one_offer():
    """The engine would take the same offer twice: the form's key undoes the second."""
    game = start_game()
    clients = {seat.index: (Client(), path_of(seat)) for seat in game.seats.all()}
    while fresh(game).engine_state().phase.kind != "inspection":
        for client, path in clients.values():
            step = next_step(client.get(path).content.decode())
            if step and step.method == "post":
                client.post(path, step.data)
    client, path = clients[1]
    form = form_for(client.get(path).content.decode(), "make_offer")
    data = {**form.hidden(), "gold": "1", "action_1": "pass", "promise": ""}
    for _ in range(2):
        response = client.post(path, data, follow=True)
        assert response.status_code == 200
    assert "That form was already sent; it counted once." in response.content.decode()
    offers = fresh(game).engine_state().phase.offers
    assert len(offers) == 1, offers
    assert Submission.objects.filter(game=game, seat__index=1).count() == 3  # and 2 before


def test_a_move_owing_emails_takes_only_the_outbox_more():
    """A move owing emails writes them to the outbox as well, whatever it owes; a
    decision's message names the seats read with the link."""
    game = start_game(players=("Ann", "Ben", "Cid", "Dee", "Eve"))
    samples = inprocess.Samples()
    inprocess.play([game], samples)
    counts = Counter(sample.queries for sample in samples.of("post"))
    # The outbox's rows: one statement on PostgreSQL, a lookup and an insert elsewhere.
    outbox = 1 if connection.vendor == "postgresql" else 2
    assert max(counts) == most_statements_a_move_takes() + outbox, counts
    assert counts.most_common(1)[0][0] == most_statements_a_move_takes(), counts


def test_an_email_sent_takes_three_round_trips():
    """A seat's email: its outbox row locked, with its seat, the table's seats, its
    news and its unread talk (one round trip on PostgreSQL); the row claimed; the
    answer with the seat's news and talk moved on (one round trip on PostgreSQL, the
    talk's only when it told some)."""
    game = start_game(players=("Ann", "Ben", "Cid"))
    email = OutboxEmail.objects.filter(game=game, seat__isnull=False, status="pending").first()
    with CaptureQueriesContext(connection) as sent:
        assert outbox.deliver(email.pk) == "sent"
    assert len(statements(sent)) <= 9, statements(sent)
    if connection.vendor == "postgresql":
        assert len(round_trips(sent)) == 3, round_trips(sent)
