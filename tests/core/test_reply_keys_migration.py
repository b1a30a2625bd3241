"""Migration 0024 gives each seat made before it a reply key of its own."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0023_talk_private_quotes_unread")]
AFTER = [("games", "0024_inbound_replies")]


def test_seats_made_before_get_distinct_reply_keys():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    game = old.get_model("games", "Game").objects.create(name="Old", config={}, state={})
    Seat = old.get_model("games", "Seat")
    for index in range(3):
        Seat.objects.create(game=game, index=index, name=f"P{index}", email=f"p{index}@x.org")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    keys = list(new.get_model("games", "Seat").objects.values_list("reply_key", flat=True))
    assert len(set(keys)) == 3
    assert all(len(k) == 20 and k.isalnum() and k == k.lower() for k in keys)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
