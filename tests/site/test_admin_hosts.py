"""Keeping the admin off the public host: with ADMIN_HOSTS set, the admin answers
on those hosts only (elsewhere a plain 404); ADMIN_PATH moves it from admin/;
ADMIN_SITE_URL is where the organizer's emails send them."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.core import links
from games.models import Game
from tests.support.deploy_env import load

pytestmark = pytest.mark.django_db

PUBLIC, PRIVATE = "sheriff.example.org", "admin.sheriff.example.org"


@pytest.fixture
def hosts(settings):
    settings.ALLOWED_HOSTS = [PUBLIC, PRIVATE, ".vpn.example.org", "testserver"]
    return settings


def get(path: str, host: str, user=None):
    client = Client(HTTP_HOST=host)
    if user is not None:
        client.force_login(user)
    return client.get(path)


@pytest.mark.parametrize("path", ["/admin/", "/admin", "/admin/login/", "/admin/games/game/"])
def test_by_default_the_admin_answers_on_every_host(hosts, path):
    assert hosts.ADMIN_HOSTS == []
    for host in (PUBLIC, PRIVATE):
        assert get(path, host).status_code in (200, 301, 302), (path, host)


@pytest.mark.parametrize(
    "path", ["/admin/", "/admin", "/admin/login/", "/admin/games/game/", "/admin/nothing/"]
)
def test_with_admin_hosts_the_admin_is_a_404_on_any_other_host(hosts, path):
    hosts.ADMIN_HOSTS = [PRIVATE]
    organizer = User.objects.create_superuser("org", "org@example.org", "pw")
    for user in (None, organizer):  # logged in or not
        response = get(path, PUBLIC, user)
        assert response.status_code == 404, path
        assert b"Django administration" not in response.content
    assert get(path, PRIVATE).status_code in (200, 301, 302, 404)
    assert get("/admin/login/", PRIVATE).status_code == 200
    assert get("/admin/login/", f"{PRIVATE}:8443").status_code == 200


def test_admin_hosts_may_name_a_domain_and_its_subdomains(hosts):
    hosts.ADMIN_HOSTS = [".vpn.example.org"]
    assert get("/admin/login/", "sheriff.vpn.example.org").status_code == 200
    assert get("/admin/login/", PUBLIC).status_code == 404


def test_the_rest_of_the_site_still_answers_on_the_public_host(hosts):
    hosts.ADMIN_HOSTS = [PRIVATE]
    assert get("/", PUBLIC).status_code == 200
    assert get("/administration-notes/", PUBLIC).status_code == 404  # not the admin either
    assert get("/play/not-a-token/", PUBLIC).status_code == 403


def test_the_organizers_emails_link_to_the_admins_own_site(settings):
    settings.SITE_URL = "https://sheriff.example.org"
    game = Game(pk=7)
    assert links.admin_url(game) == "https://sheriff.example.org/admin/games/game/7/change/"
    settings.ADMIN_SITE_URL = "https://admin.sheriff.example.org"
    assert links.admin_url(game) == "https://admin.sheriff.example.org/admin/games/game/7/change/"


# --- the settings, read in a process of their own --------------------------------------


def test_admin_hosts_and_site_url_come_from_the_environment(tmp_path):
    expr = "(s.ADMIN_HOSTS, s.ADMIN_PATH, s.ADMIN_SITE_URL)"
    result = load(tmp_path, expr, DEBUG="1", SITE_URL="https://sheriff.example.org")
    assert result.stdout.strip() == "([], 'admin/', '')", result.stderr
    env = {
        "ADMIN_HOSTS": "admin.sheriff.example.org, .vpn.example.org",
        "ADMIN_SITE_URL": "https://admin.sheriff.example.org/",
        "ADMIN_PATH": "",
    }
    result = load(tmp_path, expr, DEBUG="1", **env)
    assert result.stdout.strip() == (
        "(['admin.sheriff.example.org', '.vpn.example.org'], 'admin/', "
        "'https://admin.sheriff.example.org')"
    ), result.stderr


def test_admin_path_moves_the_admin(tmp_path):
    code = (
        "from django.urls import reverse, resolve, Resolver404; "
        "print(reverse('admin:index'), reverse('admin:games_game_changelist')); "
        "resolve('/admin/')"
    )
    result = load(tmp_path, f"exec({code!r})", DEBUG="1", ADMIN_PATH="/organizer-7f3a")
    assert result.stdout.startswith("/organizer-7f3a/ /organizer-7f3a/games/game/"), result.stderr
    assert "Resolver404" in result.stderr  # /admin/ is no page any more


@pytest.mark.parametrize("path", ["/", "a b", "../x", "play", "static/x", "organizer.x"])
def test_an_admin_path_that_cannot_be_is_refused(tmp_path, path):
    result = load(tmp_path, "s.ADMIN_PATH", DEBUG="1", ADMIN_PATH=path)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "ADMIN_PATH" in result.stderr
