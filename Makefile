# Two entry points: `make run` (set up and start the bot) and `make test` (set up and run every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint

$(STAMP): pyproject.toml setup.py
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/belote-bot run

lint: $(STAMP)
	$(BIN)/ruff check bot tests bench
	$(BIN)/mypy --strict bot

test: $(STAMP) lint
	$(BIN)/pytest -q -n 2 -p no:cacheprovider
