"""What a position, and each decision in it, is worth to a seat, in estimated final VP.

Shared by every Signorie bot: the greedy bot takes the decision worth most now, the planner
the same with plan-minded weights, and the search values the position it reached with
`final_estimates`. Everything reads only public facts (a state or a view answer alike); a
face-down tile counts its back, as nobody knows its front.

An estimate is the VP scored so far plus what the seat holds, each valued by how much it is
likely to bring before the end: career meeples (half their slot, more while a mission can still
send them for the full slot), plan rows (their tiles once a row holds 3, the chance of getting
there before), florins, meeples and helpers (less as the rounds run out), this round's
initiative VP and the round's reward while the dice sum stays under the threshold.

Decision values are computed from the position without copying it (a copy costs more than a
whole greedy decision), so a bot decides in well under a millisecond.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import (
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
from ..engine import (  # _need: what an effect costs, as the rules count it
    ACTIONS,
    INF,
    MARRIAGE_ROW,
    MARRIAGE_SLOT,
    MISSION_SLOT,
    REWARDS,
    VP_TILE,
    _need,
    assignment_need,
    criterion_count,
    die_cost,
    menu,
    plan_needs,
    threshold_of,
)
from ..state import Position
from ..tables import FEMALE, MALE, ROW_NAMES, Effect

ROWS = 4
_MISSING = object()


@dataclass(frozen=True)
class Weights:
    """The worth of what a seat holds, in VP; the planner's differ from the greedy bot's."""

    florin: float = 1.0  # a florin while rounds remain (less in the last two)
    male: float = 0.8  # a son in the available supply
    female: float = 2.0  # a daughter in the available supply (a future marriage)
    mission_hope: float = 0.45  # share of a career slot's other half a mission may still bring
    climb: float = 1.5  # a meeple on a career track, for the steps he will still climb
    row_hope: float = 0.16  # chance per round left of one more tile for a short plan row
    fill_vp: float = 2.5  # a tile still to come, on average
    helper_use: float = 0.55  # uses of a helper per round left
    order: float = 0.3  # an initiative step beyond its VP (next round's turn order)
    bride: float = 0.35  # a married man, per round left (offspring dice)
    reach: float = 0.0  # planner: a career meeple that reaches a rank a city needs
    plan_tile: float = 0.0  # planner: a needed tile in a city, per career meeple able to get it
    helper_early: float = 0.0  # planner: extra worth of a helper per round left
    slack: float = 0.0  # planner: the reward's share lost per point of slack given away


GREEDY = Weights()
PLANNER = Weights(mission_hope=0.5, row_hope=0.2, reach=0.8, plan_tile=0.5,
                  helper_early=0.15, slack=0.1)

# What one use of an effect typically brings, for helpers not yet used (per unit of amount).
TYPICAL = {"florins": 0.9, "vp": 1.0, "initiative": 1.0, "advance": 1.2, "mission": 5.0,
           "marriage": 3.5, "face_down_tile": 2.0, "offspring": 1.0, "helper": 2.5,
           "threshold": 0.3, "vp_per": 2.0}


class Ctx:
    """One seat's view of one position, with the figures every value needs computed once."""

    __slots__ = ("climb", "female", "fv", "left", "male", "memo", "mission_w", "p", "reach", "rv",
                 "seat", "sum", "t", "thr", "w")

    def __init__(self, p: Position, seat: int, w: Weights = GREEDY, memo: bool = True) -> None:
        t = p.t
        self.p, self.seat, self.w, self.t = p, seat, w, t
        # rounds of actions left, the current one counting half while it is being played
        self.left = 0.0 if p.is_over else t.rounds - p.round + (0.5 if p.phase == ACTIONS else 0)
        self.fv = w.florin * min(1.0, 0.45 + 0.2 * self.left) if self.left > 0 else 0.0
        scale = min(1.0, self.left / 2)
        self.male = w.male * scale
        self.female = w.female * scale
        self.mission_w = w.mission_hope * min(1.0, self.left / 3)
        self.climb = w.climb * min(1.0, max(0.0, self.left - 1) / 3)
        self.sum = sum(p.taken[seat])
        self.thr = threshold_of(p, seat)
        self.rv = reward_value(self) if not p.is_over else 0.0
        self.reach: dict[tuple[int, int], float] = {}  # (track, rank) -> _reach_value
        # what valuing one decision works out and the next asks again: the best use of
        # advancement points, the best mission, marriage or hire, a die's choices (None: off)
        self.memo: dict[tuple, Any] | None = {} if memo else None

    def at(self, p: Position) -> Ctx:
        """This context for another position whose `seat_facts` are the same (so every value
        it gives, remembered or not, is the one a new context would give)."""
        self.p = p
        return self

    def remembered(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """`compute()`, worked out once per context and key (the position is not changed
        while its decisions are valued)."""
        memo = self.memo
        if memo is None:
            return compute()
        found = memo.get(key, _MISSING)
        if found is _MISSING:
            found = memo[key] = compute()
        return found

    # -- holdings -----------------------------------------------------------------------------

    def career(self, slot: int) -> float:
        """A meeple on a career slot: half its VP at the end, more if a mission may send it."""
        vp = self.t.career_vp[slot]
        half = vp // self.t.career_divisor
        top = slot == len(self.t.career_vp) - 1
        return half + self.mission_w * (vp - half) + (0.0 if top else self.climb)

    def row(self, up_vp: int, count: int) -> float:
        """A plan row holding `count` tiles worth `up_vp`: all of it from 3 tiles on."""
        need = self.t.row_min - count
        if need <= 0:
            return float(up_vp)
        chance = min(1.0, self.w.row_hope * self.left / need) ** need
        return chance * (up_vp + need * self.w.fill_vp)

    def row_now(self, seat: int, r: int) -> tuple[int, int]:
        p, t = self.p, self.t
        up = p.rows[seat][r]
        return sum(t.tile_vp[x] for x in up) + p.down[seat][r] * t.back_vp, len(up) + p.down[
            seat][r]

    def row_gain(self, r: int, vp: int) -> float:
        """Worth of one more tile of `vp` on plan row `r`."""
        have, count = self.row_now(self.seat, r)
        return self.row(have + vp, count + 1) - self.row(have, count)

    def helper(self, h: int) -> float:
        """A hired helper: its typical use times the uses left."""
        value: float = self.remembered(("helper", h), lambda: self._helper(h))
        return value

    def _helper(self, h: int) -> float:
        kind, amount, _ = self.t.helper_effect[h]
        per = TYPICAL.get(kind, 1.0) * (amount or 1)
        if kind == "florins":
            per = amount * self.fv
        per *= self.t.helper_mean_times[h]
        rounds = max(0.0, self.left - 0.5)
        return per * self.w.helper_use * rounds + self.w.helper_early * rounds

    def initiative(self, seat: int, steps: int, pos: int | None = None) -> float:
        """Initiative steps from `pos` (the disc's slot by default): the VP of the slot reached
        at the end of the round, and a better turn order."""
        p, t = self.p, self.t
        if steps <= 0 or self.left <= 0:
            return 0.0
        if pos is None:
            pos = p.init_pos[seat]
        new = min(t.top_initiative, pos + steps)
        later = 1.0 if p.phase == ACTIONS else (0.8 if p.round < t.rounds else 0.0)
        return later * (t.initiative_vp[new] - t.initiative_vp[pos] + self.w.order * (new - pos))


def seat_facts(p: Position, seat: int) -> tuple[Any, ...]:
    """Every fact of a position a seat's `Ctx` reads, besides the frame asked now (`stack`),
    the VP scored and the reward queue, which the values read afresh from the position: two
    positions with the same facts give the seat the same values. `cities`, `rewards` and the
    tables are the same in every position of one game."""
    return (seat, p.round, p.phase, p.florins[seat], p.init_pos[seat], p.raised[seat],
            p.brides[seat], p.deck_left() > 0, tuple(p.avail[seat]), tuple(p.stock[seat]),
            tuple(p.taken[seat]), tuple(p.helpers[seat]), tuple(p.down[seat]),
            tuple(map(tuple, p.career[seat])), tuple(map(tuple, p.rows[seat])),
            tuple(map(tuple, p.city_meeples)), tuple(map(tuple, p.city_tiles)),
            tuple(p.assignment))


class Contexts:
    """The contexts of one game's positions, shared between positions with the same
    `seat_facts`: a search meets a seat's holdings again and again while the other seats
    move, and values them once (a bounded number kept, then forgotten at once)."""

    KEPT = 4096

    def __init__(self, w: Weights = GREEDY) -> None:
        self.w = w
        self.known: dict[tuple[Any, ...], Ctx] = {}
        self.used: list[Ctx] = []  # since the last `release`

    def of(self, p: Position, seat: int) -> Ctx:
        key = seat_facts(p, seat)
        c = self.known.get(key)
        if c is None:
            if len(self.known) >= self.KEPT:
                self.known.clear()
            c = self.known[key] = Ctx(p, seat, self.w)
        else:
            c.at(p)
        self.used.append(c)
        return c

    def release(self) -> None:
        """Let go of the positions the contexts were last used at (a search's deal of one
        iteration each, which would otherwise stay in memory with them)."""
        for c in self.used:
            c.p = _NOWHERE
        self.used.clear()


#: where a released context points: no position (any read of it fails)
_NOWHERE = Position.__new__(Position)


def reward_value(c: Ctx) -> float:
    """The round's reward for a seat that qualifies (the better of bonus and florins, the
    wedding; rounds 6-7: the tile's VP and 5 VP bought with 5 florins)."""
    p, t, seat = c.p, c.t, c.seat
    tile = p.rewards[p.round - 1] if 0 < p.round <= len(p.rewards) else None
    if tile is None:
        return 0.0
    if tile >= VP_TILE:
        _, amount, criterion = t.vp_tiles[tile - VP_TILE]
        value = float(amount * criterion_count(p, seat, criterion))
        if p.florins[seat] >= t.buy_florins:
            value += t.buy_vp - t.buy_florins * c.fv
        return value
    bonus = max(t.reward_florins * c.fv, _typical(c, t.bonus_tiles[tile]))
    wedding = 0.0
    if p.brides[seat] < len(t.bride_vp):
        wedding = (t.bride_vp[p.brides[seat]] + c.w.bride * c.left
                   + (t.wedding_florins * c.fv if p.round in t.wedding_rounds else 0))
    return bonus + wedding


def _typical(c: Ctx, eff: Effect) -> float:
    kind, amount, _ = eff
    if kind == "florins":
        return amount * c.fv
    return TYPICAL.get(kind, 1.0) * (amount or 1)


# -- the estimate of a whole position ------------------------------------------------------------


def estimate(p: Position, seat: int, w: Weights = GREEDY, c: Ctx | None = None) -> float:
    """The seat's estimated final score (exact once the game is over); `c`: the seat's
    context at `p` when one is at hand."""
    if p.is_over:
        return float(p.vp[seat])
    if c is None:
        return _estimate(p, seat, w, Ctx(p, seat, w))
    # besides the context's facts, an estimate reads the VP scored and the reward queue
    queued = p.phase == REWARDS and seat in p.queue
    return c.remembered(("estimate", p.vp[seat], queued), lambda: _estimate(p, seat, w, c))


def _estimate(p: Position, seat: int, w: Weights, c: Ctx) -> float:
    t = c.t
    total = float(p.vp[seat])
    for ti, track in enumerate(p.career[seat]):
        for slot, n in enumerate(track):
            if n:
                # the planner's worth of a rank that a city's mission asks for (0 for greedy)
                total += n * (c.career(slot) + _reach_value(c, ti, slot))
    for r in range(ROWS):
        have, count = c.row_now(seat, r)
        total += c.row(have, count)
    total += p.florins[seat] * c.fv
    total += p.avail[seat][MALE] * c.male + p.avail[seat][FEMALE] * c.female
    for h, hired in enumerate(p.helpers[seat]):
        if hired:
            total += c.helper(h)
    total += (p.brides[seat] - 1) * w.bride * max(0.0, c.left - 1)
    if p.phase == ACTIONS:
        total += t.initiative_vp[p.init_pos[seat]]
        if c.sum <= c.thr:
            total += c.rv
    elif p.phase == REWARDS and seat in p.queue:
        total += c.rv
    return total


def final_estimates(p: Position, w: Weights = GREEDY,
                    contexts: Contexts | None = None) -> list[float]:
    if contexts is None or p.is_over:
        return [estimate(p, seat, w) for seat in range(p.n)]
    return [estimate(p, seat, w, contexts.of(p, seat)) for seat in range(p.n)]


def advance_value(c: Ctx, points: int, spent_males: int = 0, must: int = 1) -> float:
    """The best use of `points` advancement points, one at a time (at least `must` used:
    one per execution of the effect)."""
    return c.remembered(("advance", points, spent_males, must),
                        lambda: _advance_value(c, points, spent_males, must))


def _advance_value(c: Ctx, points: int, spent_males: int, must: int) -> float:
    p, t, seat = c.p, c.t, c.seat
    career = [track[:] for track in p.career[seat]]
    males = p.avail[seat][MALE] - spent_males
    pos = p.init_pos[seat]
    total = 0.0
    for k in range(points):
        best: float = -float(INF)
        move: tuple[str, int, int] | None = None
        if pos < t.top_initiative:
            best, move = c.initiative(seat, 1, pos), ("i", 0, 0)
        for i, track in enumerate(career):
            if males > 0:
                v = c.career(0) - c.male + _reach_value(c, i, 0) + _bonus(c, 0)
                if v > best:
                    best, move = v, ("n", i, 0)
            for slot in range(len(track) - 1):
                if track[slot]:
                    v = (c.career(slot + 1) - c.career(slot) + _bonus(c, slot + 1)
                         + _reach_value(c, i, slot + 1) - _reach_value(c, i, slot))
                    if v > best:
                        best, move = v, ("u", i, slot)
        if move is None or (k >= must and best <= 0):
            break
        total += best
        kind, i, slot = move
        if kind == "i":
            pos += 1
        elif kind == "n":
            males -= 1
            career[i][0] += 1
        else:
            career[i][slot] -= 1
            career[i][slot + 1] += 1
    return total


def _bonus(c: Ctx, slot: int) -> float:
    bonus = c.t.career_bonus[slot]
    if bonus is None:
        return 0.0
    kind, amount, _ = bonus
    if kind == "florins":
        return amount * c.fv
    if kind == "initiative":
        return c.initiative(c.seat, amount)
    return _typical(c, bonus)


def _reach_value(c: Ctx, track: int, slot: int) -> float:
    """Planner: a meeple on `slot` of `track` can go on a mission, the more so where a city
    offers a tile that track's plan row needs."""
    if not c.w.reach:
        return 0.0
    p, t = c.p, c.t
    rank = t.career_rank[slot]
    key = (track, rank)
    cached = c.reach.get(key)
    if cached is not None:
        return cached
    value = 0.0
    for city in p.cities:
        if _lowest(p, city) <= rank:
            value = max(value, c.w.reach * rank / 4)
            tile = p.city_tiles[city][MISSION_SLOT]
            if tile >= 0 and plan_needs(p, c.seat, track, tile):
                value = max(value, c.w.reach * rank / 4 + c.w.plan_tile * t.tile_vp[tile])
    c.reach[key] = value
    return value


def _lowest(p: Position, city: int) -> int:
    slots = p.t.city_slots[city]
    filled = len(p.city_meeples[city])
    return slots[filled] if filled < len(slots) else INF


def mission_value(c: Ctx, a: Mission) -> float:
    p, t, seat = c.p, c.t, c.seat
    ti, city = t.tracks.index(a.track), t.city_names.index(a.city)
    value = t.career_vp[a.slot] - c.career(a.slot)
    tile = p.city_tiles[city][MISSION_SLOT]
    if tile >= 0 and plan_needs(p, seat, ti, tile):
        value += c.row_gain(ti, t.tile_vp[tile])
    return value


def best_mission(c: Ctx) -> float:
    return c.remembered(("mission",), lambda: _best_mission(c))


def _best_mission(c: Ctx) -> float:
    p, t, seat = c.p, c.t, c.seat
    best: float = -float(INF)
    for ti, track in enumerate(p.career[seat]):
        for slot, n in enumerate(track):
            if not n:
                continue
            rank = t.career_rank[slot]
            base = t.career_vp[slot] - c.career(slot)
            for city in p.cities:
                if _lowest(p, city) <= rank:
                    v = base
                    tile = p.city_tiles[city][MISSION_SLOT]
                    if tile >= 0 and plan_needs(p, seat, ti, tile):
                        v += c.row_gain(ti, t.tile_vp[tile])
                    best = max(best, v)
    return best


def marriage_value(c: Ctx, city: int, dowry: int) -> float:
    p, t, seat = c.p, c.t, c.seat
    value = dowry * (t.vp_per_dowry - c.fv) - c.female
    tile = p.city_tiles[city][MARRIAGE_SLOT]
    if tile >= 0 and plan_needs(p, seat, MARRIAGE_ROW, tile):
        value += c.row_gain(MARRIAGE_ROW, t.tile_vp[tile])
    return value


def best_marriage(c: Ctx, florins: int) -> float:
    return c.remembered(("marriage", florins), lambda: _best_marriage(c, florins))


def _best_marriage(c: Ctx, florins: int) -> float:
    p, t = c.p, c.t
    most = min(t.dowry_max, florins)
    best: float = -float(INF)
    for city in p.cities:
        low = _lowest(p, city)
        if low <= most:
            # a florin is worth less than the 2 VP a dowry florin scores, so pay the most
            best = max(best, marriage_value(c, city, most))
    return best


def face_down_value(c: Ctx) -> float:
    return max(c.row_gain(r, c.t.back_vp) for r in range(ROWS))


def best_hire(c: Ctx, florins: int | None = None, column: int | None = None) -> float:
    return c.remembered(("hire", florins, column), lambda: _best_hire(c, florins, column))


def _best_hire(c: Ctx, florins: int | None, column: int | None) -> float:
    t = c.t
    hired = c.p.helpers[c.seat]
    best: float = -float(INF)
    for h, done in enumerate(hired):
        if done or (column is not None and t.helper_column[h] != column):
            continue
        cost = t.helper_cost[h] if florins is not None else 0
        if florins is not None and cost > florins:
            continue
        best = max(best, c.helper(h) - cost * c.fv)
    return best


def offspring_value(c: Ctx, dice: int) -> float:
    stock = c.p.stock[c.seat]
    males = min(stock[MALE], dice / 2)
    females = min(stock[FEMALE], dice / 2)
    return males * c.male + females * c.female


def effect_value(c: Ctx, eff: Effect, times: int = 1, sex: int = -1, spent: int = 0,
                 florins: int | None = None, new_sum: int | None = None) -> float:
    """What performing an effect now brings (its best choice where it asks for one)."""
    kind, amount, criterion = eff
    p, seat = c.p, c.seat
    if florins is None:
        florins = p.florins[seat]
    if kind == "florins":
        return amount * times * c.fv
    if kind == "vp":
        return float(amount * times)
    if kind == "initiative":
        return c.initiative(seat, amount * times)
    if kind == "advance":
        return advance_value(c, amount * times, spent if sex == MALE else 0, times)
    if kind == "mission":
        return best_mission(c)
    if kind == "marriage":
        return best_marriage(c, florins)
    if kind == "face_down_tile":
        return face_down_value(c) if p.deck_left() else 0.0
    if kind == "helper":
        return max(0.0, best_hire(c))
    if kind == "offspring":
        return offspring_value(c, amount * times if amount else p.brides[seat])
    if kind == "vp_per":
        return float(amount * criterion_count(p, seat, criterion))
    if kind == "threshold":
        return threshold_value(c, amount * times, c.sum if new_sum is None else new_sum)
    return 0.0


def threshold_value(c: Ctx, raise_by: int, dice_sum: int) -> float:
    """A raised threshold: the reward saved when the dice are over, else room for more dice."""
    if dice_sum > c.thr:
        return c.rv if dice_sum <= min(c.t.threshold_max, c.thr + raise_by) else 0.0
    return 0.08 * c.rv * min(raise_by, c.t.threshold_max - c.thr) / 3


# -- the worth of each decision ------------------------------------------------------------------


def choice_values(c: Ctx, colour: int, florins: int, new_sum: int) -> list[tuple[ChooseAction,
                                                                                  float]]:
    """Each action of a die of `colour`, valued, with the florins left after paying for it."""
    # the dice sum counts only where an action raises the threshold: dice of one colour
    # that cost the same then share their choices
    key = ("choices", colour, florins, new_sum if _raises_threshold(c, colour) else None)
    return c.remembered(key, lambda: _choice_values(c, colour, florins, new_sum))


def _raises_threshold(c: Ctx, colour: int) -> bool:
    t = c.t
    return t.signoria[colour][0] == "threshold" or any(
        t.tile_effect[c.p.assignment[slot]][0] == "threshold"
        for slot in t.colour_assignment_slots[colour])


def _choice_values(c: Ctx, colour: int, florins: int, new_sum: int
                   ) -> list[tuple[ChooseAction, float]]:
    p, t, seat = c.p, c.t, c.seat
    m = menu(t)  # the engine's own action objects
    out: list[tuple[ChooseAction, float]] = []
    sig = t.signoria[colour]
    if _need(p, seat, sig) <= florins:
        out.append((m.signoria[seat],
                    effect_value(c, sig, florins=florins, new_sum=new_sum)))
    for slot in t.colour_assignment_slots[colour]:
        sex = t.assignment_slots[slot][1]
        tile = p.assignment[slot]
        eff = t.tile_effect[tile]
        most = min(3 if t.tile_repeat[tile] else 1, p.avail[seat][sex])
        meeple = c.male if sex == MALE else c.female
        for k in range(1, most + 1):
            if assignment_need(p, seat, tile, sex, k) <= florins:
                v = effect_value(c, eff, k, sex, k, florins, new_sum) - k * meeple
                out.append((m.assign[seat][sex][k], v))
    hired = p.helpers[seat]
    for h in t.column_helpers[t.ring[colour]]:
        if not hired[h] and t.helper_cost[h] <= florins:
            out.append((m.hire_slot[seat][h],
                        c.helper(h) - t.helper_cost[h] * c.fv))
    return out


def column_value(c: Ctx, colour: int, die: int) -> float:
    """The hired helpers of the column of a die of `die` pips, each used when it helps."""
    t = c.t
    hired = c.p.helpers[c.seat]
    total = 0.0
    for h in t.column_helpers[colour]:
        if hired[h]:
            total += max(0.0, effect_value(c, t.helper_effect[h], t.helper_times(h, die)))
    return total


def take_die_value(c: Ctx, colour: int, value: int) -> float:
    """A die: its best action and helpers, less its cost and the reward it may forfeit."""
    return c.remembered(("take", colour, value), lambda: _take_die_value(c, colour, value))


def _take_die_value(c: Ctx, colour: int, value: int) -> float:
    p, t, seat = c.p, c.t, c.seat
    cost = die_cost(p, colour, value)
    florins = p.florins[seat] - cost
    new_sum = c.sum + value
    choices = choice_values(c, colour, florins, new_sum)
    best = max((v for _, v in choices), default=-INF)
    total = best + column_value(c, colour, value) - cost * c.fv
    if c.sum <= c.thr < new_sum:
        total -= c.rv
    elif c.w.slack and new_sum <= c.thr:
        # room left for more dice this round; a planner keeps some
        dice_left = t.max_dice - 1 - sum(1 for v in p.taken[seat] if v)
        room = c.thr - new_sum - 2 * dice_left
        if room < 0:
            total -= c.w.slack * c.rv * min(4, -room)
    return total


def action_value(c: Ctx, a: object) -> float:
    """The worth of one decision for the seat of `c`, in estimated final VP."""
    p, t, seat = c.p, c.t, c.seat
    if isinstance(a, TakeDie):
        return take_die_value(c, t.colours.index(a.colour), a.value)
    if isinstance(a, Pass):
        return 0.0
    if isinstance(a, ChooseAction):
        return _choice_value(c, p.stack[-1][2], p.florins[seat], a)
    if isinstance(a, Activate):
        times = t.helper_times(a.helper, p.taken[seat][p.stack[-1][2]])
        return effect_value(c, t.helper_effect[a.helper], times) if a.use else 0.0
    if isinstance(a, Advance):
        return _advance_point(c, a)
    if isinstance(a, Mission):
        return mission_value(c, a)
    if isinstance(a, Marry):
        return marriage_value(c, t.city_names.index(a.city), a.dowry)
    if isinstance(a, FaceDown):
        return c.row_gain(ROWS_INDEX[a.row], t.back_vp)
    if isinstance(a, Hire):
        return c.helper(a.helper)
    if isinstance(a, Reward):
        if a.choice == "florins":
            return t.reward_florins * c.fv
        return effect_value(c, t.bonus_tiles[p.rewards[p.round - 1]])
    if isinstance(a, Wedding):
        if not a.accept:
            return 0.0
        florins = t.wedding_florins if p.round in t.wedding_rounds else 0
        return t.bride_vp[p.brides[seat]] + florins * c.fv + c.w.bride * max(0.0, c.left - 1)
    if isinstance(a, BuyVp):
        return t.buy_vp - t.buy_florins * c.fv if a.accept else 0.0
    return 0.0


def _choice_value(c: Ctx, colour: int, florins: int, a: ChooseAction) -> float:
    """The value `choice_values` gives `a` (its first entry), -INF if it offers none."""
    if c.memo is None:
        for act, v in choice_values(c, colour, florins, c.sum):
            if act == a:
                return v
        return -INF
    values = c.remembered(("choice", colour, florins), lambda: _first_values(
        choice_values(c, colour, florins, c.sum)))
    return values.get(a, -INF)


def _first_values(choices: list[tuple[ChooseAction, float]]) -> dict[ChooseAction, float]:
    out: dict[ChooseAction, float] = {}
    for act, v in choices:
        out.setdefault(act, v)
    return out


def _advance_point(c: Ctx, a: Advance) -> float:
    t, seat = c.t, c.seat
    if a.move == "stop":
        return 0.0
    if a.move == "initiative":
        return c.initiative(seat, 1)
    i = t.tracks.index(a.track)
    if a.move == "new":
        return c.career(0) - c.male + _bonus(c, 0) + _reach_value(c, i, 0)
    return (c.career(a.slot + 1) - c.career(a.slot) + _bonus(c, a.slot + 1)
            + _reach_value(c, i, a.slot + 1) - _reach_value(c, i, a.slot))


ROWS_INDEX = {name: i for i, name in enumerate(ROW_NAMES)}


def ranked(p: Position, seat: int, legal: list, w: Weights = GREEDY,
           contexts: Contexts | None = None) -> list[tuple[object, float]]:
    """The legal decisions with their values, best first (stable among equals)."""
    c = contexts.of(p, seat) if contexts is not None else Ctx(p, seat, w)
    values = [(a, action_value(c, a)) for a in legal]
    values.sort(key=lambda av: -av[1])
    return values


def best_action(p: Any, seat: int, legal: Sequence[Any], weights: Weights,
                rng: random.Random | None = None, contexts: Contexts | None = None) -> Any:
    """The legal action of highest value; ties go to a random one of them (or the first)."""
    if len(legal) == 1:
        return legal[0]
    if contexts is None:
        return _best(Ctx(p, seat, weights), legal, rng)
    c = contexts.of(p, seat)
    if rng is not None:
        return _best(c, legal, rng)
    # the values read the frame asked now besides the context's facts
    return c.remembered(("best", tuple(p.stack[-1]), tuple(legal)), lambda: _best(c, legal))


def _best(c: Ctx, legal: Sequence[Any], rng: random.Random | None = None) -> Any:
    best: list[Any] = []
    top = -float("inf")
    for a in legal:
        v = action_value(c, a)
        if v > top + 1e-9:
            top, best = v, [a]
        elif v > top - 1e-9:
            best.append(a)
    if rng is None or len(best) == 1:
        return best[0]
    return best[rng.randrange(len(best))]
