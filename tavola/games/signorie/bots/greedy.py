"""The greedy bot: every decision is the one worth most now.

A die is valued by its best action completed greedily (the best mission, marriage, advancement
points, helper...), the hired helpers of its column, less its cost in florins and the round's
reward if it takes the dice sum over the threshold (`values.take_die_value`); each follow-up
decision of the turn is valued the same way. No copy of the position is made, so a whole game
of greedy bots takes a few hundredths of a second.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .values import GREEDY, Weights, best_action


class GreedyBot:
    name = "greedy"
    weights: Weights = GREEDY

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        if weights is not None:  # a tuner's candidate; the levels keep their class's weights
            self.weights = weights

    def decide(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        return best_action(view, view.viewer, legal_actions, self.weights, self.rng)
