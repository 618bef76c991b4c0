"""Why an action is refused: the rule it breaks, in the game's words.

Only reached when an action is not among the legal ones, so speed does not matter here.
"""

from __future__ import annotations

from typing import Any

from tavola.game import IllegalAction

from . import engine as e
from . import text as words
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

#: The actions that answer each frame's question (worded by `text.question`).
ASKS = {
    "turn": (TakeDie, Pass), "choose": (ChooseAction,), "helpers": (Activate,),
    "advance": (Advance,), "mission": (Mission,), "marriage": (Marry,),
    "face_down": (FaceDown,), "hire": (Hire,), "reward": (Reward,), "wedding": (Wedding,),
    "buy": (BuyVp,),
}
say = words.say


def explain(s: SignorieState, a: Any) -> IllegalAction:
    if s.is_over:
        return IllegalAction("game over", say("refuse.over"))
    if type(a) not in e.HANDLERS:
        return IllegalAction("unknown action", say("refuse.unknown", action=repr(a)))
    f = s.stack[-1]
    mover = f[1]
    if a.seat != mover:
        return IllegalAction("turn order", say("refuse.turn", name=s.names[mover], seat=a.seat))
    if not isinstance(a, ASKS[f[0]]):
        return IllegalAction("sequence", words.question(f[0], s.names[mover]))
    reason = _REASONS.get(type(a), _generic)(s, a, f)
    return reason or IllegalAction("not possible", say("refuse.not-open"))


def _generic(s: SignorieState, a: Any, f: list) -> IllegalAction | None:
    return None


def _take_die(s: SignorieState, a: TakeDie, f: list) -> IllegalAction | None:
    t = s.t
    if a.colour not in t.colours:
        return IllegalAction("die colour", say("refuse.die-colour", colour=a.colour))
    c = t.colours.index(a.colour)
    if sum(1 for v in s.taken[a.seat] if v) >= t.max_dice:
        return IllegalAction("four dice", say("refuse.four-dice", n=t.max_dice))
    colour = words.colour_name(a.colour)
    if s.taken[a.seat][c]:
        return IllegalAction("one die per colour", say("refuse.slot-full", colour=colour))
    if a.value not in s.dice[c]:
        return IllegalAction("no such die", say("refuse.no-die", colour=colour, value=a.value))
    cost = e.die_cost(s, c, a.value)
    if cost > s.florins[a.seat]:
        return IllegalAction("florins", words.plural("refuse.die-cost", cost,
                                                     have=s.florins[a.seat]))
    return IllegalAction("perform completely", say("refuse.die-useless", colour=colour))


def _choose(s: SignorieState, a: ChooseAction, f: list) -> IllegalAction | None:
    t = s.t
    c = f[2]
    if a.kind == "helper":
        if not 0 <= a.helper < len(t.helper_cost) or t.helper_column[a.helper] != t.ring[c]:
            return IllegalAction("helper ring", say(
                "refuse.helper-ring", colour=words.colour_name(t.colours[c]),
                ring=words.colour_name(t.colours[t.ring[c]])))
        if s.helpers[a.seat][a.helper]:
            return IllegalAction("helper slot taken", say("why.helper-filled"))
        return IllegalAction("florins", say("refuse.helper-cost", n=t.helper_cost[a.helper]))
    if a.kind == "assignment":
        if a.sex not in SEXES:
            return IllegalAction("assignment sex", say("refuse.sex"))
        slot = next(i for i in t.colour_assignment_slots[c]
                    if t.assignment_slots[i][1] == SEXES.index(a.sex))
        tile = s.assignment[slot]
        most = 3 if t.tile_repeat[tile] else 1
        if not 1 <= a.meeples <= most:
            return IllegalAction("assignment meeples", say("refuse.meeples-most", n=most)
                                 if most > 1 else say("refuse.meeples-one"))
        if s.avail[a.seat][SEXES.index(a.sex)] < a.meeples:
            return IllegalAction("assignment meeples", words.not_in_supply(a.meeples, a.sex))
    return IllegalAction("perform completely", say("refuse.incomplete"))


def _mission(s: SignorieState, a: Mission, f: list) -> IllegalAction | None:
    t = s.t
    if a.track not in t.tracks or a.city not in t.city_names:
        return IllegalAction("mission", say("refuse.mission-unknown"))
    city = t.city_names.index(a.city)
    name = words.city_name(a.city)
    if city not in s.cities:
        return IllegalAction("city", say("refuse.city-absent", city=name))
    if not 0 <= a.slot < len(t.career_vp) or not s.career[a.seat][t.tracks.index(a.track)][a.slot]:
        return IllegalAction("mission meeple", say("refuse.mission-meeple",
                                                   track=words.track_name(a.track)))
    low = e._lowest_empty(s, city)
    if low >= e.INF:
        return IllegalAction("city full", say("refuse.city-full", city=name))
    return IllegalAction("mission rank", say("refuse.mission-rank", city=name, rank=low,
                                             has=t.career_rank[a.slot]))


def _marry(s: SignorieState, a: Marry, f: list) -> IllegalAction | None:
    t = s.t
    if a.city not in t.city_names or t.city_names.index(a.city) not in s.cities:
        return IllegalAction("city", say("refuse.city-absent", city=a.city))
    name = words.city_name(a.city)
    low = e._lowest_empty(s, t.city_names.index(a.city))
    if low >= e.INF:
        return IllegalAction("city full", say("refuse.city-full", city=name))
    if not low <= a.dowry <= t.dowry_max:
        return IllegalAction("dowry", say("refuse.dowry", city=name, low=low, high=t.dowry_max))
    if a.dowry > s.florins[a.seat]:
        return IllegalAction("florins", words.plural("refuse.florins", s.florins[a.seat]))
    return IllegalAction("marriage meeple", say("why.no-female"))


def _advance(s: SignorieState, a: Advance, f: list) -> IllegalAction | None:
    if a.move == "stop":
        return IllegalAction("advancement", say("refuse.advance-stop"))
    if a in e.advance_moves(s, f):
        return IllegalAction("advancement", words.plural("refuse.advance-owed", f[4]))
    return IllegalAction("advancement", say("refuse.advance-nothing"))


_REASONS = {TakeDie: _take_die, ChooseAction: _choose, Mission: _mission, Marry: _marry,
            Advance: _advance}


def effect_refusal(p: Position, seat: int, eff: Effect, sex: int = -1, spent: int = 0,
                   florins: int | None = None, times: int = 1) -> str:
    """Why an effect could not be performed completely now (empty: it could), in words.

    Used to say why a choice of a die is closed before the player takes the die."""
    kind = eff[0]
    have = p.florins[seat] if florins is None else florins
    need = e._need(p, seat, eff, sex, spent, times)
    if need <= have:
        return ""
    if kind == "advance" and times > 1 and e._need(p, seat, eff, sex, spent) == 0:
        return words.plural("why.advance-points", times)
    if kind in ("advance", "mission", "face_down_tile", "helper"):
        return say(f"why.{kind}")
    if kind == "marriage":
        if need >= e.INF and p.avail[seat][FEMALE] - (spent if sex == FEMALE else 0) < 1:
            return say("why.no-female")
        if need >= e.INF:
            return say("why.no-city")
        return words.plural("why.dowry", need, left=have)
    return words.plural("why.florins", need, left=have)
