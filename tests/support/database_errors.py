"""The database failures a write must survive, as Django raises them from psycopg:
a deadlock's victim (SQLSTATE 40P01) and a lost connection (class 08)."""

from django.db import OperationalError


class _Cause(Exception):
    def __init__(self, message: str, sqlstate: str):
        super().__init__(message)
        self.sqlstate = sqlstate


def deadlock() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = _Cause("deadlock detected", "40P01")
    return error


def lost_connection() -> OperationalError:
    error = OperationalError("server closed the connection unexpectedly")
    error.__cause__ = _Cause("server closed the connection unexpectedly", "08006")
    return error


def failing_once(real, error: OperationalError):
    """``real``, its first call raising ``error`` instead; ``calls`` counts them all."""

    def run(*args, **kwargs):
        run.calls += 1
        if run.calls == 1:
            raise error
        return real(*args, **kwargs)

    run.calls = 0
    return run
