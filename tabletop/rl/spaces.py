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
