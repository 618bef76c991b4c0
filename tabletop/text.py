"""Every sentence of the platform a player reads (the games have their own `text.py`).

Messages are keyed; `say(key, **fields)` fills in the named fields. The English text is the
message id of the translation catalogs (domain `tabletop`).
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # turn-based games: time per move
    "timing.live": "Live (no time limit)",
    "timing.seconds": "{n} seconds per move (testing)",
    "timing.hours": "{n} hours per move",
    "timing.hour": "1 hour per move",
    "timing.day": "1 day per move",
    "timing.days": "{n} days per move",
    "timing.misses": "{n} missed moves",
    "timing.miss": "1 missed move",
    "timing.move-label": "Time per move",
    "timing.misses-label": "A bot takes the seat for good after",
    "timing.covered": "{name} ran out of time; a bot moved for {name}.",
    "timing.replaced": "{name} missed {misses} moves; a bot plays the seat for the rest of "
                       "the game.",
    "timing.replaced-one": "{name} missed a move; a bot plays the seat for the rest of the "
                           "game.",
    "timing.seat-replaced": "a bot plays your seat for the rest of the game, after "
                            "{misses} missed moves",
    "timing.bad": "the time per move is one of the offered choices",
    "timing.bad-misses": "the missed moves before a bot takes the seat are a whole number "
                         "from 1 to {most}",
    # chat
    "chat.spectator": "spectators may read the chat but not write; open your seat's link to "
                      "write",
    "chat.empty": "a chat message holds some text",
    "chat.too-long": "a chat message has at most {most} characters",
    "chat.not-text": "a chat message is text",
    "chat.control": "a chat message cannot hold control characters",
    "chat.full": "this game's chat is full ({most} messages)",
    "chat.rate": "chat messages",
}


def say(key: str, **fields: Any) -> str:
    """The message `key` with its fields filled in."""
    return MESSAGES[key].format(**fields)
