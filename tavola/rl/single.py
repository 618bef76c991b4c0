"""A Gymnasium environment in which the agent holds one seat and our bots play the others.

Any spec `tavola.bots.make_bot` accepts plays a seat ("random", "greedy", "planner",
"mcts:easy"...). Bots get their seat's view and legal actions, as in any match, and are seeded
from the environment's generator, so `reset(seed=...)` replays the same game. The observation
is the AEC one (`{"observation", "action_mask"}`); `action_masks()` gives the mask alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np

from ..bots import Bot, make_bot
from ..game import Game, IllegalAction
from . import spaces
from .table import Table

#: What an index the mask closes does: raise IllegalAction (nothing changes), or end the
#: episode for the agent with `illegal_reward` (as PettingZoo's TerminateIllegalWrapper).
ILLEGAL = ("raise", "lose")


class SeatEnv(gymnasium.Env):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(self, game: str | Game, seat: int = 0, opponents: str | Sequence[str] = "greedy",
                 players: int | None = None, options: Mapping[str, Any] | None = None,
                 reward: str = "score", illegal: str = "raise",
                 illegal_reward: float = -1.0) -> None:
        self.table = Table(game, players, options, reward)
        if not 0 <= seat < self.table.players:
            raise ValueError(f"seat {seat} is not one of 0 to {self.table.players - 1}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.seat, self.illegal, self.illegal_reward = seat, illegal, float(illegal_reward)
        self.specs = self._specs(opponents)
        for spec in self.specs.values():
            make_bot(self.table.game, spec)  # an unknown spec is refused now, not at reset
        self.observation_space = spaces.observation_space(self.table.encoding)
        self.action_space = spaces.action_space(self.table.encoding)
        self.bots: dict[int, Bot] = {}
        self.ended = True

    def _specs(self, opponents: str | Sequence[str]) -> dict[int, str]:
        others = [s for s in range(self.table.players) if s != self.seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"{len(others)} opponents needed, {len(specs)} given")
        return dict(zip(others, specs, strict=True))

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, np.ndarray], dict]:
        super().reset(seed=seed)
        game_seed, *bot_seeds = (int(x) for x in self.np_random.integers(
            2**62, size=1 + len(self.specs)))
        self.table.reset(game_seed)
        self.bots = {seat: make_bot(self.table.game, spec, seed=s)
                     for (seat, spec), s in zip(self.specs.items(), bot_seeds, strict=True)}
        self.ended = False
        self._play_bots()
        return self.table.observe(self.seat), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        if self.ended:
            raise RuntimeError("the episode is over: call reset() first")
        try:
            chosen = self.table.action(self.seat, action)
        except IllegalAction as refusal:
            if self.illegal == "raise":
                raise
            self.ended = True
            return self.table.observe(self.seat), self.illegal_reward, True, False, {
                "illegal": str(refusal)}
        self.table.play(chosen)
        self._play_bots()
        self.ended = self.table.over
        reward = self.table.rewards()[self.seat]
        return self.table.observe(self.seat), reward, self.ended, False, {}

    def action_masks(self) -> np.ndarray:
        """The mask of the agent's legal indices (what maskable learners ask for)."""
        return self.table.mask(self.seat).copy()

    def _play_bots(self) -> None:
        """Let the bots move until the agent is among the seats to move, or the game ends."""
        table = self.table
        while not table.over and self.seat not in table.movers():
            seat = table.movers()[0]
            view = table.view(seat)
            table.play(self.bots[seat].decide(view, table.legal(seat)))
