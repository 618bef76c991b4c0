"""Play Signorie in the terminal: the board and the player boards drawn with rich, numbered
menus of the legal actions with their previews, bots and hot-seat.

`render` draws (pure functions of a view), `input` asks and checks what people type, `loop`
seats people and bots and plays the game (`play_in_terminal`). `play` is the entry point the
platform's `tavola play --game signorie` calls; `DEFAULT_PLAYERS` the seats it uses when none
are given. `tavola play --help` reads `DEFAULT_PLAYERS` of every game, so `play` imports the
game itself when called.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: You against the planner and the search bot.
DEFAULT_PLAYERS = "human,planner,mcts:medium"


def play(specs: list[str], *, seed: int | None, record: Path | None, console: Any,
         options: Mapping[str, Any] | None = None, pause: float = 0.0) -> Any:
    """Play one game at this terminal; ValueError names what cannot be played (Signorie
    declares no options)."""
    from .. import text as words
    from . import loop

    if options:
        raise ValueError(words.say("error.option", option=", ".join(options)))
    return loop.play_in_terminal(specs, seed=seed, record=record, console=console,
                                 pause=pause)
