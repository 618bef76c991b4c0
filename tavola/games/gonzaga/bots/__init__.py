"""Bots: anything with `decide(view, legal_actions) -> action`.

A bot is handed a `PlayerView` (never the full state) and the legal actions of its seat; the
`match` module enforces this. `game.make_bot("greedy", seed=1)` builds a bot from its spec
string (it is there, with `GAME`, since the game names its bots to the platform: `GAME.bots`).
"""

from __future__ import annotations

from collections.abc import Callable

from tavola import bots as platform
from tavola.bots import Bot, Level, RandomBot, bot_title
from tavola.search import MCTSBot

from ..kit import KIT
from ..text import word
from .greedy import GreedyBot
from .planner import PlannerBot

# Gonzaga's own bots; each factory takes the seed and the options after the spec's first colon.
GAME_BOTS: dict[str, Callable[[int | None, str], Bot]] = {
    "greedy": platform.plain(GreedyBot, "greedy"),
    "planner": platform.plain(PlannerBot, "planner"),
}
BOTS = ("random", "greedy", "planner", "mcts")  # every bot a Gonzaga seat can take


# The choices offered to people setting up a table, weakest first.
LEVELS: tuple[str, ...] = tuple(KIT.levels)  # declared once, in the kit


#: Every level of LEVELS: its name, how strong and how it plays, for people choosing an
#: opponent; docs/bots.md has the measurements behind the words.
LEVEL_HELP: dict[str, Level] = {
    "random": Level("Random", "very easy", "plays any legal move at random; for learning the "
                                           "rules"),
    "greedy": Level("Greedy", "easy", "takes the most points it can each turn, with no plan "
                                      "beyond it"),
    "planner": Level("Planner", "medium", "like Greedy, but also works towards its secret "
                                          "objective, sea leagues and the Gonzaga tile; beats "
                                          "Greedy in about 3 games of 4"),
    "mcts:easy": Level("Quick search", "medium", "tries out the rest of the round a hundred "
                                                 "times before each move"),
    "mcts:medium": Level("Careful search", "strong", "the same search, four times longer"),
    "mcts:hard": Level("Deep search", "strongest", "the longest search: it wins about 9 games "
                                                   "of 10 against Greedy and nearly as many "
                                                   "against the Planner; thinks under half a "
                                                   "second a move, two at most"),
}


def level_name(spec: str) -> str:
    """A bot's name for people, in the language of the moment."""
    return platform.level_name(LEVEL_HELP, spec, word)


def level_options() -> list[dict[str, str]]:
    """The bot levels offered to people, weakest first, in the language of the moment."""
    return platform.level_options(LEVELS, LEVEL_HELP, word)


__all__ = ["BOTS", "LEVELS", "LEVEL_HELP", "Bot", "GreedyBot", "Level", "MCTSBot", "PlannerBot",
           "RandomBot", "bot_title", "level_name", "level_options"]
