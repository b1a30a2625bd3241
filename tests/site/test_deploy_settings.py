"""Deployment settings: the secret key, HTTPS knobs, `check --deploy`, the Compose
file's defaults, and the security headers every page carries.

Settings are read once per process, so each variant runs in a subprocess with its
own environment (never a database: these only load the settings)."""

import os
import re
import shutil
import subprocess

import pytest
from django.core import mail

from games.mail.dev_backend import DevMailboxBackend
from games.models import DevMail
from sheriff_pbem.security import DEV_SECRET_KEY, secret_key_problem
from tests.support.deploy_env import PRODUCTION, ROOT, STRONG_KEY, load, run

COMPOSE = ROOT / "docker" / "compose.yaml"


# -- the secret key ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        DEV_SECRET_KEY,
        "compose-dev-only-insecure-secret-key-change-me",
        "collectstatic-build-only",
        "x" * 39,
        "django-insecure-" + "a1b2c3d4e5" * 5,
        "please-change-me-" + "a1b2c3d4e5" * 5,
        "ab" * 30,
    ],
)
def test_a_known_or_weak_key_is_refused_when_debug_is_off(tmp_path, key):
    assert secret_key_problem(key)
    result = load(tmp_path, "s.SECRET_KEY", DEBUG="0", SECRET_KEY=key)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is not fit for a site with DEBUG off" in result.stderr


def test_a_strong_key_is_taken_and_debug_keeps_its_dev_key(tmp_path):
    assert secret_key_problem(STRONG_KEY) is None
    result = load(tmp_path, "s.SECRET_KEY == " + repr(STRONG_KEY), DEBUG="0", SECRET_KEY=STRONG_KEY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
    result = load(tmp_path, "s.SECRET_KEY", DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == DEV_SECRET_KEY


# -- the database -----------------------------------------------------------------------


@pytest.mark.parametrize(("prepared", "threshold"), [(None, "5"), ("1", "5"), ("0", "None")])
def test_postgresql_keeps_the_page_s_reads_prepared_unless_told_not_to(
    tmp_path, prepared, threshold
):
    """psycopg prepares nothing unless the connection has a threshold (Django's default
    is None); DATABASE_PREPARED_READS=0 is for a pooler that cannot keep them."""
    env = {"DATABASE_URL": "postgres://sheriff@db.example.org:5432/sheriff"}
    if prepared is not None:
        env["DATABASE_PREPARED_READS"] = prepared
    expr = 's.DATABASES["default"]["OPTIONS"].get("prepare_threshold")'
    result = load(tmp_path, expr, DEBUG="1", **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == threshold
    sqlite = load(tmp_path, expr, DEBUG="1")
    assert sqlite.stdout.strip() == "None", sqlite.stderr


# -- HTTPS ------------------------------------------------------------------------------


def test_https_settings_are_off_unless_asked_for(tmp_path):
    expr = "(s.SECURE_PROXY_SSL_HEADER, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS)"
    result = load(tmp_path, expr, DEBUG="0", SECRET_KEY=STRONG_KEY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(None, False, 0)"


def test_the_proxy_header_is_trusted_only_when_said_so(tmp_path):
    result = load(tmp_path, "s.SECURE_PROXY_SSL_HEADER", DEBUG="1", TRUST_PROXY_HEADERS="1")
    assert result.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')", result.stderr


def test_hsts_and_redirect_come_from_the_environment(tmp_path):
    expr = (
        "(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, "
        "s.SECURE_HSTS_PRELOAD)"
    )
    result = load(tmp_path, expr, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(True, 31536000, True, True)"


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    args = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    result = run(args, tmp_path, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    # Without HTTPS it warns: the check above is not clean by accident.
    plain = {k: v for k, v in PRODUCTION.items() if not k.startswith("SECURE_")}
    result = run(args, tmp_path, **plain)
    assert result.returncode != 0
    assert "security.W004" in result.stderr and "security.W008" in result.stderr


def test_ci_runs_check_deploy():
    script = (ROOT / ".ci" / "run").read_text()
    assert "check --deploy --fail-level WARNING" in script


# -- the Compose file -------------------------------------------------------------------


def test_compose_ships_no_secret_key_and_binds_ports_to_localhost():
    text = COMPOSE.read_text()
    assert re.search(r"SECRET_KEY: \$\{SECRET_KEY:\?", text)
    assert "insecure" not in text and "change-me" not in text
    ports = re.findall(r'^\s+- "([^"]+)"\s*$', text, re.MULTILINE)
    published = [p for p in ports if p.endswith((":8000", ":8025"))]
    assert published == [
        "${BIND_ADDRESS:-127.0.0.1}:8000:8000",
        "${BIND_ADDRESS:-127.0.0.1}:8025:8025",
    ]


def compose_command() -> list:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    pytest.skip("no Docker Compose here")


def test_compose_refuses_to_run_without_a_secret_key_and_publishes_on_localhost(tmp_path):
    command = [*compose_command(), "-f", str(COMPOSE), "config"]
    environ = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "BIND_ADDRESS")}
    missing = subprocess.run(command, env=environ, capture_output=True, text=True, cwd=tmp_path)
    assert missing.returncode != 0 and "SECRET_KEY" in missing.stderr
    given = subprocess.run(
        command, env={**environ, "SECRET_KEY": STRONG_KEY}, capture_output=True, text=True
    )
    assert given.returncode == 0, given.stderr
    assert "127.0.0.1:8000:8000" in given.stdout and "127.0.0.1:8025:8025" in given.stdout
    assert "0.0.0.0:8000" not in given.stdout


# -- headers ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_and_a_permissions_policy(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ):
        assert directive in csp
    assert "unsafe-inline" not in csp
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert "geolocation=()" in response.headers["Permissions-Policy"]


@pytest.mark.django_db
def test_the_dev_mailboxs_email_preview_may_use_inline_styles_in_our_own_frame(client):
    message = mail.EmailMultiAlternatives("Hi", "text", to=["a@example.org"])
    html = '<html><head></head><body style="color:red">x</body></html>'
    message.attach_alternative(html, "text/html")
    DevMailboxBackend().send_messages([message])
    pk = DevMail.objects.get().pk
    csp = client.get(f"/dev/mail/{pk}/html/").headers["Content-Security-Policy"]
    assert "'unsafe-inline'" in csp and "frame-ancestors 'self'" in csp
    assert "script-src 'self'" in csp
    page = client.get(f"/dev/mail/{pk}/")
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]


TEMPLATES = ROOT / "templates"


@pytest.mark.parametrize("folder", ["pages", "devmail", "admin"])
def test_pages_have_no_inline_style_or_script(folder):
    """The policy forbids them: one would be silently ignored by the browser.
    (Emails are not pages: templates/emails/ is all inline styles.)"""
    for template in (TEMPLATES / folder).rglob("*.html"):
        text = template.read_text()
        assert "<style" not in text, template
        assert not re.search(r"\sstyle=", text), template
        assert not re.search(r"<script(?![^>]*\ssrc=)", text), template
        assert not re.search(r"\son[a-z]+=", text), template
