"""A game's engine speed in one short run, for comparing two versions of the code.

`python tools/engine_speed.py [GAMES] [DECISIONS] [GAME]` prints random 4-player games/s,
actions/s and MCTS iterations/s (`mcts:hard` on the positions `tavola bench` uses) of Gonzaga,
or of GAME (`signorie`). Run two versions alternately several times (the machine may be shared)
and compare the medians of the ratios.
"""

from __future__ import annotations

import sys
import time

from tavola import bench, registry
from tavola.bench import measure_search
from tavola.game import Game
from tavola.games.gonzaga.bench import random_game
from tavola.games.gonzaga.game import GAME


def random_speed(count: int, game: Game = GAME) -> tuple[float, float]:
    """(games/s, actions/s) of uniformly random games, caches warmed first. Gonzaga's are
    played on its engine directly, any other game's through the platform's interface."""
    def play(seed: int) -> int:
        if game is GAME:
            return len(random_game(seed).history)
        return len(bench.random_game(game, seed).history)

    for seed in range(1000, 1020):
        play(seed)
    actions = 0
    t0 = time.perf_counter()
    for seed in range(count):
        actions += play(seed)
    elapsed = time.perf_counter() - t0
    return count / elapsed, actions / elapsed


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    decisions = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    game = registry.get(sys.argv[3]) if len(sys.argv) > 3 else GAME
    per_game, per_action = random_speed(count, game)
    line = f"games/s {per_game:.1f} actions/s {per_action:.0f}"
    if decisions:
        line += f" mcts-it/s {measure_search(game, decisions, 0)['MCTS iterations/s']}"
    print(line)


if __name__ == "__main__":
    main()
