VENV ?= .venv
PY = $(VENV)/bin/python
PYTEST_ARGS ?=

.PHONY: venv lint test simulate

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e ".[dev]"
	touch $@

lint: venv
	$(PY) -m ruff check .

test: venv lint
	$(PY) -m pytest $(PYTEST_ARGS)

simulate: venv
	$(PY) -m games.engine.simulate --games 100 --players 4 --edition 2
