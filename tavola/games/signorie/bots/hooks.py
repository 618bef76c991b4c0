"""Signorie's heuristics for one decision of the platform's search (`tavola.search`).

Kept apart from `search` (levels and weights) so that `tavola compile` can build them without
the platform around them: they run at every step of every iteration.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import repeat
from typing import Any

from ..state import Position
from .values import PLANNER, Contexts, Weights, best_action, final_estimates, ranked

REWARD_SCALE = 10.0  # VP of lead that make a reward of about 0.73

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

    def options(self, state: Any, seat: int, settings: Any) -> list[tuple[Any, float]]:
        # settings: a `tavola.search.Settings`, not imported so compiling stays quick
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
