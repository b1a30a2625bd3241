"""Settings loaded the way a deployment loads them: in a fresh process, with an
environment scrubbed of whatever would reach a server or change the settings under
test, and the production variables of .ci/run's check. The deployment tests
(tests/site) and the webhook checks (tests/mail) run their variants through it."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = secrets.token_urlsafe(50)

# Variables that would make a subprocess talk to servers or change the settings under test.
SCRUB = (
    "DATABASE_URL",
    "DATABASE_PREPARED_READS",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "TRUST_PROXY_HEADERS",
    "DEV_MAILBOX",
    "EMAIL_BACKEND",
    "SITE_URL",
    "ADMIN_HOSTS",
    "ADMIN_PATH",
    "ADMIN_SITE_URL",
    "AXES_FAILURE_LIMIT",
    "AXES_COOLOFF_MINUTES",
    # The browser suite sets it in this process (its live server runs beside
    # Playwright); a deployment must not, and check --deploy says so.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": STRONG_KEY,
    "ALLOWED_HOSTS": "sheriff.example.org",
    "SITE_URL": "https://sheriff.example.org",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def run(args, tmp_path, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in SCRUB}
    environ.update(DJANGO_SETTINGS_MODULE="sheriff_pbem.settings", VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def load(tmp_path, expr: str, **env) -> subprocess.CompletedProcess:
    """Imports the settings in a fresh process and prints ``expr`` of them."""
    code = f"import django; django.setup(); from django.conf import settings as s; print({expr})"
    return run(["-c", code], tmp_path, **env)
