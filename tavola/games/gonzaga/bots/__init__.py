"""Bots: anything with `decide(view, legal_actions) -> action`.

A bot is handed a `PlayerView` (never the full state) and the legal actions of its seat; the
`match` module enforces this. `game.make_bot("greedy", seed=1)` builds a bot from its spec
string (it is there, with `GAME`, since the game names its bots to the platform: `GAME.bots`).
The levels offered to people are `levels`, the search's heuristics `mcts` and `hooks`.
"""

from __future__ import annotations

from collections.abc import Callable

from tavola import bots as platform
from tavola.bots import Bot, RandomBot, bot_title

from .greedy import GreedyBot
from .planner import PlannerBot

# Gonzaga's own bots; each factory takes the seed and the options after the spec's first colon.
GAME_BOTS: dict[str, Callable[[int | None, str], Bot]] = {
    "greedy": platform.plain(GreedyBot, "greedy"),
    "planner": platform.plain(PlannerBot, "planner"),
}
BOTS = ("random", "greedy", "planner", "mcts")  # every bot a Gonzaga seat can take


__all__ = ["BOTS", "GAME_BOTS", "Bot", "GreedyBot", "PlannerBot", "RandomBot", "bot_title"]
