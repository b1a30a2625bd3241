"""Handing the outbox's new rows to the workers once their transaction commits: one
task for the emails of one change, one for its pushes, queued by name (the mail and
the push packages sit above this module). A deadline process holds them back while it
writes a burst (``sends_held``) and hands them out after (``send_held``)."""

import logging
import threading
from contextlib import contextmanager

from django.db import transaction

from sheriff_pbem.celery import app

# The tasks that send a change's emails and its Web Push notifications (games.tasks).
SEND_EMAILS = "games.tasks.send_emails"
SEND_PUSHES = "games.tasks.send_pushes"

log = logging.getLogger(__name__)


def send_once_committed(ids: list, task: str = SEND_EMAILS) -> None:
    """The outbox rows ``ids``, just written, go to the email workers once the
    transaction commits (or are held, ``sends_held``); ``task``: SEND_PUSHES for the
    push outbox's rows."""
    transaction.on_commit(lambda: send_after_commit(ids, task))


class HeldPushes(list):
    """Ids of the push outbox held by ``sends_held``, told apart from the emails'."""


# The emails a deadline process holds back while it writes a burst (sends_held).
_holding = threading.local()


@contextmanager
def sends_held(into: list):
    """Within this block, the emails committed are not handed to the email workers
    but their ids appended to ``into`` (a list of id lists), for ``send_held`` later:
    a deadline process writes a burst of thousands of deadlines first, and the email
    workers, sharing the machine, start once it is written (``manage.py
    bench_deadlines``: the lateness bound). Unsent, they are the outbox sweep's."""
    previous = getattr(_holding, "into", None)
    _holding.into = into
    try:
        yield
    finally:
        _holding.into = previous


def send_held(held: list) -> None:
    """Hand the emails ``sends_held`` kept back to the email workers, emptying ``held``."""
    while held:
        ids = held.pop(0)
        send_after_commit(ids, SEND_PUSHES if isinstance(ids, HeldPushes) else SEND_EMAILS)


def send_after_commit(ids: list, task: str = SEND_EMAILS) -> None:
    """One task for the emails (or pushes) of one move: fewer broker round trips than
    one each."""
    into = getattr(_holding, "into", None)
    if into is not None:
        into.append(ids if task == SEND_EMAILS else HeldPushes(ids))
        return
    try:
        # Found by name in the site's Celery app (not send_task, which ignores
        # CELERY_TASK_ALWAYS_EAGER; not current_app, which a thread of its own,
        # like the test server's, does not share): registered when Django is ready.
        app.tasks[task].delay(ids)
    except Exception:  # broker down: the outbox sweep sends them later
        log.warning("could not enqueue %s %s; the sweep will send them", task, ids, exc_info=True)
