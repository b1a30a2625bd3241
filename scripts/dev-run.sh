#!/usr/bin/env bash
# Development runner behind `make run`.
#
# Migrates the database, creates the demo game, then runs the web server, two
# Celery workers (one for the deadlines queue, one for emails, so that a pile of
# emails never delays a deadline) and Celery beat in the foreground of this
# terminal, each line of output prefixed with the process name. Ctrl-C stops
# them all; if any one of them exits, the others are stopped too.
#
# Environment (all optional):
#   PY        Python of the virtualenv           (default: .venv/bin/python)
#   PORT      port of the web server             (default: 8000)
#   DEBUG     Django debug mode                  (default: 1)
#   SITE_URL  base of the links in emails        (default: http://127.0.0.1:$PORT)
#   CELERY_CONCURRENCY  email worker processes   (default: 2)
#   DEADLINES_CONCURRENCY  deadlines worker processes (default: 1)
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
CELERY_CONCURRENCY="${CELERY_CONCURRENCY:-2}"
export DEADLINES_CONCURRENCY="${DEADLINES_CONCURRENCY:-1}"  # the sweep reads it too
export DEADLINE_WORKERS=1  # and this: one deadlines worker here (Compose runs two)
BASE="http://127.0.0.1:${PORT}"

if [[ ! -x "$PY" ]]; then
    echo "dev-run: $PY not found; run 'make venv' (or 'make run') first." >&2
    exit 1
fi

# The same DEBUG and SITE_URL for every other manage.py command run from this checkout
# (createsuperuser, creategame, ...): $VAR_DIR/dev.env, see scripts/dev-env.sh.
scripts/dev-env.sh

if [[ -t 1 ]]; then
    BOLD=$'\e[1m' RESET=$'\e[0m'
    COLORS=($'\e[36m' $'\e[33m' $'\e[32m' $'\e[35m')
else
    BOLD="" RESET=""
    COLORS=("" "" "" "")
fi

say() { printf '%s[run]%s %s\n' "$BOLD" "$RESET" "$*"; }

say "database: ${DATABASE_URL:-SQLite in ${VAR_DIR:-var}/}"
say "broker:   ${CELERY_BROKER_URL:-${REDIS_URL:-file system, in ${VAR_DIR:-var}/celery-queue}}"

say "applying migrations"
"$PY" manage.py migrate --noinput

say "creating the demo game (if there is none in play)"
demo_output="$("$PY" manage.py demo_game)"
printf '%s\n' "$demo_output"

# --- the services -----------------------------------------------------------------
# Each runs in its own process group (job control is on while it is started), so
# that stopping it also stops its children: runserver's autoreloader child, the
# worker's pool processes. Job control is off otherwise, so that Ctrl-C reaches
# this script.
names=()
groups=()

# Each service leaves a mark here once it says it is ready, so that the banner below
# comes after their start-up lines instead of being pushed off screen by them.
ready_dir="$(mktemp -d "${TMPDIR:-/tmp}/sheriff-run.XXXXXX")"

prefix() {
    # Keep printing until the service closes its output, even while it shuts down.
    trap '' INT TERM
    local label=$1 line
    while IFS= read -r line || [[ -n "$line" ]]; do
        printf '%s%-9s|%s %s\n' "$2" "$label" "$RESET" "$line"
        # A worker's "<name>@<host> ready.", beat's "beat: Starting...".
        if [[ "$line" == *" ready." || "$line" == *"beat: Starting..."* ]]; then
            : >"$ready_dir/$label"
        fi
    done
}

start() {
    local name=$1
    shift
    set -m
    "$@" </dev/null 2>&1 | prefix "$name" "${COLORS[${#names[@]} % ${#COLORS[@]}]}" &
    set +m
    names+=("$name")
    groups+=("$(jobs -p %+)")
}

stopping=0
stop_all() {
    local status=${1:-0} pg i alive
    ((stopping)) && return
    stopping=1
    trap '' INT TERM HUP
    echo
    say "stopping web, workers and beat ..."
    # SIGINT to each group is what Ctrl-C does in a terminal: warm shutdowns.
    for pg in "${groups[@]+"${groups[@]}"}"; do kill -INT -- "-$pg" 2>/dev/null || true; done
    for ((i = 0; i < 100; i++)); do
        alive=0
        for pg in "${groups[@]+"${groups[@]}"}"; do kill -0 -- "-$pg" 2>/dev/null && alive=1; done
        ((alive)) || break
        sleep 0.1
    done
    for pg in "${groups[@]+"${groups[@]}"}"; do kill -KILL -- "-$pg" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$ready_dir"
    say "stopped."
    exit "$status"
}
trap 'stop_all 130' INT
trap 'stop_all 143' TERM
trap 'stop_all 129' HUP

say "workers:  emails ($CELERY_CONCURRENCY processes, queue celery)," \
    "deadlines ($DEADLINES_CONCURRENCY, queue deadlines), and beat"
start web "$PY" manage.py runserver "127.0.0.1:${PORT}"
# Emails at a lower CPU priority than deadlines, as in docker/compose.yaml. -q: without
# the start-up banners (a screenful each), which the line above sums up.
start worker nice -n 10 "$PY" -m celery -A sheriff_pbem -q worker --loglevel=info \
    --concurrency="$CELERY_CONCURRENCY" -Q celery -n "emails@%h"
start deadlines "$PY" -m celery -A sheriff_pbem -q worker --loglevel=info \
    --concurrency="$DEADLINES_CONCURRENCY" -Q deadlines -n "deadlines@%h"
start beat "$PY" -m celery -A sheriff_pbem -q beat --loglevel=info

# Wait (at most ~30 s) for the web server to answer and for the workers and beat to
# say they are ready, then say where to go: the banner comes after their start-up lines.
web_up=0
for ((i = 0; i < 60; i++)); do
    if ((web_up)) && [[ -e "$ready_dir/worker" && -e "$ready_dir/deadlines" ]] &&
        [[ -e "$ready_dir/beat" ]]; then
        break
    fi
    if ((!web_up)) && "$PY" - "$BASE/healthz" <<'EOF' 2>/dev/null; then web_up=1; continue; fi
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=1)
except urllib.error.HTTPError:
    pass  # the server answered
EOF
    kill -0 -- "-${groups[0]}" 2>/dev/null || break
    sleep 0.5
done
sleep 0.5 # the lines that follow "ready." (beat's first sweeps, mingle...)

kill -0 -- "-${groups[0]}" 2>/dev/null && cat <<EOF

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

# --- supervise: if one service exits, stop the others -----------------------------------
while true; do
    for i in "${!groups[@]}"; do
        if ! kill -0 -- "-${groups[$i]}" 2>/dev/null; then
            say "${names[$i]} exited; stopping the others."
            stop_all 1
        fi
    done
    sleep 1
done
