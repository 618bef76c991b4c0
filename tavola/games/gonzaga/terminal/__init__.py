"""Play Gonzaga in the terminal: a coloured hex map, player boards and menus, drawn with rich.

`hexmap`, `render` and `final` draw (pure functions of a view, so tests need no terminal),
`input` asks and checks what people type, `planning` and `placing` are the two kinds of turn,
and `loop` seats people and bots and plays the game (`play_in_terminal`).

`play` is the entry point the platform's `tavola play` calls; `DEFAULT_PLAYERS` the seats it
uses when none are given (and so `make play`).

`tavola play --help` reads `DEFAULT_PLAYERS` of every game, so `play` imports the game itself
when called.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: You against the planner and the search bot.
DEFAULT_PLAYERS = "human,planner,mcts:medium"


def play(specs: list[str], *, seed: int | None, record: Path | None, console: Any,
         options: Mapping[str, Any] | None = None, pause: float = 0.0) -> Any:
    """Play one game at this terminal with the game's `options` (as `tavola.game.
    read_options` reads them); ValueError names what cannot be played."""
    from .. import text as words
    from ..game import board_option
    from . import loop  # looked up when called, so tests may replace `play_in_terminal`

    if pause:
        raise ValueError(words.say("error.no-pause"))
    options = options or {}
    return loop.play_in_terminal(specs, seed=seed, scenario=options.get("scenario"),
                                 record=record, variants=list(options.get("variants") or ()),
                                 console=console, board=board_option(options.get("board")))
