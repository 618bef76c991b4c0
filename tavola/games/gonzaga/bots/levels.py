"""The bot levels people choose from when they set up a Gonzaga table, weakest first.

The lobby and the web server offer exactly these specs (`tavola.web.site.WebGame.levels`);
docs/bots.md has the measurements behind the words. Apart from the bots themselves, whose
package the compiled search hooks are part of (`kit.compiled`): the kit and the text layer are
not theirs to import.
"""

from __future__ import annotations

from tavola import bots as platform
from tavola.bots import Level

from ..kit import KIT
from ..text import word

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


__all__ = ["LEVELS", "LEVEL_HELP", "level_name", "level_options"]
