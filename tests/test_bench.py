"""The load benchmark's own parts (manage.py bench_moves): its players finish a
game through the seat pages alone, and its minimal view does what the floor
is said to do (token check, row lock, update, commit) behind the same CSRF check."""

import pytest
from django.test import Client, override_settings
from fixtures_pages import fresh, path_of, start_game

from games.bench import inprocess, scale
from games.formreader import forms_of
from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_benchmark_players_finish_a_game_through_the_pages():
    game = start_game(players=("Ann", "Ben", "Cid"))
    samples = inprocess.Samples()
    moves = inprocess.play([game], samples)
    assert fresh(game).status == Game.Status.FINISHED
    assert moves == len(samples.of("post")) and moves > 50
    last = max(s.round for s in samples.rows)
    assert last == fresh(game).engine_config.rounds
    assert samples.max_queries("post") <= 7  # a move owing emails (tests/test_query_counts.py)
    # Every email the moves owed, sent as the worker sends it.
    assert len(samples.of("email")) > moves / 2
    assert samples.max_queries("email") <= 9, samples.max_queries("email")


@override_settings(ROOT_URLCONF="games.bench.urls")
def test_the_minimal_view_locks_updates_and_redirects_behind_csrf():
    game = start_game()
    path = path_of(game.seats.get(index=1)).replace("/play/", "/bench/minimal/")
    browser = Client(enforce_csrf_checks=True)
    [form] = forms_of(browser.get(path).content.decode())
    before = fresh(game).updated_at
    assert browser.post(path, {"move": "minimal"}).status_code == 403  # no token
    response = browser.post(path, form.hidden())
    assert response.status_code == 302 and response["Location"] == path
    assert fresh(game).updated_at > before
    assert browser.get("/bench/minimal/not-a-token/").status_code == 403


def test_copied_live_games_are_whole_and_removed_with_the_rest():
    [template] = scale.new_games(1, 3, 2, "template")
    scale.copy_live_games(template, 5, batch=2)
    copies = Game.objects.filter(name__startswith="bench copy")
    assert copies.count() == 5 and scale.live_games() == 6
    for copy in copies:
        assert copy.seats.count() == 3 and copy.events.count() == template.events.count()
    scale.remove_bench_games()
    assert not Game.objects.filter(name__startswith=scale.PREFIX).exists()


def test_the_http_clients_read_the_same_forms_from_a_page():
    from games.bench.http import forms_only
    from games.bench.player import next_step

    game = start_game()
    page = Client().get(path_of(game.seats.get(index=1))).content.decode()
    assert len(forms_only(page)) < len(page)
    assert next_step(forms_only(page)) == next_step(page) is not None
