"""The set-wide writes (games.core.bulk): what the ORM would write, on SQLite and
on PostgreSQL alike, whether a few rows or COPY's many."""

import pytest
from django.utils import timezone

from games.core import bulk
from games.models import GameEvent
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


def test_a_few_events_and_many_events_are_inserted_whole():
    game = start_game()
    start = GameEvent.objects.filter(game=game).count()
    for count in (1, 3, 700):  # 700 rows: more values than SQLite takes in one statement
        first = GameEvent.objects.filter(game=game).count()
        data = [{"seq": first + i, "type": "note", "text": "é ✓"} for i in range(count)]
        before = timezone.now()
        bulk.insert([GameEvent(game=game, seq=d["seq"], type="note", data=d) for d in data])
        written = GameEvent.objects.filter(game=game, seq__gte=first).order_by("seq")
        assert [e.data for e in written] == data
        assert all(e.created_at >= before for e in written)  # auto_now_add filled in
    assert GameEvent.objects.filter(game=game).count() == start + 704
