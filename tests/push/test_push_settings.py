"""The devices' endpoints (games/web/push_settings.py) and the settings page's section:
turn on, choose the kinds, turn off, behind the seat's link with CSRF, for the seat's
person; renew, proved by the device's own secret; and whatever bytes come, a 400 with
a message that changes nothing, never a 500."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.core import links, push_devices, pushes
from games.models import PushSubscription
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db

ALL = list(pushes.BODIES)


@pytest.fixture
def seat(push_service):
    return start_game().seats.get(index=1)  # Ben


def url(name: str, seat) -> str:
    return reverse(f"games:push-{name}", args=[links.make_token(seat)])


def post(client, path: str, body) -> tuple:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(path, raw, content_type="application/json")
    return response.status_code, response.json()


def snapshot() -> list:
    return list(PushSubscription.objects.order_by("pk").values())


def test_a_device_is_turned_on_changed_and_off_for_the_seats_person(push_service, seat, client):
    fake = push_service.new_device()
    status, answer = post(
        client, url("subscribe", seat), {"subscription": fake.subscription(), "kinds": ALL}
    )
    assert (status, answer["ok"], answer["kinds"]) == (200, True, ALL)
    device = PushSubscription.objects.get()
    assert (device.email, device.endpoint, device.kinds) == ("ben@example.org", fake.endpoint, ALL)
    assert device.endpoint_sha256 == push_devices.endpoint_digest(fake.endpoint)
    body = {"endpoint": fake.endpoint, "kinds": ["talk", "your_move"]}
    status, answer = post(client, url("kinds", seat), body)
    assert status == 200 and answer["kinds"] == ["your_move", "talk"]  # in the site's order
    other_seat = start_game().seats.get(index=2)  # Cid: not Ben's device to change
    status, answer = post(client, url("kinds", other_seat), {**body, "kinds": ["deal"]})
    assert status == 400 and "turn them on first" in answer["error"]
    status, _ = post(client, url("unsubscribe", seat), {"endpoint": fake.endpoint})
    assert status == 200 and not PushSubscription.objects.exists()


def test_the_same_device_again_is_one_subscription(push_service, seat, client):
    fake = push_service.new_device()
    for kinds in (ALL, ["deal"]):
        post(client, url("subscribe", seat), {"subscription": fake.subscription(), "kinds": kinds})
    assert PushSubscription.objects.get().kinds == ["deal"]


def test_a_device_is_renewed_and_moved_by_its_own_secret(push_service, seat, client):
    old = push_service.new_device()
    post(client, url("subscribe", seat), {"subscription": old.subscription(), "kinds": ALL})
    renew = reverse("games:push-renew")
    status, answer = post(client, renew, {"subscription": old.subscription()})
    assert status == 200 and answer == {"ok": True, "known": True, "key": push_devices.site_key()}
    new = push_service.new_device()
    forged = {"subscription": new.subscription(), "old_endpoint": old.endpoint}
    for secret in ("A" * 22, new.subscription()["keys"]["auth"]):  # not the old one's
        status, _ = post(client, renew, {**forged, "old_auth": secret})
        assert status == 404
    assert PushSubscription.objects.get().endpoint == old.endpoint
    moved = {**forged, "old_auth": old.subscription()["keys"]["auth"]}
    status, answer = post(client, renew, moved)
    assert status == 200
    device = PushSubscription.objects.get()
    assert (device.endpoint, device.email, device.kinds) == (new.endpoint, "ben@example.org", ALL)
    assert device.p256dh == new.p256dh


def test_renew_needs_no_csrf_token_and_the_others_do(push_service, seat):
    client = Client(enforce_csrf_checks=True)
    fake = push_service.new_device()
    body = {"subscription": fake.subscription(), "kinds": ALL}
    response = client.post(url("subscribe", seat), json.dumps(body), "application/json")
    assert response.status_code == 403 and not PushSubscription.objects.exists()
    renew = client.post(reverse("games:push-renew"), json.dumps(body), "application/json")
    assert renew.status_code == 404  # heard, and unknown


def good_bodies(service) -> dict:
    fake = service.new_device()
    subscription = fake.subscription()
    return {
        "subscribe": {"subscription": subscription, "kinds": ALL},
        "kinds": {"endpoint": fake.endpoint, "kinds": ALL},
        "unsubscribe": {"endpoint": fake.endpoint},
        "renew": {"subscription": subscription},
    }


def off_curve(point: str) -> str:
    """The point with one character of its x changed: no longer on P-256."""
    return point[:20] + ("A" if point[20] != "A" else "B") + point[21:]


def bad_bodies(service) -> list:
    """Bodies that must each be refused, whichever endpoint they reach."""
    fake = service.new_device().subscription()
    keys = fake["keys"]

    def sub(**changes):
        return {**fake, **changes}

    subscriptions = [
        None,
        "text",
        [],
        {},
        sub(endpoint=None),
        sub(endpoint=""),
        sub(endpoint=12),
        sub(endpoint="https://evil.example/push/1"),  # not a push service
        sub(endpoint="ftp://127.0.0.1/push/1"),
        sub(endpoint="http://user:pw@127.0.0.1/push/1"),
        sub(endpoint="http://127.0.0.1:99999/push/1"),
        sub(endpoint="http://127.0.0.1/" + "a" * 3000),
        sub(endpoint="http://127.0.0.1/push/\u00e9"),
        sub(endpoint="http://127.0.0.1/push/a b"),
        sub(keys=None),
        sub(keys=[]),
        sub(keys={"auth": keys["auth"]}),
        sub(keys={"p256dh": keys["p256dh"]}),
        sub(keys={**keys, "p256dh": "AAAA"}),
        sub(keys={**keys, "p256dh": off_curve(keys["p256dh"])}),
        sub(keys={**keys, "p256dh": 5}),
        sub(keys={**keys, "auth": "AAAA"}),
        sub(keys={**keys, "auth": "*" * 22}),
        sub(keys={**keys, "auth": None}),
    ]
    kinds = [None, "deal", [], ["deal", "deal", "deal", "deal", "deal"], ["spam"], [1], {}]
    bodies = [b"", b"{", b"\xff\xfe", b"[]", b"null", b"1e999999", b"[" * 5000, b"x" * 9000]
    bodies += [{"subscription": s, "kinds": ALL} for s in subscriptions]
    bodies += [{"subscription": fake, "kinds": k} for k in kinds]
    bodies += [{"endpoint": s.get("endpoint") if isinstance(s, dict) else s} for s in subscriptions]
    bodies += [{"endpoint": fake["endpoint"], "kinds": k} for k in kinds]
    bodies += [
        {"subscription": fake, "old_endpoint": "https://evil.example/x", "old_auth": "x"},
        {"subscription": fake, "old_endpoint": fake["endpoint"]},  # no secret
        {"subscription": fake, "old_endpoint": fake["endpoint"], "old_auth": 7},
    ]
    return bodies


def test_every_bad_body_is_a_400_with_a_message_and_changes_nothing(push_service, seat, client):
    good = good_bodies(push_service)
    post(client, url("subscribe", seat), good["subscribe"])  # a device to change, if it could be
    before = snapshot()
    paths = {name: url(name, seat) for name in ("subscribe", "kinds", "unsubscribe")}
    paths["renew"] = reverse("games:push-renew")
    for name, path in paths.items():
        for body in bad_bodies(push_service):
            status, answer = post(client, path, body)
            if status == 200:  # a body with every field this endpoint reads right
                assert name in ("unsubscribe", "kinds"), (name, body)
                continue
            assert status in (400, 404), (name, body, status)
            assert answer["ok"] is False, (name, body)
            assert status == 404 or answer["error"], (name, body)
            assert snapshot() == before, (name, body)


@hypothesis_settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.one_of(st.binary(max_size=300), st.text(max_size=200).map(str.encode)))
def test_any_bytes_at_all_are_answered_without_a_500(push_service, seat, client, raw):
    for path in (url("subscribe", seat), url("kinds", seat), reverse("games:push-renew")):
        response = client.post(path, raw, content_type="application/json")
        assert response.status_code == 400, (path, raw)
        assert response.json()["ok"] is False


def test_a_link_that_is_not_valid_is_refused_as_json(push_service, client):
    response = client.post(
        reverse("games:push-subscribe", args=["nonsense"]), b"{}", "application/json"
    )
    assert response.status_code == 403 and response.json()["ok"] is False


def test_push_off_on_the_site_refuses_to_turn_it_on(push_service, seat, client, settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    status, answer = post(client, url("subscribe", seat), good_bodies(push_service)["subscribe"])
    assert status == 400 and "not available" in answer["error"]


def test_a_bot_seat_takes_no_notifications(push_service, client):
    from games.core import practice

    person = practice.start(
        email="pia@example.org", name="Pia", level="random", config={"edition": 2, "players": 3}
    )
    bot = person.game.seats.exclude(pk=person.pk).first()
    body = good_bodies(push_service)["subscribe"]
    status, _ = post(client, url("subscribe", bot), body)
    assert status == 400 and not PushSubscription.objects.exists()


def test_the_settings_section_hands_the_script_what_it_needs(push_service, seat, client):
    fake = push_service.new_device()
    post(client, url("subscribe", seat), {"subscription": fake.subscription(), "kinds": ["deal"]})
    html = client.get(reverse("games:settings", args=[links.make_token(seat)])).content.decode()
    assert 'id="push"' in html and f'data-key="{push_devices.site_key()}"' in html
    digest = push_devices.endpoint_digest(fake.endpoint)
    assert f'data-devices=\'{{"{digest}": ["deal"]}}\'' in html
    assert "Turn on notifications on this device" in html
    assert "Notifications need JavaScript" in html  # until the script says otherwise
    assert "16.4" in html
    assert fake.endpoint not in html  # the device's address is not on the page


def test_without_keys_the_section_says_notifications_are_not_available(seat, client, settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    html = client.get(reverse("games:settings", args=[links.make_token(seat)])).content.decode()
    assert "Notifications are not available on this site" in html
    assert "data-key" not in html and "Turn on notifications" not in html


def test_every_page_loads_the_script_at_its_end(client):
    html = client.get("/").content.decode()
    head, body = html.split("</head>", 1)
    assert "games/push.js" not in head and "games/push.js" in body


AGENTS = [
    (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 "
        "Mobile Safari/537.36",
        "Chrome on Android",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
        "Version/17.5 Mobile/15E148 Safari/604.1",
        "Safari on iPhone",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
        "Firefox on Windows",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 "
        "Safari/537.36 Edg/126.0",
        "Edge on Windows",
    ),
    ("", ""),
]


@pytest.mark.parametrize(("agent", "label"), AGENTS)
def test_a_device_is_named_from_its_user_agent(agent, label):
    from games.web.push_settings import device_label

    assert device_label(agent) == label
