"""Gonzaga: a rules engine for the board game of fiefs, rings and sea leagues (daVinci, 2009).

    >>> import gonzaga
    >>> state = gonzaga.new_game(["Ann", "Bob", "Cy"], seed=7)
    >>> plans = gonzaga.legal_actions(state, 0)
    >>> state = gonzaga.apply(state, plans[0])
"""

from .actions import (
    ACTION_CARDS,
    ALLIANCE,
    CITIES,
    HARBORS,
    INACTIVE,
    PRIVILEGE,
    Action,
    Donate,
    IllegalAction,
    PlaceFief,
    Plan,
    Wedding,
    action_from_json,
    action_to_json,
)
from .board import Board, BoardError, load_board
from .engine import (
    LegalActions,
    PlayerView,
    action_events,
    apply,
    apply_in_place,
    clone,
    deal,
    legal_actions,
    new_game,
    placement_points,
    resample,
    view,
)
from .state import VARIANTS, GameState, Phase, Reason, ScoreEvent, Setup

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
