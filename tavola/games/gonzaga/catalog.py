"""The words players read that live in data beside the text layer, for the message catalogs
(`tavola i18n extract` calls `data_words`, the kit's `words`).

It reads every layer (the board, the rules' scoring details, the bots' levels, the web page's
player patterns), so it sits above them all and nothing of the game imports it.
"""

from __future__ import annotations

from typing import Any

from .board import load_board
from .bots.levels import LEVEL_HELP
from .state import DETAILS, VARIANTS
from .web.wire import PLAYER_PATTERNS


def data_words() -> list[str]:
    """The names the shipped board prints, and the other words kept in data."""
    b = load_board()
    things: list[Any] = [*b.regions.values(), *b.seas.values(), *b.symbols.values(),
                         *b.cities.values(), *b.harbors.values()]
    words = [b.name, *(t.name for t in things), *b.fief_names.values()]
    words += [s.meaning for s in b.symbols.values()]
    words += [s.person for s in b.scenarios.values()]
    words += [barrier for barrier, _, _ in b.barriers]
    words += [look["name"] for look in PLAYER_PATTERNS.values()]
    words += [w for level in LEVEL_HELP.values() for w in (level.name, level.strength, level.help)]
    words += list(VARIANTS.values())
    words += list(DETAILS.values())
    return list(dict.fromkeys(words))
