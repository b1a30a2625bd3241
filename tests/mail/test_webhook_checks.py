"""With DEBUG off, the site refuses to start (a system check error) while the tracking
webhooks of an ESP it sends through are not secured; with no ESP (the production check
of .ci/run) there is nothing to secure and nothing is answered."""

import pytest

from games.mail import settings_checks, webhooks
from tests.support.deploy_env import PRODUCTION, run

SECRET = "hook:s3cret"


def errors_with(settings, backend, anymail=None, esps=()):
    settings.DEBUG = False
    settings.EMAIL_BACKEND = backend
    settings.ANYMAIL = anymail or {}
    settings.TRACKING_ESPS = list(esps)
    return [(e.id, e.msg) for e in settings_checks.tracking_webhooks_are_secured(None)]


def test_an_esp_backend_without_the_webhook_secret_is_an_error(settings):
    [(check, text)] = errors_with(settings, "anymail.backends.postmark.EmailBackend")
    assert check == "games.E001" and "ANYMAIL_WEBHOOK_SECRET" in text
    assert (
        errors_with(settings, "anymail.backends.postmark.EmailBackend", {"WEBHOOK_SECRET": SECRET})
        == []
    )


def test_an_esp_that_signs_its_webhooks_needs_its_key_too(settings):
    backend = "anymail.backends.mailgun.EmailBackend"
    [(_, text)] = errors_with(settings, backend, {"WEBHOOK_SECRET": SECRET})
    assert "ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY" in text
    signed = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": "k"}
    assert errors_with(settings, backend, signed) == []


def test_tracking_esps_are_checked_as_the_backends_is(settings):
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    assert errors_with(settings, smtp) == []  # no ESP: no webhook is answered
    [(_, text)] = errors_with(settings, smtp, {"WEBHOOK_SECRET": SECRET}, esps=["resend"])
    assert "ANYMAIL_RESEND_SIGNING_SECRET" in text
    [(_, text)] = errors_with(settings, smtp, {"WEBHOOK_SECRET": SECRET}, esps=["nosuchesp"])
    assert "no tracking webhook" in text


def test_debug_is_not_held_to_it(settings):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"
    settings.ANYMAIL = {}
    assert settings_checks.tracking_webhooks_are_secured(None) == []


@pytest.mark.parametrize(
    "backend, esp",
    [
        ("anymail.backends.mailgun.EmailBackend", "mailgun"),
        ("anymail.backends.amazon_ses.EmailBackend", "amazon_ses"),
        ("anymail.backends.test.EmailBackend", None),
        ("django.core.mail.backends.smtp.EmailBackend", None),
        ("games.devtools.flaky_esp.EmailBackend", None),
    ],
)
def test_the_esp_of_a_backend(backend, esp):
    assert webhooks.backend_esp(backend) == esp


def test_migrate_and_check_refuse_an_unsecured_esp_under_production_settings(tmp_path, monkeypatch):
    for name in ("ANYMAIL_WEBHOOK_SECRET", "TRACKING_ESPS", "ANYMAIL_POSTMARK_SERVER_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    args = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    esp = {**PRODUCTION, "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend"}
    result = run(args, tmp_path, **esp)
    assert result.returncode != 0 and "games.E001" in result.stderr
    result = run(args, tmp_path, **esp, ANYMAIL_WEBHOOK_SECRET="hook:" + "x" * 30)
    assert result.returncode == 0, result.stdout + result.stderr
