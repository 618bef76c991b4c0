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

from .values import GREEDY, Contexts, Ctx, Weights, action_value


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


def best_action(p: Any, seat: int, legal: Sequence[Any], weights: Weights,
                rng: random.Random | None = None, contexts: Contexts | None = None) -> Any:
    """The legal action of highest value; ties go to a random one of them (or the first)."""
    if len(legal) == 1:
        return legal[0]
    if contexts is None:
        return _best(Ctx(p, seat, weights), legal, rng)
    c = contexts.of(p, seat)
    if rng is not None:
        return _best(c, legal, rng)
    # the values read the frame asked now besides the context's facts
    return c.remembered(("best", tuple(p.stack[-1]), tuple(legal)), lambda: _best(c, legal))


def _best(c: Ctx, legal: Sequence[Any], rng: random.Random | None = None) -> Any:
    best: list[Any] = []
    top = -float("inf")
    for a in legal:
        v = action_value(c, a)
        if v > top + 1e-9:
            top, best = v, [a]
        elif v > top - 1e-9:
            best.append(a)
    if rng is None or len(best) == 1:
        return best[0]
    return best[rng.randrange(len(best))]
