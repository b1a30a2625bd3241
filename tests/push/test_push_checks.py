"""The start-up check of the Web Push settings (games/push/settings_checks.py) and
`manage.py vapid_keys`: keys that cannot sign, or a contact push services cannot use,
stop `check` and `migrate`; no keys at all is push off, and fine."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games.push import settings_checks, vapid
from tests.support.push_service import CONTACT, KEYS


def ids(settings, **values) -> list:
    for name, value in values.items():
        setattr(settings, f"WEBPUSH_VAPID_{name}", value)
    return [error.id for error in settings_checks.vapid_keys_work(None)]


def test_no_keys_is_push_off_and_no_error(settings):
    assert ids(settings, PUBLIC_KEY="", PRIVATE_KEY="", CONTACT="") == []


def test_a_matching_pair_with_a_contact_passes(settings):
    private, public = KEYS
    assert ids(settings, PUBLIC_KEY=public, PRIVATE_KEY=private, CONTACT=CONTACT) == []
    https = "https://sheriff.example.org/contact"
    assert ids(settings, PUBLIC_KEY=public, PRIVATE_KEY=private, CONTACT=https) == []


def test_half_a_pair_is_an_error(settings):
    assert ids(settings, PUBLIC_KEY=KEYS[1], PRIVATE_KEY="", CONTACT=CONTACT) == ["games.E010"]
    assert ids(settings, PUBLIC_KEY="", PRIVATE_KEY=KEYS[0], CONTACT=CONTACT) == ["games.E010"]


# (A key made at collection would name its case differently in each xdist worker.)
@pytest.mark.parametrize(
    "private", ["not a key", "AAAA", "A" * 43 + "=" * 5 + "!", "a key too long"]
)
def test_a_private_key_that_does_not_load_is_an_error(settings, private):
    if private == "a key too long":
        private = vapid.new_pair()[0] + "AA"
    assert ids(settings, PUBLIC_KEY=KEYS[1], PRIVATE_KEY=private, CONTACT=CONTACT) == ["games.E011"]


def test_a_public_key_not_of_the_private_one_is_an_error(settings):
    other_public = vapid.new_pair()[1]
    found = ids(settings, PUBLIC_KEY=other_public, PRIVATE_KEY=KEYS[0], CONTACT=CONTACT)
    assert found == ["games.E011"]
    assert ids(settings, PUBLIC_KEY="%%%", PRIVATE_KEY=KEYS[0], CONTACT=CONTACT) == ["games.E011"]


@pytest.mark.parametrize(
    "contact",
    ["", "ops@example.org", "mailto:", "mailto:not an address", "http://example.org", "https://"],
)
def test_a_contact_that_is_not_mailto_or_https_is_an_error(settings, contact):
    assert ids(settings, PUBLIC_KEY=KEYS[1], PRIVATE_KEY=KEYS[0], CONTACT=contact) == ["games.E012"]


def test_vapid_keys_prints_a_pair_that_passes_the_check(settings):
    out = io.StringIO()
    call_command("vapid_keys", "--contact", "mailto:ops@example.org", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    assert set(lines) == {f"WEBPUSH_VAPID_{n}" for n in ("PUBLIC_KEY", "PRIVATE_KEY", "CONTACT")}
    found = ids(
        settings,
        PUBLIC_KEY=lines["WEBPUSH_VAPID_PUBLIC_KEY"],
        PRIVATE_KEY=lines["WEBPUSH_VAPID_PRIVATE_KEY"],
        CONTACT=lines["WEBPUSH_VAPID_CONTACT"],
    )
    assert found == []
    assert len(lines["WEBPUSH_VAPID_PUBLIC_KEY"]) == 87  # 65 bytes: what browsers take


def test_the_check_runs_with_manage_py_check(settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = KEYS[1], "x"
    with pytest.raises(SystemCheckError, match=r"games\.E011"):
        call_command("check", stdout=io.StringIO(), stderr=io.StringIO())
