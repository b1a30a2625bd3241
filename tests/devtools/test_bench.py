"""The load benchmark's own parts (manage.py bench_moves): its players finish a
game through the seat pages alone, and its minimal view does what the floor
is said to do (token check, row lock, update, commit) behind the same CSRF check."""

from pathlib import Path

import pytest
from django.db import connection
from django.test import Client, override_settings

from games.devtools.bench import http, inprocess, scale, stack
from games.devtools.form_reader import forms_of
from games.management.commands.bench_moves import cpu_a_move, machine_ratio, view_free_ratio
from games.models import Game
from tests.support.fixtures_pages import fresh, path_of, start_game

pytestmark = pytest.mark.django_db


def test_the_benchmark_players_finish_a_game_through_the_pages():
    game = start_game(players=("Ann", "Ben", "Cid"))
    samples = inprocess.Samples()
    moves = inprocess.play([game], samples)
    assert fresh(game).status == Game.Status.FINISHED
    assert moves == len(samples.of("post")) and moves > 50
    last = max(s.round for s in samples.rows)
    assert last == fresh(game).engine_config.rounds
    assert samples.max_queries("post") <= 7  # a move owing emails (tests/web/test_query_counts.py)
    # Every email the moves owed, sent as the worker sends it.
    assert len(samples.of("email")) > moves / 2
    assert samples.max_queries("email") <= 9, samples.max_queries("email")


def test_the_benchmark_programs_finish_a_game_through_the_api():
    game = start_game(players=("Ann", "Ben", "Cid"))
    samples = inprocess.Samples()
    moves = inprocess.play_api([game], samples)
    assert fresh(game).status == Game.Status.FINISHED
    assert moves == len(samples.of("api POST")) and moves > 50
    # The page's move path, plus the token's one read (its seat and game joined).
    assert samples.max_queries("api POST") <= 8, samples.max_queries("api POST")


@override_settings(ROOT_URLCONF="games.devtools.bench.bench_urls")
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
    from games.devtools.bench.http import forms_only
    from games.devtools.bench.player import next_step

    game = start_game()
    page = Client().get(path_of(game.seats.get(index=1))).content.decode()
    assert len(forms_only(page)) < len(page)
    assert next_step(forms_only(page)) == next_step(page) is not None


def test_the_whole_log_is_read_page_after_page_to_its_end():
    game = start_game(players=("Ann", "Ben", "Cid"))
    inprocess.play([game], inprocess.Samples(), max_moves=60)
    samples = inprocess.Samples()
    inprocess.read_whole_logs([game], samples)
    pages = samples.of("log")
    assert [s.round for s in pages] == list(range(1, len(pages) + 1)) and len(pages) >= 2
    # Every page reads a bounded number of statements, however far into the game.
    # (The seventh: the fingerprint the page's poll compares, games.core.live.)
    assert max(s.queries for s in pages) <= 7, [s.queries for s in pages]


def test_the_machines_cpu_a_move_is_shared_out_whole():
    tally = http.Tally(get_ms=[1.0] * 6, post_ms=[1.0] * 2, moves=2, client_cpu=0.004)
    spent = {"web": 0.010, "worker": 0.002, "database": 0.006, "machine": 0.030}
    line = cpu_a_move(tally, spent)
    assert line == (
        "gunicorn 5.00, the worker (emails) 1.00, PostgreSQL 3.00, the clients 2.00,"
        " the rest 4.00; in all 15.00 ms (4.00 requests a move)"
    )


def test_the_local_database_server_is_found_for_its_cpu():
    """On PostgreSQL on this machine, the server whose CPU the benchmark counts is
    the one serving this very connection (its backend's parent)."""
    if connection.vendor != "postgresql":
        pytest.skip("the database's own CPU is measured on PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    if not Path(f"/proc/{backend}").exists():
        pytest.skip("PostgreSQL runs on another machine")
    status = Path(f"/proc/{backend}/status").read_text()  # read apart from the code under test
    parent = int(next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1])
    assert stack.local_services()["database"] == parent


def test_the_bound_puts_the_minimal_views_gunicorn_cost_in_the_sites_place():
    # The floor: 10 moves, 30 requests, 1 ms of gunicorn a request; 100 ms in all.
    floor = http.Tally(get_ms=[1.0] * 20, post_ms=[1.0] * 10, moves=10)
    floor_cpu = {"web": 0.030, "worker": 0.0, "machine": 0.100}
    # The site: 10 moves, 40 requests; 200 ms of gunicorn out of 400 ms in all.
    site = http.Tally(get_ms=[1.0] * 30, post_ms=[1.0] * 10, moves=10)
    site_cpu = {"web": 0.200, "worker": 0.050, "machine": 0.400}
    runs = (floor, floor_cpu, site, site_cpu)
    assert machine_ratio(*runs) == pytest.approx(100 / 400)
    # 40 requests at the floor's 1 ms: 400 - 200 + 40 = 240 ms.
    assert view_free_ratio(*runs) == pytest.approx(100 / 240)
