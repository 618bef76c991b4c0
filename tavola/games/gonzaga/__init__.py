"""Gonzaga: a rules engine for the board game of fiefs, rings and sea leagues (daVinci, 2009).

    >>> from tavola.games import gonzaga
    >>> state = gonzaga.new_game(["Ann", "Bob", "Cy"], seed=7)
    >>> plans = gonzaga.legal_actions(state, 0)
    >>> state = gonzaga.apply(state, plans[0])
"""

from __future__ import annotations

import pkgutil
from typing import Any

from tavola.compiling import prefer_source

prefer_source(__name__, __path__[0])  # not a module compiled from another source

_WHERE = {  # each name by its module, imported when first asked for
    "ACTION_CARDS": "actions",
    "ALLIANCE": "actions",
    "Action": "actions",
    "Board": "board",
    "BoardError": "board",
    "CITIES": "actions",
    "Donate": "actions",
    "GameState": "state",
    "HARBORS": "actions",
    "INACTIVE": "actions",
    "IllegalAction": "actions",
    "LegalActions": "engine",
    "PRIVILEGE": "actions",
    "Phase": "state",
    "PlaceFief": "actions",
    "Plan": "actions",
    "PlayerView": "engine",
    "Reason": "state",
    "ScoreEvent": "state",
    "Setup": "state",
    "VARIANTS": "state",
    "Wedding": "actions",
    "action_events": "engine",
    "action_from_json": "actions",
    "action_to_json": "actions",
    "apply": "engine",
    "apply_in_place": "engine",
    "clone": "engine",
    "deal": "engine",
    "legal_actions": "engine",
    "load_board": "board",
    "new_game": "engine",
    "placement_points": "engine",
    "resample": "engine",
    "view": "engine",
}


def __getattr__(name: str) -> Any:
    """A name of the rules engine, from its module (imported now: the package imports none
    of them, so declaring the game, `kit.py`, stays cheap)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return pkgutil.resolve_name(f"{__name__}.{module}:{name}")


__all__ = [
    "ACTION_CARDS",
    "ALLIANCE",
    "CITIES",
    "HARBORS",
    "INACTIVE",
    "PRIVILEGE",
    "VARIANTS",
    "Action",
    "Board",
    "BoardError",
    "Donate",
    "GameState",
    "IllegalAction",
    "LegalActions",
    "Phase",
    "PlaceFief",
    "Plan",
    "PlayerView",
    "Reason",
    "ScoreEvent",
    "Setup",
    "Wedding",
    "action_events",
    "action_from_json",
    "action_to_json",
    "apply",
    "apply_in_place",
    "clone",
    "deal",
    "legal_actions",
    "load_board",
    "new_game",
    "placement_points",
    "resample",
    "view",
]
