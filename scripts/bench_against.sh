#!/usr/bin/env bash
# The in-process move benchmark at REF beside HEAD (docs/operations.md, "Performance"):
#
#     scripts/bench_against.sh REF [bench_moves options, e.g. --players 4]
#
# Runs `manage.py bench_moves --sample-games 2 --skip-http --skip-scale [options]`
# at REF (a commit, checked out in a temporary git worktree) and at HEAD (this
# checkout, uncommitted changes included), alternating REF, HEAD three times, each
# side on a fresh PostgreSQL database of its own, migrated by its own code. Then
# prints each figure's median for both sides and the ratio HEAD ÷ REF
# (scripts/bench_against.py). Both sides run with this checkout's virtualenv.
#
# Environment (optional):
#   DATABASE_URL  the PostgreSQL server to use; its database name is ignored, the
#                 databases are made and dropped here (default postgres://postgres@127.0.0.1:5432/)
#   PY            the virtualenv's Python (default .venv/bin/python of this checkout)
#
# The broker is a file-system one in a temporary folder (REDIS_URL is not used):
# the in-process runs publish the send tasks and nothing consumes them. The
# worktree, the databases and the temporary folder are removed at exit, Ctrl-C too.
set -euo pipefail

if [[ $# -lt 1 || $1 == -* ]]; then
    echo "usage: scripts/bench_against.sh REF [bench_moves options]" >&2
    exit 2
fi
ref_name=$1
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
py=${PY:-$root/.venv/bin/python}
[[ $py == /* ]] || py=$root/$py
url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/}
# The server and the options (?sslmode=...) of DATABASE_URL, without its database.
if [[ ! $url =~ ^([a-z]+://[^/?]*)[^?]*(\?.*)?$ ]]; then
    echo "bench_against: DATABASE_URL is not a URL: $url" >&2
    exit 2
fi
server=${BASH_REMATCH[1]} options=${BASH_REMATCH[2]}
bench=(manage.py bench_moves --sample-games 2 --skip-http --skip-scale "$@")

die() {
    echo "bench_against: $*" >&2
    exit 1
}
[[ -x $py ]] || die "no virtualenv at $py (make venv)"
ref=$(git -C "$root" rev-parse --verify --quiet "$ref_name^{commit}") || die "no commit $ref_name"
git -C "$root" cat-file -e "$ref:games/management/commands/bench_moves.py" 2>/dev/null ||
    die "$ref_name has no manage.py bench_moves"
export PGCONNECT_TIMEOUT=5
sql() { psql -d "$server/postgres$options" -Atqc "$1" >/dev/null; }
sql "SELECT 1" || die "PostgreSQL is not reachable at $server/" \
    "(DATABASE_URL: a server where databases may be created)"

tmp=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/bench_against.XXXXXX")" && pwd -P)
db_prefix=bench_against_$$_$RANDOM
created=()
cleanup() {
    trap - EXIT INT TERM
    for db in "${created[@]}"; do
        sql "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
    done
    git -C "$root" worktree remove --force "$tmp/ref" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

git -C "$root" worktree add --quiet --detach "$tmp/ref" "$ref"
declare -A dir=([ref]=$tmp/ref [head]=$root)

# One side's command, in its own directory, database and var folder (no dev.env is
# read, the broker's files stay in it). DEBUG=1: bench_moves reloads itself under
# its own production settings, and manage.py needs none of those before.
run() {
    local side=$1
    shift
    (cd "${dir[$side]}" && env -u DJANGO_SETTINGS_MODULE -u REDIS_URL -u CELERY_BROKER_URL \
        DEBUG=1 VAR_DIR="$tmp/var-$side" DATABASE_URL="$server/${db_prefix}_$side$options" \
        "$py" "$@")
}

# What went wrong in a run: its output's end, and the package REF lacks if that is it.
failed() {
    local side=$1 output=$2 module
    tail -n 20 "$output" >&2
    module=$(grep -o "No module named '[^']*'" "$output" | head -n 1 || true)
    if [[ $side == ref && -n $module && ! $module =~ \'(games|sheriff_pbem) ]]; then
        die "$ref_name's code needs a package that $py lacks ($module):" \
            "install it there, or pick a later REF"
    fi
    die "the run at ${side^^} failed (output above)"
}

for side in ref head; do
    sql "CREATE DATABASE ${db_prefix}_$side"
    created+=("${db_prefix}_$side")
    run "$side" manage.py migrate --no-input >"$tmp/migrate-$side.out" 2>&1 ||
        failed "$side" "$tmp/migrate-$side.out"
    # The side's own code, not this checkout's: manage.py's folder comes first on sys.path.
    found=$tmp/games-$side.out
    run "$side" manage.py shell -c "import games; print(games.__file__)" >"$found" 2>&1 ||
        failed "$side" "$found"
    imported=$(tail -n 1 "$found")
    [[ $imported == "${dir[$side]}/games/"* ]] ||
        die "${side^^} imports games from $imported, not from ${dir[$side]}"
done

# Other work on the machine slows both sides' times (their CPU less): say how busy it was.
load() {
    [[ ! -r /proc/loadavg ]] || echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
}
command="scripts/bench_against.sh $ref_name${*:+ $*}   (each run: ${bench[*]})"
echo "$command"
load
for n in 1 2 3; do
    for side in ref head; do
        echo "-- run $n of 3 at ${side^^}"
        output=$tmp/$side.$n.out
        run "$side" "${bench[@]}" >"$output" 2>&1 || failed "$side" "$output"
        grep -E "^(== in-process|page GET|move POST|email sent|whole log)" "$output" || true
    done
done
load

label() { git -C "$root" log -1 --format='%h %<(70,trunc)%s' "$1" | sed 's/ *$//'; }
head_label=$(label HEAD)
git -C "$root" diff --quiet HEAD || head_label+=" (with uncommitted changes)"
echo
"$py" "$root/scripts/bench_against.py" --command "$command" \
    --ref "$(label "$ref")" --head "$head_label" "$tmp"
