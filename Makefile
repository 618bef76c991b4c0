# Quick start: `make run` starts the web app on http://127.0.0.1:8000, `make test` runs every check.
# `make run PORT=8001` serves on another port; `make play PLAYERS=human,greedy` picks the seats
# (without PLAYERS, `tavola play` uses the game's own default line-up); `make play GAME=signorie`
# plays Signorie.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
PLAYERS ?=
GAME ?=
# the games of `make run`: a database from before the rename (gonzaga.db) is used while it is there
DB ?= $(if $(wildcard gonzaga.db),gonzaga.db,tavola.db)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play test lint bench bench-server compile board clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tavola serve --host $(HOST) --port $(PORT) --db sqlite:///$(DB)

play: $(STAMP)
	$(BIN)/tavola play $(if $(GAME),--game $(GAME)) $(if $(PLAYERS),--players $(PLAYERS))

test: $(STAMP)
	$(BIN)/ruff check tavola tests tools examples
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/tavola bench

bench-server: $(STAMP)
	$(BIN)/tavola bench --server

# optional: the games' hot modules compiled from their own source (`tavola compile --clean` undoes)
compile: $(STAMP)
	$(BIN)/tavola compile

board: $(STAMP)
	$(BIN)/tavola board check
	$(BIN)/tavola board show --out docs/board.png

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
