"""The planner: the greedy bot's valuation with a plan.

It weighs the same decisions with plan-minded weights (`values.PLANNER`): career meeples are
pushed to the ranks a city's lowest empty slot asks for, above all where that city offers a
tile its plan rows need; short plan rows are worth more (it works towards rows of 3 tiles);
helpers are hired early, while they have many rounds to pay back; and a die is taken only if
enough room stays under the threshold for the dice it still means to take, when the round's
reward is worth it.
"""

from __future__ import annotations

from .greedy import GreedyBot
from .values import PLANNER, Weights


class PlannerBot(GreedyBot):
    name = "planner"
    weights: Weights = PLANNER
