"""Under CI (REQUIRE_SERVICES=1) the suite must run on PostgreSQL and reach the
Redis broker: a missing service fails the run instead of silently skipping."""

import os

import pytest
from django.conf import settings
from django.db import connection
from kombu import Connection

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"
pytestmark = pytest.mark.skipif(not REQUIRED, reason="services are required only under CI")


@pytest.mark.django_db
def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql", settings.DATABASES["default"]["ENGINE"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def test_the_celery_broker_is_redis_and_answers():
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=3) as broker:
        broker.ensure_connection(max_retries=1)
