# Two entry points: `make run` (set up and start the bot) and `make test` (set up and run every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint fast pure postgres faces emulator

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

# The storage tests also run against a real PostgreSQL server that they start themselves (tests/pgserver.py) from
# the machine's server binaries; as root on Debian or Ubuntu they are installed when missing. Under make test a
# missing server fails those tests instead of skipping them.
postgres:
	@if ! $(PY) -m tests.pgserver --check; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing PostgreSQL's server for the storage tests: apt-get install postgresql"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      postgresql postgresql-client >/dev/null && $(PY) -m tests.pgserver --check; } || \
	    { echo "apt-get could not install PostgreSQL's server (see above); install it by hand, then run make test" \
	      "again." >&2; exit 1; }; \
	  else \
	    echo "make test needs PostgreSQL's server binaries: install them as above (or set BELOTE_PG_BINDIR)," \
	      "then run make test again." >&2; \
	    exit 1; \
	  fi; \
	fi

# The scanner's face tests render a hand-written SVG deck with rsvg-convert (Debian's librsvg2-bin, which training
# uses too), and its 8-bit tests run its networks' dense layers as on older x86 cores too, emulated by qemu-x86_64
# (Debian's qemu-user): as root on Debian or Ubuntu each is installed when missing, and under make test a missing one
# fails them. The accuracy tests read the committed photos as older x86 cores would too (tools/older_core.py, at
# this core's speed): that needs a C compiler (Debian's gcc, installed likewise) and a processor that can make CPUID
# trap, without which they skip.
faces:
	@sh tools/debian_tool.sh rsvg-convert librsvg2-bin "the scanner's face tests"

emulator:
	@if [ "$$(uname -m)" = x86_64 ]; then sh tools/debian_tool.sh qemu-x86_64 qemu-user "the scanner's 8-bit tests" && \
	  sh tools/debian_tool.sh cc gcc "the scanner's older-core tests"; fi

# -rs: each skipped test's reason is printed (the training tests without torch, the older-core ones on a machine that
# cannot make CPUID trap), so a check that did not run says so.
test: $(STAMP) lint postgres faces emulator
	BELOTE_REQUIRE_POSTGRES=1 BELOTE_REQUIRE_RSVG=1 BELOTE_REQUIRE_QEMU=1 BELOTE_REQUIRE_OLDER_CORE=1 \
	  $(BIN)/pytest -q -rs -n 2 -p no:cacheprovider

# Optional: compile the hard bot's search, sampling and rule-based player, in every game, with mypyc (in the dev
# extras), about twice as fast. The compiled modules (*.so beside the sources) take precedence over the .py files, so
# run `make fast` again after changing those files, or `make pure` to go back to plain Python; without them
# everything works as before.
FAST := bot/ai/solver.py bot/ai/knowledge.py bot/ai/medium.py bot/ai/bidding.py bot/ai/sampling.py bot/ai/auction_sim.py \
	bot/ai/games.py bot/ai/familyknowledge.py bot/ai/familycalls.py bot/ai/familyhard.py \
	bot/ai/smallgames.py bot/ai/smallsolver.py bot/ai/smallhard.py bot/ai/bulgariansmall.py

fast: $(STAMP)
	$(BIN)/python tools/build_fast.py $(FAST)

pure:
	rm -f bot/ai/*.so *__mypyc.*.so
