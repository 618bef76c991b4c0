"""What Signorie lends the tuner (`tavola.tune`, `tavola tune --game signorie`).

The candidates play with `values.Weights`; the opponent is the planner with the hand-set
`PLANNER` weights, which it keeps: tuned weights are the search bot's alone (`weights.json`,
loaded by `search`).

Two kinds of candidate player:
- `planner`: the planner's one-step policy with the candidate's weights. A Signorie game of
  planners takes a few hundredths of a second, so a run can give every candidate hundreds of
  games. The planner reads every weight (each decision is valued by the change it makes to
  the estimate of the final score), so all of them are tuned.
- `mcts:iterations=N`: the search with a small budget (seconds a game: for short runs only).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from tavola.bots import Bot
from tavola.search import MCTSBot, parse_settings

from ..game import GAME
from .planner import PlannerBot
from .search import LEVELS, SignorieSearch
from .values import PLANNER, Weights

OPPONENT = "planner"
NAMES = tuple(f.name for f in fields(Weights))


@dataclass(frozen=True)
class SignorieTuning:
    """Candidates play as `kind` (`planner` or `mcts:...`) against the hand-set planner."""

    kind: str
    names: tuple[str, ...]
    start: tuple[float, ...]
    opponent: str = OPPONENT

    def player(self, values: dict[str, float], seed: int) -> Bot:
        weights = replace(PLANNER, **values)
        if self.kind == "planner":
            return PlannerBot(seed, weights=weights)
        settings = parse_settings(self.kind.partition(":")[2], LEVELS)
        return MCTSBot(GAME, seed, settings, label=self.kind, search=SignorieSearch(weights))


def tuning(player: str) -> SignorieTuning:
    """The tuning for candidates played by `player`; ValueError for another bot."""
    player = player.strip().lower()
    if player.startswith("mcts"):
        parse_settings(player.partition(":")[2], LEVELS)  # refuses a bad option
    elif player != "planner":
        raise ValueError(f"Signorie tunes with the planner or mcts (with a small budget), "
                         f"not {player!r}")
    return SignorieTuning(player, NAMES, tuple(float(getattr(PLANNER, n)) for n in NAMES))
