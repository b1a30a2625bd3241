"""All settings, from environment variables. Defaults run a development site on
SQLite with a file-system Celery broker and a local dev mailbox: no server
needed. DATABASE_URL, REDIS_URL and EMAIL_BACKEND/ANYMAIL switch to real ones.
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from sheriff_pbem.security import DEV_SECRET_KEY, secret_key_problem

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


def env_list(name: str, default: str = "") -> list:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")
    SECRET_KEY = DEV_SECRET_KEY  # development only
elif not DEBUG and (_problem := secret_key_problem(SECRET_KEY)):
    # The key signs every seat's /play/<token>/ link: a guessable one lets anyone play
    # any seat. Generate one with: python -c "import secrets; print(secrets.token_urlsafe(50))"
    raise ImproperlyConfigured(
        f"SECRET_KEY is not fit for a site with DEBUG off: {_problem}. Set a random key of "
        'at least 40 characters, e.g. python -c "import secrets; '
        'print(secrets.token_urlsafe(50))".'
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Absolute base of every link in emails, e.g. https://sheriff.example.org
SITE_URL = env_str("SITE_URL", "http://localhost:8000").rstrip("/")


def admin_path(raw: str) -> str:
    """ADMIN_PATH as a URL prefix, "admin/" by default: plain path segments (ASCII
    letters, digits, - and _), never the site's root nor one of its own addresses."""
    if not raw.strip():
        return "admin/"
    segments = raw.strip().strip("/").split("/")
    if not all(re.fullmatch(r"[A-Za-z0-9_-]+", part) for part in segments):
        raise ImproperlyConfigured(
            f"ADMIN_PATH {raw!r} is not a path such as admin/ or organizer-7f3a/: use "
            "letters, digits, - and _ between slashes."
        )
    if segments[0] in SITE_PATHS:
        raise ImproperlyConfigured(f"ADMIN_PATH {raw!r} would hide the site's /{segments[0]}/.")
    return "/".join(segments) + "/"


# The first segments of the site's own addresses (sheriff_pbem/urls.py, games/urls.py).
SITE_PATHS = frozenset({"play", "static", "anymail", "dev", "healthz"})


# Where the organizer's admin is: ADMIN_PATH under the site, on the ADMIN_HOSTS only
# when set (elsewhere its pages are a 404: games.web.middleware.AdminHostsMiddleware), and
# ADMIN_SITE_URL as the base of the links to it in the organizer's emails (empty:
# SITE_URL).
ADMIN_PATH = admin_path(env_str("ADMIN_PATH"))
ADMIN_HOSTS = env_list("ADMIN_HOSTS")
ADMIN_SITE_URL = env_str("ADMIN_SITE_URL").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "csp",
    "axes",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "games.web.middleware.AdminHostsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "games.web.middleware.PermissionsPolicyMiddleware",
    # Turns a locked-out login into the lockout page (AXES_ below).
    "axes.middleware.AxesMiddleware",
    # Last, next to the view: a request whose database connection was lost runs again.
    "games.web.middleware.DatabaseHiccupMiddleware",
]

ROOT_URLCONF = "sheriff_pbem.urls"
CSRF_FAILURE_VIEW = "games.web.views.csrf_failure"
WSGI_APPLICATION = "sheriff_pbem.wsgi.application"

# The players' pages and the emails are Jinja (games/present/jinja_env.py says why); the admin
# and the development mailbox are Django's templates. STRICT_TEMPLATES (the test
# suite's setting) makes a page or an email that prints a name its view did not
# give an error rather than an empty string.
STRICT_TEMPLATES = env_bool("STRICT_TEMPLATES", False)
TEMPLATES = [
    {
        "NAME": "jinja",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        # The players' pages and every email, by file name (tests/present/test_page_templates.py
        # keeps the names apart).
        "DIRS": [BASE_DIR / "templates" / "pages", BASE_DIR / "templates" / "emails"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.present.jinja_env.environment",
            "strict": STRICT_TEMPLATES,
            "context_processors": [
                "django.contrib.messages.context_processors.messages",
                "games.present.jinja_env.one_csrf_field",
            ],
        },
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database: SQLite by default; DATABASE_URL for PostgreSQL -------------------------
# Connections are kept for a minute; CONN_HEALTH_CHECKS tests a kept connection before a
# request or task reuses it, so one the server closed meanwhile (a PostgreSQL restart, a
# terminated backend) is replaced instead of failing the request with a 500.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take the write lock at BEGIN: one writer at a time.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The page's and the email's reads are statements the server keeps prepared
    # (games/core/page_reads.py); every other statement is bound by the client, as
    # Django binds them. Off behind a PgBouncer older than 1.21 (docs/operations.md).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        5 if env_bool("DATABASE_PREPARED_READS", True) else None
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- caches --------------------------------------------------------------------------
# The default cache is each process's own (what a finished game tells: games/core/
# after_game.py). The API's request counts are shared by every worker through Redis
# when there is one (games/api/auth.py), each process's own otherwise (development).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "api_rate": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_str("REDIS_URL"),
            "KEY_PREFIX": "sheriff",
            # A Redis that does not answer at once is skipped, never waited for.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if env_str("REDIS_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "api"}
    ),
}

# --- Celery: Redis when REDIS_URL is set, otherwise a file-system broker ---------------
REDIS_URL = env_str("REDIS_URL")
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "filesystem://")
if CELERY_BROKER_URL == "filesystem://":
    # kombu's file-system transport, writing each message atomically (games/devtools/dev_broker.py).
    CELERY_BROKER_TRANSPORT = "games.devtools.dev_broker:Transport"
    _queue = VAR_DIR / "celery-queue"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        "processed_folder": str(VAR_DIR / "celery-processed"),
        "control_folder": str(VAR_DIR / "celery-control"),
        "store_processed": False,
    }
    for _folder in (_queue, VAR_DIR / "celery-processed", VAR_DIR / "celery-control"):
        _folder.mkdir(parents=True, exist_ok=True)
else:
    # A task taken by a worker that then died without a word (kill -9, a lost host) waits
    # this long in Redis before it is delivered again. Five minutes, not kombu's hour: no
    # task here runs for more than seconds (so none is redelivered while still running),
    # every task is idempotent, and the sweeps re-find lost work anyway.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a task is acknowledged only once it has run
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # a killed worker's task is redelivered
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Deadlines are written by deadline processes (`manage.py run_deadlines`, as many as
# the load needs: games/core/deadline_runner.py), each claiming its own due games this
# many seconds ahead and working out their transitions meanwhile. The deadlines queue,
# served by a worker of its own (scripts/dev-run.sh, docker/compose.yaml), holds what
# else time does (reminders, bargaining ends) and the beat's safety sweep, so that a
# backlog of emails on the default queue never delays them.
# A worker started without -Q (and the tests' worker) consumes both.
DEADLINE_CLAIM_AHEAD_SECONDS = env_int("DEADLINE_CLAIM_AHEAD_SECONDS", 60)
CELERY_TASK_DEFAULT_QUEUE = "celery"
DEADLINES_QUEUE = "deadlines"
# The Web Push notifications (games/push) have a queue of their own, which the email
# worker serves too (-Q celery,push): a worker takes from its queues in turn, so a
# pile of emails delays a push by one email at most, not by the whole pile.
PUSH_QUEUE = "push"
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(DEADLINES_QUEUE), Queue(PUSH_QUEUE))
CELERY_TASK_ROUTES = {
    f"games.tasks.{name}": {"queue": DEADLINES_QUEUE}
    for name in (
        *("sweep_deadlines", "advance_games", "remind_game", "end_bargaining", "play_bots"),
        "check_mail_backlog",  # not behind the emails it watches
    )
} | {f"games.tasks.{name}": {"queue": PUSH_QUEUE} for name in ("send_pushes", "sweep_pushes")}
# The file-system broker is polled five times a second (games/devtools/dev_broker.py): the dev
# beat sweeps a little less often than the production one.
DEADLINE_SWEEP_SECONDS = 0.5 if CELERY_BROKER_URL != "filesystem://" else 1.0
# A sweep not started within seconds is dropped (expires): while the workers are down
# or behind, sweeps do not pile up in the queue, to run by the thousand once they are
# back (the newest one finds everything anyway). Seconds, not one period: the worker
# reads the expiry with its own clock, which may be a little off beat's.
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": DEADLINE_SWEEP_SECONDS,
        "options": {"expires": 10.0},
    },
    "sweep-outbox": {
        "task": "games.tasks.sweep_outbox",
        "schedule": 5.0,
        "options": {"expires": 30.0},
    },
    # The Web Push outbox's own sweep (games/push/sending.py), apart from the emails': a
    # slow ESP does not hold up the pushes, nor a slow push service the emails.
    "sweep-pushes": {
        "task": "games.tasks.sweep_pushes",
        "schedule": 5.0,
        "options": {"expires": 30.0},
    },
    "check-mail-backlog": {
        "task": "games.tasks.check_mail_backlog",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
    "send-digests": {"task": "games.tasks.send_digests", "schedule": 300.0},
    "send-daily-emails": {"task": "games.tasks.send_daily_emails", "schedule": 300.0},
    "start-due-lobbies": {"task": "games.tasks.start_due_lobbies", "schedule": 60.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- email: the dev mailbox by default; any ESP through django-anymail -------------------
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "games.mail.dev_backend.DevMailboxBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Sheriff of Nottingham <sheriff@localhost>")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# e.g. ANYMAIL_MAILGUN_API_KEY=..., read by anymail from the environment as well.
ANYMAIL = {
    key.removeprefix("ANYMAIL_"): value
    for key, value in os.environ.items()
    if key.startswith("ANYMAIL_")
}
DEV_MAILBOX = env_bool("DEV_MAILBOX", DEBUG)  # the /dev/mail/ pages
# The ESPs whose tracking webhooks (/anymail/<esp>/tracking/) are answered, besides the
# one of an anymail EMAIL_BACKEND: e.g. "mailgun" when sending through its SMTP relay.
# Each needs ANYMAIL_WEBHOOK_SECRET and the ESP's signing key (games/mail/webhooks.py).
TRACKING_ESPS = env_list("TRACKING_ESPS")
# Replies by email (games.core.replies): each seat's emails say "Reply-To:
# play+<key>@INBOUND_DOMAIN" when it is set, and the inbound webhooks of INBOUND_ESPS
# (/anymail/<esp>/inbound/) are answered, once secured as the tracking ones are.
INBOUND_DOMAIN = env_str("INBOUND_DOMAIN")
INBOUND_ESPS = env_list("INBOUND_ESPS")

# --- Web Push notifications (games/push): off unless both VAPID keys are set --------------
# `manage.py vapid_keys` makes a pair; the contact (mailto: or https:) goes in every push's
# signed claims, for the push services to reach the operator. A system check refuses keys
# that do not load or do not match (games/push/settings_checks.py).
WEBPUSH_VAPID_PUBLIC_KEY = env_str("WEBPUSH_VAPID_PUBLIC_KEY").strip()
WEBPUSH_VAPID_PRIVATE_KEY = env_str("WEBPUSH_VAPID_PRIVATE_KEY").strip()
WEBPUSH_VAPID_CONTACT = env_str("WEBPUSH_VAPID_CONTACT").strip()
# The push services a device's endpoint may point at (a leading dot: its subdomains):
# the worker POSTs to whatever endpoint a browser hands over, so any other host is
# refused, lest the site be made to call an address of the operator's network.
WEBPUSH_ENDPOINT_HOSTS = env_list(
    "WEBPUSH_ENDPOINT_HOSTS",
    "fcm.googleapis.com,android.googleapis.com,.push.services.mozilla.com,"
    ".push.apple.com,.notify.windows.com",
)

# --- game links and outbox -------------------------------------------------------------
LINK_VALID_DAYS_AFTER_END = env_int("LINK_VALID_DAYS_AFTER_END", 14)
# Deal a game from the organizer's typed seed alone, without the server's random bytes
# (games.core.game_setup.mixed_seed): reproducible games, for tests and debugging only.
FIXED_SEEDS = env_bool("FIXED_SEEDS", False)
OUTBOX_MAX_ATTEMPTS = env_int("OUTBOX_MAX_ATTEMPTS", 8)
# The first retry after a failed send (then doubling, up to an hour), and how long a
# row may stay "sending" before it counts as left by a dead worker (games/mail/outbox.py).
# Shortened only by fault drills (manage.py chaos), so that they end in minutes.
OUTBOX_FIRST_RETRY_SECONDS = env_int("OUTBOX_FIRST_RETRY_SECONDS", 30)
OUTBOX_SENDING_GRACE_SECONDS = env_int("OUTBOX_SENDING_GRACE_SECONDS", 120)

# --- flooding ------------------------------------------------------------------------
# A seat may make MOVES_BURST moves at once, then one per MOVES_REFILL_SECONDS
# (games/core/pacing.py). The tests raise the burst: they play whole games in a second.
MOVES_BURST = env_int("MOVES_BURST", 12)
MOVES_REFILL_SECONDS = env_int("MOVES_REFILL_SECONDS", 5)
# The API (games/api): each token may make API_RATE_REQUESTS requests a window of
# API_RATE_SECONDS, counted in the "api_rate" cache below.
API_RATE_REQUESTS = env_int("API_RATE_REQUESTS", 120)
API_RATE_SECONDS = env_int("API_RATE_SECONDS", 60)
# A seat may post TALK_BURST table-talk messages at once, then one per TALK_REFILL_SECONDS.
TALK_BURST = env_int("TALK_BURST", 6)
TALK_REFILL_SECONDS = env_int("TALK_REFILL_SECONDS", 20)
# Offer and demand emails wait for this quiet time after the latest offer concerning
# their reader, and gather every offer since; never longer than OFFER_EMAIL_MAX_WAIT.
OFFER_EMAIL_QUIET_SECONDS = env_int("OFFER_EMAIL_QUIET_SECONDS", 60)
# Signing in by email (games/core/sign_in.py): how long a link and its code work,
# and how many sign-in emails an address, or a client, may ask for in an hour.
SIGN_IN_MINUTES = env_int("SIGN_IN_MINUTES", 30)
SIGN_IN_PER_ADDRESS_HOURLY = env_int("SIGN_IN_PER_ADDRESS_HOURLY", 5)
SIGN_IN_PER_CLIENT_HOURLY = env_int("SIGN_IN_PER_CLIENT_HOURLY", 20)
# A sign-in lasts this many days on its device (until "Sign out").
SIGN_IN_DAYS = env_int("SIGN_IN_DAYS", 90)
# Self-service games: each organizer's pace of new games and invitation emails,
# and how soon one invitation may be sent again.
LOBBIES_PER_ORGANIZER_DAILY = env_int("LOBBIES_PER_ORGANIZER_DAILY", 10)
INVITATIONS_PER_ORGANIZER_DAILY = env_int("INVITATIONS_PER_ORGANIZER_DAILY", 40)
INVITATION_RESEND_MINUTES = env_int("INVITATION_RESEND_MINUTES", 10)
# The join link: a seat asked for and not yet confirmed from the asker's mailbox is
# kept for them this long; and at most this many join emails a lobby in an hour.
JOIN_CONFIRM_MINUTES = env_int("JOIN_CONFIRM_MINUTES", 60)
JOIN_EMAILS_PER_LOBBY_HOURLY = env_int("JOIN_EMAILS_PER_LOBBY_HOURLY", 12)
OFFER_EMAIL_MAX_WAIT_SECONDS = env_int("OFFER_EMAIL_MAX_WAIT_SECONDS", 300)
# Table-talk emails, gathered the same way: a quiet time after the latest line for
# their reader, never longer than TALK_EMAIL_MAX_WAIT after the first.
TALK_EMAIL_QUIET_SECONDS = env_int("TALK_EMAIL_QUIET_SECONDS", 600)
TALK_EMAIL_MAX_WAIT_SECONDS = env_int("TALK_EMAIL_MAX_WAIT_SECONDS", 3600)

# --- health: /healthz/backlog and manage.py health (games/core/backlog.py) ------------------
# Past any of these, the report says what is wrong and the endpoint answers 503
# (Compose's health check of `web` asks it); the outbox sweep logs a warning, at most
# every 5 minutes, while mail is past its threshold.
HEALTH_DEADLINE_LATE_SECONDS = env_int("HEALTH_DEADLINE_LATE_SECONDS", 30)
HEALTH_MAIL_LATE_SECONDS = env_int("HEALTH_MAIL_LATE_SECONDS", 120)
HEALTH_QUEUE_DEPTH = env_int("HEALTH_QUEUE_DEPTH", 1000)

LANGUAGE_CODE = "en"
# The languages a player may read the game in (Seat.language): a catalogue under
# locale/ for each but English.
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# Dates and times with their zone wherever Django formats one (the admin's history...).
FORMAT_MODULE_PATH = ["sheriff_pbem.formats"]

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# A seat's link carries its secret in the path. "same-origin" keeps it out of every
# other site's Referer, while our own pages still send their real Origin with a POST
# ("no-referrer" makes browsers send "Origin: null", which the CSRF check refuses).
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
# X-Forwarded-Proto (and X-Forwarded-For, for the login lockouts below) is believed only
# when a proxy in front sets it (and strips the client's own): otherwise any client could
# claim HTTPS, or another address.
TRUST_PROXY_HEADERS = env_bool("TRUST_PROXY_HEADERS", False)
if TRUST_PROXY_HEADERS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# The health check is asked over plain HTTP from inside the container.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^healthz/backlog$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# Every page loads its styles, scripts and images from this site only. The pages have
# no inline script or style (the admin's and dev mailbox's CSS are static files); the
# dev mailbox's preview of an email's HTML, made of inline styles, widens the policy
# for that one view (games/mail/dev_mailbox.py). Under DEBUG django-csp leaves Django's own
# error pages alone, which need their inline styles and scripts.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        # The installable app (games/web/app_shell.py): its manifest and service worker.
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
    }
}
# Powerful browser features none of the pages uses (games/web/middleware.py). Only
# features every current browser knows: an unknown one is a console error in Chromium.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()"
)

# --- admin logins: django-axes locks out a guessed password ---------------------------
# After AXES_FAILURE_LIMIT wrong passwords for one user name from one address, that
# name is refused from that address (even with the right password) for the cool-off
# time; a right password before then clears the count. `manage.py axes_reset` lifts
# every lockout at once.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "games.web.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "sheriff_pbem.security.client_ip"
# The failures are counted in the database; no table of every successful login, and no
# banner in the output of every command and worker at start.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# Every handler hides seat tokens (/play/<token>/) in what it writes: Django logs the
# path of refused and failed requests (sheriff_pbem/security.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_seat_tokens": {"()": "sheriff_pbem.security.RedactSeatTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_seat_tokens"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django gives these loggers handlers of its own (a console without the filter
    # under DEBUG, mail_admins otherwise, runserver's request lines): none, so every
    # record of theirs reaches the root's redacting console.
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        "django.server": {"handlers": [], "propagate": True},
    },
}

VAR_DIR.mkdir(parents=True, exist_ok=True)
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing one
