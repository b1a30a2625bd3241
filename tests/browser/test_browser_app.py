"""The site as an installed app, in Chromium on a phone: Chromium finds it
installable, and the service worker registers and controls the page; after a seat's
page, My games and the API have been opened, Cache Storage holds the shell and
nothing else; a page asked for offline is the
offline page (audited, var/screenshots/app-offline.png); and a push delivered to the
worker (through the DevTools protocol, as DevTools' own "Push" button does) shows a
notification, with the payload's words or, without a payload or with one that is not
JSON, general ones; a tap opens only this site's addresses."""

import json

import pytest

from games.core import links
from games.models import Seat
from games.web import app_shell
from tests.browser.chromium import Phone
from tests.browser.service_worker import (
    CLEAR,
    NOTIFICATIONS,
    deliver,
    installed,
    new_game,
    notifications,
    registration_id,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every address in Cache Storage, whatever the cache.
CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
  }
  return urls;
}"""


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="app-")
    yield tab
    tab.close()


def seat_path(game, index: int) -> str:
    return links.seat_path(Seat.objects.get(game=game, index=index))


def controller(phone: Phone) -> str | None:
    return phone.page.evaluate(
        "navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL"
    )


def shell(site: str) -> set[str]:
    return {site + path for path in app_shell.shell_urls()}


def test_the_worker_registers_and_controls_the_page_after_a_reload(phone, site):
    phone.open("/")
    assert installed(phone) == f"{site}/sw.js"
    phone.page.reload()
    phone.check()
    assert controller(phone) == f"{site}/sw.js"
    scope = phone.page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{site}/"
    assert set(phone.page.evaluate(CACHED)) == shell(site)
    # Chromium's own verdict: the manifest reads without error, and nothing of the site
    # stops it installing (Playwright's contexts are off the record, where nothing installs).
    cdp = phone.context.new_cdp_session(phone.page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{site}/manifest.webmanifest" and not manifest["errors"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors] == ["in-incognito"]


def test_nothing_personal_enters_cache_storage(phone, site):
    game = new_game()
    phone.sign_in_as("ann@example.org")
    phone.open(seat_path(game, 0))
    installed(phone)
    phone.page.reload()  # now through the worker
    assert controller(phone)
    phone.check()
    for path in ("/my/", seat_path(game, 0) + "settings/", "/api/v1/openapi.json"):
        phone.page.goto(path)
    answer = phone.page.goto(seat_path(game, 0))
    assert answer.status == 200 and answer.from_service_worker
    phone.check()
    cached = phone.page.evaluate(CACHED)
    assert set(cached) == shell(phone.base_url)
    assert not [url for url in cached if "/play/" in url or "/my/" in url or "/api/" in url]


def test_a_page_asked_for_offline_is_the_offline_page(phone, site):
    game = new_game()
    phone.open("/")
    installed(phone)
    phone.context.set_offline(True)
    phone.page.goto(seat_path(game, 1))
    assert phone.page.locator("h1").inner_text() == "You are offline"
    phone.check("offline")
    phone.context.set_offline(False)
    phone.page.get_by_role("link", name="Try again").click()
    phone.page.wait_for_load_state()
    assert "/play/" in phone.page.url and phone.page.locator(".brand").count() == 1
    assert phone.page.locator("h1").inner_text() != "You are offline"
    phone.check()


def test_a_push_shows_a_notification(phone, site):
    phone.context.grant_permissions(["notifications"], origin=site)
    phone.open("/")
    installed(phone)
    assert phone.page.evaluate("Notification.permission") == "granted"
    cdp = phone.context.new_cdp_session(phone.page)
    registration = registration_id(phone, cdp, site)

    def push(data: str) -> dict:
        """Deliver ``data`` to the worker, on a clear screen: the one notification it shows."""
        phone.page.evaluate(CLEAR)
        assert phone.page.evaluate(NOTIFICATIONS) == []
        deliver(cdp, site, registration, data)
        [shown] = notifications(phone)
        return shown

    payload = {
        "title": "Your move at Open road",
        "body": "Load your bag and declare it.",
        "url": "/play/abc/",
        "tag": "game-1",
        "lang": "en",
    }
    shown = push(json.dumps(payload))
    assert (shown["title"], shown["body"], shown["tag"]) == (
        payload["title"],
        payload["body"],
        payload["tag"],
    )
    assert shown["url"] == f"{site}/play/abc/" and shown["renotify"] and shown["lang"] == "en"
    assert shown["icon"].endswith("/icon-192.png") and shown["badge"].endswith("/badge-96.png")
    # No payload, one that is not JSON, one with no title: general words, every time.
    for data in ("", "not json {", json.dumps({"body": "x"}), "[1, 2]"):
        shown = push(data)
        assert (shown["title"], shown["body"], shown["url"]) == (
            "Sheriff of Nottingham",
            "Something happened at one of your tables.",
            f"{site}/my/",
        ), data
        assert shown["tag"] and shown["renotify"]


def test_a_notification_opens_only_this_sites_addresses(phone, site):
    """What a tap opens (ownUrl), asked of the worker itself: a tap cannot be made
    through Playwright or the DevTools protocol."""
    phone.open("/")
    installed(phone)
    [worker] = [w for w in phone.context.service_workers if w.url == f"{site}/sw.js"]
    opened = {
        "/play/abc/": f"{site}/play/abc/",
        f"{site}/my/#game-3": f"{site}/my/#game-3",
        "https://elsewhere.example/my/": f"{site}/my/",
        "//elsewhere.example/": f"{site}/my/",
        "javascript:alert(1)": f"{site}/my/",
        "": f"{site}/my/",
        None: f"{site}/my/",
    }
    for given, expected in opened.items():
        assert worker.evaluate("(url) => ownUrl(url)", given) == expected, given
