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

from games.bots.levels import LEVELS, bot
from games.bots.seen import Seen


def seen_from(view: dict, log: list) -> Seen:
    """What the bot decides from, built from the API's answers (as games.bots.seen does
    from the engine's): the seat's view, its moves and its log."""
    mine = view["view"]["my_moves"]
    return Seen(view["seat"], view["view"], mine["moves"], mine["must_act"], log)


def play(base: str, token: str, level: str, pause: float = 2.0, out=print) -> dict:
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    me = http.get(f"{base}/api/v1/token", timeout=30).json()
    seat = f"{base}/api/v1/games/{me['game']}/seats/{me['seat']}"
    player, log, since = bot(level, random.Random()), [], 0
    while True:
        view = http.get(seat, timeout=30).json()
        if view["game"]["status"] != "active":
            return view
        while since is not None:  # the log since last time, a page at a time
            page = http.get(f"{seat}/events", params={"since": since}, timeout=30).json()
            log += page["events"]
            since = page["next_since"] or (log[-1]["seq"] if log else 0)
            if page["next_since"] is None:
                break
        command = player.decide(seen_from(view, log))
        if command is None:
            time.sleep(pause)
            continue
        command.pop("seat", None)  # the token names the seat
        answer = http.post(
            f"{seat}/commands",
            json={"version": view["version"], "command": command},
            headers={"Idempotency-Key": uuid.uuid4().hex},
            timeout=30,
        )
        if answer.status_code == 429:
            time.sleep(int(answer.headers.get("Retry-After", "5")))
        elif answer.status_code != 200:
            out(f"refused ({answer.status_code}): {answer.json()['error']['message']}")
            time.sleep(pause)
        else:
            out(answer.json()["message"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the site's address, e.g. https://sheriff.example")
    parser.add_argument("token", help="the seat's API token (its settings page)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="smuggler")
    args = parser.parse_args()
    final = play(args.base.rstrip("/"), args.token, args.level)
    print("The game is over:", final["game"]["status"])


if __name__ == "__main__":
    main()
