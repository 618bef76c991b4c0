# Quick start: `make run` plays a terminal game against two bots, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench board clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gonzaga play --players human,greedy,random

test: $(STAMP)
	$(BIN)/ruff check gonzaga tests tools
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/gonzaga bench

board: $(STAMP)
	$(BIN)/gonzaga board check
	$(BIN)/gonzaga board show --out docs/board.png

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
