"""Signorie for learning environments: one index for every action, one array per seat's view.

The action space lists every action the components allow, by type in the order of
`actions.TYPES`, each with every value of its fields (a die's colour and value, a city and a
dowry...). The observation is made from a `SignorieView` (the alliance stack, the removed
tiles and face-down tiles only as counts), seats listed from the viewer on.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from tavola.rl.encoding import Layout, check_index, one_hot, relative_seats

from .actions import (
    CHOICES,
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
from .state import ACTIONS, FRAME_KINDS, OVER, REWARDS, SignorieView
from .tables import ROW_NAMES, SEXES, Tables, tables

PHASES = (ACTIONS, REWARDS, OVER)
SEATS = 4  # the most players Signorie takes
DIE_VALUES = range(1, 7)
SCALE = {"florins": 20, "vp": 100}  # florins and VP are given in twenties and hundreds
POINTS_SCALE = 10  # advancement points left, in tens
Template = tuple[type, tuple[Any, ...]]  # an action's class and its fields after the seat


def action_templates(t: Tables) -> tuple[Template, ...]:
    """Every action a seat can ever be offered, without the seat."""
    out: list[Template] = [(TakeDie, (c, v)) for c in t.colours for v in DIE_VALUES]
    out.append((Pass, ()))
    out += _choices(t)
    out += _advances(t)
    out += [(Mission, (track, slot, city)) for track in t.tracks
            for slot in range(len(t.career_vp)) for city in t.city_names]
    out += [(Marry, (city, d)) for city in t.city_names for d in range(1, t.dowry_max + 1)]
    out += [(FaceDown, (row,)) for row in ROW_NAMES]
    out += [(Hire, (h,)) for h in range(len(t.helper_cost))]
    out += [(Activate, (h, use)) for h in range(len(t.helper_cost)) for use in (True, False)]
    out += [(Reward, (choice,)) for choice in CHOICES[("reward", "choice")]]
    out += [(cls, (accept,)) for cls in (Wedding, BuyVp) for accept in (True, False)]
    return tuple(out)


def _choices(t: Tables) -> list[Template]:
    most = max(3 if r else 1 for r in t.tile_repeat)
    return [(ChooseAction, ("signoria", "", 0, -1)),
            *[(ChooseAction, ("assignment", sex, k, -1)) for sex in SEXES
              for k in range(1, most + 1)],
            *[(ChooseAction, ("helper", "", 0, h)) for h in range(len(t.helper_cost))]]


def _advances(t: Tables) -> list[Template]:
    return [*[(Advance, ("new", track, -1)) for track in t.tracks],
            *[(Advance, ("up", track, slot)) for track in t.tracks
              for slot in range(len(t.career_vp) - 1)],
            (Advance, ("initiative", "", -1)), (Advance, ("stop", "", -1))]


def _key(action: Any) -> Template:
    return type(action), tuple(getattr(action, f.name) for f in fields(action)[1:])


class SignorieEncoding:
    """The spaces of Signorie games (2 to 4 seats)."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        self.templates = action_templates(t)
        self.index = {template: i for i, template in enumerate(self.templates)}
        self.action_count = len(self.templates)
        self.tile_vp = max(t.tile_vp)
        self.layout = signorie_layout(t)

    def action_index(self, action: Hashable) -> int:
        try:
            return self.index[_key(action)]
        except (KeyError, TypeError):
            raise ValueError(f"not a Signorie action: {action!r}") from None

    def action_at(self, seat: int, index: int) -> Any:
        check_index(index, self.action_count)
        cls, args = self.templates[index]
        return cls(seat, *args)

    def action_mask(self, view: Any, seat: int, legal: Sequence[Hashable]) -> np.ndarray:
        mask = np.zeros(self.action_count, dtype=np.int8)
        mask[[self.action_index(a) for a in legal]] = 1
        return mask

    def observe(self, view: SignorieView, seat: int) -> np.ndarray:
        obs = self.layout.zeros()
        seats = relative_seats(seat, view.n)
        self._observe_table(obs, view, seats)
        self._observe_decision(obs, view, seats)
        for k, s in enumerate(seats):
            self._observe_seat(obs, view, s, k)
            self._observe_careers(obs, view, s, k)
        return self.layout.clip(obs)

    def _observe_table(self, obs: np.ndarray, view: SignorieView, seats: list[int]) -> None:
        t, part = self.t, self.layout.part
        one_hot(part(obs, "round"), view.round - 1 if view.round else None)
        one_hot(part(obs, "phase"), PHASES.index(view.phase))
        dice = part(obs, "dice")
        for c, values in enumerate(view.dice):
            for v in values:
                dice[c, v - 1] += 1 / max(t.dice_per_colour.values())
        part(obs, "cities")[:] = [c in view.cities for c in range(len(t.city_names))]
        slots = part(obs, "city meeples")
        width = max(len(s) for s in t.city_slots)
        for city, meeples in enumerate(view.city_meeples):
            for i, (owner, sex) in enumerate(meeples):
                slots[city * width + i, 2 * seats.index(owner) + sex] = 1
        self._observe_tiles(obs, view)
        part(obs, "alliance stack")[:] = [view.deck_left() / len(t.tile_house),
                                          view.removed_left() / len(t.tile_house)]

    def _observe_tiles(self, obs: np.ndarray, view: SignorieView) -> None:
        t, part = self.t, self.layout.part
        tiles = part(obs, "city tiles")
        for city, pair in enumerate(view.city_tiles):
            for k, tile in enumerate(pair):
                if tile >= 0:
                    tiles[2 * city + k, t.tile_house[tile]] = 1
                    tiles[2 * city + k, -1] = t.tile_vp[tile] / self.tile_vp
        assignment = part(obs, "assignment")
        for slot, tile in enumerate(view.assignment):
            assignment[slot, tile] = 1
        rewards = part(obs, "reward tiles")
        for r, tile in enumerate(view.rewards):
            rewards[r, tile if tile < 100 else len(t.bonus_tiles) + tile - 100] = 1

    def _observe_decision(self, obs: np.ndarray, view: SignorieView, seats: list[int]) -> None:
        if not view.stack:
            return
        part, frame = self.layout.part, view.stack[-1]
        kind = frame[0]
        one_hot(part(obs, "decision"), FRAME_KINDS.index(kind))
        one_hot(part(obs, "decision seat"), seats.index(frame[1]))
        if kind in ("choose", "helpers"):
            one_hot(part(obs, "decision colour"), frame[2])
        if kind == "advance":
            part(obs, "advancement")[:] = [frame[2] / POINTS_SCALE, frame[3] > 0]

    def _observe_seat(self, obs: np.ndarray, view: SignorieView, s: int, k: int) -> None:
        t, part = self.t, self.layout.part
        part(obs, "present")[k] = 1
        one_hot(part(obs, "player board")[k], s)
        part(obs, "florins")[k] = view.florins[s] / SCALE["florins"]
        part(obs, "vp")[k] = view.vp[s] / SCALE["vp"]
        part(obs, "meeples")[k] = [*view.avail[s], *view.stock[s]] / np.float32(
            max(t.stock))
        part(obs, "threshold")[k] = [*view.threshold[s], view.raised[s]] / np.float32(
            t.threshold_max)
        part(obs, "helpers")[k] = view.helpers[s]
        part(obs, "brides")[k] = view.brides[s] / len(t.bride_vp)
        part(obs, "dice taken")[k] = [v / max(DIE_VALUES) for v in view.taken[s]]
        part(obs, "passed")[k] = view.passed[s]
        one_hot(part(obs, "turn order")[k], view.order.index(s))
        part(obs, "reward queue")[k] = s in view.queue

    def _observe_careers(self, obs: np.ndarray, view: SignorieView, s: int, k: int) -> None:
        t, part = self.t, self.layout.part
        part(obs, "careers")[k] = np.ravel(view.career[s]) / np.float32(max(t.stock))
        one_hot(part(obs, "initiative")[k], view.init_pos[s])
        above = sum(1 for o in range(view.n) if view.init_stamp[o] > view.init_stamp[s])
        one_hot(part(obs, "initiative stack")[k], above)
        rows = part(obs, "plan rows")[k].reshape(len(ROW_NAMES), len(t.houses))
        for r, tiles in enumerate(view.rows[s]):
            for tile in tiles:
                rows[r, t.tile_house[tile]] += 1 / t.row_min
        part(obs, "face down")[k] = [n / t.row_min for n in view.down[s]]


def signorie_layout(t: Tables) -> Layout:
    """Every slot of a Signorie observation; per-seat rows list the viewer first."""
    layout, m = Layout(), SEATS
    add = layout.add
    add("round", t.rounds, "the round being played, one-hot")
    add("phase", len(PHASES), "actions, rewards, over: one-hot")
    add("dice", len(DIE_VALUES), "per die colour: dice of each value on the board / most dice",
        repeat=len(t.colours), high=1.0)
    add("cities", len(t.city_names), "the cities in use")
    add("city meeples", 2 * m, "per city slot (city by city, lowest slot first): whose "
        "meeple, male then female per seat row", repeat=len(t.city_names) * max(
            len(s) for s in t.city_slots))
    add("city tiles", len(t.houses) + 1, "per city's marriage then mission tile: its house, "
        "then its VP / the most", repeat=2 * len(t.city_names))
    add("assignment", len(t.tile_effect), "per assignment slot: its tile, one-hot",
        repeat=len(t.assignment_slots))
    add("reward tiles", len(t.bonus_tiles) + len(t.vp_tiles), "per round: its reward tile "
        "(bonus tiles, then VP tiles)", repeat=t.rounds)
    add("alliance stack", 2, "alliance tiles left in the stack, and removed at setup / all")
    add("decision", len(FRAME_KINDS), "what is being decided: " + ", ".join(FRAME_KINDS))
    add("decision seat", m, "who decides, by the seat rows' order")
    add("decision colour", len(t.colours), "the die colour of a choice of action or helper")
    add("advancement", 2, f"advancement points left / {POINTS_SCALE}; 1 once one is spent",
        high=10.0)
    _seat_slots(layout, t, m)
    return layout


def _seat_slots(layout: Layout, t: Tables, m: int) -> None:
    add = layout.add
    add("present", 1, "1 for a seat in the game", repeat=m)
    add("player board", m, "the seat's player board (its colour and plan), one-hot", repeat=m)
    add("florins", 1, f"florins / {SCALE['florins']}", repeat=m, high=10.0)
    add("vp", 1, f"VP / {SCALE['vp']}", repeat=m, high=10.0)
    add("meeples", 4, "available male, female; General Stock male, female / "
                      f"{max(t.stock)}", repeat=m)
    add("threshold", 3, "male, female on the threshold; raised this round / "
                        f"{t.threshold_max}", repeat=m)
    add("helpers", len(t.helper_cost), "helpers hired", repeat=m)
    add("brides", 1, "married men / bride slots", repeat=m)
    add("dice taken", len(t.colours), "per colour: the value of the die placed / "
                                      f"{max(DIE_VALUES)}", repeat=m)
    add("passed", 1, "1 once the seat has passed this round", repeat=m)
    add("turn order", m, "place in the turn order, one-hot", repeat=m)
    add("reward queue", 1, "1 while the seat is still to take its reward", repeat=m)
    add("careers", len(t.tracks) * len(t.career_vp), "meeples per career track and slot / "
                                                      f"{max(t.stock)}", repeat=m)
    add("initiative", len(t.initiative_vp), "slot on the initiative track, one-hot", repeat=m)
    add("initiative stack", m, "discs above this one in the initiative stacks", repeat=m)
    add("plan rows", len(ROW_NAMES) * len(t.houses), "face-up alliance tiles per plan row and "
        "house / the row minimum", repeat=m, high=10.0)
    add("face down", len(ROW_NAMES), "face-down tiles per plan row / the row minimum",
        repeat=m, high=10.0)


ENCODING = SignorieEncoding(tables())
_OTHERS: dict[str, SignorieEncoding] = {}


def encoding_of(t: Tables) -> SignorieEncoding:
    """The encoding of games on the tables `t`: its action space and layout follow the
    component data (how many helpers, cities, slots)."""
    if not t.edition:
        return ENCODING
    if t.edition not in _OTHERS:
        if len(_OTHERS) >= 16:
            _OTHERS.clear()
        _OTHERS[t.edition] = SignorieEncoding(t)
    return _OTHERS[t.edition]
