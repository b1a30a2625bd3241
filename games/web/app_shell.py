"""The site as an installable app: its manifest (/manifest.webmanifest), its service
worker (/sw.js, from templates/app/sw.js) and the page that worker shows when the
network is gone (/offline/).

The worker keeps the shell only: the styles, the script, the icons, the manifest and
the offline page, none of which says anything about anyone. Every page (a seat's, My
games...) and the API come from the network each time and never enter the browser's
caches: a seat's page holds the secret of its link and what only that seat may see.
"""

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.present.page_language import browser_language, in_language

NAME = "Sheriff of Nottingham"
SHORT_NAME = "Sheriff"
THEME_COLOR = "#5b3a1e"  # base.html's theme-color, the brand bar of site.css
BACKGROUND_COLOR = "#f4efe6"  # site.css's --bg: the splash screen is the page's colour
# The manifest changes with a release at most; a day spares a request per page.
MANIFEST_MAX_AGE = 24 * 60 * 60

# (static path, size in px, purpose): scripts/make_icons.py makes them from icon.svg.
ICONS = [
    ("games/icons/icon-192.png", 192, "any"),
    ("games/icons/icon-512.png", 512, "any"),
    ("games/icons/maskable-512.png", 512, "maskable"),
]
APPLE_TOUCH_ICON = "games/icons/apple-touch-icon.png"
BADGE = "games/icons/badge-96.png"  # a notification's small mark, white on transparent
# icon.svg: the favicon every page links, the offline page included.
SHELL_STATIC = [
    "games/site.css",
    "games/app.js",
    "games/push.js",  # every page loads it, the offline page too
    "games/icon.svg",
    *(path for path, _size, _purpose in ICONS),
    APPLE_TOUCH_ICON,
    BADGE,
]


def manifest_fields(language: str) -> dict:
    with translation.override(language):
        description = _(
            "Sheriff of Nottingham played by email: your tables, your moves and the "
            "table talk, at your own pace."
        )
        bidi = translation.get_language_info(language)["bidi"]
    return {
        "id": reverse("games:my-games"),
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": description,
        "start_url": reverse("games:my-games"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "lang": language,
        "dir": "rtl" if bidi else "ltr",
        "icons": [
            {
                "src": static(path),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for path, size, purpose in ICONS
        ],
    }


def manifest_bytes(language: str) -> bytes:
    return json.dumps(manifest_fields(language), ensure_ascii=False, indent=2).encode()


@require_safe
def manifest(request):
    response = HttpResponse(
        manifest_bytes(browser_language(request)), content_type="application/manifest+json"
    )
    patch_cache_control(response, public=True, max_age=MANIFEST_MAX_AGE)
    patch_vary_headers(response, ["Accept-Language"])
    return response


@require_safe
def offline(request):
    """What the worker shows for a page the network could not bring: nothing of
    anyone's, so that it may be kept in the browser."""
    return in_language(request, "offline.html")


def shell_urls() -> list[str]:
    return [
        *(static(path) for path in SHELL_STATIC),
        reverse("games:manifest"),
        reverse("games:offline"),
    ]


def shell_version() -> str:
    """A digest of everything the worker keeps, as the server would now send it: a
    new one names a new cache, so a release that changes any of it replaces the
    whole shell. The static files keep their names from one release to the next
    (STORAGES: no hashed names), hence their bytes, not only their addresses."""
    digest = hashlib.sha256()
    for path in SHELL_STATIC:
        digest.update(static(path).encode() + b"\0")
        with open(finders.find(path), "rb") as file:
            digest.update(file.read())
    for language, _name in settings.LANGUAGES:
        digest.update(manifest_bytes(language))
        with translation.override(language):
            digest.update(render_to_string("offline.html", using="jinja").encode())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request):
    """The worker's script, at the root so that its scope is the whole site. Never
    kept stale (no-cache): browsers compare it byte for byte to see a new release."""
    language = browser_language(request)
    with translation.override(language):
        generic = {
            "title": NAME,
            "body": _("Something happened at one of your tables."),
            "lang": language,
        }
    config = {
        "cache": f"shell-{shell_version()}",
        "shell": shell_urls(),
        "offline": reverse("games:offline"),
        "myGames": reverse("games:my-games"),
        "icon": static(ICONS[0][0]),
        "badge": static(BADGE),
        "generic": generic,
    }
    source = render_to_string("app/sw.js", {"config": json.dumps(config, indent=2)}, using="django")
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Accept-Language"])
    return response
