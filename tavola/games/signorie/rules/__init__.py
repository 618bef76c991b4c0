"""Signorie's rules page: the facts its documents (`en.md`, `de.md`, `it.md`) and pictures use.

The documents are our own words for newcomers; every number in them is a `{field}` filled from
the game's tables here, and the pictures are drawn by the browser from `facts()` and the table
(`/api/signorie/table`).
"""

from __future__ import annotations

from typing import Any

from ..tables import Tables, tables
from ..text import colour_title, effect_text, say


def fields() -> dict[str, Any]:
    """The facts the documents name, by the field names they use (words in the language of
    the moment)."""
    t = tables()
    return {"rounds": t.rounds, "max-dice": t.max_dice, "threshold": t.threshold_base,
            "threshold-max": t.threshold_max, "florins.start": t.starting_florins,
            "reward.florins": t.reward_florins, "row.min": t.row_min,
            "bonus.rounds": t.bonus_used, "vp.rounds": t.vp_used,
            "buy.florins": t.buy_florins, "buy.vp": t.buy_vp,
            "dowry.max": t.dowry_max, "vp.dowry": t.vp_per_dowry,
            "offspring.female-max": t.offspring_female_max,
            "offspring.male-min": t.offspring_female_max + 1,
            "assignment.tiles": len(t.tile_name), "assignment.slots": len(t.assignment_slots),
            **_by_place(t), **_ring(t)}


def _by_place(t: Tables) -> dict[str, int]:
    """The florins of each place in the first turn order (drawn by lot): the same start for
    all, and more the later one plays."""
    return {f"florins.{i + 1}": t.starting_florins + extra
            for i, extra in enumerate(t.extra_florins)}


def _ring(t: Tables) -> dict[str, str]:
    """For each die colour, the helper column it hires into: another colour's."""
    return {f"ring.{c}": say("rules.ring", colour=colour_title(c),
                             column=colour_title(t.colours[t.ring[i]]))
            for i, c in enumerate(t.colours)}


def facts() -> dict[str, Any]:
    """What the pictures are drawn from besides the table: the reward tiles, in words."""
    t = tables()
    return {"bonus_tiles": [effect_text(e) for e in t.bonus_tiles],
            "vp_tiles": [effect_text(e) for e in t.vp_tiles],
            "threshold": t.threshold_base, "threshold_max": t.threshold_max, "max_dice": t.max_dice,
            "reward_florins": t.reward_florins}
