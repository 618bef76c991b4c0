"""A tuned weights file against the tuner's opponent, on deals other than the tuner's.

The tuner's own figures are on its training deals and favour the luckiest candidates. This
plays the weights a game ships (`games/GAME/bots/weights.json`) as the tuning's candidate
player (the file's `player`) against its opponent, on deals numbered from 5,000,000 (the tuner
draws its deals at random below 2**31), every seat in turn::

    .venv/bin/python tools/tuned_check.py signorie 2 500   # GAME PLAYERS DEALS
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tavola import registry as games  # noqa: E402
from tavola.tune import TunedWeights, load_tuned, play_candidate, tunable  # noqa: E402

FIRST_DEAL = 5_000_000


def main() -> None:
    name, players, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = games.get(name)
    path = ROOT / "tavola" / "games" / name / "bots" / "weights.json"  # as each game ships it
    player = TunedWeights.model_validate_json(path.read_text(encoding="utf-8")).player
    tune = tunable(game, player)
    tuned = load_tuned(path, name, tune.names)
    results = [play_candidate(game, tune, tuned.weights, FIRST_DEAL + d, seat, players)
               for d in range(deals) for seat in range(players)]
    n = len(results)
    share = sum(r[0] for r in results) / n
    lead = sum(r[1] for r in results) / n
    half = 1.96 * math.sqrt(share * (1 - share) / n)
    print(f"{name}, {players} players: {tuned.player} with {path.name} (version "
          f"{tuned.version}) against {tune.opponent}: {n} games, win share {share:.3f} "
          f"(±{half:.3f}; par {1 / players:.3f}), mean lead {lead:+.2f}")


if __name__ == "__main__":
    main()
