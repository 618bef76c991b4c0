"""Why a move is worth playing now, in words, for hints: the points it scores at once (cities,
harbors, sea leagues, the church), the cities of the player's own objective it covers, and for
a plan the most the fief can score under its cards (or, where it fits nowhere but the Alliance
card allows a Wedding, that Wedding). Only the player's view is read."""

from __future__ import annotations

from . import text
from .actions import ALLIANCE, Action, Donate, PlaceFief, Plan, Wedding
from .engine import (
    PlayerView,
    action_events,
    covered_hexes,
    objective_cities,
    placement_points,
    placement_rows,
    wedding_pairs,
)


def explain_action(v: PlayerView, action: Action) -> str:
    """The reasons, joined in one phrase ("" when there is nothing to say)."""
    if isinstance(action, Plan):
        return _plan_reason(v, action)
    parts = [text.say("why.event", points=e.points, detail=text.detail_text(e))
             for e in action_events(v, action)]
    if isinstance(action, PlaceFief | Wedding):
        parts += [text.say("why.objective", city=city) for city in _objective_gains(v, action)]
        if not parts:  # no points: where it goes tells two such moves apart
            place = next((n for n in map(v.board.place_name, covered_hexes(v, action)) if n), "")
            parts += [text.say("why.near", place=text.word(place))] if place else []
    if isinstance(action, Donate) and not parts:
        parts.append(text.say("why.nothing"))
    return ", ".join(parts)


def _plan_reason(v: PlayerView, plan: Plan) -> str:
    fief = v.players[plan.player].fief
    if fief is None:
        return ""
    rows = placement_rows(v, plan.player, fief, plan.region, plan.action)
    if not len(rows):
        wedding = plan.action == ALLIANCE and len(wedding_pairs(v, plan.player, plan.region))
        return text.say("why.plan-wedding" if wedding else "why.plan-nowhere")
    points = placement_points(v, plan.player, fief, rows)
    best = int(points.max())
    cells = v.rules.fief_placements(fief).cells[rows[int(points.argmax())]]
    where = text.where_text(v.board, [int(c) for c in cells if c >= 0])
    return text.say("why.plan-where", points=best, where=where) if where \
        else text.say("why.plan", points=best)


def _objective_gains(v: PlayerView, action: PlaceFief | Wedding) -> list[str]:
    """Names of the player's objective cities the move covers that were not covered yet."""
    me = action.player
    objective = v.players[me].objective
    if objective is None:
        return []
    covered, have = set(covered_hexes(v, action)), set(objective_cities(v, me))
    return [text.word(c.name) for c in v.board.objective_cities(objective)
            if c.hex in covered and c.id not in have]
