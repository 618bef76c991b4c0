"""The rules of Signorie: setup, the three phases of a round, end scoring.

Decisions wait on a stack of frames (`state.stack`): the top frame is the question asked now,
and `settle` answers by itself every question that has no choice (a forced pass, a helper that
cannot act, a finished Tracks action) and keeps `state.legal`, the actions of the seat on top.
`apply_in_place` accepts only an action of that list, so an illegal action changes nothing.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tavola.chance import shuffle
from tavola.editions import content_hash
from tavola.game import IllegalAction, LogEntry

from .actions import (
    Action,
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
from .state import (
    ACTIONS,
    OVER,
    REWARDS,
    SCORE_SOURCES,
    Position,
    SignorieState,
    SignorieView,
    copy_public,
    empty_state,
)
from .tables import (
    FEMALE,
    MALE,
    ROW_NAMES,
    SEXES,
    Effect,
    Tables,
    tables,
    tables_for,
)

INF = 1 << 30
#: The options of a game: the component data it is played on, and that data's content hash.
OPTIONS = ("components", "components_hash")
VP_TILE = 100  # rewards[r] >= VP_TILE: the VP tile rewards[r] - VP_TILE
MARRIAGE_SLOT, MISSION_SLOT = 0, 1
MARRIAGE_ROW = 3
#: bits of a seed drawn when none is chosen: every draw of the game (the deal, and the dice and
#: shuffles of later rounds) follows from it, so it is too large to search (a 63-bit seed could
#: be searched from the first round's public draws)
SEED_BITS = 256

_CACHE: dict[tuple, Any] = {}


def _act(cls: type, *args: Any) -> Any:
    """One shared object per distinct action: cheap lists, fast `in` checks."""
    key = (cls, args)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = cls(*args)
    return a


class Menu:
    """The shared action objects of the frequent decisions of one set of tables, by index
    (seat, colour, die value...): listing options reads them instead of looking each up."""

    def __init__(self, t: Tables) -> None:
        seats, helpers = range(4), range(len(t.helper_cost))
        self.take = [[[_act(TakeDie, p, colour, v) for v in range(7)] for colour in t.colours]
                     for p in seats]
        self.pass_ = [_act(Pass, p) for p in seats]
        self.signoria = [_act(ChooseAction, p, "signoria") for p in seats]
        self.assign = [[[_act(ChooseAction, p, "assignment", sex, k) for k in range(4)]
                        for sex in SEXES] for p in seats]
        self.hire_slot = [[_act(ChooseAction, p, "helper", "", 0, h) for h in helpers]
                          for p in seats]
        self.new = [[_act(Advance, p, "new", track) for track in t.tracks] for p in seats]
        self.up = [[[_act(Advance, p, "up", track, slot) for slot in range(len(t.career_vp))]
                    for track in t.tracks] for p in seats]
        self.initiative = [_act(Advance, p, "initiative") for p in seats]
        self.stop = [_act(Advance, p, "stop") for p in seats]
        self.activate = [[[_act(Activate, p, h, True), _act(Activate, p, h, False)]
                          for h in helpers] for p in seats]


_MENUS: dict[int, tuple[Tables, Menu]] = {}


def menu(t: Tables) -> Menu:
    """The menu of the tables `t`, made once (kept with them, so their id stays theirs)."""
    found = _MENUS.get(id(t))
    if found is None:
        if len(_MENUS) >= 64:
            _MENUS.clear()
        found = _MENUS[id(t)] = (t, Menu(t))
    return found[1]


def _log(s: Position, kind: str, seat: int | None, **data: Any) -> None:
    # the entry made as `LogEntry(kind, seat, data)` makes it, without the named tuple's
    # `__new__` (Python, even where this module is compiled): 4 to 7% of a random game
    s.log.append(tuple.__new__(LogEntry, (kind, seat, data)))


def _score(s: Position, seat: int, points: int, source: str, detail: str) -> None:
    if points:
        s.vp[seat] += points
        s.events.append((seat, points, source, detail))
        _log(s, "score", seat, points=points, source=source, detail=detail)


# -- setup -------------------------------------------------------------------------------------


def new_game(names: Sequence[str], seed: int | None = None,
             options: Mapping[str, Any] | None = None) -> SignorieState:
    """Setup for 2-4 players: starting order, florins, cities, alliance stack, reward tiles.
    `options` may hold "components": component data to play on (the shipped file's by
    default), with "components_hash" its content hash when a record gives it."""
    t, kept = game_tables(options or {})
    names = tuple(str(n) for n in names)
    if not 2 <= len(names) <= 4:
        raise ValueError(f"Signorie is for 2 to 4 players, not {len(names)}")
    if seed is None:  # from the operating system, kept secret in the state: records replay
        seed = secrets.randbits(SEED_BITS)
    s = empty_state(names, t)
    s.options = kept
    n = len(names)
    s.seed = seed
    s.rng = rng = random.Random(seed)
    order = list(range(n))
    shuffle(order, rng)
    s.order = order
    for position, seat in enumerate(order):
        s.florins[seat] += t.extra_florins[position]
    for seat in reversed(order):  # the 1st player's disc on top of the stack
        s.stamp += 1
        s.init_stamp[seat] = s.stamp
    s.cities = sorted(rng.sample(range(len(t.city_names)), t.cities_used[n]))
    _deal_alliances(s, rng)
    bonus = rng.sample(range(len(t.bonus_tiles)), t.bonus_used)
    vp = rng.sample(range(len(t.vp_tiles)), t.vp_used)
    s.rewards = bonus + [VP_TILE + i for i in vp]
    s.chance += [("order", tuple(order)), ("cities", tuple(s.cities)),
                 ("rewards", tuple(s.rewards))]
    _log(s, "setup", None, order=order, cities=[t.city_names[c] for c in s.cities],
         rewards=s.rewards[:], florins=s.florins[:], removed=len(s.removed))
    _start_round(s)
    settle(s)
    return s


def game_tables(options: Mapping[str, Any]) -> tuple[Tables, dict[str, Any]]:
    """The tables a game's options play on, and the options a record keeps: none on the
    shipped components, else the data with its content hash. ValueError names what is wrong:
    an unknown option, unplayable data, data that does not match the hash given with it."""
    unknown = sorted(map(str, set(options) - set(OPTIONS)))
    if unknown:
        raise ValueError(f"Signorie has no option {', '.join(unknown)} (its options: "
                         f"{', '.join(OPTIONS)})")
    if "components" not in options:
        if "components_hash" in options:
            raise ValueError("components_hash is given without the components it is the hash of")
        return tables(), {}
    data = options["components"]
    given = options.get("components_hash")
    if given is not None and given != _hash_of(data):
        raise ValueError("the component data does not match its hash (components_hash): it was "
                         "changed after the game was recorded")
    t = tables_for(data)
    if not t.edition:
        return t, {}
    return t, {"components": data, "components_hash": t.edition}


def _hash_of(data: Any) -> str | None:
    try:
        return content_hash(data)
    except (TypeError, ValueError):  # not JSON: tables_for names it
        return None


def _deal_alliances(s: SignorieState, rng: random.Random) -> None:
    """Remove tiles per house at random (2-3 players), shuffle the rest into the stack."""
    t = s.t
    k = t.removed_per_house[s.n]
    for house in range(len(t.houses)):
        tiles = [i for i, h in enumerate(t.tile_house) if h == house]
        s.removed += rng.sample(tiles, k)
    gone = set(s.removed)
    s.deck = [i for i in range(len(t.tile_house)) if i not in gone]
    shuffle(s.deck, rng)


def _start_round(s: SignorieState) -> None:
    """Phase 1: refill the cities' alliance slots, roll the action dice, lay the assignments."""
    t, rng = s.t, s.rng
    s.round += 1
    s.phase, s.cursor, s.passed = ACTIONS, -1, [False] * s.n
    for city in s.cities:
        for slot in (MARRIAGE_SLOT, MISSION_SLOT):
            if s.city_tiles[city][slot] < 0 and s.deck:
                tile = s.deck.pop()
                s.city_tiles[city][slot] = tile
                s.chance.append(("tile", s.round, city, slot, tile))
    per = t.dice_per_colour[s.n]
    s.dice = [sorted(int(rng.random() * 6) + 1 for _ in range(per)) for _ in t.colours]
    shuffle(s.assignment, rng)
    s.chance.append(("dice", s.round, tuple(tuple(d) for d in s.dice)))
    s.chance.append(("assignments", s.round, tuple(s.assignment)))
    _log(s, "round", None, round=s.round, dice={t.colours[c]: d[:] for c, d in enumerate(s.dice)},
         cities={t.city_names[c]: s.city_tiles[c][:] for c in s.cities},
         assignments=s.assignment[:], order=s.order[:])


# -- what can be done: feasibility of effects ---------------------------------------------------


def _moves(s: Position, seat: int, males_spent: int = 0) -> bool:
    """Can an advancement point move anything (a new meeple, a meeple, the initiative disc)?"""
    if s.avail[seat][MALE] > males_spent or s.init_pos[seat] < s.t.top_initiative:
        return True
    return any(any(track[:-1]) for track in s.career[seat])


def _points(s: Position, seat: int, males_spent: int = 0) -> int:
    """How many advancement points can be spent one after another: each male of the supply
    enters a track and climbs it, each career meeple climbs to the top, and the disc climbs
    first (so that no 6th-slot initiative step takes a point's place)."""
    top = len(s.t.career_vp) - 1
    n = (s.avail[seat][MALE] - males_spent) * (top + 1) + s.t.top_initiative - s.init_pos[seat]
    for track in s.career[seat]:
        if any(track):
            n += sum(count * (top - slot) for slot, count in enumerate(track))
    return n


def _lost(s: Position, seat: int, a: Advance) -> int:
    """Points a move takes beyond its own: the initiative steps of a career bonus it reaches."""
    if a.move == "initiative":
        return 0
    bonus = s.t.career_bonus[a.slot + 1 if a.move == "up" else 0]
    if bonus is None or bonus[0] != "initiative":
        return 0
    return min(bonus[1], s.t.top_initiative - s.init_pos[seat])


def _best_rank(s: Position, seat: int) -> int:
    rank = s.t.career_rank
    best = 0
    for track in s.career[seat]:
        if not any(track):
            continue
        for slot in range(len(track) - 1, -1, -1):
            if track[slot]:
                if rank[slot] > best:
                    best = rank[slot]
                break
    return best


def _lowest_empty(s: Position, city: int) -> int:
    """The value of the city's lowest empty slot (INF when full)."""
    slots = s.t.city_slots[city]
    filled = len(s.city_meeples[city])
    return slots[filled] if filled < len(slots) else INF


def _mission_ok(s: Position, seat: int) -> bool:
    """Has some city an empty slot the seat's best career rank reaches?"""
    best = _best_rank(s, seat)
    if not best:
        return False
    city_slots, meeples = s.t.city_slots, s.city_meeples
    for c in s.cities:
        slots, filled = city_slots[c], len(meeples[c])
        if filled < len(slots) and slots[filled] <= best:
            return True
    return False


def _min_dowry(s: Position) -> int:
    low = INF
    city_slots, meeples = s.t.city_slots, s.city_meeples
    for c in s.cities:
        slots, filled = city_slots[c], len(meeples[c])
        if filled < len(slots) and slots[filled] < low:
            low = slots[filled]
    return low if low <= s.t.dowry_max else INF


#: The kinds of effect that may need florins or be impossible (any other is always possible).
_NEEDY = frozenset(("advance", "mission", "marriage", "face_down_tile", "helper"))


def _need(s: Position, seat: int, eff: Effect, sex: int = -1, spent: int = 0,
          times: int = 1) -> int:
    """Florins an effect needs to be performed completely `times` times (INF: impossible),
    after `spent` meeples of `sex` have left the supply. Each advancement effect spends at
    least one point, so `times` of them need `times` points that can be spent in a row."""
    kind = eff[0]
    if kind not in _NEEDY:
        return 0
    if kind == "advance":
        males = spent if sex == MALE else 0
        if times == 1:
            return 0 if _moves(s, seat, males) else INF
        return 0 if _points(s, seat, males) >= times else INF
    if kind == "mission":
        return 0 if _mission_ok(s, seat) else INF
    if kind == "marriage":
        if s.avail[seat][FEMALE] - (spent if sex == FEMALE else 0) < 1:
            return INF
        return _min_dowry(s)
    if kind == "face_down_tile":
        return 0 if s.deck_left() > 0 else INF
    if kind == "helper":
        return 0 if not all(s.helpers[seat]) else INF
    return 0


def assignment_need(s: Position, seat: int, tile: int, sex: int, k: int) -> int:
    """Florins the tile needs with `k` meeples spent: its bonus is performed once per meeple
    (a `1` tile takes exactly one)."""
    return _need(s, seat, s.t.tile_effect[tile], sex, k, k)


def _colour_need(s: Position, seat: int, c: int) -> int:
    """The fewest florins, after paying for the die, with which some action of colour c can be
    performed completely."""
    t = s.t
    need = _need(s, seat, t.signoria[c])
    if not need:
        return 0
    avail = s.avail[seat]
    for slot in t.colour_assignment_slots[c]:
        sex = t.assignment_slots[slot][1]
        if need and avail[sex]:
            need = min(need, assignment_need(s, seat, s.assignment[slot], sex, 1))
    if need:
        hired = s.helpers[seat]
        costs = t.helper_cost
        for h in t.column_helpers[t.ring[c]]:
            if not hired[h] and costs[h] < need:
                need = costs[h]
    return need


def die_cost(s: Position, colour: int, value: int) -> int:
    return max(0, s.t.cost[colour] - value)


# -- the options of each frame ------------------------------------------------------------------


def _turn_options(s: Position, seat: int) -> list:
    t = s.t
    taken = s.taken[seat]
    if len(taken) - taken.count(0) >= t.max_dice:
        return []
    out = []
    florins = s.florins[seat]
    m = menu(t)
    take = m.take[seat]
    cost = t.cost
    for c, values in enumerate(s.dice):
        # no die of the colour is open when even its cheapest costs more than the florins
        if taken[c] or not values or cost[c] - max(values) > florins:
            continue
        spare = florins - _colour_need(s, seat, c)  # for the die: max(0, cost - v) <= spare
        if spare < 0:
            continue
        lowest = cost[c] - spare
        dice = take[c]
        last = 0
        for v in values:
            if v != last and v >= lowest:
                out.append(dice[v])
            last = v
    if out:
        out.append(m.pass_[seat])
    return out


def _choose_options(s: Position, seat: int, c: int) -> list:
    t = s.t
    florins = s.florins[seat]
    m = menu(t)
    out = []
    if _need(s, seat, t.signoria[c]) <= florins:
        out.append(m.signoria[seat])
    avail = s.avail[seat]
    for slot in t.colour_assignment_slots[c]:
        sex = t.assignment_slots[slot][1]
        tile = s.assignment[slot]
        most = min(3 if t.tile_repeat[tile] else 1, avail[sex])
        for k in range(1, most + 1):
            if assignment_need(s, seat, tile, sex, k) <= florins:
                out.append(m.assign[seat][sex][k])
    hired = s.helpers[seat]
    for h in t.column_helpers[t.ring[c]]:
        if not hired[h] and t.helper_cost[h] <= florins:
            out.append(m.hire_slot[seat][h])
    return out


def _advance_options(s: Position, f: list) -> list:
    """The moves of one advancement point; while later executions of a repeated effect still
    owe points (`f[4]`), only moves after which they can all be spent."""
    out = advance_moves(s, f)
    owed = f[4]
    if owed:
        seat = f[1]
        after = _points(s, seat) - 1
        out = [a for a in out if a.move == "stop" or after - _lost(s, seat, a) >= owed]
    return out


def advance_left(f: list) -> int:
    """The points still to come: those left in the frame `f` and those of the `f[4]`
    executions after it, each as many as this one had (left + used)."""
    return f[2] + f[4] * (f[2] + f[3])


def advance_moves(s: Position, f: list) -> list:
    """Every move of one advancement point that moves something (and `stop` after one)."""
    t, seat = s.t, f[1]
    m = menu(t)
    out: list = []
    if s.avail[seat][MALE]:
        out += m.new[seat]
    up = m.up[seat]
    for i, track in enumerate(s.career[seat]):
        for slot in range(len(track) - 1):
            if track[slot]:
                out.append(up[i][slot])
    if s.init_pos[seat] < t.top_initiative:
        out.append(m.initiative[seat])
    if out and f[3]:
        out.append(m.stop[seat])
    return out


def _mission_options(s: Position, seat: int) -> list:
    t = s.t
    out = []
    for i, track in enumerate(s.career[seat]):
        for slot, count in enumerate(track):
            if count:
                rank = t.career_rank[slot]
                out += [_act(Mission, seat, t.tracks[i], slot, t.city_names[c])
                        for c in s.cities if _lowest_empty(s, c) <= rank]
    return out


def _marriage_options(s: Position, seat: int) -> list:
    t = s.t
    if not s.avail[seat][FEMALE]:
        return []
    most = min(t.dowry_max, s.florins[seat])
    out = []
    for c in s.cities:
        low = _lowest_empty(s, c)
        out += [_act(Marry, seat, t.city_names[c], d) for d in range(low, most + 1)]
    return out


def _helper_options(s: Position, f: list) -> list:
    """The next helper of the column that can act, in printed order (skipping the rest): one
    hired before the die was placed (`f[4]`), as a helper hired by this die's action (a free
    helper can join the die's column) has no immediate effect; and not a helper that scales
    with the die when the die is too low to give anything."""
    t, seat = s.t, f[1]
    column = t.column_helpers[f[2]]
    ready = f[4]
    if not ready:
        return []
    die = s.taken[seat][f[2]]
    for i in range(f[3], len(column)):
        h = column[i]
        if (h in ready and t.helper_times(h, die)
                and _need(s, seat, t.helper_effect[h]) <= s.florins[seat]):
            f[3] = i
            return menu(t).activate[seat][h][:]
    return []


def _face_down_options(s: Position, f: list) -> list:
    return [_act(FaceDown, f[1], row) for row in ROW_NAMES] if s.deck_left() else []


def _hire_options(s: Position, f: list) -> list:
    seat = f[1]
    return [_act(Hire, seat, h) for h, hired in enumerate(s.helpers[seat]) if not hired]


def _reward_options(s: Position, f: list) -> list:
    seat = f[1]
    bonus = s.t.bonus_tiles[s.rewards[s.round - 1]]
    if _need(s, seat, bonus) > s.florins[seat]:
        return []
    return [_act(Reward, seat, "bonus"), _act(Reward, seat, "florins")]


def _wedding_options(s: Position, f: list) -> list:
    seat = f[1]
    if s.brides[seat] >= len(s.t.bride_vp):
        return []
    return [_act(Wedding, seat, True), _act(Wedding, seat, False)]


def _buy_options(s: Position, f: list) -> list:
    seat = f[1]
    if s.florins[seat] < s.t.buy_florins:
        return []
    return [_act(BuyVp, seat, True), _act(BuyVp, seat, False)]


#: The options of each kind of frame.
OPTIONS_OF: dict[str, Any] = {
    "turn": lambda s, f: _turn_options(s, f[1]),
    "choose": lambda s, f: _choose_options(s, f[1], f[2]),
    "helpers": _helper_options,
    "advance": lambda s, f: _advance_options(s, f) if f[2] > 0 else [],
    "mission": lambda s, f: _mission_options(s, f[1]),
    "marriage": lambda s, f: _marriage_options(s, f[1]),
    "face_down": _face_down_options,
    "hire": _hire_options,
    "reward": _reward_options,
    "wedding": _wedding_options,
    "buy": _buy_options,
}


def _options(s: Position, f: list) -> list:
    options = OPTIONS_OF.get(f[0])
    if options is None:
        raise AssertionError(f"unknown frame {f[0]}")
    result: list = options(s, f)
    return result


# -- settling: answer forced questions, move the game on ---------------------------------------


def settle(s: SignorieState) -> None:
    """Resolve every question without a choice; leave `s.legal` for the next real one.

    Also the way to bring a state changed by hand (tests) back in order."""
    while True:
        if not s.stack:
            _flow(s)
            if s.phase == OVER:
                s.legal = []
                return
            continue
        f = s.stack[-1]
        options = OPTIONS_OF[f[0]](s, f) if f[0] in OPTIONS_OF else _options(s, f)
        if options:
            s.legal = options
            return
        s.stack.pop()
        if f[0] == "turn":
            _pass(s, f[1], forced=True)
        elif f[0] == "reward":
            _reward_florins(s, f[1], forced=True)


def _flow(s: SignorieState) -> None:
    """The stack is empty: the next turn, the next reward, the next round or the end."""
    if s.phase == ACTIONS:
        for k in range(1, s.n + 1):
            i = (s.cursor + k) % s.n
            if not s.passed[s.order[i]]:
                s.cursor = i
                s.stack.append(["turn", s.order[i]])
                return
        _begin_rewards(s)
    elif s.queue:
        _start_reward(s, s.queue.pop(0))
    else:
        _end_round(s)


def _pass(s: SignorieState, seat: int, forced: bool = False) -> None:
    s.passed[seat] = True
    _log(s, "pass", seat, forced=forced)


# -- effects ------------------------------------------------------------------------------------


def _resolve(s: SignorieState, seat: int, eff: Effect, times: int, origin: str) -> None:
    """Perform an effect `times` times (a `..3` assignment); choices become frames."""
    kind, amount, criterion = eff
    if kind == "florins":
        s.florins[seat] += amount * times
        _log(s, "florins", seat, florins=amount * times, origin=origin)
    elif kind == "vp":
        _score(s, seat, amount * times, origin, "bonus")
    elif kind == "initiative":
        _initiative(s, seat, amount * times)
    elif kind == "advance":  # one frame per execution, the first on top; each owes a point
        for later in range(times):
            s.stack.append(["advance", seat, amount, 0, later])
    elif kind in ("mission", "marriage"):
        s.stack.append([kind, seat])
    elif kind == "face_down_tile":
        s.stack.append(["face_down", seat])
    elif kind == "helper":
        s.stack.append(["hire", seat])
    elif kind == "offspring":
        _offspring(s, seat, amount * times if amount else s.brides[seat])
    elif kind == "vp_per":
        _score(s, seat, amount * criterion_count(s, seat, criterion), origin, criterion)
    # threshold: the meeples already wait on the threshold space (see _assignment)


def _initiative(s: Position, seat: int, steps: int) -> None:
    """Up the Initiative track (stopping at the top), onto the top of any stack there."""
    new = min(s.t.top_initiative, s.init_pos[seat] + steps)
    if new != s.init_pos[seat]:
        s.init_pos[seat] = new
        s.stamp += 1
        s.init_stamp[seat] = s.stamp
        _log(s, "initiative", seat, slot=new)


def _offspring(s: SignorieState, seat: int, dice: int) -> None:
    rolls = tuple(int(s.rng.random() * 6) + 1 for _ in range(dice))
    s.chance.append(("offspring", seat, rolls))
    got = [0, 0]
    for r in rolls:
        sex = FEMALE if r <= s.t.offspring_female_max else MALE
        if s.stock[seat][sex]:
            s.stock[seat][sex] -= 1
            s.avail[seat][sex] += 1
            got[sex] += 1
    _log(s, "offspring", seat, rolls=list(rolls), male=got[MALE], female=got[FEMALE])


def criterion_count(s: Position, seat: int, criterion: str) -> int:
    """What a rounds 6-7 reward tile counts for a seat."""
    if criterion == "helper":
        return sum(s.helpers[seat])
    if criterion == "city":
        return sum(1 for c in s.cities if any(m[0] == seat for m in s.city_meeples[c]))
    if criterion == "career_meeple":
        return sum(sum(track) for track in s.career[seat])
    if criterion == "scoring_row":
        return sum(1 for r in range(4) if row_tiles(s, seat, r) >= s.t.row_min)
    if criterion == "married_man":
        return s.brides[seat]
    if criterion == "face_up_tile":
        return sum(len(r) for r in s.rows[seat])
    raise AssertionError(criterion)


def row_tiles(s: Position, seat: int, row: int) -> int:
    return len(s.rows[seat][row]) + s.down[seat][row]


def plan_needs(s: Position, seat: int, row: int, tile: int) -> bool:
    """Does the plan row still show an empty shield of the tile's house?"""
    t = s.t
    house = t.tile_house[tile]
    have = sum(1 for x in s.rows[seat][row] if t.tile_house[x] == house)
    return have < t.plan[seat][row][house]


def _reach(s: SignorieState, seat: int, slot: int) -> None:
    bonus = s.t.career_bonus[slot]
    if bonus is not None:
        _resolve(s, seat, bonus, 1, "career")


# -- the handlers of each action ----------------------------------------------------------------


def _take_die(s: SignorieState, a: TakeDie) -> None:
    s.stack.pop()
    c = s.t.colours.index(a.colour)
    s.dice[c].remove(a.value)
    s.taken[a.seat][c] = a.value
    cost = die_cost(s, c, a.value)
    s.florins[a.seat] -= cost
    _log(s, "take_die", a.seat, colour=a.colour, value=a.value, cost=cost)
    s.stack.append(["choose", a.seat, c])


def _choose(s: SignorieState, a: ChooseAction) -> None:
    t, seat = s.t, a.seat
    c = s.stack.pop()[2]
    hired = s.helpers[seat]
    s.stack.append(["helpers", seat, c, 0, tuple(h for h in t.column_helpers[c] if hired[h])])
    if a.kind == "signoria":
        _log(s, "signoria", seat, colour=t.colours[c], name=t.signoria_name[c])
        _resolve(s, seat, t.signoria[c], 1, "signoria")
    elif a.kind == "assignment":
        _assignment(s, seat, c, SEXES.index(a.sex), a.meeples)
    else:
        s.helpers[seat][a.helper] = True
        s.florins[seat] -= t.helper_cost[a.helper]
        _log(s, "hire", seat, helper=a.helper, cost=t.helper_cost[a.helper])


def _assignment(s: SignorieState, seat: int, c: int, sex: int, k: int) -> None:
    """Spend the meeples first (to the General Stock or the threshold space), then the bonus."""
    t = s.t
    slot = next(i for i in t.colour_assignment_slots[c] if t.assignment_slots[i][1] == sex)
    tile = s.assignment[slot]
    eff = t.tile_effect[tile]
    s.avail[seat][sex] -= k
    if eff[0] == "threshold":
        s.threshold[seat][sex] += k
        s.raised[seat] += eff[1] * k
    else:
        s.stock[seat][sex] += k
    _log(s, "assignment", seat, colour=t.colours[c], sex=SEXES[sex], meeples=k, tile=tile)
    _resolve(s, seat, eff, k, "assignments")


def _advance(s: SignorieState, a: Advance) -> None:
    t, seat = s.t, a.seat
    f = s.stack[-1]
    if a.move == "stop":
        s.stack.pop()
        return
    f[2] -= 1
    f[3] += 1
    if f[2] == 0:
        s.stack.pop()
    if a.move == "initiative":
        _initiative(s, seat, 1)
        return
    track = s.career[seat][t.tracks.index(a.track)]
    if a.move == "new":
        s.avail[seat][MALE] -= 1
        slot = 0
    else:
        track[a.slot] -= 1
        slot = a.slot + 1
    track[slot] += 1
    _log(s, "advance", seat, track=a.track, slot=slot, new=a.move == "new")
    _reach(s, seat, slot)


def _mission(s: SignorieState, a: Mission) -> None:
    t, seat = s.t, a.seat
    s.stack.pop()
    ti, city = t.tracks.index(a.track), t.city_names.index(a.city)
    s.career[seat][ti][a.slot] -= 1
    value = _lowest_empty(s, city)
    s.city_meeples[city].append((seat, MALE))
    tile = _take_tile(s, seat, city, MISSION_SLOT, ti)
    _log(s, "mission", seat, track=a.track, slot=a.slot, city=a.city, value=value, tile=tile)
    _score(s, seat, t.career_vp[a.slot], "missions", a.city)


def _marry(s: SignorieState, a: Marry) -> None:
    t, seat = s.t, a.seat
    s.stack.pop()
    city = t.city_names.index(a.city)
    s.avail[seat][FEMALE] -= 1
    s.florins[seat] -= a.dowry
    value = _lowest_empty(s, city)
    s.city_meeples[city].append((seat, FEMALE))
    tile = _take_tile(s, seat, city, MARRIAGE_SLOT, MARRIAGE_ROW)
    _log(s, "marriage", seat, city=a.city, value=value, dowry=a.dowry, tile=tile)
    _score(s, seat, a.dowry * t.vp_per_dowry, "marriages", a.city)


def _take_tile(s: SignorieState, seat: int, city: int, slot: int, row: int) -> int:
    """The city's tile goes to the plan row when the row needs it (compulsory), else stays."""
    tile = s.city_tiles[city][slot]
    if tile >= 0 and plan_needs(s, seat, row, tile):
        s.city_tiles[city][slot] = -1
        s.rows[seat][row].append(tile)
        return tile
    return -1


def _face_down(s: SignorieState, a: FaceDown) -> None:
    s.stack.pop()
    row = ROW_NAMES.index(a.row)
    s.down_tiles[a.seat][row].append(s.deck.pop())
    s.down[a.seat][row] += 1
    _log(s, "face_down", a.seat, row=a.row)


def _hire(s: SignorieState, a: Hire) -> None:
    s.stack.pop()
    s.helpers[a.seat][a.helper] = True
    _log(s, "hire", a.seat, helper=a.helper, cost=0)


def _activate(s: SignorieState, a: Activate) -> None:
    f = s.stack[-1]
    f[3] += 1
    _log(s, "helper", a.seat, helper=a.helper, use=a.use)
    if a.use:  # a helper that scales with the die gives its amount once per so many pips
        times = s.t.helper_times(a.helper, s.taken[a.seat][f[2]])
        _resolve(s, a.seat, s.t.helper_effect[a.helper], times, "helpers")


def _take_pass(s: SignorieState, a: Pass) -> None:
    s.stack.pop()
    _pass(s, a.seat)


# -- phase 3 ------------------------------------------------------------------------------------


def threshold_of(s: Position, seat: int) -> int:
    t = s.t
    return min(t.threshold_max, t.threshold_base + s.raised[seat])


def _begin_rewards(s: SignorieState) -> None:
    """Steps 1 and 2: initiative VP, the new turn order, the discs back to the bottom."""
    t = s.t
    s.phase = REWARDS
    for seat in s.order:
        _score(s, seat, t.initiative_vp[s.init_pos[seat]], "initiative", "initiative track")
    s.order = sorted(range(s.n), key=lambda p: (-s.init_pos[p], -s.init_stamp[p]))
    for seat in reversed(s.order):
        s.init_pos[seat] = 0
        s.stamp += 1
        s.init_stamp[seat] = s.stamp
    sums = [sum(s.taken[p]) for p in range(s.n)]
    s.queue = [p for p in s.order if sums[p] <= threshold_of(s, p)]
    _log(s, "rewards", None, order=s.order[:], sums=sums,
         thresholds=[threshold_of(s, p) for p in range(s.n)], qualified=s.queue[:])


def _start_reward(s: SignorieState, seat: int) -> None:
    t = s.t
    tile = s.rewards[s.round - 1]
    if tile < VP_TILE:
        s.stack.append(["wedding", seat])
        s.stack.append(["reward", seat])
        return
    _log(s, "reward", seat, choice="vp", tile=tile)
    _resolve(s, seat, t.vp_tiles[tile - VP_TILE], 1, "rewards")
    s.stack.append(["buy", seat])


def _reward(s: SignorieState, a: Reward) -> None:
    s.stack.pop()
    if a.choice == "florins":
        _reward_florins(s, a.seat)
        return
    _log(s, "reward", a.seat, choice="bonus", tile=s.rewards[s.round - 1])
    _resolve(s, a.seat, s.t.bonus_tiles[s.rewards[s.round - 1]], 1, "rewards")


def _reward_florins(s: SignorieState, seat: int, forced: bool = False) -> None:
    """The florins instead of the bonus: chosen, or `forced` when the bonus could not be
    performed completely (then the log keeps what it would have needed, to say why)."""
    tile = s.rewards[s.round - 1]
    extra: dict[str, Any] = {}
    if forced:
        need = _need(s, seat, s.t.bonus_tiles[tile])
        extra = {"forced": True, "need": need if need < INF else -1, "had": s.florins[seat]}
    s.florins[seat] += s.t.reward_florins
    _log(s, "reward", seat, choice="florins", tile=tile, **extra)


def _wedding(s: SignorieState, a: Wedding) -> None:
    t, seat = s.t, a.seat
    s.stack.pop()
    if not a.accept:
        return
    s.brides[seat] += 1
    florins = t.wedding_florins if s.round in t.wedding_rounds else 0
    s.florins[seat] += florins
    _log(s, "wedding", seat, brides=s.brides[seat], florins=florins)
    _score(s, seat, t.bride_vp[s.brides[seat] - 1], "weddings", "bride")


def _buy(s: SignorieState, a: BuyVp) -> None:
    s.stack.pop()
    if a.accept:
        s.florins[a.seat] -= s.t.buy_florins
        _log(s, "buy_vp", a.seat, florins=s.t.buy_florins)
        _score(s, a.seat, s.t.buy_vp, "rewards", "5 florins")


def _end_round(s: SignorieState) -> None:
    """End of Phase 3: threshold meeples back to the General Stock, dice off the boards."""
    for seat in range(s.n):
        for sex in (MALE, FEMALE):
            s.stock[seat][sex] += s.threshold[seat][sex]
        s.threshold[seat] = [0, 0]
        s.raised[seat] = 0
        s.taken[seat] = [0] * len(s.t.colours)
    if s.round >= s.t.rounds:
        _end_game(s)
    else:
        _start_round(s)


def _end_game(s: SignorieState) -> None:
    """Career meeples score half their slot (rounded down); rows of 3+ tiles score them all."""
    t = s.t
    for seat in s.order:
        for i, track in enumerate(s.career[seat]):
            points = sum(n * (t.career_vp[slot] // t.career_divisor)
                         for slot, n in enumerate(track))
            _score(s, seat, points, "careers", t.tracks[i])
        for row in range(4):
            if row_tiles(s, seat, row) >= t.row_min:
                points = (sum(t.tile_vp[x] for x in s.rows[seat][row])
                          + s.down[seat][row] * t.back_vp)
                _score(s, seat, points, "alliances", ROW_NAMES[row])
    s.phase = OVER
    s.stack, s.queue = [], []
    _log(s, "game_over", None, scores=s.vp[:], order=s.order[:], winners=list(winners(s)))


HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    TakeDie: _take_die, Pass: _take_pass, ChooseAction: _choose, Advance: _advance,
    Mission: _mission, Marry: _marry, FaceDown: _face_down, Hire: _hire,
    Activate: _activate, Reward: _reward, Wedding: _wedding, BuyVp: _buy}


# -- the public interface -----------------------------------------------------------------------


def legal_actions(p: Position, seat: int) -> list[Action]:
    """What `seat` may do now (empty when it is not that seat's move)."""
    if not p.stack or p.stack[-1][1] != seat:
        return []
    return list(p.legal)


def apply_in_place(s: SignorieState, action: object) -> None:
    """Take `action`, anything a client sent (compiled, an `Action` parameter would refuse
    any other type before the rules could), if it is listed; else `IllegalAction`."""
    for listed in s.legal:  # the listed objects themselves, as bots hand them back
        if listed is action:
            ok = True
            break
    else:
        try:
            ok = action in s.legal
        except TypeError:
            ok = False
    if not ok:  # which rule, in words: `refusals.explain`, as the game (GAME.apply) says it
        raise IllegalAction("not possible", "refuse.not-open")
    HANDLERS[type(action)](s, action)
    s.history.append(action)
    settle(s)


def apply(s: SignorieState, action: object) -> SignorieState:
    out = s.clone()
    apply_in_place(out, action)
    return out


def clone(s: SignorieState) -> SignorieState:
    return s.clone()


def winners(s: Position) -> tuple[int, ...]:
    """The winner of a finished game: most VP, ties to the topmost disc of the final order."""
    if not s.is_over:
        return ()
    best = max(s.vp)
    return (next(p for p in s.order if s.vp[p] == best),)


def view(s: SignorieState, seat: int | None) -> SignorieView:
    """What `seat` may know: the stack and the removed tiles as counts, face-down tiles as
    counts, no generator. Nobody knows the front of a face-down tile, so views only differ in
    `viewer`."""
    if seat is not None and not 0 <= seat < s.n:
        raise ValueError(f"no seat {seat} in a game of {s.n}")
    v = SignorieView.__new__(SignorieView)
    copy_public(s, v)
    v.viewer = seat
    v.deck_size = len(s.deck)
    v.removed_count = len(s.removed)
    return v


def resample(v: SignorieView, rng: random.Random) -> SignorieState:
    """A full state consistent with the view: the unseen tiles dealt anew, a fresh generator."""
    t = v.t
    seen = {x for rows in v.rows for row in rows for x in row}
    seen |= {x for c in v.city_tiles for x in c if x >= 0}
    unseen = [i for i in range(len(t.tile_house)) if i not in seen]
    shuffle(unseen, rng)
    per_house = v.removed_count // len(t.houses)
    removed: list[int] = []
    rest = unseen
    if per_house:  # the first of each house in the shuffled order, house by house
        by_house: list[list[int]] = [[] for _ in t.houses]
        for x in unseen:
            got = by_house[t.tile_house[x]]
            if len(got) < per_house:
                got.append(x)
        removed = [x for got in by_house for x in got]
        gone = set(removed)
        rest = [x for x in unseen if x not in gone]
    s = SignorieState.__new__(SignorieState)
    copy_public(v, s)
    s.removed = removed
    s.down_tiles = []
    for counts in v.down:
        rows = []
        for n in counts:
            rows.append(rest[:n])
            del rest[:n]
        s.down_tiles.append(rows)
    s.deck = rest
    s.seed = None
    s.rng = random.Random(rng.getrandbits(64))
    return s


def score_breakdown(p: Position) -> list[dict[str, int]]:
    """Points per seat by source (missions, marriages, initiative, rewards, helpers, ...)."""
    out: list[dict[str, int]] = [dict.fromkeys(SCORE_SOURCES, 0) for _ in range(p.n)]
    for seat, points, source, _detail in p.events:
        out[seat][source] = out[seat].get(source, 0) + points
    return out
