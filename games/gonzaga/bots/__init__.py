"""Bots: anything with `decide(view, legal_actions) -> action`.

A bot is handed a `PlayerView` (never the full state) and the legal actions of its seat; the
`match` module enforces this. `make_bot("greedy", seed=1)` builds a bot from its spec string.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..actions import Action
from ..engine import PlayerView
from .greedy import GreedyBot
from .mcts import MCTSBot, make_mcts
from .planner import PlannerBot
from .random_bot import RandomBot


class Bot(Protocol):
    name: str

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action: ...


def _plain(factory: Callable[[int | None], Bot], name: str) -> Callable[[int | None, str], Bot]:
    def build(seed: int | None, options: str) -> Bot:
        if options:
            raise ValueError(f"the {name} bot takes no options (got {options!r})")
        return factory(seed)

    return build


# Each factory takes the seed and the options after the first colon of the spec.
BOTS: dict[str, Callable[[int | None, str], Bot]] = {
    "random": _plain(RandomBot, "random"),
    "greedy": _plain(GreedyBot, "greedy"),
    "planner": _plain(PlannerBot, "planner"),
    "mcts": make_mcts,
}


# The choices offered to people setting up a table, weakest first.
LEVELS: tuple[str, ...] = ("random", "greedy", "planner", "mcts:easy", "mcts:medium", "mcts:hard")


def bot_title(spec: str) -> str:
    """A bot spec as a player name: `mcts:hard` -> "MCTS (hard)", `greedy` -> "Greedy"."""
    name, _, options = spec.partition(":")
    title = "MCTS" if name == "mcts" else name.title()
    return f"{title} ({options.replace(':', ', ')})" if options else title


@dataclass(frozen=True)
class Level:
    """A bot level as people choosing an opponent see it (the lobby shows it)."""

    name: str
    strength: str
    help: str


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
    "mcts:medium": Level("Search", "strong", "the same search, four times longer"),
    "mcts:hard": Level("Deep search", "strongest", "the longest search: it wins about 9 games "
                                                   "of 10 against Greedy and 7 of 10 against "
                                                   "the Planner; thinks up to a second and a "
                                                   "half a move"),
}


def level_name(spec: str) -> str:
    """A bot's name for people: its level's name, or its spec made readable."""
    level = LEVEL_HELP.get(spec)
    return level.name if level else bot_title(spec)


def level_options() -> list[dict[str, str]]:
    """The bot levels offered to people, weakest first: spec, name, strength, how it plays."""
    return [{"id": spec, "name": LEVEL_HELP[spec].name, "strength": LEVEL_HELP[spec].strength,
             "help": LEVEL_HELP[spec].help} for spec in LEVELS]


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec such as `greedy`, `mcts:hard` or `mcts:iterations=2000`.

    An unknown name or a bad option raises ValueError naming it.
    """
    name, _, options = spec.strip().lower().partition(":")
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; choose from {', '.join(sorted(BOTS))} "
                         "(mcts takes a level: mcts:easy, mcts:medium, mcts:hard)")
    return factory(seed, options)


__all__ = ["BOTS", "LEVELS", "LEVEL_HELP", "Bot", "GreedyBot", "Level", "MCTSBot", "PlannerBot",
           "RandomBot", "bot_title", "level_name", "level_options", "make_bot"]
