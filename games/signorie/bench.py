"""How fast random games run through the public interface (`GAME`), on one core."""

from __future__ import annotations

import os
import random
import time

from .game import GAME


def random_game(seed: int, players: int = 4) -> int:
    """Play one game of uniformly random legal actions; returns the number of decisions."""
    rng = random.Random(seed)
    state = GAME.new_game([f"Player {i + 1}" for i in range(players)], seed)
    steps = 0
    while not state.is_over:
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        GAME.apply_in_place(state, legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def games_per_second(games: int = 200, players: int = 4, seed: int = 0) -> float:
    """Random games per second, pinned to one core where the system allows it."""
    try:
        cores = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cores)})
    except (AttributeError, OSError):
        cores = None
    try:
        random_game(seed - 1, players)  # warm up
        start = time.perf_counter()
        for i in range(games):
            random_game(seed + i, players)
        return games / (time.perf_counter() - start)
    finally:
        if cores is not None:
            os.sched_setaffinity(0, cores)


if __name__ == "__main__":
    print(f"{games_per_second():.0f} random 4-player games per second")
