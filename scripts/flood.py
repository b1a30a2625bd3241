"""A seat floods the table: a merchant makes and withdraws offers to the Sheriff
in a loop through the seat page, as fast as it can. Prints what got through,
what was refused and why, the emails owed to the Sheriff, the rows stored, and
the size of the log pages. Runs on a throwaway SQLite database.

    .venv/bin/python scripts/flood.py --pairs 1388
    .venv/bin/python scripts/flood.py --pairs 1388 --burst 100000   # no pacing
"""

import argparse
import collections
import os
import re
import sys
import tempfile
import time
from pathlib import Path


def setup(burst: int) -> None:
    folder = tempfile.mkdtemp(prefix="flood-")
    os.environ.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{folder}/db.sqlite3",
        VAR_DIR=folder,
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        CELERY_TASK_ALWAYS_EAGER="1",
        MOVES_BURST=str(burst),
        LOG_LEVEL="WARNING",
        ALLOWED_HOSTS="testserver",
        SITE_URL="http://testserver",
    )
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1388, help="make + withdraw pairs")
    parser.add_argument("--burst", type=int, default=None, help="MOVES_BURST (default: 12)")
    args = parser.parse_args()
    setup(args.burst or 12)

    from urllib.parse import urlparse

    from django.test import Client

    from games.core import game_setup, links, timers
    from games.models import Game, OutboxEmail, Submission

    game = game_setup.create_game(
        name="Flood",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in "ABCD"],
        config={"edition": 2},
        seed="f1" * 32,
    )
    timers.advance(game.pk, force=True)  # the market's defaults
    timers.advance(game.pk, force=True)  # the loading's defaults
    merchant = game.seats.get(index=1)
    path = urlparse(links.seat_url(merchant)).path
    client = Client()
    outcomes = collections.Counter()
    started = time.perf_counter()
    for i in range(args.pairs):
        state = Game.objects.get(pk=game.pk).engine_state()
        since = state.phase.since
        offer = {
            "move": "make_offer",
            "version": since,
            "key": f"m{i}",
            "to": 0,
            "gold": 1,
            "action_1": "pass",
        }
        outcomes[_outcome(client.post(path, offer))] += 1
        state = Game.objects.get(pk=game.pk).engine_state()
        own = [o["id"] for o in state.phase.offers.values() if o["proposer"] == 1]
        open_ = [o for o in own if state.phase.offers[str(o)]["status"] == "open"]
        if open_:
            withdraw = {"move": "withdraw_offer", "version": since, "key": f"w{i}"}
            outcomes[_outcome(client.post(path, {**withdraw, "offer": open_[0]}))] += 1
    seconds = time.perf_counter() - started
    sheriff = OutboxEmail.objects.filter(game=game, seat__index=0, kind="offer")
    latest = client.get(path).content
    whole = client.get(path, {"log": "all"}).content
    print(f"{args.pairs} make+withdraw pairs in {seconds:.1f} s")
    for what, count in sorted(outcomes.items()):
        print(f"  {what}: {count}")
    print(f"offer emails owed to the Sheriff: {sheriff.count()}")
    print(f"rows stored for the seat's moves: {Submission.objects.filter(game=game).count()}")
    print(f"seat page: {len(latest) / 1024:.0f} KB; ?log=all: {len(whole) / 1024:.0f} KB")


def _outcome(response) -> str:
    if response.status_code == 302:
        return "accepted"
    if response.status_code == 429:
        return "refused: too fast (429)"
    found = re.search(rb'class="msg msg-error"[^>]*>(.*?)</p>', response.content, re.S)
    said = re.sub(r"<[^>]+>", "", found.group(1).decode()).strip()[:70] if found else "?"
    return f"refused ({response.status_code}): {said}"


if __name__ == "__main__":
    main()
