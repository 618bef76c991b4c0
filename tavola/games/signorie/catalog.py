"""The words players read that live in data beside the text layer, for the message catalogs
(`tavola i18n extract` calls `data_words`, the kit's `words`): the bot levels' names,
strengths and ways of playing (`bots/levels.py`). The bots import the text layer, so this
sits above both and nothing of the game imports it.
"""

from __future__ import annotations

from .bots.levels import LEVEL_HELP
from .edition import field_words


def data_words() -> list[str]:
    """The bot levels' words and the component editor's labels, each once."""
    return list(dict.fromkeys([*(w for level in LEVEL_HELP.values() for w in level.words()),
                               *field_words()]))
