"""Shared pytest setup for the whole suite: the Django settings module, the
session-wide fixtures, and the ``organizer`` fixture several folders use.

Settings come from the environment (sheriff_pbem/settings.py); tests need a
SECRET_KEY when DEBUG is off. The tests live in folders mirroring games/ (and site/
for sheriff_pbem/), each with a conftest.py saying what it tests; helpers shared by
several folders are in tests/support/, a folder's own beside its tests. No test
module imports another.
"""

import os

import pytest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
os.environ.setdefault("SECRET_KEY", "tests-only-key-0f3a9c1e7b5d2486af0c3e9b7d1a5f24")

# The helpers assert too: pytest explains their failures as it does the tests'.
pytest.register_assert_rewrite(
    "tests.support",
    "tests.browser.chromium",
    "tests.organizer.organizer_games",
    "tests.organizer.organizer_page",
    "tests.web.six_seat_pages",
    "tests.words.narrated_tables",
)


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues():
    """The compiled translation catalogues, as `make` builds them, for a run of
    pytest on its own (each xdist worker writes the same bytes, atomically)."""
    from django.core.management import call_command

    with open(os.devnull, "w") as quiet:
        call_command("compile_catalogues", stdout=quiet)


@pytest.fixture
def organizer(client):
    """The test client, logged in to the admin as an organizer (a superuser)."""
    from django.contrib.auth.models import User

    User.objects.create_superuser("org", "org@example.org", "pw")
    client.force_login(User.objects.get(username="org"))
    return client


@pytest.fixture(scope="session", autouse=True)
def pages_tell_the_test_client_their_context():
    """The test client reads ``response.context`` from Django's ``template_rendered``
    signal, which the test environment sends for Django's templates only; the
    pages and emails (Jinja, games/present/jinja_env.py) send it here too."""
    from django.template.backends import jinja2 as backend
    from django.test.signals import template_rendered

    plain = backend.Template.render

    def render(self, context=None, request=None):
        context = {} if context is None else context
        html = plain(self, context, request)  # fills in request, messages, csrf_input
        template_rendered.send(sender=self, template=self, context=context)
        return html

    backend.Template.render = render
    yield
    backend.Template.render = plain
