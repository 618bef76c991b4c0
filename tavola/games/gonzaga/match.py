"""Gonzaga games between bots or people: the platform's match runner with Gonzaga's options."""

from __future__ import annotations

from collections.abc import Sequence

from tavola.bots import Bot
from tavola.match import Observer, seat_names
from tavola.match import play_game as play

from .board import Board
from .game import GAME
from .state import GameState

__all__ = ["play_game", "seat_names"]


def play_game(players: Sequence[Bot], *, seed: int | None = None, scenario: str | None = None,
              board: Board | None = None, variants: Sequence[str] = (),
              names: Sequence[str] | None = None, state: GameState | None = None,
              observe: Observer | None = None) -> GameState:
    """Play to the end and return the final state (see `tavola.match.play_game`)."""
    options = {"scenario": scenario, "board": board, "variants": tuple(variants)}
    final: GameState = play(GAME, players, seed=seed, options=options, names=names,
                            state=state, observe=observe)
    return final
