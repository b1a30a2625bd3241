"""In-process figures: each page GET and move POST timed and its SQL queries
counted (Django's test client, no HTTP), by the round it was made in."""

import re
import statistics
import time
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import urlencode

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.core import links
from games.core.compiled import BATCHED
from games.devtools.bench import api_player
from games.devtools.bench.player import next_step
from games.mail import outbox
from games.models import Game, OutboxEmail

FORM = "application/x-www-form-urlencoded"
NEXT_LOG_PAGE = re.compile(r'href="[^"]*\?log=all&amp;after=(\d+)')
TRANSACTION = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def statements(queries: CaptureQueriesContext) -> list:
    """The SQL statements a request ran, less the transaction's own BEGIN and
    COMMIT; statements sent together (games.core.compiled.BATCHED) count one each."""
    return [statement for sql in round_trips(queries) for statement in sql.split(BATCHED)]


def round_trips(queries: CaptureQueriesContext) -> list:
    """The SQL a request sent to the database, a string a round trip, less the
    transaction's own BEGIN and COMMIT."""
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION)]


@dataclass
class Sample:
    kind: str  # "get" (a page) or "post" (a move)
    ms: float
    queries: int  # SQL statements
    round: int
    trips: int  # round trips to the database
    cpu_ms: float  # this process's CPU time (the database's own is not in it)


@dataclass
class Samples:
    rows: list = field(default_factory=list)
    profiles: dict | None = None  # kind -> cProfile.Profile, when profiling

    def of(self, kind: str, rounds=None) -> list:
        return [s for s in self.rows if s.kind == kind and (rounds is None or s.round in rounds)]

    def p50_ms(self, kind: str, rounds=None) -> float:
        found = self.of(kind, rounds)
        return statistics.median(s.ms for s in found) if found else float("nan")

    def p50_queries(self, kind: str) -> float:
        found = self.of(kind)
        return statistics.median(s.queries for s in found) if found else float("nan")

    def p50_cpu_ms(self, kind: str) -> float:
        found = self.of(kind)
        return statistics.median(s.cpu_ms for s in found) if found else float("nan")

    def p50_trips(self, kind: str) -> float:
        found = self.of(kind)
        return statistics.median(s.trips for s in found) if found else float("nan")

    def max_queries(self, kind: str) -> int:
        return max((s.queries for s in self.of(kind)), default=0)


def _timed(kind: str, round_no: int, samples: Samples, work):
    """Run ``work()``, recording its time, CPU and statements as a ``kind`` sample."""
    profile = samples.profiles.get(kind) if samples.profiles else None
    # The connection logs at most 9,000 queries: past that a capture would count
    # none (and warn), so each request starts from an empty log.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        start, cpu_start = time.perf_counter(), time.process_time()
        if profile:
            profile.enable()
        result = work()
        if profile:
            profile.disable()
        ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.process_time() - cpu_start) * 1000
    samples.rows.append(
        Sample(kind, ms, len(statements(queries)), round_no, len(round_trips(queries)), cpu_ms)
    )
    return result


def measured(client: Client, method: str, path: str, data: dict, round_no: int, samples):
    if method == "post":  # form-encoded, as a browser sends these forms
        body = urlencode(data, doseq=True)
        return _timed("post", round_no, samples, lambda: client.post(path, body, content_type=FORM))
    return _timed("get", round_no, samples, lambda: client.get(path, data))


def deliver_owed(game: Game, round_no: int, samples: Samples) -> None:
    """The emails a move owed, sent here one by one as the worker sends them (the
    settings' backend: the benchmark's keeps them in memory), each an "email" sample."""
    owed = OutboxEmail.objects.filter(game=game, status=OutboxEmail.Status.PENDING)
    for pk in owed.order_by("pk").values_list("pk", flat=True):
        _timed("email", round_no, samples, lambda pk=pk: outbox.deliver(pk))


def play(games: list, samples: Samples, max_moves: int | None = None) -> int:
    """Play the games to their end (or ``max_moves`` moves in all), seat after seat
    as a browser would: GET the page, POST its move, follow the redirect."""
    seats = {game.pk: [(Client(), links.seat_path(seat)) for seat in game.seats.all()]
             for game in games}  # fmt: skip
    return _to_the_end(games, seats, partial(_one_seat, samples=samples), max_moves)


def _to_the_end(games: list, seats: dict, one_seat, max_moves: int | None = None) -> int:
    """Each game's seats (game -> [(client, path)]) asked in turn, ``one_seat(client,
    path, game)`` making a move or not (1 or 0), until every game is over."""
    moves, active = 0, list(games)
    while active and (max_moves is None or moves < max_moves):
        before = moves
        for game in active:
            for client, path in seats[game.pk]:
                moves += one_seat(client, path, game)
            game.refresh_from_db(fields=["status", "state"])
        active = [game for game in active if game.status == Game.Status.ACTIVE]
        if active and moves == before:
            raise RuntimeError(f"no seat of games {[g.pk for g in active]} could move")
    return moves


def _one_seat(client: Client, path: str, game: Game, samples: Samples) -> int:
    round_no = game.state.get("round", 0)
    page = measured(client, "get", path, {}, round_no, samples).content.decode()
    step = next_step(page)
    if step is not None and step.method == "get":  # open the confirmation first
        page = measured(client, "get", path, step.data, round_no, samples).content.decode()
        step = next_step(page)
    if step is None or step.method != "post":
        return 0
    response = measured(client, "post", path, step.data, round_no, samples)
    deliver_owed(game, round_no, samples)
    if response.status_code == 302:
        measured(client, "get", response["Location"], {}, round_no, samples)
        return 1
    return 0


def play_api(games: list, samples: Samples) -> int:
    """The games played to their end through the API (games.devtools.bench.api_player):
    each seat reads its view ("api GET") and sends its command ("api POST"), the
    emails it owes sent as the page's moves' are."""
    seats = {game.pk: api_player.seats(game) for game in games}
    return _to_the_end(games, seats, partial(_one_api_seat, samples=samples))


def _one_api_seat(client: Client, path: str, game: Game, samples: Samples) -> int:
    round_no = game.state.get("round", 0)
    view = _timed("api GET", round_no, samples, partial(client.get, path)).json()
    listed = {"must_act": view["view"]["my_moves"]["must_act"], "moves": [
        {"type": m["type"], "options": m} for m in view["view"]["my_moves"]["moves"]
    ]}  # fmt: skip
    command = api_player.choice(listed, view["view"]["me"]["hand"])
    if command is None:
        return 0
    body, headers = api_player.command_body(command, view["version"])
    post = partial(client.post, path + "/commands", body, "application/json", headers=headers)
    response = _timed("api POST", round_no, samples, post)
    deliver_owed(game, round_no, samples)
    return int(response.status_code == 200)


def read_whole_logs(games: list, samples: Samples) -> None:
    """Each game's whole log (``?log=all``) as its first seat reads it, a page
    after the other to its end: "log" samples, each with its page's number as its
    round (a page's cost must not grow with how far into the game it is)."""
    for game in games:
        client, path = Client(), links.seat_path(game.seats.get(index=0))
        page, data = 1, {"log": "all"}
        while data:
            response = _timed("log", page, samples, partial(client.get, path, data))
            following = NEXT_LOG_PAGE.search(response.content.decode())
            data = following and {"log": "all", "after": following[1]}
            page += 1
