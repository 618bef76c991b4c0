"""The Gymnasium spaces of a table's observations and actions (shared by every environment)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .encoding import Encoding


def observation_space(encoding: Encoding, actions: int | None = None) -> spaces.Dict:
    """`{"observation": Box, "action_mask": Box of int8}`, as PettingZoo's classic games."""
    count = encoding.action_count if actions is None else actions
    layout = encoding.layout
    return spaces.Dict({
        "observation": spaces.Box(low=np.zeros(layout.size, dtype=np.float32),
                                  high=layout.high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
    })


def action_space(encoding: Encoding, actions: int | None = None) -> spaces.Discrete:
    return spaces.Discrete(encoding.action_count if actions is None else actions)


class SameSpaces:
    """Every agent's spaces, the same for all seats, as PettingZoo asks each environment to
    answer them (shared by the AEC and the Parallel environment)."""

    possible_agents: list[str]
    agents: list[str]

    def declare(self, agents: list[str], encoding: Encoding, actions: int | None = None) -> None:
        self.possible_agents = list(agents)
        obs, act = observation_space(encoding, actions), action_space(encoding, actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]
