"""A bot that takes the best immediate points, with sensible planning.

Planning picks the region and action cards under which this round's fief scores most right now
(weighing a small bonus for its hidden objective cities and for touching its own pieces, so its
group grows towards the Gonzaga tile); it spends a ring on the King's Privilege only when the
prize is large and rings are plentiful. Placing picks the best-valued legal action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ..actions import ALLIANCE, Action, Donate, PlaceFief, Plan, Wedding
from ..engine import (
    LegalActions,
    PlacementArrays,
    PlayerView,
    action_events,
    placement_arrays,
)
from ..state import POINTS_DONATION
from .base import PlanOrPlaceBot

OBJECTIVE_CITY_BONUS = 4.0
CONTACT_BONUS = 1.0
RING_COST = 4.0
PRIVILEGE_MIN_GAIN = 9.0
PRIVILEGE_MIN_RINGS = 3


class GreedyBot(PlanOrPlaceBot):
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # -- valuation ----------------------------------------------------------------------------

    def _bonus_arrays(self, view: PlayerView, me: int) -> tuple[np.ndarray, np.ndarray]:
        board = view.board
        objective = np.zeros(board.hex_count, dtype=np.float32)
        mine = view.players[me].objective
        if mine is not None:
            for city in board.objective_cities(mine):
                if view.fief_owner[city.hex] != me and view.ring_owner[city.hex] != me:
                    objective[city.hex] = OBJECTIVE_CITY_BONUS
        own = (view.fief_owner == me) | (view.ring_owner == me)
        contact = np.zeros(board.hex_count, dtype=bool)
        table = view.rules.neighbour_table
        nb = table[np.flatnonzero(own)]
        contact[nb[nb >= 0]] = True
        contact &= ~own
        return objective, contact.astype(np.float32) * CONTACT_BONUS

    def _placement_values(self, arrays: PlacementArrays,
                          bonus: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        if not len(arrays):
            return np.zeros(0, dtype=np.float32)
        objective, contact = bonus
        cells = arrays.cells
        value = arrays.points.astype(np.float32)
        value += objective[cells].sum(axis=1)
        value += np.minimum(contact[cells].sum(axis=1), 1.0 * CONTACT_BONUS)
        return value

    def _wedding_values(self, view: PlayerView, pairs: np.ndarray,
                        bonus: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        if not len(pairs):
            return np.zeros(0, dtype=np.float32)
        objective, _ = bonus
        pts = view.rules.hex_points.astype(np.float32) + objective
        first, second = pairs[:, 0], pairs[:, 1]
        value = pts[first] - RING_COST
        value += np.where(second >= 0, pts[np.where(second >= 0, second, 0)] - RING_COST, 0.0)
        return value

    # -- decisions ----------------------------------------------------------------------------

    def plan(self, view: PlayerView, me: int, plans: list[Plan]) -> Plan:
        fief = view.players[me].fief
        assert fief is not None
        rings = view.players[me].rings
        bonus = self._bonus_arrays(view, me)
        best_by_cards: dict[tuple[str, str], float] = {}
        for plan in plans:
            key = (plan.region, plan.action)
            if key in best_by_cards:
                continue
            arrays = placement_arrays(view, me, fief, plan.region, plan.action)
            values = self._placement_values(arrays, bonus)
            best = float(values.max()) if len(values) else float(POINTS_DONATION)
            best_by_cards[key] = max(best, float(POINTS_DONATION))
        scored = []
        for plan in plans:
            value = best_by_cards[(plan.region, plan.action)]
            if plan.privilege:
                if value < PRIVILEGE_MIN_GAIN or rings < PRIVILEGE_MIN_RINGS:
                    continue
                value += 1.5  # moving first protects a contested spot
            # Prefer leaving the Alliance card free: it is the only one that allows a Wedding.
            if plan.action == ALLIANCE:
                value -= 0.25
            scored.append((value + self.rng.random() * 0.01, plan))
        scored.sort(key=lambda t: t[0], reverse=True)
        return scored[0][1]

    def place(self, view: PlayerView, me: int, legal: Sequence[Action]) -> Action:
        best_value = float(POINTS_DONATION) - 0.5  # a donation only if nothing better
        best: Action = Donate(me)
        bonus = self._bonus_arrays(view, me)
        if isinstance(legal, LegalActions):
            arrays = legal.placement_arrays()
            if arrays is not None:
                values = self._placement_values(arrays, bonus)
                i = int(np.argmax(values))
                if values[i] > best_value:
                    best_value = float(values[i])
                    best = legal.placement(i)
            if len(legal.wedding_pairs):
                values = self._wedding_values(view, legal.wedding_pairs, bonus)
                i = int(np.argmax(values))
                if values[i] > best_value:
                    best = legal.wedding(i)
            return best
        for action in legal:  # a plain list: value each action
            if isinstance(action, PlaceFief | Wedding):
                value = sum(e.points for e in action_events(view, action))
                if value > best_value:
                    best_value, best = value, action
        return best
