"""Signorie's own figures for `tavola bench --game signorie`: how many small decisions a game
takes and how many choices each offers (the platform times games, clone+apply and search)."""

from __future__ import annotations

import random
import statistics
from typing import Any

from .game import GAME


def figures(seed: int, games: int = 50) -> dict[str, Any]:
    """Decisions per random 4-player game and legal actions per decision."""
    decisions, sizes = [], []
    for i in range(games):
        rng = random.Random(seed + i)
        state = GAME.new_game([f"Player {k + 1}" for k in range(4)], seed + i)
        steps = 0
        while not state.is_over:
            legal = GAME.legal_actions(state, state.to_move()[0])
            sizes.append(len(legal))
            GAME.apply_in_place(state, legal[rng.randrange(len(legal))])
            steps += 1
        decisions.append(steps)
    return {"decisions per random 4-player game (mean)": round(statistics.fmean(decisions), 1),
            "legal actions per decision (mean)": round(statistics.fmean(sizes), 2),
            "legal actions per decision (max)": max(sizes)}
