"""Small pieces of the deployment's safety, importable without Django's settings
(the settings module, gunicorn's config and the tests use them).

- ``secret_key_problem``: why a SECRET_KEY must not sign the seat links of a real site.
- ``RedactSeatTokens``: a logging filter taking the secret out of /play/<token>/ paths.
- ``client_ip``: the address an admin login came from, for its lockout (django-axes).
"""

import logging
import re

# Keys that are public (in this repository) or plainly placeholders: anyone who knows
# one can sign a /play/<token>/ link for any seat.
DEV_SECRET_KEY = "dev-only-insecure-key"
KNOWN_KEYS = frozenset(
    {
        DEV_SECRET_KEY,
        "compose-dev-only-insecure-secret-key-change-me",
        "collectstatic-build-only",
        "test-only-secret",
        "tests-only-not-secret",
    }
)
PLACEHOLDER_WORDS = ("insecure", "change-me", "changeme", "change_me")
MIN_SECRET_KEY_LENGTH = 40


def secret_key_problem(key: str) -> str | None:
    """What is wrong with ``key`` as a production SECRET_KEY, or None."""
    if key in KNOWN_KEYS:
        return "it is a published development key"
    lowered = key.lower()
    for word in PLACEHOLDER_WORDS:
        if word in lowered:
            return f"it contains {word!r}, the mark of a placeholder"
    if len(key) < MIN_SECRET_KEY_LENGTH:
        return f"it is shorter than {MIN_SECRET_KEY_LENGTH} characters"
    if len(set(key)) < 5:
        return "it has fewer than 5 different characters"
    return None


# A seat's token is the path segment after /play/ (signing.dumps: base64url and ':'),
# and a sign-in link's the one after /sign-in/ (its code page, /sign-in/code/, names
# nothing secret). Percent-encoded slashes are taken too, so "/play%2F..." hides nothing.
_SEAT_PATH = re.compile(r"(/(?:play|sign-in)(?:/|%2[fF]))(?!code/)[^/?#\s\"'<>]+")
REDACTED = r"\1<redacted>"


def redact(text: str) -> str:
    return _SEAT_PATH.sub(REDACTED, text)


class RedactSeatTokens(logging.Filter):
    """Replaces every seat token in a record's message, arguments and traceback.

    Django logs the request path of a refused CSRF check, a 405, a 410 and every
    error ("Internal Server Error: /play/<token>/"); a log reader must not get a
    working seat link from it. The message is formatted here (msg % args) so that an
    argument of any type (a request, a URL) is covered, then the args are dropped.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to the formatter to report
            return True
        redacted = redact(message)
        if redacted != message or record.args:
            record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def client_ip(request) -> str:
    """The address a request came from. Behind a proxy (settings.TRUST_PROXY_HEADERS)
    every request comes from the proxy, which appends the address it saw to
    X-Forwarded-For: that last entry is the client's (the ones before it are the
    client's own claims)."""
    from django.conf import settings

    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if getattr(settings, "TRUST_PROXY_HEADERS", False) and forwarded.strip():
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")
