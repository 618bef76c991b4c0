"""The bot levels people choose from when they set up a Signorie table, weakest first.

The lobby and the web server offer exactly these specs (`tabletop.web.site.WebGame.levels`);
docs/signorie-bots.md has the measurements behind the words.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.bots import bot_title

LEVELS: tuple[str, ...] = ("random", "greedy", "planner", "mcts:easy", "mcts:medium", "mcts:hard")


@dataclass(frozen=True)
class Level:
    """A bot level as people choosing an opponent see it."""

    name: str
    strength: str
    help: str


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
    "mcts:medium": Level("Search", "strong", "the same search, three times longer"),
    "mcts:hard": Level("Deep search", "strongest", "the longest search: wins most games "
                                                   "against Greedy; thinks up to a second and "
                                                   "a half a choice"),
}


def level_name(spec: str) -> str:
    """A bot's name for people: its level's name, or its spec made readable."""
    level = LEVEL_HELP.get(spec)
    return level.name if level else bot_title(spec)


def level_options() -> list[dict[str, str]]:
    """The levels offered to people, weakest first: spec, name, strength, how it plays."""
    return [{"id": spec, "name": LEVEL_HELP[spec].name, "strength": LEVEL_HELP[spec].strength,
             "help": LEVEL_HELP[spec].help} for spec in LEVELS]
