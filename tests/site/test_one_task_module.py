"""games/tasks.py is the one entry for the Celery tasks: every task of the site is
defined there under the name games.tasks.<function>, the name queued tasks carry, and
core and mail hand work out by names that are registered."""

import ast

from django.conf import settings

from games.core import deadline_sweep, outbox_handoff
from sheriff_pbem.celery import app

GAMES = settings.BASE_DIR / "games"


def site_tasks() -> dict:
    return {name: task for name, task in app.tasks.items() if name.startswith("games.")}


def test_every_task_is_defined_in_games_tasks_under_its_function_name():
    assert site_tasks()
    for name, task in site_tasks().items():
        assert task.run.__module__ == "games.tasks", name
        assert name == f"games.tasks.{task.run.__name__}"


def test_the_names_core_queues_by_are_registered_tasks():
    queued = {outbox_handoff.SEND_EMAILS, deadline_sweep.ADVANCE_GAMES, deadline_sweep.PLAY_BOTS}
    queued |= {deadline_sweep.REMIND_GAME, deadline_sweep.END_BARGAINING}
    assert queued <= set(site_tasks())


def uses_shared_task(source: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name | ast.Attribute | ast.alias):
            named = getattr(node, "id", None) or getattr(node, "attr", None) or node.name
            if named == "shared_task":
                return True
    return False


def test_no_module_but_games_tasks_defines_a_task():
    users = {
        str(path.relative_to(settings.BASE_DIR))
        for path in GAMES.rglob("*.py")
        if uses_shared_task(path.read_text())
    }
    assert users == {"games/tasks.py"}
