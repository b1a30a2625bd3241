"""Web Push in Chromium on a phone, end to end. Headless Chromium has no push service
of its own, so an init script stands in for the browser's ``PushManager``: its
subscription's endpoint is the test push service's and its keys a fake device's. A
player turns notifications on from their seat's settings (audited; screenshots of the
section in var/screenshots/push-*.png), chooses what to hear of, and another seat's
move owes them "your move": the test push service receives it, checks its VAPID
signature and decrypts it; that payload, delivered to the service worker through the
DevTools protocol, shows a notification with the game's name and "Your move". The app
opened again renews the subscription; turning it off drops it."""

import json
import time

import pytest

from games.core import links, moves, pushes
from games.models import PushSubscription, Seat
from tests.browser.chromium import SCREENSHOTS, Phone
from tests.browser.service_worker import (
    deliver,
    installed,
    new_game,
    notifications,
    registration_id,
)
from tests.support.push_service import CONTACT, KEYS, PushService, push_settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The browser's PushManager, standing in for a push service: subscribe() hands back
# the fake device's subscription (remembered in localStorage, as a browser remembers
# its own), getSubscription() finds it, unsubscribe() forgets it.
FAKE_PUSH_MANAGER = """(() => {
  const device = %s;
  const KEPT = "test.fake-push";
  const bytes = (text) => {
    const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) %% 4);
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
  };
  const subscription = (key) => ({
    endpoint: device.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: bytes(key) },
    getKey: (name) => bytes(device.keys[name]),
    toJSON: () => ({ endpoint: device.endpoint, expirationTime: null, keys: device.keys }),
    unsubscribe: () => { localStorage.removeItem(KEPT); return Promise.resolve(true); },
  });
  const encode = (key) => btoa(String.fromCharCode(...new Uint8Array(key.buffer || key)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  PushManager.prototype.subscribe = function (options) {
    const key = encode(options.applicationServerKey);
    localStorage.setItem(KEPT, key);
    return Promise.resolve(subscription(key));
  };
  PushManager.prototype.getSubscription = function () {
    const key = localStorage.getItem(KEPT);
    return Promise.resolve(key ? subscription(key) : null);
  };
})();"""


@pytest.fixture
def service(settings):
    """The test push service, Web Push on for the live server (which reads the settings)."""
    push_settings(settings)
    with PushService(contact=CONTACT, public_key=KEYS[1]) as running:
        yield running


@pytest.fixture
def phone(chromium, site, service):
    tab = Phone(chromium, site, prefix="push-")
    yield tab
    tab.close()


def section_shot(phone: Phone, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.locator("#push").screenshot(path=SCREENSHOTS / f"push-{name}.png")


def status(phone: Phone, text: str) -> None:
    phone.page.locator("#push-status", has_text=text).wait_for()


def market_move(game, index: int) -> None:
    seat = Seat.objects.get(game=game, index=index)
    since = game.engine_state().phase.since
    outcome = moves.submit(seat, {"type": "set_aside", "cards": []}, version=since, key=f"m{index}")
    assert outcome.accepted, outcome.message


def test_notifications_turned_on_and_a_move_pushed_to_the_phone(phone, site, service):
    device = service.new_device()
    phone.context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(device.subscription()))
    phone.context.grant_permissions(["notifications"], origin=site)
    game = new_game()  # Ann is the Sheriff; Ben and Cid trade at the market
    ben = Seat.objects.get(game=game, index=1)
    market_move(game, 1)  # Ben has made his: the market waits for Cid
    settings_page = links.seat_path(ben) + "settings/"

    phone.open(settings_page)
    installed(phone)  # app.js registered the worker
    page = phone.page
    page.locator("#push form.push-form").wait_for()  # the script found push support
    assert page.locator("[data-push-shown=nojs]").is_hidden()
    phone.check("settings")
    section_shot(phone, "off")

    page.get_by_role("button", name="Turn on notifications on this device").click()
    status(phone, "Notifications are on for this device.")
    subscription = PushSubscription.objects.get()
    assert (subscription.email, subscription.endpoint) == ("ben@example.org", device.endpoint)
    assert subscription.kinds == list(pushes.BODIES) and subscription.device.startswith("Chrome")
    page.get_by_label("Table talk that concerns me").uncheck()
    page.get_by_role("button", name="Save these choices").click()
    status(phone, "Your choices are saved.")
    subscription.refresh_from_db()
    assert pushes.TALK not in subscription.kinds
    phone.check("settings-on")
    section_shot(phone, "on")

    market_move(game, 2)  # Cid's: the market is over, Ben's move to load his bag
    (received,) = service.wait_for(1)
    assert service.errors() == []
    assert received.payload == {
        "title": "Open road",
        "body": "Your move",
        "url": site + links.seat_path(ben),
        "tag": pushes.topic(ben),
        "lang": "en",
    }
    assert received.headers["Urgency"] == "high" and received.headers["Topic"] == pushes.topic(ben)

    # The push service would now hand the encrypted bytes to the phone; the worker
    # gets the payload they decrypt to.
    cdp = phone.context.new_cdp_session(page)
    registration = registration_id(phone, cdp, site)
    deliver(cdp, site, registration, json.dumps(received.payload))
    [notification] = notifications(phone)
    assert (notification["title"], notification["body"]) == ("Open road", "Your move")
    assert notification["url"] == received.payload["url"]

    # The app opened again (a new session): its script tells the site the device is there.
    renewed = subscription.renewed_at
    again = phone.context.new_page()
    again.goto("/my/")
    deadline = time.monotonic() + 10
    while PushSubscription.objects.get().renewed_at == renewed and time.monotonic() < deadline:
        again.wait_for_timeout(100)
    assert PushSubscription.objects.get().renewed_at > renewed
    again.close()

    page.get_by_role("button", name="Turn off on this device").click()
    status(phone, "Notifications are off for this device.")
    assert not PushSubscription.objects.exists()
    page.get_by_role("button", name="Turn on notifications on this device").wait_for()
    phone.check()


def test_without_push_support_the_section_says_so(chromium, site, service):
    game = new_game()
    phone = Phone(chromium, site, prefix="push-")
    phone.context.add_init_script("delete window.PushManager;")
    try:
        phone.open(links.seat_path(Seat.objects.get(game=game, index=1)) + "settings/")
        phone.page.locator("[data-push-shown=unsupported]").wait_for()
        assert phone.page.locator("form.push-form").is_hidden()
        phone.check("settings-unsupported")
        section_shot(phone, "unsupported")
    finally:
        phone.close()
