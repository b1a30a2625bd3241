"""The browser suite: games played in Debian's Chromium through Playwright against
pytest-django's live server (chromium.py: the ``Phone`` tab, axe-core's audit, and
``require_browser``, which skips without a browser, or fails under REQUIRE_BROWSER=1
as in CI). Every test here is marked ``browser`` and commits what it writes
(``django_db(transaction=True)``), for the live server to read it.
"""
