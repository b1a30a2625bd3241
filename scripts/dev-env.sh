#!/usr/bin/env bash
# Writes $VAR_DIR/dev.env (default var/dev.env), the development defaults that
# manage.py loads, so that every management command run from this checkout
# (createsuperuser, creategame, ...) gets the settings `make run` uses. Run by
# scripts/dev-run.sh and by `make migrate` / `make demo`. manage.py only fills in
# what the environment does not set; nothing else (wsgi, Celery) reads the file.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
var="${VAR_DIR:-var}"
mkdir -p "$var"
cat >"$var/dev.env" <<END
# Written by make run (or make migrate / make demo), via scripts/dev-env.sh: the
# development defaults of manage.py in this checkout; the environment wins over
# them. It may be deleted.
DEBUG=${DEBUG:-1}
SITE_URL=${SITE_URL:-http://127.0.0.1:${PORT:-8000}}
END
