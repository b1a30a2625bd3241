"""The routine sweeps run every second or so: their Celery log lines are DEBUG,
so that a terminal running the dev stack shows what matters."""

import logging

from sheriff_pbem.celery import RoutineAtDebug, quiet_routine_tasks


def record(name: str, message: str, *args) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, message, args, None)


def test_sweep_lines_are_demoted_and_hidden_at_info(caplog):
    caplog.set_level(logging.INFO)
    routine = RoutineAtDebug()
    sending = record(
        "celery.beat",
        "Scheduler: Sending due task %s (%s)",
        "sweep-deadlines",
        "games.tasks.sweep_deadlines",
    )
    assert routine.filter(sending) is False
    assert sending.levelno == logging.DEBUG
    received = record(
        "celery.worker.strategy", "Task %s[%s] received", "games.tasks.sweep_outbox", "abc"
    )
    assert routine.filter(received) is False


def test_other_lines_stay(caplog):
    caplog.set_level(logging.INFO)
    routine = RoutineAtDebug()
    line = record("celery.app.trace", "Task %s[%s] succeeded", "games.tasks.send_emails", "x")
    assert routine.filter(line) is True and line.levelno == logging.INFO


def test_shown_when_debugging(caplog):
    caplog.set_level(logging.DEBUG, logger="celery.beat")
    line = record("celery.beat", "Scheduler: Sending due task %s", "sweep-outbox")
    assert RoutineAtDebug().filter(line) is True and line.levelname == "DEBUG"


def test_the_filter_is_installed_once():
    quiet_routine_tasks()
    quiet_routine_tasks()
    beat = logging.getLogger("celery.beat")
    assert sum(isinstance(f, RoutineAtDebug) for f in beat.filters) == 1
