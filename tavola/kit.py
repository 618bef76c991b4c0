"""A game declared once: everything the platform may use of a game, named in one place.

A game declares a `GameKit` in its own package (`tavola/games/NAME/kit.py`'s `KIT`) and
names it in its distribution's entry points (group `tavola.games`, see `tavola.registry`).
Each part is a `Part`: where the part lives, imported only when the platform uses it, so
declaring a game imports nothing of its rules, its web side or its terminal. A part the game
does not have is None: the platform asks the kit, never probes for modules or attributes.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Part:
    """A part of a game by where it lives: `module` or `module:attribute` (as an entry point
    names an object), imported when `load` is first called."""

    path: str

    def load(self) -> Any:
        """The module or object named (ImportError or AttributeError when it is not there)."""
        return pkgutil.resolve_name(self.path)


@dataclass(frozen=True)
class MoveWords:
    """What hints and reviews may say of a game's moves beyond `Game.describe_action`; each
    None (or `str`) where the game says nothing more."""

    #: (position, the actions of one move, exact=bool) -> the whole move in words
    describe_move: Callable[..., str] | None = None
    #: (position, action) -> why the move is worth playing now
    explain_action: Callable[[Any, Any], str] | None = None
    #: action -> whether it begins a new move (a move may take several actions)
    opens_move: Callable[[Any], bool] | None = None
    #: a source of points (`GameInfo.score_sources`) -> its name for players
    source_name: Callable[[str], str] = str


@dataclass(frozen=True)
class GameKit:
    """One game's declaration. Required: its rules interface and the facts the platform
    needs without loading it; optional parts are None when the game has none."""

    name: str  # as `--game NAME`, records and the web name it; the entry point's name
    package: str  # where its files are: catalogs in `locale/`, web page in `web/static/`
    game: Part  # its `tavola.game.Game`
    record_format: str  # its records' `format` without the version (`GameInfo.record_format`)
    levels: Sequence[str]  # the bot specs the lobby offers, weakest first
    cover_bot: str = "greedy"  # the bot that moves for a player out of time (one of `levels`)
    text_domain: str | None = None  # its catalogs' domain (None: English only)
    words: Part | None = None  # () -> the words kept in data, for its catalogs
    #: more of its modules (paths in `package`) whose tables of sentences its catalogs hold
    #: besides `text.py`'s: tables of modules the text layer imports and takes in, which
    #: cannot import the text layer themselves
    text_sources: tuple[str, ...] = ()
    moves: Part | None = None  # a `MoveWords`, for hints and reviews
    site: Part | None = None  # () -> its `tavola.web.site.WebGame`: played in the browser
    #: a pydantic model every view message of its web side meets, as tight as the game
    #: likes (`tavola.web.plainsite.PlainView`; ours type every nested part)
    view_schema: Part | None = None
    terminal: Part | None = None  # module with `main(...)` and `DEFAULT_PLAYERS`
    tutorial: Part | None = None  # its `tavola.tutorial.Tutorial`
    rules: Part | None = None  # package with its rules documents (`en.md`...) and `fields()`
    tuning: Part | None = None  # (player spec) -> its `tavola.tune.Tunable`
    encoding: Part | None = None  # (position) -> its `tavola.rl.encoding.Encoding`
    commands: Part | None = None  # (typer app) -> None: adds its own commands to `tavola`
    bench: Part | None = None  # (seed) -> its own benchmark figures
    prepare: Part | None = None  # () -> None: what a bot worker builds before its first move
    #: its `tavola.editions.EditionKind`: component data a person may edit and play on
    editions: Part | None = None
    #: its bots' fixed ratings per player count (`tavola.ratings.BotRatings`): a JSON file,
    #: by its path in `package`, written by tools/bot_ratings.py from the tournaments it names
    bot_ratings: str | None = None
    #: games a web server stored before its games named their game are this game's (only
    #: the first game ever hosted says so)
    owns_unnamed_games: bool = False
    #: modules of `package` (names within it) that `tavola compile` may compile with mypyc:
    #: the same source, run as Python where they are not compiled (`tavola.compiling`)
    compiled: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.cover_bot not in self.levels:
            raise ValueError(f"{self.name}'s cover bot {self.cover_bot!r} is not one of its "
                             f"levels ({', '.join(self.levels)})")
