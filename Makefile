# fiderate: `make run` rates the bundled sample, `make test` runs the suite.
# Both create .venv and install the project on first use; nothing else is needed but Python 3.11+.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    ?= out
# Bytecode of the project's own modules, as pip writes it for an installed package: an editable
# install writes none, and where PYTHONDONTWRITEBYTECODE is set every command would compile
# them afresh (0.05-0.1 s of fiderate rate's start-up).
COMPILE = $(BIN)/python -m compileall -q pipeline schemas benchmarks

.PHONY: help setup run serve test bench lint clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(COMPILE)
	touch $(STAMP)

setup: $(STAMP)  ## create .venv and install the project with its dev tools

run: $(STAMP)  ## rate the bundled sample event into ./out
	$(BIN)/fiderate rate sample_data/games.csv --players sample_data/players.csv --period 2026-11 --out $(OUT)

serve: $(STAMP)  ## the web pages on http://127.0.0.1:8000/ (the sample's period history)
	test -f period_out/ratings.db || $(BIN)/fiderate period --list sample_data/period/list_2026-11.csv --events sample_data/period/events --period 2026-11 --out period_out --quiet
	$(BIN)/fiderate serve --history period_out/ratings.db

test: $(STAMP)  ## run the whole test suite
	$(BIN)/python -m pytest -q -n auto --dist loadfile

# make bench also installs DuckDB and Polars: the 1 M-game job is timed against both (a figure
# we watch, not a target), and the bench would otherwise print them as skipped.
$(VENV)/.bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

bench: $(VENV)/.bench  ## run the benchmarks and print the figures
	$(COMPILE)
	$(BIN)/python -m benchmarks

lint: $(STAMP)  ## ruff (lint + format check) and mypy on pipeline/ and schemas/
	$(BIN)/ruff check pipeline schemas tests benchmarks
	$(BIN)/ruff format --check pipeline schemas tests benchmarks
	$(BIN)/mypy pipeline schemas

# What the examples of README.md and docs/ write when run here (also in .gitignore).
EXAMPLE_OUTPUTS = out-* out3 junior seq period_out rapid_out autumn.*

clean:  ## remove the virtual environment and outputs
	rm -rf $(VENV) $(OUT) $(EXAMPLE_OUTPUTS) build dist *.egg-info
