"""A PettingZoo AEC environment for any game: one seat acts at a time.

In a simultaneous phase (Gonzaga's planning) the seats that must still answer are asked one by
one, each observing its own view, in which no other seat's secret choice shows before the
reveal. Rewards come at the end only (`table.REWARDS`); an index the mask closes raises
`tavola.game.IllegalAction` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pettingzoo import AECEnv

from ..game import Game
from . import spaces
from .table import Table, agent_name


class TavolaAEC(spaces.SameSpaces, AECEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "tavola_aec_v0",
                                          "is_parallelizable": False}

    def __init__(self, game: str | Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None, reward: str = "score",
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = Table(game, players, options, reward)
        self.declare(self.table.names, self.table.encoding)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; `seed` fixes it (the game's options are set when the env is made)."""
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.table.movers()[0])

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.step(self.possible_agents.index(agent), action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict(zip(self.agents, self.table.rewards(), strict=True))
        if self.table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = agent_name(self.table.movers()[0])
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return describe(self.table)

    def close(self) -> None:
        pass


def describe(table: Table) -> str:
    """The last thing that happened and the scores, in the game's own words."""
    game, state = table.game, table.state
    log = game.log(state)
    last = game.describe_log(state, log[-1]) if log else ""
    scores = ", ".join(f"{n}: {s}" for n, s in zip(table.names, game.scores(state),
                                                   strict=True))
    return f"{scores}\n{last}" if last else scores


def env(game: str | Game, **kwargs: Any) -> TavolaAEC:
    """The AEC environment of a game by name (`env("gonzaga", players=3)`)."""
    return TavolaAEC(game, **kwargs)
