"""Both ways: a game's compiled modules (`tavola compile`) must play exactly as its source.

`compiled_copy` copies a package tree (the `tavola` package, or any other) to a folder and
compiles the declared modules of the games named there; `fingerprint` hashes everything seeded
play shows through the `Game` interface (every legal list, every action, the log's words,
views, scores, bot decisions and a seeded search's statistics), so the same function run in a
process that imports the copy and in one that imports the source must agree.

    python -m tavola.testing.compiled GAME   # the fingerprint, in this process's import path
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .. import registry
from ..bots import make_bot
from ..game import Game
from ..match import play_game
from ..search import MCTSBot, parse_settings
from .play import names, player_counts

#: Files never copied: compiled modules of the source tree, caches.
LEFT_OUT = ("*.so", "*.pyd", "__pycache__", "compiled.json")


def compiled_copy(package_dir: Path, into: Path, games: list[str]) -> Path:
    """Copy the package folder `package_dir` into `into` and compile the games' declared
    modules there; the folder to put first on `PYTHONPATH`. A compiler error raises
    `RuntimeError` with its words."""
    shutil.copytree(package_dir, into / package_dir.name,
                    ignore=shutil.ignore_patterns(*LEFT_OUT))
    env = {**os.environ, "PYTHONPATH": str(into)}
    for game in games:
        done = subprocess.run([sys.executable, "-m", "tavola", "compile", "--game", game],
                              cwd=into, env=env, capture_output=True, text=True, timeout=900,
                              check=False)
        if done.returncode != 0:
            raise RuntimeError(f"tavola compile --game {game}: {done.stdout}{done.stderr}")
    return into


def fingerprint(name: str, games: int = 6, seed: int = 0) -> str:
    """A hash of seeded play of the game `name`: random games at each player count (every
    legal list, action, log line, view and score), a game of its greedy and planner bots, and
    a seeded search decision's statistics."""
    game = registry.get(name)
    digest = hashlib.sha256()

    def put(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode())

    for players in player_counts(game):
        for i in range(games):
            _random_game(game, players, seed + 100 * players + i, put)
    bots = [b for b in ("greedy", "planner") if b in game.bots] or ["random"]
    line_up = [make_bot(game, bots[i % len(bots)], seed + i)
               for i in range(game.info.min_players)]
    final = play_game(game, line_up, seed=seed,
                      names=names(game.info.min_players))
    put([game.action_to_json(a) for a in final.history])
    put(list(game.scores(final)))
    _search(game, seed, put)
    return digest.hexdigest()


def _random_game(game: Game, players: int, seed: int, put: Any) -> None:
    rng = random.Random(seed)
    state = game.new_game(names(players), seed)
    while not state.is_over:
        seat = state.to_move()[0]
        legal = game.legal_actions(state, seat)
        put([game.action_to_json(a) for a in legal])
        action = legal[rng.randrange(len(legal))]
        game.apply_in_place(state, action)
        if len(state.history) % 7 == 0:
            view = game.view(state, seat)
            put([game.describe_log(view, e) for e in game.log(view)])
            put(list(game.scores(view)))
    put([game.describe_log(state, e) for e in game.log(state)])
    put(list(game.scores(state)))


def _search(game: Game, seed: int, put: Any) -> None:
    """A seeded search decision of the first position: its options' visits and values."""
    state = game.new_game(names(game.info.min_players), seed)
    seat = state.to_move()[0]
    bot = MCTSBot(game, seed, parse_settings("iterations=60"))
    put(repr(bot.analyse(game.view(state, seat), game.legal_actions(state, seat))))


if __name__ == "__main__":
    print(fingerprint(sys.argv[1]))
