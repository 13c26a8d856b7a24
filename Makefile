# Two entry points on a fresh machine:
#   make demo   - play a seeded 4-player game, print the account, write and verify its trace
#   make check  - every check: ruff, mypy --strict, the spec checker, pytest
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo check lint typecheck specs test bench diff hostile clean corpus corpus-check corpus-coverage bench-verify perft cases adapters fuzz fuzz-quick mutation mutation-report golden-accounts

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,openspiel,pettingzoo,testing,fuzz]'
	touch $(STAMP)

demo: $(STAMP)
	mkdir -p build
	$(BIN)/tajmahal play --players 4 --seed 2000 --trace build/demo-trace.json
	$(BIN)/tajmahal verify build/demo-trace.json

lint: $(STAMP)
	$(BIN)/ruff check reference tests tools
	$(BIN)/ruff format --check reference tests tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict reference/tajmahal reference/tajmahal_console.py tools tests

specs: $(STAMP)
	$(BIN)/python tools/sync_citations.py --check
	$(BIN)/python tools/check_specs.py

test: $(STAMP)
	TAJMAHAL_REQUIRE_EXTRAS=1 $(BIN)/python -m pytest

check: lint typecheck specs test fuzz-quick

# A few seconds of fuzzing (part of check); make fuzz is the ten-minute campaign.
fuzz-quick: $(STAMP)
	rm -rf build/fuzz-quick
	$(BIN)/tajmahal fuzz --games 60 --jobs 2 --quiet --out build/fuzz-quick

fuzz: $(STAMP)
	rm -rf build/fuzz
	$(BIN)/tajmahal fuzz --minutes 10 --jobs 2 --find tie,crown-on-occupied,deck-exhausted,short-display,special-changes-hands,tied-winners --out build/fuzz

hostile: $(STAMP)
	HYPOTHESIS_PROFILE=hostile-deep $(BIN)/python -m pytest tests/hostile

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python tools/bench.py
	$(BIN)/python tools/bench_vs_chess.py

diff: $(STAMP)
	$(BIN)/python tools/diff_engines.py

corpus: $(STAMP)
	$(BIN)/python tools/make_corpus.py

corpus-check: $(STAMP)
	$(BIN)/python tools/make_corpus.py --check

corpus-coverage: $(STAMP)
	$(BIN)/python tools/make_corpus.py --coverage

bench-verify: $(STAMP)
	$(BIN)/python tools/bench_verify.py

perft: $(STAMP)
	$(BIN)/python tools/run_perft.py

cases: $(STAMP)
	$(BIN)/python tools/make_cases.py

adapters: $(STAMP)
	$(BIN)/python tools/adapter_speed.py
	$(BIN)/python tools/ismcts_match.py

# Mutation testing of the rules modules (docs/mutation.md): resumable, state in mutants/.
# make mutation MODULE=engine.withdraw runs one module's mutants; MUTANTS='glob ...' any set;
# RETEST=1 runs the survivors again (after adding tests). mutmut's copy of the tree lacks
# the tajmahal/data/schemas link, so the schemas are named by TAJMAHAL_SCHEMAS.
MUTATION_STAMP := $(VENV)/.installed-mutation
MODULE   ?=
MUTANTS  ?= $(if $(MODULE),tajmahal.$(MODULE).*,tajmahal.engine.* tajmahal.scoring.* tajmahal.board.* tajmahal.setup.* tajmahal.state.*)
CHILDREN ?= 2

$(MUTATION_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutation]'
	touch $(MUTATION_STAMP)

mutation: $(MUTATION_STAMP)
	ln -sfn reference src
	@set -f; mkdir -p mutants; start=$$(date +%s); \
	names=$$($(BIN)/python tools/mutation_report.py --pending $(foreach m,$(MUTANTS),'$(m)') \
	  $(if $(RETEST),--retest)); \
	if [ -n "$$names" ]; then \
	  TAJMAHAL_SCHEMAS=$(CURDIR)/specs/schemas \
	    $(BIN)/mutmut run --max-children $(CHILDREN) $$names || exit $$?; \
	  echo "$$start $$(date +%s) $$(echo $$names | wc -w) MUTANTS='$(MUTANTS)'$(if $(RETEST), RETEST=1)" \
	    >> mutants/runs.log; \
	fi
	$(BIN)/python tools/mutation_report.py

mutation-report: $(STAMP)
	$(BIN)/python tools/mutation_report.py --write docs/mutation.md

golden-accounts: $(STAMP)
	$(BIN)/python tools/make_golden_accounts.py

clean:
	rm -rf $(VENV) build mutants src
