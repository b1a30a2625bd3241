"""Play one seat of a game over the public JSON API alone (docs/api.md), with one of
the site's bot levels deciding: the bots of the site's own tables, as an outside
program. It knows only what the API tells its seat.

    .venv/bin/python scripts/play_seat.py https://sheriff.example shf_… --level smuggler
"""

import argparse
import random
import sys
import time
import uuid
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # games.bots, pure Python

from games.bots import turns
from games.bots.levels import LEVELS, bot
from games.bots.seen import Seen


class SeatPlayer:
    """A bot level at one seat, through the API: ``turn()`` reads the seat and makes
    the move the bot chooses, if any."""

    def __init__(self, site: str, token: str, level: str, rnd=None, out=print):
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        me = self.get(f"{site}/api/v1/token")
        self.seat = f"{site}/api/v1/games/{me['game']}/seats/{me['seat']}"
        self.bot = bot(level, rnd or random.Random())
        self.log: list = []  # the seat's events so far, as the API projects them
        self.out = out
        self.view: dict = {}

    def get(self, address: str, **params) -> dict:
        return self.http.get(address, params=params, timeout=30).json()

    def over(self) -> bool:
        return self.view.get("game", {}).get("status", "active") != "active"

    def turn(self) -> bool:
        """One look at the table and the bot's move, if it makes one: True if it did."""
        self.view = self.get(self.seat)
        if self.over():
            return False
        since = self.log[-1]["seq"] if self.log else 0
        while since is not None:  # the log since last time, a page at a time
            page = self.get(f"{self.seat}/events", since=since)
            self.log += page["events"]
            since = page["next_since"]
        mine = self.view["view"]["my_moves"]
        seen = Seen(self.view["seat"], self.view["view"], mine["moves"], mine["must_act"], self.log)
        # Who must answer, as at the site's own tables (games.bots.turns): asked so, a
        # bot answers, else the seat plays what the game's deadline would.
        moves = mine["moves"]
        awaited = (mine["must_act"] and not turns.only_offers(moves)) or (
            turns.to_speak(moves) or turns.to_answer(moves)
        )
        command = self.bot.decide(turns.as_awaited(seen) if awaited else seen)
        if command is None and awaited:
            command = self.fallback()
        if command is None:
            return False
        command.pop("seat", None)  # the token names the seat
        answer = self.http.post(
            f"{self.seat}/commands",
            json={"version": self.view["version"], "command": command},
            headers={"Idempotency-Key": uuid.uuid4().hex},
            timeout=30,
        )
        if answer.status_code == 429:
            time.sleep(int(answer.headers.get("Retry-After", "5")))
            return False
        if answer.status_code != 200:
            self.out(f"refused ({answer.status_code}): {answer.json()['error']['message']}")
            return False
        self.out(answer.json()["message"])
        return True

    def fallback(self) -> dict | None:
        """An awaited seat whose bot chose nothing: no offer, let a bag pass, refuse
        the offer waiting (turns.fallback's order), from the API's example moves."""
        listed = {m["type"]: m for m in self.get(f"{self.seat}/moves")["moves"]}
        for kind in ("say_no_offer", "pass_bag", "refuse_offer"):
            if listed.get(kind, {}).get("example"):
                return dict(listed[kind]["example"])
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", help="the site's address, e.g. https://sheriff.example")
    parser.add_argument("token", help="the seat's API token (its settings page)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="smuggler")
    parser.add_argument("--pause", type=float, default=5.0, help="seconds between looks")
    args = parser.parse_args()
    player = SeatPlayer(args.site.rstrip("/"), args.token, args.level)
    while not player.over():
        if not player.turn():
            time.sleep(args.pause)
    print("The game is over.")


if __name__ == "__main__":
    main()
