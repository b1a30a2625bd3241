"""Web Push (games/push, games/core/pushes.py, games/core/push_devices.py,
games/web/push_settings.py): which pushes a move, a deadline, a reminder or a line of
talk owes, beside its emails and never instead of them; what a push may say; sending
them to the test push service (tests/support/push_service.py), which checks each
one's VAPID signature and decrypts it, through its failures; the devices' endpoints;
the keys' start-up check."""

from tests.support.clock import clock  # noqa: F401 (the fixture)
from tests.support.push_service import push_service  # noqa: F401 (the fixture)
