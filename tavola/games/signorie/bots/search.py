"""What Signorie lends the platform's search (`tavola.search`): its levels, weights and
heuristics (the heuristics in `hooks`).

- Options: the decisions the greedy valuation ranks highest (`values.ranked`), their values as
  priors, so the search spends its iterations on the few sensible dice and choices.
- Rollouts: the greedy bot's choice, which needs no copy of the position and is fast.
- Horizon: an iteration stops after a few turns (a turn is a die taken or a pass) or at the end
  of the round, whichever comes first; past it the dice and rewards of later rounds are chance
  the evaluation already prices in.
- Rewards: each seat's estimated final score (`values.final_estimates`), as the lead over the
  best other seat through a logistic curve (exact scores once the game is over).

The weights of all three are the search's own, tuned by `tavola tune --game signorie` and
shipped in `weights.json`; the planner keeps the hand-set `values.PLANNER`.
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

from tavola.search import Settings
from tavola.tune import load_tuned

from ..state import Position
from .hooks import DEPTH, REWARD_SCALE, SignorieHooks, turns_taken
from .values import PLANNER, Weights

LEVELS: dict[str, Settings] = {
    "easy": Settings(iterations=80, width=4, joint_width=4),
    "medium": Settings(iterations=250, width=5, joint_width=5),
    # sized for a mean under 1 s a decision on one core; the time limit caps the longest.
    # The anchor keeps the planner's choice unless the search finds one 2 VP better: its
    # estimates over a few turns of dice are noisier than the planner's judgement
    "hard": Settings(iterations=600, time_limit=1.6, width=6, joint_width=6, anchor=2.0),
}
WEIGHTS_PATH = Path(__file__).with_name("weights.json")


def search_weights(path: Path = WEIGHTS_PATH) -> Weights:
    """The search bot's tuned weights; a weight the file leaves out keeps its planner value."""
    tuned = load_tuned(path, "signorie", [f.name for f in fields(Weights)])
    return replace(PLANNER, **tuned.weights)


class SignorieSearch:
    """Signorie's part of the search: its levels and, for each decision, its heuristics."""

    levels = LEVELS

    def __init__(self, weights: Weights = PLANNER) -> None:
        self.weights = weights

    def hooks(self, view: Position, seat: int, settings: Settings) -> SignorieHooks:
        return SignorieHooks(view, self.weights)


SEARCH = SignorieSearch(search_weights())

__all__ = ["DEPTH", "LEVELS", "REWARD_SCALE", "SEARCH", "WEIGHTS_PATH", "SignorieHooks",
           "SignorieSearch", "search_weights", "turns_taken"]
