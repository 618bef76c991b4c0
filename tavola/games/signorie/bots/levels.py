"""The bot levels people choose from when they set up a Signorie table, weakest first.

The lobby and the web server offer exactly these specs (`tavola.web.site.WebGame.levels`);
docs/signorie-bots.md has the measurements behind the words.
"""

from __future__ import annotations

from tavola import bots as platform
from tavola.bots import Level

from ..kit import KIT
from ..text import tr

LEVELS: tuple[str, ...] = tuple(KIT.levels)  # declared once, in the kit


LEVEL_HELP: dict[str, Level] = {
    "random": Level("Random", "very easy", "takes any legal choice at random; for learning the "
                                           "rules"),
    "greedy": Level("Greedy", "easy", "takes the choice worth most now, by an estimate of every "
                                      "seat's final score"),
    "planner": Level("Planner", "medium", "like Greedy, with an eye on its plan rows, the career "
                                          "ranks the cities ask for and room under the "
                                          "threshold"),
    "mcts:easy": Level("Quick search", "medium", "tries the rest of the round out some eighty "
                                                 "times before each choice"),
    "mcts:medium": Level("Careful search", "strong", "the same search, three times longer"),
    "mcts:hard": Level("Deep search", "strongest", "the longest search: wins more than 4 "
                                                     "games of 5 against the Planner, 7 of 10 "
                                                     "against three; thinks about a "
                                                     "third of a second a choice, at most 1.6 "
                                                     "seconds"),
}


def level_name(spec: str) -> str:
    """A bot's name for people, in the language of the moment."""
    return platform.level_name(LEVEL_HELP, spec, tr)


def level_options() -> list[dict[str, str]]:
    """The levels offered to people, weakest first, in the language of the moment."""
    return platform.level_options(LEVELS, LEVEL_HELP, tr)
