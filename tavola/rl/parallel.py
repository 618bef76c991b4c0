"""A PettingZoo Parallel environment for a game with simultaneous phases (Gonzaga's planning).

Every live seat sends an action each step. The seats to move (all planning seats at once, or
the one seat placing) send a masked index; the others send `wait`, the last index of the
space, which their mask alone opens. Every index is checked before any is played, so a step
with a closed index raises `tavola.game.IllegalAction` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from ..game import Game, IllegalAction
from . import spaces
from .table import Table, agent_name, game_of


class TavolaParallel(spaces.SameSpaces, ParallelEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "tavola_parallel_v0"}

    def __init__(self, game: str | Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None, reward: str = "score") -> None:
        found = game_of(game)
        if not found.info.simultaneous:
            raise ValueError(f"{found.info.title} has no simultaneous phase: one seat moves at "
                             "a time, so use its AEC environment")
        self.table = Table(found, players, options, reward)
        self.wait = self.table.encoding.action_count  # the index of waiting for the others
        self.declare(self.table.names, self.table.encoding, self.wait + 1)

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict]]:
        """A new game; `seed` fixes it (the game's options are set when the env is made)."""
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        chosen = [self.table.action(seat, actions.get(agent_name(seat)))
                  for seat in self._check_waits(actions)]
        for action in chosen:
            self.table.play(action)
        rewards = dict(zip(self.agents, self.table.rewards(), strict=True))
        over = self.table.over
        observations = self._observations()
        done = dict.fromkeys(self.agents, over)
        truncated = dict.fromkeys(self.agents, False)
        infos: dict[str, dict] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, done, truncated, infos

    def _check_waits(self, actions: Mapping[str, Any]) -> tuple[int, ...]:
        """The seats to move; every other live seat must have sent `wait`."""
        movers = self.table.movers()
        for seat, agent in enumerate(self.agents):
            sent = actions.get(agent, self.wait)
            if seat in movers and sent == self.wait:
                raise IllegalAction("wait", f"{agent} is to move now and cannot wait")
            if seat not in movers and sent != self.wait:
                raise IllegalAction("wait", f"{agent} is not to move now and must send "
                                            f"wait ({self.wait}), not {sent!r}")
        return movers

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        movers = self.table.movers()
        return {agent_name(seat): self._observe(seat, seat in movers)
                for seat in range(self.table.players)}

    def _observe(self, seat: int, moving: bool) -> dict[str, np.ndarray]:
        seen = self.table.observe(seat)
        mask = np.zeros(self.wait + 1, dtype=np.int8)
        if moving:
            mask[:-1] = seen["action_mask"]
        else:
            mask[-1] = 1
        return {"observation": seen["observation"], "action_mask": mask}


def parallel_env(game: str | Game, **kwargs: Any) -> TavolaParallel:
    """The Parallel environment of a game by name (`parallel_env("gonzaga", players=4)`)."""
    return TavolaParallel(game, **kwargs)
