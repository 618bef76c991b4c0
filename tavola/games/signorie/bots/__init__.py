"""Signorie's bots: `greedy` and `planner` (heuristic), and the search's heuristics (`search`).

A bot is handed a view (never the state) and the legal actions of its seat; `random` and
`mcts` come from the platform (`tavola.bots.make_bot(GAME, "mcts:hard")`).
"""

from __future__ import annotations

from collections.abc import Callable

from tavola import bots as platform
from tavola.bots import Bot
from tavola.compiling import prefer_source

prefer_source(__name__, __path__[0])  # not a module compiled from another source

from .greedy import GreedyBot  # noqa: E402 (after the check above: they use the valuation)
from .planner import PlannerBot  # noqa: E402

GAME_BOTS: dict[str, Callable[[int | None, str], Bot]] = {
    "greedy": platform.plain(GreedyBot, "greedy"),
    "planner": platform.plain(PlannerBot, "planner"),
}

__all__ = ["GAME_BOTS", "GreedyBot", "PlannerBot"]
