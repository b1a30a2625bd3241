#!/usr/bin/env python
"""How many of the project's own files a move and a deadline pass through: one POST
to a seat page (from the request to the redirect), then the emails it owes (sent as
the worker sends them); one deadline (the worker's task), then its emails. Counts
the .py files of games/ and sheriff_pbem/ whose code ran (migrations left out).

    .venv/bin/python scripts/move_path.py [--list]
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = tempfile.mkdtemp()
os.environ.update(
    DJANGO_SETTINGS_MODULE="sheriff_pbem.settings",
    DATABASE_URL=f"sqlite:///{TMP}/path.sqlite3",
    DEBUG="1",
    SECRET_KEY="move-path-" + "x" * 40,
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    CELERY_TASK_ALWAYS_EAGER="0",
    SITE_URL="http://testserver",
    FIXED_SEEDS="1",
)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

setup_test_environment()
call_command("migrate", verbosity=0)

try:  # the app by concern
    from games.core import game_setup as create
    from games.core import links
    from games.mail import outbox
except ImportError:  # the flat app
    from games import links, outbox
    from games import services as create
from datetime import timedelta  # noqa: E402

from django.utils import timezone  # noqa: E402

from games.models import Game, OutboxEmail  # noqa: E402


def project_files(work) -> set:
    seen = set()

    def tracer(frame, event, arg):
        name = frame.f_code.co_filename
        if name.startswith(str(ROOT)) and "/migrations/" not in name and "/.venv/" not in name:
            seen.add(os.path.relpath(name, ROOT))

    sys.setprofile(tracer)
    try:
        work()
    finally:
        sys.setprofile(None)
    return {f for f in seen if f.startswith(("games/", "sheriff_pbem/"))}


def deliver_all():
    for pk in OutboxEmail.objects.filter(status="pending").values_list("pk", flat=True):
        outbox.deliver(pk)


def form_fields(client, url) -> dict:
    html = client.get(url).content.decode()
    version = html.split('name="version" value="')[1].split('"')[0]
    key = html.split('name="key" value="')[1].split('"')[0]
    token = client.cookies["csrftoken"].value
    return {"move": "set_aside", "version": version, "key": key, "csrfmiddlewaretoken": token}


def main() -> None:
    players = [create.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]
    game = create.create_game(name="Path", players=players, config={"edition": 2}, seed="ab" * 32)
    deliver_all()
    # The market: every merchant sets nothing aside; the last one's move ends the
    # phase, and owes every seat an email. That one is followed.
    merchants = list(game.seats.exclude(index=0).order_by("index"))
    for seat in merchants[:-1]:
        client = Client()
        url = links.seat_path(seat)
        client.post(url, form_fields(client, url), HTTP_ORIGIN="http://testserver")
    client = Client()
    url = links.seat_path(merchants[-1])
    data = form_fields(client, url)
    post = project_files(lambda: client.post(url, data, HTTP_ORIGIN="http://testserver"))
    moved = Game.objects.get(pk=game.pk)
    assert moved.version > int(data["version"]), "the move was refused"
    mails = project_files(deliver_all)
    # The load phase's deadline falls with nobody loaded: the worker's task.
    Game.objects.filter(pk=game.pk).update(phase_deadline=timezone.now() - timedelta(seconds=1))
    try:
        from games.core import timer_tasks as tasks
    except ImportError:
        from games import tasks
    deadline = project_files(lambda: tasks.advance_games([(game.pk, moved.version)]))
    assert Game.objects.get(pk=game.pk).version > moved.version, "the deadline did nothing"
    deadline_mails = project_files(deliver_all)
    for label, files in (
        ("move POST", post),
        ("its emails", mails),
        ("move POST and its emails", post | mails),
        ("deadline", deadline),
        ("its emails", deadline_mails),
        ("deadline and its emails", deadline | deadline_mails),
    ):
        print(f"{label:28} {len(files):3} files")
        if "--list" in sys.argv:
            print("   " + "\n   ".join(sorted(files)))


if __name__ == "__main__":
    main()
