"""Finding games: each declares itself once, in a `tavola.kit.GameKit`.

A game is found by its distribution's entry point in the group `tavola.games` (`NAME =
"package.kit:KIT"`), so a game installed from another package appears like ours. A source
checkout run without installing (`PYTHONPATH`) has no distribution metadata, so the kits of
the packages under `tavola.games` (`tavola/games/NAME/kit.py`'s `KIT`) are taken too. Our own
entry points name those same kits; any other entry point naming a game already found is an
error (two games cannot share a name), as is one whose name is not its kit's.

The default game (`--game` left out) is the first by name of the games under `tavola.games`
(of all games found, when that package holds none): no name of a game is written here.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from importlib.util import find_spec
from types import MappingProxyType

from . import compiling, games
from .game import Game
from .kit import GameKit, MoveWords

GROUP = "tavola.games"  # the entry-point group games are declared in


class KitError(ValueError):
    """A game's declaration cannot be taken: the message names it and why."""


@cache
def kits() -> Mapping[str, GameKit]:
    """Every game's declaration by its name, the default first, then by name."""
    found: dict[str, GameKit] = {}
    for kit in _own_kits():
        found[kit.name] = kit
    default = min(found, default="")
    for point in entry_points(group=GROUP):
        kit = _kit_of(point)
        if found.get(kit.name, kit) is not kit:
            raise KitError(f"two games are called {kit.name!r}: the entry point {point.name} = "
                           f"{point.value} ({_distribution(point)}) and "
                           f"{found[kit.name].package}; one of them must be renamed")
        found[kit.name] = kit
    default = default or min(found, default="")
    return MappingProxyType(dict(sorted(found.items(),
                                        key=lambda item: (item[0] != default, item[0]))))


def _own_kits() -> Iterator[GameKit]:
    """The kits of the packages under `tavola.games`, each its `kit.py`'s `KIT` (a package
    without a `kit.py` is not a game yet)."""
    for package in pkgutil.iter_modules(games.__path__, games.__name__ + "."):
        declaration = package.name + ".kit"
        if package.ispkg and find_spec(declaration) is not None:
            yield _checked(pkgutil.resolve_name(declaration + ":KIT"), declaration)


def _kit_of(point: EntryPoint) -> GameKit:
    kit = _checked(point.load(), f"the entry point {point.name} = {point.value}")
    if kit.name != point.name:
        raise KitError(f"the entry point {point.name} = {point.value} ({_distribution(point)}) "
                       f"declares the game {kit.name!r}: an entry point is named as its game")
    return kit


def _checked(kit: object, where: str) -> GameKit:
    if not isinstance(kit, GameKit):
        raise KitError(f"{where} is not a tavola.kit.GameKit but {type(kit).__name__}")
    return kit


def _distribution(point: EntryPoint) -> str:
    dist = point.dist
    return f"distribution {dist.name}" if dist is not None else "no distribution"


DEFAULT = next(iter(kits()), "")  # the game a command plays when `--game` is left out


def of_unnamed_games() -> str:
    """The game a stored web game that names none is of (`GameKit.owns_unnamed_games`):
    servers stored no game's name while they hosted one game."""
    return next((k.name for k in kits().values() if k.owns_unnamed_games), DEFAULT)


def available() -> tuple[str, ...]:
    """The names of the games that can be played, default first."""
    return tuple(kits())


def kit(name: str = DEFAULT) -> GameKit:
    """The declaration of the game called `name`; an unknown name raises ValueError listing
    the known ones."""
    key = name.strip().lower()
    found = kits().get(key)
    if found is None:
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(available())}")
    return found


@cache
def get(name: str = DEFAULT) -> Game:
    """The game called `name`; an unknown name raises ValueError listing the known ones."""
    declared = kit(name)
    for module in compiling.declared(declared):  # for a game whose packages do not see to
        compiling.prefer_source(module.rpartition(".")[0],  # it as they are imported
                                compiling.source_of(module).parent)
    game: Game = declared.game.load()
    if (game.info.name, game.info.record_format) != (declared.name, declared.record_format):
        raise KitError(f"{declared.name}'s kit declares records {declared.record_format!r} but "
                       f"its game is {game.info.name!r} writing {game.info.record_format!r}")
    return game


@cache
def move_words(name: str) -> MoveWords:
    """What hints and reviews may say of the game's moves (nothing more than each action's
    words for a game that declares none)."""
    declared = kit(name)
    return declared.moves.load() if declared.moves else MoveWords()


def for_record_format(fmt: str) -> Game:
    """The game whose records have this `format` (`signorie-record/1` -> signorie)."""
    base = fmt.rpartition("/")[0] or fmt
    for declared in kits().values():
        if declared.record_format == base:
            return get(declared.name)
    raise ValueError(f"no game writes records of format {fmt!r}")
