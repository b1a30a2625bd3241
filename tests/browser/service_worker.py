"""The service worker as the browser suite sees it (static/games/app.js registers it,
templates/app/sw.js): waiting for it, its registration as DevTools knows it, a push
delivered to it over the DevTools protocol, the notifications it shows; and the
table both suites open."""

import time

from games.core import game_setup
from tests.browser.chromium import Phone

NOTIFICATIONS = """() => navigator.serviceWorker.ready.then((r) => r.getNotifications()).then(
  (found) => found.map((n) => ({title: n.title, body: n.body, tag: n.tag, lang: n.lang,
    icon: n.icon, badge: n.badge, renotify: n.renotify, url: n.data && n.data.url})))"""
CLEAR = """() => navigator.serviceWorker.ready.then((r) => r.getNotifications()).then(
  (found) => found.forEach((n) => n.close()))"""


def new_game():
    """The app's and the notifications' table: three players, the 2nd edition."""
    return game_setup.create_game(
        name="Open road",
        players=[
            game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")
        ],
        config={"edition": 2},
    )


def installed(phone: Phone) -> str:
    """Wait for the worker to be active; the address of its script."""
    return phone.page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")


def registration_id(phone: Phone, cdp, site: str) -> str:
    """The worker's registration, as DevTools knows it (the events arrive while
    Playwright waits, not while Python sleeps)."""
    found = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for registration in found:
            if registration["scopeURL"] == f"{site}/" and not registration["isDeleted"]:
                return registration["registrationId"]
        phone.page.wait_for_timeout(100)
    raise AssertionError(f"no registration for {site}/: {found}")


def deliver(cdp, site: str, registration: str, data: str) -> None:
    """A push message, as the browser's push service would hand it to the worker."""
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": site, "registrationId": registration, "data": data},
    )


def notifications(phone: Phone) -> list[dict]:
    """The notifications showing, once there is one (or after 10 s, none)."""
    deadline = time.monotonic() + 10
    while True:
        shown = phone.page.evaluate(NOTIFICATIONS)
        if shown or time.monotonic() > deadline:
            return shown
        phone.page.wait_for_timeout(100)
