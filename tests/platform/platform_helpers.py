"""Helpers of the platform's tests: a small board that keeps Gonzaga's games short when the
platform's commands (simulate, tournament, bench...) play them. It is the frozen copy of
Gonzaga's tiny test board that the golden records were played on: a file, read by path, so the
platform's tests import nothing from a game's test folder."""

from __future__ import annotations

from pathlib import Path

from tavola.games.gonzaga.board import Board, load_board

#: Gonzaga's tiny test board, as a board file (`--option board=...` takes it)
TINY_BOARD = Path(__file__).resolve().parents[1] / "games/gonzaga/golden/tiny-board.json"


def tiny_board() -> Board:
    return load_board(TINY_BOARD)
