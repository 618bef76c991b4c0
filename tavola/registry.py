"""Finding games: every package under `tavola/games/` whose `game` module declares `GAME`.

Adding a game is adding its folder; nothing here names one.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache

from . import games
from .game import Game

DEFAULT = "gonzaga"


@cache
def available() -> tuple[str, ...]:
    """The names of the games that can be played, default first."""
    names = [m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg]
    found = [n for n in names if importlib.util.find_spec(f"tavola.games.{n}.game") is not None]
    return tuple(sorted(found, key=lambda n: (n != DEFAULT, n)))


@cache
def get(name: str = DEFAULT) -> Game:
    """The game called `name`; an unknown name raises ValueError listing the known ones."""
    key = name.strip().lower()
    if key not in available():
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(available())}")
    return importlib.import_module(f"tavola.games.{key}.game").GAME


def for_record_format(fmt: str) -> Game:
    """The game whose records have this `format` (`signorie-record/1` -> signorie)."""
    base = fmt.rpartition("/")[0] or fmt
    for name in available():
        game = get(name)
        if game.info.record_format == base:
            return game
    raise ValueError(f"no game writes records of format {fmt!r}")
