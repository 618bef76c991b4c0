"""Bots for any game: anything with `decide(view, legal_actions) -> action`.

A bot is handed a view (never the full state) and the legal actions of its seat; the match
runner enforces this. `random` and `mcts` are the platform's own and play every game; a game
adds its heuristic bots in `Game.bots`. `make_bot(game, "mcts:hard", seed=1)` builds one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .game import BotFactory, Game
from .search import make_mcts


class Bot(Protocol):
    name: str

    def decide(self, view: Any, legal_actions: Sequence[Any]) -> Any: ...


class RandomBot:
    """A baseline that picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]


def bot_names(game: Game) -> list[str]:
    """Every bot name a spec may start with, for this game."""
    return sorted({"random", "mcts", *game.bots})


def make_bot(game: Game, spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec such as `greedy`, `mcts:hard` or `mcts:iterations=2000`.

    An unknown name or a bad option raises ValueError naming it.
    """
    name, _, options = spec.strip().lower().partition(":")
    if name == "random":
        _no_options(name, options)
        return RandomBot(seed)
    if name == "mcts":
        return make_mcts(game, seed, options)
    factory = game.bots.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; choose from {', '.join(bot_names(game))} "
                         "(mcts takes a level: mcts:easy, mcts:medium, mcts:hard)")
    return factory(seed, options)


def _no_options(name: str, options: str) -> None:
    if options:
        raise ValueError(f"the {name} bot takes no options (got {options!r})")


def plain(factory: Callable[[int | None], Bot], name: str) -> BotFactory:
    """A game bot factory for a bot class that takes only a seed."""
    def build(seed: int | None, options: str) -> Bot:
        _no_options(name, options)
        return factory(seed)

    return build


def bot_title(spec: str) -> str:
    """A bot spec as a player name: `mcts:hard` -> "MCTS (hard)", `greedy` -> "Greedy"."""
    name, _, options = spec.partition(":")
    title = "MCTS" if name == "mcts" else name.title()
    return f"{title} ({options.replace(':', ', ')})" if options else title


@dataclass(frozen=True)
class Level:
    """A bot level as people choosing an opponent see it (the lobby shows it); the words are
    English, the game's catalog message ids."""

    name: str
    strength: str
    help: str

    def words(self) -> tuple[str, str, str]:
        return self.name, self.strength, self.help


def level_name(levels: Mapping[str, Level], spec: str, word: Callable[[str], str]) -> str:
    """A bot's name for people: its level's name in the language of the moment (`word`
    translates), or its spec made readable."""
    level = levels.get(spec)
    return word(level.name) if level else bot_title(spec)


def level_options(offered: Sequence[str], levels: Mapping[str, Level],
                  word: Callable[[str], str]) -> list[dict[str, str]]:
    """The levels offered to people, weakest first: spec, name, strength, how it plays."""
    return [{"id": spec, "name": word(levels[spec].name), "strength": word(levels[spec].strength),
             "help": word(levels[spec].help)} for spec in offered]
