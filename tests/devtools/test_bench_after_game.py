"""manage.py bench_after_game runs and prints its figures (a smoke test: the
timings themselves are for reading, not for asserting)."""

import io

import pytest
from django.core.management import call_command

from games.models import Game


@pytest.mark.django_db
def test_it_prints_each_figure_and_leaves_nothing_behind():
    out = io.StringIO()
    call_command("bench_after_game", games=2, repeat=2, stdout=out)
    text = out.getvalue()
    for label in ("reveal and awards worked out", "final page", "My history, 2 finished games"):
        assert label in text
    assert not Game.objects.exists()
