"""Gonzaga's fixtures: the tiny test board of `boards.py` (helpers are in `gonzaga_helpers`)."""

from __future__ import annotations

import pytest
from boards import tiny_board

from tavola.games.gonzaga.board import Board


@pytest.fixture(scope="session")
def board() -> Board:
    return tiny_board()
