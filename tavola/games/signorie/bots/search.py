"""What Signorie lends the platform's search (`tavola.search`): its levels and heuristics.

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

from collections.abc import Hashable, Sequence
from dataclasses import fields, replace
from itertools import repeat
from pathlib import Path
from typing import Any

from tavola.search import Settings
from tavola.tune import load_tuned

from ..state import Position
from .greedy import best_action
from .values import PLANNER, Contexts, Weights, final_estimates, ranked

REWARD_SCALE = 10.0  # VP of lead that make a reward of about 0.73

LEVELS: dict[str, Settings] = {
    "easy": Settings(iterations=80, width=4, joint_width=4),
    "medium": Settings(iterations=250, width=5, joint_width=5),
    # sized for a mean under 1 s a decision on one core; the time limit caps the longest.
    # The anchor keeps the planner's choice unless the search finds one 2 VP better: its
    # estimates over a few turns of dice are noisier than the planner's judgement
    "hard": Settings(iterations=600, time_limit=1.6, width=6, joint_width=6, anchor=2.0),
}
DEPTH = 6  # turns an iteration looks ahead before the evaluation takes over


def turns_taken(p: Position) -> int:
    """Turns played this round: dice taken and passes, by every seat."""
    dice = sum(map(len, p.taken)) - sum(map(list.count, p.taken, repeat(0)))
    return dice + p.passed.count(True)


class SignorieHooks:
    """The heuristics for one decision of the bot at `seat`."""

    reward_scale = REWARD_SCALE

    def __init__(self, view: Position, weights: Weights = PLANNER, depth: int = DEPTH) -> None:
        self.weights = weights
        self.round = view.round
        self.stop = turns_taken(view) + depth
        # the decision's positions share a seat's valuation while its holdings stay put
        self.contexts = Contexts(weights)

    def options(self, state: Any, seat: int, settings: Settings) -> list[tuple[Any, float]]:
        return ranked(state, seat, list(state.legal), self.weights,
                      self.contexts)[: settings.width]

    def rollout(self, state: Any) -> Any:
        return best_action(state, state.to_move()[0], state.legal, self.weights,
                           contexts=self.contexts)

    def horizon(self, state: Any) -> Hashable:
        return state.round != self.round or turns_taken(state) >= self.stop

    def estimates(self, state: Any) -> Sequence[float]:
        """The end of an iteration: its estimates, then its deal is let go."""
        out = final_estimates(state, self.weights, self.contexts)
        self.contexts.release()
        return out


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
