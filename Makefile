# Two entry points: `make run` (set up and start the bot) and `make test` (set up and run every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint fast pure

$(STAMP): pyproject.toml setup.py
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/belote-bot run

lint: $(STAMP)
	$(BIN)/ruff check bot tests bench tools training
	$(BIN)/mypy --strict bot

test: $(STAMP) lint
	$(BIN)/pytest -q -n 2 -p no:cacheprovider

# Optional: compile the hard bot's search, sampling and rule-based player, in every game, with mypyc (in the dev
# extras), about twice as fast. The compiled modules (*.so beside the sources) take precedence over the .py files, so
# run `make fast` again after changing those files, or `make pure` to go back to plain Python; without them
# everything works as before.
FAST := bot/ai/solver.py bot/ai/knowledge.py bot/ai/medium.py bot/ai/bidding.py bot/ai/sampling.py bot/ai/auction_sim.py \
	bot/ai/games.py bot/ai/familyknowledge.py bot/ai/familycalls.py bot/ai/familyhard.py \
	bot/ai/smallgames.py bot/ai/smallsolver.py bot/ai/smallhard.py

fast: $(STAMP)
	$(BIN)/python tools/build_fast.py $(FAST)

pure:
	rm -f bot/ai/*.so *__mypyc.*.so
