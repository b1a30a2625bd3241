"""The marks of a test that runs real processes (a Celery worker, deadline
processes) on the machine's PostgreSQL and Redis."""

import pytest
from django.conf import settings
from django.db import connection

REAL_SERVICES = [
    pytest.mark.django_db(transaction=True),
    # Run on their own, in one process (Makefile): a worker thread sharing a
    # process with other tests would meet their databases.
    pytest.mark.real_worker,
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"),
        reason="needs PostgreSQL and a Redis broker (always there under CI)",
    ),
]
