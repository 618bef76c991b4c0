"""Bots: anything with `decide(view, legal_actions) -> action`.

A bot is handed a `PlayerView` (never the full state) and the legal actions of its seat; the
`match` module enforces this. `make_bot("greedy", seed=1)` builds a bot from its spec string.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


__all__ = ["BOTS", "LEVELS", "Bot", "GreedyBot", "MCTSBot", "PlannerBot", "RandomBot",
           "bot_title", "make_bot"]
