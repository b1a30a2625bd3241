"""The site as an installable app (games/web/app_shell.py): the manifest and its icons,
each a PNG of the size it claims; the service worker at the root, never kept stale,
listing the shell and nothing personal, under a cache name that follows the shell's
bytes; the offline page, nobody's; every page's head pointing at them all; and a
policy that lets the manifest and the worker load. The worker's behaviour in a
browser: tests/browser/test_browser_app.py."""

import json
import re
import struct

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.web import app_shell

pytestmark = pytest.mark.django_db

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PERSONAL = ("/play/", "/my/", "/api/", "/live/", "/organize/", "/archive/")


@pytest.fixture
def static_client(settings):
    """A client whose WhiteNoise serves the static files from the source tree, as
    under DEBUG, rather than from a collectstatic the tests never run."""
    settings.WHITENOISE_USE_FINDERS = True
    return Client()


def png_size(client, url: str) -> tuple[int, int]:
    """The width and height an image's PNG header gives."""
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "image/png", url
    data = b"".join(response.streaming_content)
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR", url
    return struct.unpack(">II", data[16:24])


def worker_config(source: str) -> dict:
    """The worker's settings, as templates/app/sw.js receives them."""
    return json.loads(re.search(r"^var APP = (\{.*?^\});$", source, re.S | re.M).group(1))


def test_the_manifest_names_the_app_starts_on_my_games_and_scopes_the_whole_site(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert "max-age=86400" in response["Cache-Control"] and "public" in response["Cache-Control"]
    assert "Accept-Language" in response["Vary"]
    manifest = json.loads(response.content)
    assert manifest["name"] == "Sheriff of Nottingham" and manifest["short_name"] == "Sheriff"
    assert manifest["description"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/my/",
        "/",
        "standalone",
    )
    assert manifest["theme_color"] == "#5b3a1e"
    page_background = re.search(r"--bg: (#[0-9a-f]{6});", read_static("games/site.css"))
    assert manifest["background_color"] == page_background.group(1)
    assert (manifest["lang"], manifest["dir"]) == ("en", "ltr")
    purposes = [icon["purpose"] for icon in manifest["icons"]]
    assert purposes.count("any") == 2 and purposes.count("maskable") == 1
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}


def test_the_manifest_speaks_the_browsers_language(client):
    manifest = json.loads(
        client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").content
    )
    assert manifest["lang"] == "es"


def test_every_icon_is_a_png_of_the_size_it_claims(static_client):
    manifest = json.loads(static_client.get("/manifest.webmanifest").content)
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        width, height = png_size(static_client, icon["src"])
        assert f"{width}x{height}" == icon["sizes"], icon
    home = static_client.get("/").content.decode()
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', home).group(1)
    assert png_size(static_client, touch) == (180, 180)
    config = worker_config(static_client.get("/sw.js").content.decode())
    assert png_size(static_client, config["icon"]) == (192, 192)
    assert png_size(static_client, config["badge"]) == (96, 96)


def test_every_page_links_the_manifest_the_touch_icon_and_the_script_that_registers_the_worker(
    client,
):
    head = client.get("/").content.decode().split("</head>")[0]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in head
    assert '<link rel="apple-touch-icon" href="/static/games/icons/apple-touch-icon.png">' in head
    assert '<script src="/static/games/app.js" defer></script>' in head
    script = read_static("games/app.js")
    assert 'navigator.serviceWorker.register("/sw.js", { scope: "/" })' in script


def test_the_worker_is_served_at_the_root_never_stale_and_lists_only_the_shell(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    config = worker_config(response.content.decode())
    assert config["shell"] == app_shell.shell_urls()
    assert set(config["shell"]) == {
        "/static/games/site.css",
        "/static/games/app.js",
        "/static/games/push.js",
        "/static/games/icon.svg",
        "/static/games/icons/icon-192.png",
        "/static/games/icons/icon-512.png",
        "/static/games/icons/maskable-512.png",
        "/static/games/icons/apple-touch-icon.png",
        "/static/games/icons/badge-96.png",
        "/manifest.webmanifest",
        "/offline/",
    }
    for url in config["shell"]:
        assert not url.startswith(PERSONAL), url
    assert config["offline"] == "/offline/" and config["myGames"] == "/my/"
    assert re.fullmatch(r"shell-[0-9a-f]{16}", config["cache"])
    generic = config["generic"]
    assert (generic["title"], generic["body"]) == (
        "Sheriff of Nottingham",
        "Something happened at one of your tables.",
    )


def test_the_cache_name_follows_the_shells_bytes(client, monkeypatch, tmp_path):
    before = worker_config(client.get("/sw.js").content.decode())["cache"]
    assert worker_config(client.get("/sw.js").content.decode())["cache"] == before
    changed = tmp_path / "site.css"
    changed.write_text(read_static("games/site.css") + "\n.new-rule { color: red; }\n")
    find = finders.find
    monkeypatch.setattr(
        finders, "find", lambda path, **kw: str(changed) if path == "games/site.css" else find(path)
    )
    after = worker_config(client.get("/sw.js").content.decode())["cache"]
    assert after != before


def test_the_offline_page_is_nobodys_and_sets_no_cookie(client):
    response = client.get("/offline/")
    assert response.status_code == 200
    assert not response.cookies
    html = response.content.decode()
    assert "You are offline" in html and ">Try again</a>" in html
    person = get_user_model().objects.create_user("pat@example.org", "pat@example.org")
    signed_in = Client()
    signed_in.force_login(person)
    response = signed_in.get("/offline/")
    assert response.status_code == 200 and not response.cookies
    assert "pat@example.org" not in response.content.decode()
    assert response.content.decode() == html  # the same page for everyone


def test_the_shells_gets_change_nothing(client):
    person = get_user_model().objects.create_user("pat@example.org", "pat@example.org")
    client.force_login(person)
    with CaptureQueriesContext(connection) as queries:
        for path in ("/manifest.webmanifest", "/sw.js", "/offline/"):
            response = client.get(path)
            assert response.status_code == 200 and not response.cookies, path
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert not writes
    for path in ("/manifest.webmanifest", "/sw.js", "/offline/"):
        assert client.post(path).status_code == 405, path


def test_the_policy_lets_the_manifest_and_the_worker_load_and_notifications_show(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp
    policy = response.headers["Permissions-Policy"]
    assert "notifications" not in policy and "push" not in policy


def read_static(path: str) -> str:
    with open(finders.find(path), encoding="utf-8") as file:
        return file.read()
