"""Signorie's bots: `greedy` and `planner` (heuristic), and the search's heuristics (`search`).

A bot is handed a view (never the state) and the legal actions of its seat; `random` and
`mcts` come from the platform (`tavola.bots.make_bot(GAME, "mcts:hard")`).
"""

from __future__ import annotations

from collections.abc import Callable

from tavola import bots as platform
from tavola.bots import Bot

from .greedy import GreedyBot
from .planner import PlannerBot

GAME_BOTS: dict[str, Callable[[int | None, str], Bot]] = {
    "greedy": platform.plain(GreedyBot, "greedy"),
    "planner": platform.plain(PlannerBot, "planner"),
}

__all__ = ["GAME_BOTS", "GreedyBot", "PlannerBot"]
