"""A baseline that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..engine import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]
