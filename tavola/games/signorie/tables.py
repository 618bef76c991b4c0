"""The component data as plain tuples, for the engine's hot path (no pydantic while playing).

Built once from the validated `components.Components`; every number the rules use comes from
here, so a transcribed printed copy changes the game by changing only the JSON.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from pydantic import ValidationError

from tavola.editions import content_hash

from .components import DATA, ROWS, Components, load, parse, problem_text

#: An effect as the engine reads it: (kind, amount, criterion or "").
Effect = tuple[str, int, str]
MALE, FEMALE = 0, 1
SEXES = ("male", "female")


def _effect(e: Any) -> Effect:
    return (e.kind, e.amount, e.of or "")


@dataclass(frozen=True)
class Tables:
    colours: tuple[str, ...]  # die colours, board order
    cost: tuple[int, ...]
    signoria_name: tuple[str, ...]
    signoria: tuple[Effect, ...]
    ring: tuple[int, ...]  # the helper column (a colour index) each action slot hires into
    helper_column: tuple[int, ...]  # per helper slot (file order)
    helper_order: tuple[int, ...]
    helper_cost: tuple[int, ...]
    helper_effect: tuple[Effect, ...]
    helper_per_pips: tuple[int, ...]  # 0: the effect once; n: once per n pips of the die
    #: per helper slot, how many times it gives its amount after a die, on average over the
    #: die's six faces (the bots' worth of a hired helper; `mean_times`)
    helper_mean_times: tuple[float, ...]
    column_helpers: tuple[tuple[int, ...], ...]  # per colour: helper slots in printed order
    assignment_slots: tuple[tuple[int, int], ...]  # (colour index, sex)
    colour_assignment_slots: tuple[tuple[int, ...], ...]
    tile_name: tuple[str, ...]
    tile_repeat: tuple[bool, ...]  # "..3": 1 to 3 meeples, the effect once per meeple
    tile_effect: tuple[Effect, ...]
    bonus_tiles: tuple[Effect, ...]
    vp_tiles: tuple[Effect, ...]
    tracks: tuple[str, ...]
    career_vp: tuple[int, ...]
    career_rank: tuple[int, ...]
    career_bonus: tuple[Effect | None, ...]  # per slot index
    initiative_vp: tuple[int, ...]
    city_names: tuple[str, ...]
    city_slots: tuple[tuple[int, ...], ...]
    bride_vp: tuple[int, ...]
    houses: tuple[str, ...]
    tile_house: tuple[int, ...]  # alliance tile id -> house index
    tile_vp: tuple[int, ...]
    board_colours: tuple[str, ...]
    plan: tuple[tuple[tuple[int, ...], ...], ...]  # board, row -> shields per house (counts)
    plan_shields: tuple[tuple[tuple[int, ...], ...], ...]  # board, row -> house indices
    # rules
    rounds: int
    starting_florins: int
    extra_florins: tuple[int, ...]
    available: tuple[int, int]
    stock: tuple[int, int]
    dice_per_colour: dict[int, int]
    cities_used: dict[int, int]
    removed_per_house: dict[int, int]
    bonus_used: int
    vp_used: int
    max_dice: int
    threshold_base: int
    threshold_max: int
    reward_florins: int
    wedding_florins: int
    wedding_rounds: frozenset[int]
    buy_florins: int
    buy_vp: int
    dowry_max: int
    vp_per_dowry: int
    offspring_female_max: int
    back_vp: int
    row_min: int
    career_divisor: int
    #: the content hash of the component data when it is not the shipped file ("" for it)
    edition: str = ""

    def __copy__(self) -> Tables:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tables:
        """The same tables: they never change, and a compiled frozen class cannot be rebuilt
        field by field the way `copy` rebuilds a plain one."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and its fields, rebuilt by the class itself."""
        return Tables, tuple(getattr(self, f.name) for f in fields(self))

    def helper_times(self, h: int, die: int) -> int:
        """How many times helper `h` gives its amount after a die of `die` pips (0: nothing)."""
        return times_after(self.helper_per_pips[h], die)

    @property
    def top_initiative(self) -> int:
        return len(self.initiative_vp) - 1

    @property
    def top_career(self) -> int:
        return len(self.career_vp) - 1


def times_after(per_pips: int, die: int) -> int:
    """How many times a helper gives its amount after a die of `die` pips (0: nothing), when
    it gives it once per `per_pips` pips (0: once, whatever the die)."""
    return die // per_pips if per_pips else 1


def mean_times(per_pips: int) -> float:
    """`times_after` on average over a die's six faces. Worked out once, with the tables: a
    compiled class does not keep a `cached_property` (mypyc runs its body at every read)."""
    return sum(times_after(per_pips, die) for die in range(1, 7)) / 6


def build(c: Components, edition: str = "") -> Tables:
    r = c.rules
    colours = tuple(s.colour.value for s in c.action_slots)
    ci = {name: i for i, name in enumerate(colours)}
    helpers = c.helper_slots.value
    houses = tuple(c.houses.value)
    hi = {h: i for i, h in enumerate(houses)}
    tile_house, tile_vp = [], []
    for h in houses:
        for v in c.alliance_tiles.value[h]:
            tile_house.append(hi[h])
            tile_vp.append(v)
    slots = c.career_tracks.slots.value
    bonus: list[Effect | None] = [None] * len(slots)
    for b in r.career_bonuses.value:
        bonus[b.slot - 1] = _effect(b.effect)
    plans, shields = [], []
    for board in c.player_boards:
        rows = [getattr(board.plan.value, row) for row in ROWS]
        shields.append(tuple(tuple(hi[h] for h in row) for row in rows))
        plans.append(tuple(tuple(row.count(h) for h in houses) for row in rows))
    aslots = tuple((ci[s.colour], SEXES.index(s.sex)) for s in c.assignment_slots.value)
    return Tables(
        colours=colours,
        cost=tuple(s.cost.value for s in c.action_slots),
        signoria_name=tuple(s.signoria.value.name for s in c.action_slots),
        signoria=tuple(_effect(s.signoria.value.effect) for s in c.action_slots),
        ring=tuple(ci[s.ring.value] for s in c.action_slots),
        helper_column=tuple(ci[h.column] for h in helpers),
        helper_order=tuple(h.order for h in helpers),
        helper_cost=tuple(h.cost.value for h in helpers),
        helper_effect=tuple(_effect(h.effect.value) for h in helpers),
        helper_per_pips=tuple(h.effect.value.per_pips or 0 for h in helpers),
        helper_mean_times=tuple(mean_times(h.effect.value.per_pips or 0) for h in helpers),
        column_helpers=tuple(
            tuple(sorted((i for i, h in enumerate(helpers) if ci[h.column] == col),
                         key=lambda i: helpers[i].order))
            for col in range(len(colours))),
        assignment_slots=aslots,
        colour_assignment_slots=tuple(
            tuple(i for i, s in enumerate(aslots) if s[0] == col) for col in range(len(colours))),
        tile_name=tuple(t.value.name for t in c.assignment_tiles),
        tile_repeat=tuple(t.value.meeples == "..3" for t in c.assignment_tiles),
        tile_effect=tuple(_effect(t.value.effect) for t in c.assignment_tiles),
        bonus_tiles=tuple(_effect(t.value.effect) for t in c.bonus_tiles),
        vp_tiles=tuple(_effect(t.value.effect) for t in c.vp_tiles),
        tracks=tuple(c.career_tracks.tracks.value),
        career_vp=tuple(s.vp for s in slots),
        career_rank=tuple(s.rank for s in slots),
        career_bonus=tuple(bonus),
        initiative_vp=tuple(c.initiative_track.value),
        city_names=tuple(city.name.value for city in c.cities),
        city_slots=tuple(tuple(city.slots.value) for city in c.cities),
        bride_vp=tuple(c.bride_slots.value),
        houses=houses,
        tile_house=tuple(tile_house),
        tile_vp=tuple(tile_vp),
        board_colours=tuple(b.colour.value for b in c.player_boards),
        plan=tuple(plans),
        plan_shields=tuple(shields),
        rounds=r.rounds.value,
        starting_florins=r.starting_florins.value,
        extra_florins=tuple(r.extra_florins.value),
        available=(r.available_meeples.value["male"], r.available_meeples.value["female"]),
        stock=(r.general_stock.value["male"], r.general_stock.value["female"]),
        dice_per_colour={int(k): v for k, v in r.dice_per_colour.value.items()},
        cities_used={int(k): v for k, v in r.cities_used.value.items()},
        removed_per_house={int(k): v for k, v in r.alliance_removed_per_house.value.items()},
        bonus_used=r.bonus_tiles_used.value,
        vp_used=r.vp_tiles_used.value,
        max_dice=r.max_dice_per_round.value,
        threshold_base=r.threshold.value.base,
        threshold_max=r.threshold.value.max,
        reward_florins=r.reward_florins.value,
        wedding_florins=r.wedding_florins.value.florins,
        wedding_rounds=frozenset(r.wedding_florins.value.rounds),
        buy_florins=r.buy_vp.value.florins,
        buy_vp=r.buy_vp.value.vp,
        dowry_max=r.dowry_max.value,
        vp_per_dowry=r.vp_per_dowry_florin.value,
        offspring_female_max=r.offspring_female_max.value,
        back_vp=r.alliance_back_vp.value,
        row_min=r.row_min_tiles.value,
        career_divisor=r.career_end_divisor.value,
        edition=edition,
    )


@cache
def tables() -> Tables:
    """The shipped components, compiled once."""
    return build(load())


@cache
def default_data() -> dict[str, Any]:
    """The shipped component file's data (do not change it: it is shared)."""
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


@cache
def default_hash() -> str:
    return content_hash(default_data())


#: Component data compiled lately, by content hash: games on one edition share its tables.
_EDITIONS: OrderedDict[str, Tables] = OrderedDict()
EDITIONS_KEPT = 32


def tables_for(data: Any) -> Tables:
    """The tables of any component data (the shipped ones for the shipped data), compiled once
    per content; ValueError names the data's first problems."""
    try:
        digest = content_hash(data)
    except (TypeError, ValueError):
        raise ValueError("the component data is not JSON") from None
    if digest == default_hash():
        return tables()
    found = _EDITIONS.get(digest)
    if found is None:
        try:
            found = build(parse(data), digest)
        except ValidationError as exc:
            problems = "; ".join(problem_text(e) for e in exc.errors()[:3])
            raise ValueError(f"the component data is not playable: {problems}") from None
        _EDITIONS[digest] = found
        while len(_EDITIONS) > EDITIONS_KEPT:
            _EDITIONS.popitem(last=False)
    _EDITIONS.move_to_end(digest)
    return found


ROW_NAMES = ROWS
