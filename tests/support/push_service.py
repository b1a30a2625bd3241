"""The test push service (games/devtools/push_service.py, which ``manage.py bench_push``
runs too) and the settings that turn Web Push on for a test: a VAPID key pair made
once a session, the contact every push must carry, and the service's loopback host
among the push services the site sends to."""

import pytest

from games.devtools.push_service import Device, PushService, Received  # noqa: F401
from games.push import vapid

CONTACT = "mailto:operator@sheriff.test"
KEYS = vapid.new_pair()  # (private, public), made once a run


def push_settings(settings, private: str = KEYS[0], public: str = KEYS[1]) -> None:
    """Push on, with these keys, sending to loopback hosts (the test service)."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_CONTACT = CONTACT
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1"]


@pytest.fixture
def push_service(settings):
    """A started test push service that checks every push's VAPID signature against
    the site's key and contact; Web Push on for the test."""
    push_settings(settings)
    with PushService(contact=CONTACT, public_key=KEYS[1]) as service:
        yield service
