"""The load benchmark: moves and pages served over HTTP, beside a minimal view on
the same stack, and the in-process cost of each request. See docs/operations.md, "Performance".

    python manage.py bench_moves [--games 200] [--players 5] [--seconds 60] ...

It runs with production settings of its own (games.devtools.bench.bench_settings, DEBUG off) on
the configured database and broker, and removes the games it made at its end."""

import cProfile
import io
import logging
import os
import pstats
import sys
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from games.core import links
from games.devtools.bench import http, inprocess, scale, stack
from games.management.commands.bench_deadlines import percentile


def p(values: list, rank: float) -> float:
    return percentile(values, rank) if values else float("nan")


class Command(BaseCommand):
    help = "Load benchmark: moves over HTTP against a minimal view on the same stack."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200, help="games played over HTTP")
        parser.add_argument("--players", type=int, choices=(3, 4, 5), default=5)
        parser.add_argument("--edition", type=int, choices=(1, 2), default=2)
        parser.add_argument("--clients", type=int, default=8, help="concurrent client processes")
        parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
        parser.add_argument("--seconds", type=float, default=60, help="time bound of the HTTP run")
        parser.add_argument("--minimal-seconds", type=float, default=20)
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--sample-games", type=int, default=2, help="played in-process")
        parser.add_argument("--live-games", type=int, default=10_000, help="for the scale figures")
        parser.add_argument(
            "--profile", type=int, default=0, metavar="N",
            help="profile the in-process requests; print the N costliest functions",
        )  # fmt: skip
        parser.add_argument(
            "--profile-sort", choices=("tottime", "cumulative"), default="tottime",
            help="order of the profile: a function's own time, or with its callees",
        )  # fmt: skip
        parser.add_argument(
            "--profile-dump", metavar="DIR",
            help="with --profile: also write each kind's profile to DIR/<kind>.prof (pstats)",
        )  # fmt: skip
        parser.add_argument("--skip-http", action="store_true")
        parser.add_argument("--skip-scale", action="store_true")

    def handle(self, *args, **options):
        if os.environ.get("BENCH_ENV") != "1":  # run again under the benchmark's settings
            os.execve(sys.executable, [sys.executable, *sys.argv], stack.bench_env(options["port"]))
        self.options = options
        logging.getLogger("games").setLevel(logging.WARNING)  # not a line per game made
        removed = scale.remove_bench_games()
        if removed:
            self.say(f"removed {removed} rows left by an earlier run")
        try:
            self.in_process()
            if not options["skip_scale"]:
                self.scale()
            if not options["skip_http"]:
                self.over_http()
        finally:
            self.say(f"removing the benchmark's games ({scale.remove_bench_games()} rows)")

    def say(self, line: str = "") -> None:
        self.stdout.write(line)

    # --- in-process: each request timed and its queries counted ---------------------
    def in_process(self) -> None:
        o = self.options
        games = scale.new_games(o["sample_games"], o["players"], o["edition"], "sample")
        profiles = {kind: cProfile.Profile() for kind in ("get", "post", "email", "api POST")}
        samples = inprocess.Samples(profiles=profiles if o["profile"] else None)
        moves = inprocess.play(games, samples)
        last = max(s.round for s in samples.rows)
        self.say(f"== in-process ({connections['default'].vendor}, Django test client), "
                 f"{len(games)} whole {o['players']}-player games, {moves} moves")  # fmt: skip
        for kind, label in (("get", "page GET"), ("post", "move POST"), ("email", "email sent")):
            self.say(
                f"{label:10} p50 {samples.p50_ms(kind):6.2f} ms   "
                f"(its CPU {samples.p50_cpu_ms(kind):5.2f} ms)   "
                f"round 1 p50 {samples.p50_ms(kind, {1}):6.2f} ms   "
                f"round {last} p50 {samples.p50_ms(kind, {last}):6.2f} ms   "
                f"statements p50 {samples.p50_queries(kind):.0f} max {samples.max_queries(kind)}"
                f" (round trips p50 {samples.p50_trips(kind):.0f})"
            )
        self.api_beside_the_pages(samples)
        inprocess.read_whole_logs(games, samples)
        last_page = max(s.round for s in samples.of("log"))
        self.say(
            f"whole log  {last_page} pages a game: page 1 p50 {samples.p50_ms('log', {1}):6.2f} ms"
            f"   page {last_page} p50 {samples.p50_ms('log', {last_page}):6.2f} ms"
            f"   statements max {samples.max_queries('log')}"
        )
        for kind, profile in profiles.items() if o["profile"] else ():
            self.say(f"-- profile of the {kind.upper()}s, by {o['profile_sort']}:")
            text = io.StringIO()
            stats = pstats.Stats(profile, stream=text).strip_dirs()
            stats.sort_stats(o["profile_sort"]).print_stats(o["profile"])
            self.say(text.getvalue().strip())
            if o["profile_dump"]:
                profile.dump_stats(os.path.join(o["profile_dump"], f"{kind}.prof"))

    def api_beside_the_pages(self, samples) -> None:
        """As many games again, played through the JSON API: its command POST beside
        the page's move POST, in this run (docs/api.md)."""
        o = self.options
        games = scale.new_games(o["sample_games"], o["players"], o["edition"], "sample")
        inprocess.play_api(games, samples)
        for kind in ("api GET", "api POST"):
            self.say(
                f"{kind:10} p50 {samples.p50_ms(kind):6.2f} ms   "
                f"(its CPU {samples.p50_cpu_ms(kind):5.2f} ms)   "
                f"statements p50 {samples.p50_queries(kind):.0f} max {samples.max_queries(kind)}"
                f" (round trips p50 {samples.p50_trips(kind):.0f})"
            )
        ratio = samples.p50_ms("api POST") / samples.p50_ms("post")
        cpu = samples.p50_cpu_ms("api POST") / samples.p50_cpu_ms("post")
        self.say(f"api POST ÷ move POST   p50 {ratio:.2f}   its CPU {cpu:.2f}")

    # --- the per-move cost with few and with many live games --------------------------
    def scale(self) -> None:
        o = self.options
        self.say("== scale: in-process p50 over the first 200 moves of 4 new games")
        for target in (10, o["live_games"]):
            missing = target - scale.live_games()
            if missing > 0:
                template = scale.new_games(1, o["players"], o["edition"], "template")[0]
                scale.copy_live_games(template, missing - 1)
            games = scale.new_games(4, o["players"], o["edition"], f"scale{target}")
            samples = inprocess.Samples()
            inprocess.play(games, samples, max_moves=200)
            self.say(
                f"{scale.live_games():6d} live games: page GET p50 {samples.p50_ms('get'):6.2f} ms"
                f"   move POST p50 {samples.p50_ms('post'):6.2f} ms"
            )
            for game in games:  # not live any more for the next measure
                game.delete()

    # --- over HTTP: gunicorn, concurrent clients, the minimal view beside ---------------
    def over_http(self) -> None:
        o = self.options
        games = scale.new_games(o["games"], o["players"], o["edition"], "http")
        seat_paths = [[links.seat_path(seat) for seat in game.seats.all()] for game in games]
        shares = [seat_paths[i :: o["clients"]] for i in range(o["clients"])]
        # The minimal view: one address per game (its first seat's token).
        firsts = [paths[0].replace("/play/", "/bench/minimal/") for paths in seat_paths]
        minimal_shares = [firsts[i :: o["clients"]] for i in range(o["clients"])]
        connections.close_all()  # the client processes are forked
        with stack.servers(o["port"], o["workers"]) as running:
            self.say(f"== over HTTP: gunicorn {o['workers']} workers, {o['clients']} clients")
            # The new games' emails first: the worker sending them would take
            # the minimal view's CPU and lower the floor.
            waited = wait_for_emails(running)
            self.say(f"   the new games' emails sent first ({waited:.0f} s)")
            base, start = running.url, running.cpu()
            floor, floor_wall = http.run_clients(
                http.move_minimal, base, minimal_shares, o["minimal_seconds"]
            )
            middle = running.cpu()
            site, site_wall = http.run_clients(http.play_games, base, shares, o["seconds"])
            end = running.cpu()
        floor_cpu, site_cpu = spent(start, middle), spent(middle, end)
        self.report("minimal view", floor, floor_wall, floor_cpu)
        self.report("seat page", site, site_wall, site_cpu)
        self.say(f"   games over: {site.games_over} of {len(games)}; refused moves: {site.refused}")
        moves = rate(site.moves, site_wall) / rate(floor.moves, floor_wall)
        pages = rate(len(site.get_ms), site_wall) / rate(len(floor.get_ms), floor_wall)
        self.say(f"ratio to the minimal view: moves/s {moves:.0%}   page GETs/s {pages:.0%}")
        runs = (floor, floor_cpu, site, site_cpu)
        self.say(
            f"   the machine's CPU a move, minimal / site: {machine_ratio(*runs):.0%};"
            " if each of the site's requests cost gunicorn no more than a minimal one"
            f" (all else as measured): {view_free_ratio(*runs):.0%}"
        )

    def report(self, label: str, tally: http.Tally, wall: float, servers: dict) -> None:
        gets, posts = tally.get_ms, tally.post_ms
        self.say(
            f"{label:13} moves/s {rate(tally.moves, wall):7.1f}"
            f"   GETs/s {rate(len(gets), wall):7.1f}"
            f"   GET p50 {p(gets, 50):6.2f} p99 {p(gets, 99):6.2f} ms"
            f"   POST p50 {p(posts, 50):6.2f} p99 {p(posts, 99):6.2f} ms"
            f"   errors {tally.errors}"
        )
        self.say(
            f"{'':13} the clients' own CPU: {tally.client_cpu / wall:.2f} cores,"
            f" {1000 * tally.client_cpu / max(tally.requests, 1):.2f} ms per request"
        )
        self.say(f"{'':13} the machine's CPU a move: " + cpu_a_move(tally, servers))


def cpu_a_move(tally: http.Tally, servers: dict) -> str:
    """Where the machine's CPU went, a move: each server, the clients, the rest
    (the kernel, and anything else running here), the whole. A database or broker
    on another machine is in none of these."""
    parts = {"gunicorn": servers["web"], "the worker (emails)": servers["worker"]}
    parts.update({
        label: servers[key] for key, label in (("database", "PostgreSQL"), ("broker", "Redis"))
        if key in servers
    })  # fmt: skip
    parts["the clients"] = tally.client_cpu
    parts["the rest"] = servers["machine"] - sum(parts.values())
    spent = ", ".join(f"{label} {per_move(cpu, tally):.2f}" for label, cpu in parts.items())
    return (
        f"{spent}; in all {per_move(servers['machine'], tally):.2f} ms"
        f" ({tally.requests / max(tally.moves, 1):.2f} requests a move)"
    )


def wait_for_emails(running, seconds: float = 300) -> float:
    started = time.monotonic()
    while scale.emails_owed():
        if time.monotonic() - started > seconds:
            raise CommandError(f"the worker did not send the new games' emails in {seconds} s")
        time.sleep(1)
    connections.close_all()  # not kept open through the runs
    return time.monotonic() - started


def spent(before: dict, after: dict) -> dict:
    return {name: after[name] - before[name] for name in before}


def machine_ratio(floor: http.Tally, floor_cpu: dict, site: http.Tally, site_cpu: dict) -> float:
    """The minimal view's machine CPU a move over the site's: the moves/s ratio
    when both runs keep the cores busy."""
    return per_move(floor_cpu["machine"], floor) / per_move(site_cpu["machine"], site)


def view_free_ratio(floor: http.Tally, floor_cpu: dict, site: http.Tally, site_cpu: dict) -> float:
    """The same ratio if each of the site's requests cost gunicorn what a minimal
    view's request costs, all else as measured (the site's requests a move, the
    clients reading its pages, the worker sending its emails, the database): the
    most that making the seat view cheaper could reach."""
    gunicorn_a_request = floor_cpu["web"] / floor.requests
    site_machine = site_cpu["machine"] - site_cpu["web"] + site.requests * gunicorn_a_request
    return per_move(floor_cpu["machine"], floor) / per_move(site_machine, site)


def per_move(cpu_seconds: float, tally: http.Tally) -> float:
    return 1000 * cpu_seconds / tally.moves if tally.moves else float("nan")


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("nan")
