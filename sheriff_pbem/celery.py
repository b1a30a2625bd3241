"""The Celery app. Settings come from Django settings under the CELERY_ prefix."""

import logging
import os
import signal

from celery import Celery, signals

from sheriff_pbem.security import RedactSeatTokens

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")

app = Celery("sheriff_pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds games/tasks.py, every task of the site, for a worker or beat (the celery command);
# games/apps.py imports it too, for the web process, which queues tasks by name.
app.autodiscover_tasks()

# The periodic sweeps run every second or so; their "sending / received /
# succeeded" lines would bury everything else at INFO.
ROUTINE_TASKS = (
    *("games.tasks.sweep_deadlines", "games.tasks.sweep_outbox", "games.tasks.sweep_pushes"),
    "games.tasks.check_mail_backlog",
)
ROUTINE_ENTRIES = ("sweep-deadlines", "sweep-outbox", "sweep-pushes", "check-mail-backlog")
CHATTY_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


class RoutineAtDebug(logging.Filter):
    """Demote the log lines of the routine sweeps to DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO:
            return True
        text = record.getMessage()
        if not any(name in text for name in ROUTINE_TASKS + ROUTINE_ENTRIES):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_routine_tasks(**_kwargs) -> None:
    for name in CHATTY_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RoutineAtDebug) for f in logger.filters):
            logger.addFilter(RoutineAtDebug())


signals.after_setup_logger.connect(quiet_routine_tasks, weak=False)


def redact_seat_tokens(logger=None, **_kwargs) -> None:
    """Celery's worker and beat log through handlers of their own, not the LOGGING
    setting's: they hide seat tokens too (an email's link in an error, a task's args)."""
    for handler in logger.handlers if logger is not None else ():
        if not any(isinstance(f, RedactSeatTokens) for f in handler.filters):
            handler.addFilter(RedactSeatTokens())


signals.after_setup_logger.connect(redact_seat_tokens, weak=False)


def leave_stopping_to_the_worker(**_kwargs) -> None:
    """A pool process ignores SIGTERM: its worker stops it (a warm shutdown lets its
    task finish; a time limit or a cold shutdown sends SIGKILL after SIGTERM). A
    supervisor that signals the whole process group (honcho, on Ctrl-C in `make run`)
    then stops the worker cleanly, instead of killing a task midway and the worker
    logging an ERROR for each pool process."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


signals.worker_process_init.connect(leave_stopping_to_the_worker, weak=False)
signals.after_setup_task_logger.connect(redact_seat_tokens, weak=False)
quiet_routine_tasks()
