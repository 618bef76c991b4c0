"""Gonzaga's engine speed in one short run, for comparing two versions of the code.

`python tools/engine_speed.py [GAMES] [DECISIONS]` prints random 4-player games/s, actions/s
and MCTS iterations/s (`mcts:hard` on the positions `gonzaga bench` uses). Run two versions
alternately several times (the machine may be shared) and compare the medians of the ratios.
"""

from __future__ import annotations

import sys
import time

from games.gonzaga.bench import random_game
from games.gonzaga.game import GAME
from tabletop.bench import measure_search


def random_speed(games: int) -> tuple[float, float]:
    """(games/s, actions/s) of uniformly random games, caches warmed first."""
    for seed in range(1000, 1020):
        random_game(seed)
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        actions += len(random_game(seed).history)
    elapsed = time.perf_counter() - t0
    return games / elapsed, actions / elapsed


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    decisions = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    per_game, per_action = random_speed(games)
    line = f"games/s {per_game:.1f} actions/s {per_action:.0f}"
    if decisions:
        line += f" mcts-it/s {measure_search(GAME, decisions, 0)['MCTS iterations/s']}"
    print(line)


if __name__ == "__main__":
    main()
