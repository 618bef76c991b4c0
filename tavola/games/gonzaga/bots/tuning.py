"""What Gonzaga lends the tuner (`tavola.tune`, `tavola tune`): the search bot's weights.

The candidates play with `evaluation.Weights`; the opponent is the planner with the hand-set
`DEFAULT_WEIGHTS`, which it keeps: tuned weights are the search bot's alone
(`weights.json`, loaded by `mcts`).

Two kinds of candidate player, both cheap enough for hundreds of games:
- `planner`: the planner's one-step policy with the candidate's weights. It reads only the
  weights that value a move (rings, the group, sea leagues), so only those are tuned.
- `mcts:iterations=N`: the search with a small budget; it also reads the weights of the
  end-of-round estimate (objective chance, tile sharpness), so all of them are tuned.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from tavola.bots import Bot
from tavola.search import MCTSBot, parse_settings

from ..game import GAME
from .evaluation import DEFAULT_WEIGHTS, Weights
from .mcts import LEVELS, GonzagaSearch
from .planner import PlannerBot

OPPONENT = "planner"
MOVE_WEIGHTS = ("ring", "group_step", "league_two", "league_one")  # what the planner reads
ALL_WEIGHTS = tuple(f.name for f in fields(Weights))


@dataclass(frozen=True)
class GonzagaTuning:
    """Candidates play as `kind` (`planner` or `mcts:...`) against the planner."""

    kind: str
    names: tuple[str, ...]
    start: tuple[float, ...]
    opponent: str = OPPONENT

    def player(self, values: dict[str, float], seed: int) -> Bot:
        weights = Weights(**{**_defaults(), **values})
        if self.kind == "planner":
            return PlannerBot(seed, weights=weights)
        settings = parse_settings(self.kind.partition(":")[2], LEVELS)
        return MCTSBot(GAME, seed, settings, label=self.kind, search=GonzagaSearch(weights))


def _defaults() -> dict[str, float]:
    return {name: getattr(DEFAULT_WEIGHTS, name) for name in ALL_WEIGHTS}


def tuning(player: str) -> GonzagaTuning:
    """The tuning for candidates played by `player`; ValueError for another bot."""
    player = player.strip().lower()
    if player == "planner":
        names = MOVE_WEIGHTS
    elif player.startswith("mcts"):
        parse_settings(player.partition(":")[2], LEVELS)  # refuses a bad option
        names = ALL_WEIGHTS
    else:
        raise ValueError(f"Gonzaga tunes with the planner or mcts (with a small budget), "
                         f"not {player!r}")
    start = tuple(float(getattr(DEFAULT_WEIGHTS, n)) for n in names)
    return GonzagaTuning(player, names, start)
