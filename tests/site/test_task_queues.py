"""Deadlines have a Celery queue of their own, served by a worker of its own, so
that a pile of emails never makes a deadline late; and the broker and database
settings that let lost work and lost connections heal."""

import json
import os
import re
import subprocess
import sys

from django.conf import settings

from sheriff_pbem.celery import app

ROOT = settings.BASE_DIR
DEADLINE_TASKS = (
    *("sweep_deadlines", "advance_games", "remind_game", "end_bargaining", "play_bots"),
    "check_mail_backlog",
)
EMAIL_TASKS = ("send_emails", "sweep_outbox")
PUSH_TASKS = ("send_pushes", "sweep_pushes")


def queue_of(task: str) -> str:
    return app.amqp.router.route({}, f"games.tasks.{task}")["queue"].name


def test_the_deadline_tasks_go_to_the_deadlines_queue_and_emails_to_the_default_one():
    assert {queue_of(task) for task in DEADLINE_TASKS} == {"deadlines"}
    assert {queue_of(task) for task in EMAIL_TASKS} == {"celery"}
    assert {queue_of(task) for task in PUSH_TASKS} == {"push"}  # served by the email worker


def test_a_worker_started_without_a_queue_serves_them_all():
    assert set(app.amqp.queues) == {"celery", "deadlines", "push"}


def worker_queues(text: str) -> list:
    """The queue after each ``-Q`` in a shell script or a compose file's commands."""
    return re.findall(r'-Q"?,? "?([\w,]+)', text)


def test_the_dev_stack_and_compose_run_a_worker_for_each_queue():
    """The deadlines' worker of its own; the pushes' queue taken in turn with the
    emails' by the email worker."""
    for path in ("Procfile", "docker/compose.yaml"):
        queues = worker_queues((ROOT / path).read_text())
        assert sorted(queues) == ["celery,push", "deadlines"], path


def test_kept_database_connections_are_checked_before_they_are_reused():
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_a_task_of_a_killed_worker_is_delivered_again_within_minutes_on_redis():
    """Settings as the service runs them (REDIS_URL set): read in a process of its own."""
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.CELERY_BROKER_TRANSPORT_OPTIONS))"
    )
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/15"}
    env.pop("CELERY_BROKER_URL", None)
    output = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(output.splitlines()[-1])["visibility_timeout"] == 300


def test_every_task_is_registered_once_django_is_ready():
    """A worker (and the web process, which queues by name) finds each task by the
    name it was first deployed with."""
    names = {name for name in app.tasks if name.startswith("games.")}
    queued = DEADLINE_TASKS + EMAIL_TASKS + PUSH_TASKS
    assert names == {f"games.tasks.{task}" for task in queued} | {
        "games.tasks.send_digests",
        "games.tasks.start_due_lobbies",
        "games.tasks.send_daily_emails",
    }
