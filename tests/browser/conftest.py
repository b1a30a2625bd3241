"""The browser suite: games played in Debian's Chromium through Playwright against
pytest-django's live server (chromium.py: the ``Phone`` tab, axe-core's audit, and
``require_browser``, which skips without a browser, or fails under REQUIRE_BROWSER=1
as in CI). Every test here is marked ``browser`` and commits what it writes
(``django_db(transaction=True)``), for the live server to read it.
"""

import os

import pytest

from sheriff_pbem.celery import app as celery_app
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, Phone, require_browser


@pytest.fixture(scope="module")
def chromium():
    require_browser()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own
    # ORM calls are still plain synchronous ones.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def site(live_server, settings):
    """The live server as the dev stack runs it: links to itself, the dev mailbox
    as every inbox, and each move's emails sent as soon as it commits."""
    settings.SITE_URL = live_server.url
    settings.EMAIL_BACKEND = "games.mail.dev_backend.DevMailboxBackend"
    eager = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    yield live_server.url
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = eager


@pytest.fixture
def phone(chromium, site, request):
    prefix = request.node.name.removeprefix("test_")[:24] + "-"
    tab = Phone(chromium, site, prefix=prefix)
    yield tab
    tab.close()
