"""Admin logins: after five wrong passwords for one user name from one address,
that name is refused from that address, even with the right password, until the
cool-off (15 minutes) is over or `manage.py axes_reset` lifts it; the refusal is
a page that says so, not an error."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F
from django.test import Client
from django.urls import reverse

from sheriff_pbem.security import client_ip

pytestmark = pytest.mark.django_db

LOGIN = reverse("admin:login")


@pytest.fixture
def org():
    return User.objects.create_superuser("org", "org@example.org", "right password")


def log_in(client, password: str, username: str = "org"):
    return client.post(
        LOGIN, {"username": username, "password": password, "next": reverse("admin:index")}
    )


def logged_in(response) -> bool:
    return response.status_code == 302 and response["Location"] == reverse("admin:index")


def test_the_settings_are_five_tries_per_name_and_address_for_fifteen_minutes():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME / timedelta(minutes=1) == 15
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS


def test_a_right_password_logs_in(client, org):
    assert logged_in(log_in(client, "right password"))


def lock_out(client) -> list:
    """Five wrong passwords: the first four get the login form back."""
    responses = [log_in(client, f"wrong {n}") for n in range(5)]
    assert [r.status_code for r in responses[:4]] == [200] * 4
    return responses


def test_the_sixth_try_is_refused_even_with_the_right_password(client, org):
    lock_out(client)
    response = log_in(client, "right password")
    assert response.status_code == 429
    page = response.content.decode()
    assert "After 5 wrong passwords in a row" in page and "for 15 minutes" in page
    assert "manage.py axes_reset" in page
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("admin:index")).status_code == 302  # still to the login


def test_the_lock_is_for_that_name_from_that_address_only(client, org):
    lock_out(client)
    other_address = Client(REMOTE_ADDR="192.0.2.7")
    assert logged_in(log_in(other_address, "right password"))
    User.objects.create_superuser("ann", "ann@example.org", "hers")
    assert logged_in(log_in(Client(), "hers", username="ann"))


def test_the_lock_ends_after_the_cool_off(client, org):
    lock_out(client)
    assert log_in(client, "right password").status_code == 429
    # Sixteen minutes later (every failure moved back in time):
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))
    assert logged_in(log_in(client, "right password"))


def test_axes_reset_lifts_the_lock_at_once(client, org):
    lock_out(client)
    call_command("axes_reset")
    assert logged_in(log_in(client, "right password"))


def test_a_right_password_clears_the_count(client, org):
    for n in range(4):
        log_in(client, f"wrong {n}")
    assert logged_in(log_in(client, "right password"))
    client.logout()
    for n in range(4):
        assert log_in(client, f"wrong again {n}").status_code == 200
    assert logged_in(log_in(client, "right password"))


class FakeRequest:
    def __init__(self, **meta):
        self.META = meta


def test_the_address_is_the_proxys_last_forwarded_one_only_behind_a_trusted_proxy(settings):
    request = FakeRequest(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9")
    settings.TRUST_PROXY_HEADERS = False
    assert client_ip(request) == "10.0.0.2"  # a client's own header proves nothing
    settings.TRUST_PROXY_HEADERS = True
    assert client_ip(request) == "203.0.113.9"  # what the proxy saw, not what was claimed
    assert client_ip(FakeRequest(REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"
