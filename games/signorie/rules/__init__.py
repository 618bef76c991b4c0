"""Signorie's rules page: the facts its documents (`en.md`, `de.md`, `it.md`) and pictures use.

The documents are our own words for newcomers; every number in them is a `{field}` filled from
the game's tables here, and the pictures are drawn by the browser from `facts()` and the table
(`/api/signorie/table`).
"""

from __future__ import annotations

from typing import Any

from ..tables import tables
from ..text import effect_text


def fields() -> dict[str, Any]:
    """The numbers the documents name, by the field names they use."""
    t = tables()
    return {"rounds": t.rounds, "max-dice": t.max_dice, "threshold": t.threshold_base,
            "threshold-max": t.threshold_max, "florins.start": t.starting_florins,
            "reward.florins": t.reward_florins, "row.min": t.row_min,
            "bonus.rounds": t.bonus_used, "vp.rounds": t.vp_used,
            "buy.florins": t.buy_florins, "buy.vp": t.buy_vp,
            "dowry.max": t.dowry_max, "vp.dowry": t.vp_per_dowry}


def facts() -> dict[str, Any]:
    """What the pictures are drawn from besides the table: the reward tiles, in words."""
    t = tables()
    return {"bonus_tiles": [effect_text(e) for e in t.bonus_tiles],
            "vp_tiles": [effect_text(e) for e in t.vp_tiles],
            "threshold": t.threshold_base, "threshold_max": t.threshold_max, "max_dice": t.max_dice,
            "reward_florins": t.reward_florins}
