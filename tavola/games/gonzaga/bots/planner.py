"""A heuristic bot that plans beyond this turn's points.

Where `greedy` counts the points a placement scores now, `planner` also weighs what it builds
towards: cities of its hidden objective (valued by the objective table, exactly), harbors that
bring a sea league within reach, pieces that join its largest group (the Gonzaga tile), and the
rings it spends (a ring kept is a future King's Privilege or Wedding). See `evaluation`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..actions import ALLIANCE, Action, Donate, Plan
from ..engine import LegalActions, PlayerView, legal_actions, placement_arrays, wedding_pairs
from ..state import POINTS_DONATION, Position
from .base import PlanOrPlaceBot
from .evaluation import DEFAULT_WEIGHTS, MoveContext, Weights, worthwhile_weddings

PRIVILEGE_MIN_VALUE = 10.0  # only a prize this large is worth jumping the queue for
ALLIANCE_KEEP = 0.5  # the Alliance card is the flexible one; keep it when another card will do


class PlannerBot(PlanOrPlaceBot):
    name = "planner"

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.weights = weights

    def place(self, view: PlayerView, me: int, legal: Sequence[Action]) -> Action:
        return best_turn(view, me, legal, view.players[me].objective, self.weights)[0]

    def plan(self, view: PlayerView, me: int, plans: list[Plan]) -> Plan:
        values = plan_values(view, me, plans, view.players[me].objective, self.weights)
        best = max(range(len(plans)),
                   key=lambda i: (values[i] + self.rng.random() * 0.01))
        return plans[best]


def best_turn(state: PlayerView, player: int, legal: Sequence[Action], objective: int | None,
              weights: Weights = DEFAULT_WEIGHTS) -> tuple[Action, float]:
    """The best-valued placement, Wedding or donation among `legal` (a `LegalActions`)."""
    ranked = ranked_turns(state, player, legal, objective, weights, limit=1)
    return ranked[0]


def ranked_turns(state: PlayerView, player: int, legal: Sequence[Action], objective: int | None,
                 weights: Weights = DEFAULT_WEIGHTS, limit: int = 8,
                 weddings: int = 2) -> list[tuple[Action, float]]:
    """Up to `limit` placements and `weddings` Weddings by value, and the donation, best first."""
    if not isinstance(legal, LegalActions):
        legal = legal_actions(state, player)
    return turn_values(state, player, legal, objective, weights, bool(weddings)).ranked(
        limit, weddings)


@dataclass(frozen=True, slots=True)
class TurnValues:
    """One player's turn, valued: entry i of `placements` is `legal.placement(i)`'s value;
    `weddings` are the Weddings worth valuing (indices into `legal.wedding_pairs`) and
    `wedding_values` theirs. Search ranks one set of values for its options and its rollout."""

    legal: LegalActions
    player: int
    placements: np.ndarray
    weddings: np.ndarray
    wedding_values: np.ndarray

    def ranked(self, limit: int = 8, weddings: int = 2) -> list[tuple[Action, float]]:
        """`ranked_turns`: the donation, the best `limit` placements and `weddings` Weddings."""
        legal = self.legal
        out: list[tuple[Action, float]] = [(Donate(self.player), float(POINTS_DONATION))]
        values = self.placements
        if len(values):
            top = np.argsort(-values, kind="stable")[:limit]
            out += [(legal.placement(int(i)), float(values[i])) for i in top]
        values = self.wedding_values
        if weddings and len(values):
            top = np.argsort(-values, kind="stable")[:weddings]
            out += [(legal.wedding(int(self.weddings[i])), float(values[i])) for i in top]
        out.sort(key=lambda t: t[1], reverse=True)
        return out[: max(limit, 1) + weddings + 1]


#: The values and indices of a turn without placements or Weddings (read-only, shared).
NO_VALUES = np.zeros(0, dtype=np.float64)
NO_INDICES = np.zeros(0, dtype=np.int64)
NO_VALUES.setflags(write=False)
NO_INDICES.setflags(write=False)


def turn_values(state: Position, player: int, legal: LegalActions, objective: int | None,
                weights: Weights = DEFAULT_WEIGHTS, weddings: bool = True) -> TurnValues:
    """The placements of `legal` valued, and its Weddings worth valuing (when `weddings`)."""
    ctx = MoveContext(state, player, objective, weights)
    arrays = legal.placement_arrays()
    placements = ctx.arrays_values(arrays) if arrays is not None else NO_VALUES
    kept, values = NO_INDICES, NO_VALUES
    if weddings and len(legal.wedding_pairs):
        kept = worthwhile_weddings(state, legal.wedding_pairs, objective)
        values = ctx.wedding_values(legal.wedding_pairs[kept])
    return TurnValues(legal, player, placements, kept, values)


def plan_values(state: Position, player: int, plans: Sequence[Plan], objective: int | None,
                weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Worth of each plan: the best turn it allows with this round's fief, less its costs."""
    p = state.players[player]
    fief = p.fief
    assert fief is not None
    ctx = MoveContext(state, player, objective, weights)
    ring = ctx.ring_worth
    cache: dict[tuple[str, str], float] = {}
    out = []
    for plan in plans:
        key = (plan.region, plan.action)
        best = cache.get(key)
        if best is None:
            best = float(POINTS_DONATION)
            arrays = placement_arrays(state, player, fief, plan.region, plan.action)
            if len(arrays):
                best = max(best, float(ctx.arrays_values(arrays).max()))
            if plan.action == ALLIANCE:
                pairs = wedding_pairs(state, player, plan.region)
                pairs = pairs[worthwhile_weddings(state, pairs, objective)]
                if len(pairs):
                    best = max(best, float(ctx.wedding_values(pairs).max()))
            cache[key] = best
        value = best
        if plan.action == ALLIANCE:
            value -= ALLIANCE_KEEP
        if plan.privilege:
            value -= ring
            if best < PRIVILEGE_MIN_VALUE or p.rings < 2:
                value -= 100.0  # never worth a ring for a small prize
            else:
                value += 0.15 * best  # moving first keeps a valuable spot from the others
        out.append(value)
    return out
