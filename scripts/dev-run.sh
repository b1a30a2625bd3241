#!/usr/bin/env bash
# Development runner behind `make run`.
#
# Migrates the database, creates the demo game, then runs the Procfile (the web
# server, a deadline process, two Celery workers and Celery beat) with honcho in the foreground of
# this terminal, each line of output prefixed with the process name. Ctrl-C stops
# them all; if any one of them exits, the others are stopped too.
#
# Environment (all optional):
#   PY        Python of the virtualenv           (default: .venv/bin/python)
#   PORT      port of the web server             (default: 8000)
#   DEBUG     Django debug mode                  (default: 1)
#   SITE_URL  base of the links in emails        (default: http://127.0.0.1:$PORT)
#   CELERY_CONCURRENCY  email worker processes   (default: 2)
#   DEADLINES_CONCURRENCY  processes of the deadlines queue's worker (default: 1)
#   INBOUND_DOMAIN  where replies go (default with DEBUG=1: reply.localhost; the dev
#             mailbox answers each email with its Reply form, no ESP needed)
#   DATABASE_URL, REDIS_URL, VAR_DIR, ...  passed through untouched (see README).
#
# DEBUG and SITE_URL are also written to $VAR_DIR/dev.env (scripts/dev-env.sh), where
# manage.py finds them: other management commands then need no DEBUG=1 either.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

PY="${PY:-.venv/bin/python}"
PORT="${PORT:-8000}"
export DEBUG="${DEBUG:-1}"
export SITE_URL="${SITE_URL:-http://127.0.0.1:${PORT}}"
export PYTHONUNBUFFERED=1
export CELERY_CONCURRENCY="${CELERY_CONCURRENCY:-2}"
export DEADLINES_CONCURRENCY="${DEADLINES_CONCURRENCY:-1}"
if [[ "$DEBUG" == "1" ]]; then  # replies are read, answered from the dev mailbox
    export INBOUND_DOMAIN="${INBOUND_DOMAIN-reply.localhost}"
fi
BASE="http://127.0.0.1:${PORT}"
export PY WEB_PORT="$PORT" # the Procfile's (honcho gives each process a PORT of its own)

if [[ ! -x "$PY" ]]; then
    echo "dev-run: $PY not found; run 'make venv' (or 'make run') first." >&2
    exit 1
fi

# The same DEBUG and SITE_URL for every other manage.py command run from this checkout
# (createsuperuser, creategame, ...): $VAR_DIR/dev.env, see scripts/dev-env.sh.
scripts/dev-env.sh

if [[ -t 1 ]]; then
    BOLD=$'\e[1m' RESET=$'\e[0m'
    COLOUR=()
else
    BOLD="" RESET=""
    COLOUR=(--no-colour)
fi

say() { printf '%s[run]%s %s\n' "$BOLD" "$RESET" "$*"; }

say "database: ${DATABASE_URL:-SQLite in ${VAR_DIR:-var}/}"
say "broker:   ${CELERY_BROKER_URL:-${REDIS_URL:-file system, in ${VAR_DIR:-var}/celery-queue}}"

say "applying migrations"
"$PY" manage.py migrate --noinput

say "creating the demo game (if there is none in play)"
demo_output="$("$PY" manage.py demo_game)"
printf '%s\n' "$demo_output"

# --- the services -------------------------------------------------------------------
banner() {
    cat <<EOF

${BOLD}==========================================================================${RESET}
${BOLD} Sheriff of Nottingham is running${RESET}  (Ctrl-C stops web, workers and beat)

 Demo game - open a player's link to play as that player:
$(printf '%s\n' "$demo_output" | sed -e '/Dev mailbox/d' -e 's/^/   /')
   a fresh one, once it is over:  .venv/bin/python manage.py demo_game --new

 Dev mailbox (every email sent):  ${BASE}/dev/mail/
 Admin:                           ${BASE}/admin/
   create an admin user with:     .venv/bin/python manage.py createsuperuser
${BOLD}==========================================================================${RESET}

EOF
}

# The banner once the web server answers (waiting at most a minute), a few seconds
# on, so that it comes after the workers' and beat's start-up lines, not above them.
"$PY" - "$BASE/healthz" "$(banner)" <<'EOF' &
import sys, time, urllib.error, urllib.request

for _ in range(120):
    try:
        urllib.request.urlopen(sys.argv[1], timeout=1)
    except urllib.error.HTTPError:
        pass  # the server answered
    except OSError:
        time.sleep(0.5)
        continue
    time.sleep(3)
    print(sys.argv[2], flush=True)
    break
EOF
banner_pid=$!

say "workers:  a deadline process, emails ($CELERY_CONCURRENCY processes, queue celery)," \
    "timers ($DEADLINES_CONCURRENCY, queue deadlines), and beat"
# Ctrl-C (or a TERM) reaches honcho, which stops them all; this script waits for it
# (a trap, so that the signal does not end it first), then says so.
trap ':' INT TERM HUP
status=0
"$PY" -m honcho start "${COLOUR[@]+"${COLOUR[@]}"}" -e /dev/null -f Procfile || status=$?
kill "$banner_pid" 2>/dev/null || true
wait 2>/dev/null || true
say "stopped."
exit "$status"
