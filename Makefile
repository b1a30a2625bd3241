VENV ?= .venv
PY = $(VENV)/bin/python
PYTEST_ARGS ?= -n 2

# `make run`: the development site (see scripts/dev-run.sh).
DEBUG ?= 1
PORT ?= 8000

# `make test-services`: the suite against the local PostgreSQL and Redis.
# pytest-django creates (and drops) its own database test_<name>, so the role
# needs CREATEDB.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: venv lint test test-services run migrate demo simulate messages

venv: $(VENV)/.installed

# The compiled translation catalogues, rebuilt whenever a .po changes.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
messages: $(CATALOGUES)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po $(VENV)/.installed
	DEBUG=1 $(PY) manage.py compile_catalogues

# constraints.txt: the versions CI tested (see its header).
$(VENV)/.installed: pyproject.toml constraints.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -c constraints.txt -e ".[dev]"
	touch $@

lint: venv
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	DEBUG=1 $(PY) manage.py api_schema --check

# The real-worker tests run after the rest, in a single process of their own.
test: venv messages lint
	$(PY) -m pytest $(PYTEST_ARGS) -m "not real_worker"
	$(PY) -m pytest -p no:xdist -m real_worker

test-services: venv lint
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) REQUIRE_SERVICES=1 \
		$(MAKE) test

run: venv messages
	DEBUG=$(DEBUG) PORT=$(PORT) PY=$(PY) scripts/dev-run.sh

# Like `make run`, these write $VAR_DIR/dev.env (default var/dev.env) for manage.py.
migrate: venv messages
	DEBUG=$(DEBUG) PORT=$(PORT) scripts/dev-env.sh
	DEBUG=$(DEBUG) $(PY) manage.py migrate

demo: migrate
	DEBUG=$(DEBUG) $(PY) manage.py demo_game

simulate: venv
	$(PY) -m games.engine.self_play --games 100 --players 4 --edition 2
