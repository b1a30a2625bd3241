"""Clients that play over HTTP the way a browser does: GET the seat page, read
its forms, POST the move (with the CSRF cookie and token, and the Origin header a
browser sends), follow the redirect. Each client is a process of its own with
its share of the games, one request in flight at a time, and one cookie jar per
seat (each player has their own browser)."""

import multiprocessing
import re
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin

import requests

from games.devtools.bench.player import next_step
from games.devtools.form_reader import forms_of

IDLE_PASSES = 3  # a game whose seats offer no move this many times in a row is over
# The clients share the machine with the servers: they read only the page's forms,
# so that parsing the rest of a page (its table, its log) does not count against it.
FORMS = re.compile(r"<form\b.*?</form>", re.S | re.I)


def forms_only(html: str) -> str:
    return "".join(FORMS.findall(html))


@dataclass
class Tally:
    get_ms: list = field(default_factory=list)
    post_ms: list = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    errors: int = 0
    games_over: int = 0
    client_cpu: float = 0.0  # CPU seconds the clients themselves spent

    @property
    def requests(self) -> int:
        return len(self.get_ms) + len(self.post_ms)

    def add(self, other: "Tally") -> None:
        self.get_ms += other.get_ms
        self.post_ms += other.post_ms
        self.moves += other.moves
        self.refused += other.refused
        self.errors += other.errors
        self.games_over += other.games_over
        self.client_cpu += other.client_cpu


class Browser:
    """One player's browser: its cookies, and the Origin header of the site."""

    def __init__(self, base: str, tally: Tally):
        self.base, self.tally = base, tally
        self.session = requests.Session()
        self.session.headers["Origin"] = base

    def get(self, path: str, params=None) -> str:
        start = time.perf_counter()
        response = self.session.get(urljoin(self.base, path), params=params)
        self.tally.get_ms.append((time.perf_counter() - start) * 1000)
        self.tally.errors += response.status_code != 200
        return response.text

    def post(self, path: str, data: dict) -> str | None:
        """The move; the page it redirects to, or None if it was refused."""
        start = time.perf_counter()
        response = self.session.post(urljoin(self.base, path), data=data, allow_redirects=False)
        self.tally.post_ms.append((time.perf_counter() - start) * 1000)
        if response.status_code != 302:
            self.tally.refused += 1
            self.tally.errors += response.status_code >= 500
            return None
        self.tally.moves += 1
        return self.get(response.headers["Location"])


def play_seat(browser: Browser, path: str) -> bool:
    """One seat's turn at the table: True if it moved."""
    step = next_step(forms_only(browser.get(path)))
    if step is not None and step.method == "get":  # the Sheriff's confirmation page
        step = next_step(forms_only(browser.get(path, step.data)))
    if step is None or step.method != "post":
        return False
    return browser.post(path, step.data) is not None


def play_games(base: str, games: list, until: float) -> Tally:
    """``games``: each a list of seat paths. Plays them in turn until each is over
    or the clock passes ``until`` (time.time())."""
    tally = Tally()
    browsers = {path: Browser(base, tally) for seats in games for path in seats}
    idle = {i: 0 for i in range(len(games))}
    while idle and time.time() < until:
        for i in list(idle):
            moved = any([play_seat(browsers[path], path) for path in games[i]])
            idle[i] = 0 if moved else idle[i] + 1
            if idle[i] >= IDLE_PASSES:
                del idle[i]
                tally.games_over += 1
            if time.time() >= until:
                break
    return tally


def move_minimal(base: str, paths: list, until: float) -> Tally:
    """The minimal view, the same way: GET, read the form, POST, follow."""
    tally = Tally()
    browsers = [Browser(base, tally) for _ in paths]
    while time.time() < until:
        for browser, path in zip(browsers, paths, strict=True):
            step = next_step_minimal(forms_only(browser.get(path)))
            browser.post(path, step)
    return tally


def next_step_minimal(html: str) -> dict:
    [form] = forms_of(html)
    return form.hidden()


def _timed(target, base: str, share: list, until: float) -> Tally:
    """Run a client, counting its own CPU time (it shares the machine with the servers)."""
    start = time.process_time()
    tally = target(base, share, until)
    tally.client_cpu = time.process_time() - start
    return tally


def run_clients(target, base: str, shares: list, seconds: float) -> tuple[Tally, float]:
    """Run ``target(base, share, until)`` in one process per share; the merged
    tally and the wall-clock seconds it took."""
    until = time.time() + seconds
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(len(shares)) as pool:
        tallies = pool.starmap(_timed, [(target, base, share, until) for share in shares])
    wall = time.perf_counter() - start
    total = Tally()
    for tally in tallies:
        total.add(tally)
    return total, wall
