"""A clock a test moves: ``clock.at(seconds)`` after T0 is what ``timezone.now``
says (the gathered emails' quiet times and longest waits)."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # the test clock's start


@pytest.fixture
def clock():
    class Clock:
        now = T0

        def at(self, seconds: float):
            self.now = T0 + timedelta(seconds=seconds)
            return self.now

    clock = Clock()
    with mock.patch("django.utils.timezone.now", lambda: clock.now):
        yield clock
