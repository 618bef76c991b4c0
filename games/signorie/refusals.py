"""Why an action is refused: the rule it breaks, in the game's words.

Only reached when an action is not among the legal ones, so speed does not matter here.
"""

from __future__ import annotations

from typing import Any

from tabletop.game import IllegalAction

from . import engine as e
from .actions import (
    Activate,
    Advance,
    BuyVp,
    ChooseAction,
    FaceDown,
    Hire,
    Marry,
    Mission,
    Pass,
    Reward,
    TakeDie,
    Wedding,
)
from .state import Position, SignorieState
from .tables import FEMALE, SEXES, Effect

#: The question each frame asks, and the actions that answer it.
ASKS = {
    "turn": ((TakeDie, Pass), "to take a die or pass"),
    "choose": ((ChooseAction,), "to choose the action of the die just placed"),
    "helpers": ((Activate,), "whether to activate a helper"),
    "advance": ((Advance,), "to use an advancement point"),
    "mission": ((Mission,), "to choose a Diplomatic Mission"),
    "marriage": ((Marry,), "to arrange a Marriage"),
    "face_down": ((FaceDown,), "to choose the row of a face-down alliance tile"),
    "hire": ((Hire,), "to choose the helper slot of a free helper"),
    "reward": ((Reward,), "to choose the bonus or the florins"),
    "wedding": ((Wedding,), "whether to arrange a wedding"),
    "buy": ((BuyVp,), "whether to buy 5 VP for 5 florins"),
}


def explain(s: SignorieState, a: Any) -> IllegalAction:
    if s.is_over:
        return IllegalAction("game over", "the game is over")
    if type(a) not in e.HANDLERS:
        return IllegalAction("unknown action", f"{a!r} is not a Signorie action")
    f = s.stack[-1]
    mover = f[1]
    if a.seat != mover:
        return IllegalAction("turn order", f"it is {s.names[mover]}'s move, not seat {a.seat}'s")
    types, question = ASKS[f[0]]
    if not isinstance(a, types):
        return IllegalAction("sequence", f"{s.names[mover]} is asked {question}")
    reason = _REASONS.get(type(a), _generic)(s, a, f)
    return reason or IllegalAction("not possible", f"{question}: this choice is not open now")


def _generic(s: SignorieState, a: Any, f: list) -> IllegalAction | None:
    return None


def _take_die(s: SignorieState, a: TakeDie, f: list) -> IllegalAction | None:
    t = s.t
    if a.colour not in t.colours:
        return IllegalAction("die colour", f"there are no {a.colour} dice")
    c = t.colours.index(a.colour)
    if sum(1 for v in s.taken[a.seat] if v) >= t.max_dice:
        return IllegalAction("four dice", f"at most {t.max_dice} dice a round; now pass")
    if s.taken[a.seat][c]:
        return IllegalAction("one die per colour", f"the {a.colour} action slot already holds "
                             "a die this round")
    if a.value not in s.dice[c]:
        return IllegalAction("no such die", f"no {a.colour} die showing {a.value} is left")
    cost = e.die_cost(s, c, a.value)
    if cost > s.florins[a.seat]:
        return IllegalAction("florins", f"the die costs {cost} florins, {s.names[a.seat]} has "
                             f"{s.florins[a.seat]}")
    return IllegalAction("perform completely", f"no action of the {a.colour} slot could be "
                         "performed completely after paying for this die")


def _choose(s: SignorieState, a: ChooseAction, f: list) -> IllegalAction | None:
    t = s.t
    c = f[2]
    if a.kind == "helper":
        if not 0 <= a.helper < len(t.helper_cost) or t.helper_column[a.helper] != t.ring[c]:
            return IllegalAction("helper ring", f"the {t.colours[c]} slot hires into a "
                                 f"{t.colours[t.ring[c]]} helper slot")
        if s.helpers[a.seat][a.helper]:
            return IllegalAction("helper slot taken", "that helper slot is already filled")
        return IllegalAction("florins", f"the helper costs {t.helper_cost[a.helper]} florins")
    if a.kind == "assignment":
        if a.sex not in SEXES:
            return IllegalAction("assignment sex", "choose the male or the female slot")
        slot = next(i for i in t.colour_assignment_slots[c]
                    if t.assignment_slots[i][1] == SEXES.index(a.sex))
        tile = s.assignment[slot]
        most = 3 if t.tile_repeat[tile] else 1
        if not 1 <= a.meeples <= most:
            return IllegalAction("assignment meeples", f"this assignment takes 1 to {most} "
                                 "meeples" if most > 1 else "this assignment takes 1 meeple")
        if s.avail[a.seat][SEXES.index(a.sex)] < a.meeples:
            return IllegalAction("assignment meeples", f"not {a.meeples} {a.sex} meeples in "
                                 "the available supply")
    return IllegalAction("perform completely", "that action could not be performed completely")


def _mission(s: SignorieState, a: Mission, f: list) -> IllegalAction | None:
    t = s.t
    if a.track not in t.tracks or a.city not in t.city_names:
        return IllegalAction("mission", "unknown career track or city")
    city = t.city_names.index(a.city)
    if city not in s.cities:
        return IllegalAction("city", f"{a.city} is not in this game")
    if not 0 <= a.slot < len(t.career_vp) or not s.career[a.seat][t.tracks.index(a.track)][a.slot]:
        return IllegalAction("mission meeple", f"no male meeple on that slot of the {a.track} "
                             "track")
    low = e._lowest_empty(s, city)
    if low >= e.INF:
        return IllegalAction("city full", f"{a.city} has no empty slot")
    return IllegalAction("mission rank", f"the lowest empty slot of {a.city} needs rank {low}, "
                         f"that meeple has rank {t.career_rank[a.slot]}")


def _marry(s: SignorieState, a: Marry, f: list) -> IllegalAction | None:
    t = s.t
    if a.city not in t.city_names or t.city_names.index(a.city) not in s.cities:
        return IllegalAction("city", f"{a.city} is not in this game")
    low = e._lowest_empty(s, t.city_names.index(a.city))
    if low >= e.INF:
        return IllegalAction("city full", f"{a.city} has no empty slot")
    if not low <= a.dowry <= t.dowry_max:
        return IllegalAction("dowry", f"the dowry in {a.city} is {low} to {t.dowry_max} florins")
    if a.dowry > s.florins[a.seat]:
        return IllegalAction("florins", f"{s.names[a.seat]} has {s.florins[a.seat]} florins")
    return IllegalAction("marriage meeple", "no female meeple in the available supply")


def _advance(s: SignorieState, a: Advance, f: list) -> IllegalAction | None:
    if a.move == "stop":
        return IllegalAction("advancement", "at least one advancement point must be used")
    return IllegalAction("advancement", "that advancement point moves nothing")


_REASONS = {TakeDie: _take_die, ChooseAction: _choose, Mission: _mission, Marry: _marry,
            Advance: _advance}


def effect_refusal(p: Position, seat: int, eff: Effect, sex: int = -1, spent: int = 0,
                   florins: int | None = None) -> str:
    """Why an effect could not be performed completely now (empty: it could), in words.

    Used to say why a choice of a die is closed before the player takes the die."""
    kind = eff[0]
    have = p.florins[seat] if florins is None else florins
    need = e._need(p, seat, eff, sex, spent)
    if need <= have:
        return ""
    if kind == "advance":
        return "no meeple, track or disc left to move"
    if kind == "mission":
        return "no male meeple on a career track holds the rank of an empty city slot"
    if kind == "marriage":
        if need >= e.INF and p.avail[seat][FEMALE] - (spent if sex == FEMALE else 0) < 1:
            return "no female meeple in the available supply"
        if need >= e.INF:
            return "no city has an empty slot a dowry can pay for"
        return f"the lowest dowry is {need} florins, {have} would be left"
    if kind == "face_down_tile":
        return "the alliance stack is empty"
    if kind == "helper":
        return "every helper slot is filled"
    return f"needs {need} florins, {have} would be left"
