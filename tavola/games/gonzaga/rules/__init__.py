"""Gonzaga's rules page: the facts its documents (`en.md`, `de.md`, `it.md`) and pictures use.

The documents are our own words for newcomers, in the rulebooks' vocabulary of each language;
every number in them is a `{field}` filled from the rules' constants here, and every picture is
drawn by the browser from `facts()` and the board (`/api/gonzaga/board`).
"""

from __future__ import annotations

from typing import Any

from ..actions import ACTION_CARDS, ACTION_COVERAGE, PRIVILEGE, WEDDING_CARD
from ..state import (
    LAST_TURN_FIRST_CHECK,
    LAST_TURN_THRESHOLD,
    LEAGUE_SIZE,
    MAX_ROUNDS,
    OBJECTIVE_POINTS,
    POINTS_DONATION,
    POINTS_FLOURISHING,
    POINTS_GONZAGA_TILE,
    POINTS_INACTIVE,
    POINTS_SEA_LEAGUE,
    RINGS,
)
from ..text import card_name


def fields() -> dict[str, Any]:
    """The numbers the documents name, by the field names they use."""
    return {"points.flourishing": POINTS_FLOURISHING, "points.inactive": POINTS_INACTIVE,
            "points.donation": POINTS_DONATION, "points.sea-league": POINTS_SEA_LEAGUE,
            "league.size": LEAGUE_SIZE, "points.gonzaga-tile": POINTS_GONZAGA_TILE,
            "rings": RINGS, "objective.cities": len(OBJECTIVE_POINTS) - 1,
            "objective.best": OBJECTIVE_POINTS[-1], "rounds.max": MAX_ROUNDS,
            "last-turn.first": LAST_TURN_FIRST_CHECK, "last-turn.threshold": LAST_TURN_THRESHOLD}


def facts() -> dict[str, Any]:
    """What the pictures are drawn from, besides the board: the action cards' coverage (the
    allowed counts of cities and harbors), their turn order, the objective table."""
    return {"action_cards": [{"id": card, "name": card_name(None, card),
                              "allowed": sorted([c, h] for c, h in ACTION_COVERAGE[card]),
                              "wedding": card == WEDDING_CARD} for card in ACTION_CARDS],
            "privilege": card_name(None, PRIVILEGE),
            "objective_points": list(OBJECTIVE_POINTS),
            "league_size": LEAGUE_SIZE, "sea_league_points": POINTS_SEA_LEAGUE,
            "rings": RINGS}
