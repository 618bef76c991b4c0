"""The component data of Signorie: the schema of `data/components.json` and its checks.

Every value of the file is wrapped as `{"value": ..., "status": "known", "source": ...}` or
`{"value": ..., "status": "provisional", "reason": ...}`, so a printed copy can be transcribed
by editing the JSON alone. The engine reads the validated model through
`tavola.games.signorie.tables`.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tavola import i18n

DATA = Path(__file__).parent / "data" / "components.json"
FORMAT = "signorie-components/1"

T = TypeVar("T")

#: What an effect does; the engine interprets exactly these kinds.
EffectKind = Literal["florins", "vp", "initiative", "advance", "mission", "marriage",
                     "face_down_tile", "threshold", "offspring", "helper", "vp_per"]
#: Kinds that a `..3` assignment may repeat once per meeple (they add up, and never fail).
REPEATABLE = frozenset({"florins", "vp", "initiative", "advance", "threshold", "offspring"})
#: Kinds whose amount a helper may give once per `per_pips` pips of its die (they add up).
DIE_SCALED = frozenset({"florins", "vp", "initiative", "advance"})
#: Kinds a player never has a reason to refuse: they only add (florins, points, steps up the
#: Initiative track) and ask nothing further. A helper with one of them may be activated without
#: the question (the table's "always activate helpers" setting).
ALWAYS_WANTED = frozenset({"florins", "vp", "initiative", "vp_per"})
#: What a rounds 6-7 reward tile counts.
Criterion = Literal["helper", "city", "career_meeple", "scoring_row", "married_man",
                    "face_up_tile"]
Sex = Literal["male", "female"]
ROWS = ("political", "clerical", "military", "marriage")


#: The sentences of the file's own validators (`value.KEY` in the game's text layer, which
#: repeats them; a test keeps them equal): the editor words them in its reader's language.
VALUE_CHECKS: dict[str, str] = {
    "value.no-source": "a known value needs its 'source'",
    "value.no-reason": "a provisional value needs its 'reason'",
    "value.no-amount": "a {kind} effect needs an amount of at least 1",
    "value.of": "'of' goes with a vp_per effect, and only with it",
    "value.per-pips": "per_pips scales an amount that adds up ({kinds}), not a {kind} effect",
}


def _refused(key: str, **fields: Any) -> PydanticCustomError:
    """A validator's problem as pydantic reports it, its type the text layer's key."""
    return PydanticCustomError(key, VALUE_CHECKS[key], fields)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(Strict, Generic[T]):
    """A value with its status: known from a source, or provisional with a designer's reason."""

    value: T
    status: Literal["known", "provisional"]
    source: str | None = None
    reason: str | None = None

    @model_validator(mode="after")
    def _labelled(self) -> Sourced[T]:
        if self.status == "known" and not self.source:
            raise _refused("value.no-source")
        if self.status == "provisional" and not self.reason:
            raise _refused("value.no-reason")
        return self


class Effect(Strict):
    kind: EffectKind
    amount: int = Field(0, ge=0, le=12)
    of: Criterion | None = None
    per_pips: int | None = Field(None, ge=1, le=6, description=(
        "A helper's effect that grows with the die: the amount is given once for every "
        "`per_pips` pips of the die its column was used with (rounded down, so a lower die "
        "may give nothing). Only for florins, vp, initiative and advance."))

    @model_validator(mode="after")
    def _shape(self) -> Effect:
        needs_amount = {"florins", "vp", "initiative", "advance", "threshold", "vp_per"}
        if self.kind in needs_amount and self.amount < 1:
            raise _refused("value.no-amount", kind=self.kind)
        if (self.kind == "vp_per") != (self.of is not None):
            raise _refused("value.of")
        if self.per_pips is not None and self.kind not in DIE_SCALED:
            kinds = ", ".join(sorted(DIE_SCALED))
            raise _refused("value.per-pips", kinds=kinds, kind=self.kind)
        return self


class Signoria(Strict):
    name: str = Field(min_length=1)
    effect: Effect


class ActionSlot(Strict):
    colour: Sourced[str]
    cost: Sourced[int]
    signoria: Sourced[Signoria]
    ring: Sourced[str]


class HelperSlot(Strict):
    column: str
    order: int = Field(ge=1)
    cost: Sourced[int]
    effect: Sourced[Effect]


class AssignmentSlot(Strict):
    colour: str
    sex: Sex


class AssignmentTile(Strict):
    name: str = Field(min_length=1)
    meeples: Literal["1", "..3"]
    effect: Effect


class RewardTile(Strict):
    effect: Effect


class CareerSlot(Strict):
    vp: int = Field(ge=0, le=99)
    rank: int = Field(ge=1, le=4)


class CareerTracks(Strict):
    tracks: Sourced[list[str]]
    slots: Sourced[list[CareerSlot]]


class CareerBonus(Strict):
    slot: int = Field(ge=1)
    effect: Effect


class City(Strict):
    name: Sourced[str]
    slots: Sourced[list[int]]


class Plan(Strict):
    political: list[str]
    clerical: list[str]
    military: list[str]
    marriage: list[str]


class PlayerBoard(Strict):
    colour: Sourced[str]
    plan: Sourced[Plan]


class Threshold(Strict):
    base: int = Field(ge=0)
    max: int = Field(ge=0)


class WeddingFlorins(Strict):
    florins: int = Field(ge=0)
    rounds: list[int]


class BuyVp(Strict):
    florins: int = Field(ge=1)
    vp: int = Field(ge=0)


PerCount = dict[Literal["2", "3", "4"], int]


class Rules(Strict):
    rounds: Sourced[int]
    starting_florins: Sourced[int]
    extra_florins: Sourced[list[int]]
    available_meeples: Sourced[dict[Sex, int]]
    general_stock: Sourced[dict[Sex, int]]
    dice_per_colour: Sourced[PerCount]
    cities_used: Sourced[PerCount]
    alliance_removed_per_house: Sourced[PerCount]
    bonus_tiles_used: Sourced[int]
    vp_tiles_used: Sourced[int]
    max_dice_per_round: Sourced[int]
    threshold: Sourced[Threshold]
    reward_florins: Sourced[int]
    wedding_florins: Sourced[WeddingFlorins]
    buy_vp: Sourced[BuyVp]
    dowry_max: Sourced[int]
    vp_per_dowry_florin: Sourced[int]
    offspring_female_max: Sourced[int]
    alliance_back_vp: Sourced[int]
    row_min_tiles: Sourced[int]
    career_end_divisor: Sourced[int]
    career_bonuses: Sourced[list[CareerBonus]]


class Components(Strict):
    """The whole file; `cross_check` lists what the types alone cannot see."""

    format: Literal["signorie-components/1"]
    about: str = ""
    rules: Rules
    action_slots: list[ActionSlot]
    helper_slots: Sourced[list[HelperSlot]]
    assignment_slots: Sourced[list[AssignmentSlot]]
    assignment_tiles: list[Sourced[AssignmentTile]]
    bonus_tiles: list[Sourced[RewardTile]]
    vp_tiles: list[Sourced[RewardTile]]
    career_tracks: CareerTracks
    initiative_track: Sourced[list[int]]
    cities: list[City]
    bride_slots: Sourced[list[int]]
    houses: Sourced[list[str]]
    alliance_tiles: Sourced[dict[str, list[int]]]
    player_boards: list[PlayerBoard]

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Components:
        if info.context and info.context.get("types_only"):  # the editor checks them apart
            return self
        problems = cross_check(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self


# -- cross-checks: each returns problems that name their place ---------------------------------


_DOMAIN = "signorie"  # the catalogs the sentences below are translated in
#: `cross_check`'s sentences by key, written here only: the game's text layer (`text.MESSAGES`)
#: takes them in, since it imports this module and this module cannot import it; the catalogs
#: read them here (`GameKit.text_sources`).
CROSS_CHECKS: dict[str, str] = {
    "cross.per-pips": "per_pips is for helpers only (a helper acts after a die of its column)",
    "cross.slot-colours": "5 slots of 5 different colours needed, found {colours}",
    "cross.not-die-colour": "{value!r} is not a die colour",
    "cross.cost-range": "{value} is not between 0 and {most}",
    "cross.not-signoria": "{kind} is not a Signoria action",
    "cross.helper-slots": "12 slots needed (48 helper discs, 4 boards), found {count}",
    "cross.not-helpers": "{kind} cannot be a helper's",
    "cross.column-orders": "the {colour} column's orders must be 1..n, found {orders}",
    "cross.no-ring-slot": "no {ring} slot, yet an action slot's ring is {ring}",
    "cross.face-down": "exactly 3 helpers give a face-down tile (rulebook)",
    "cross.area-slot": "the {colour} area needs one {sex} slot, found {count}",
    "cross.assignment-slots": "10 slots needed, found {count}",
    "cross.tiles-for-slots": "{tiles} tiles for {slots} slots",
    "cross.no-repeat": "a '..3' tile cannot repeat a {kind} effect",
    "cross.vp-per-reward": "vp_per is for reward tiles",
    "cross.bonus-tiles": "9 tiles needed, found {count}",
    "cross.vp-tiles": "5 tiles needed, found {count}",
    "cross.not-bonus": "{kind} is not a bonus",
    "cross.vp-tile": "a VP reward tile scores vp_per a criterion",
    "cross.careers": "3 careers needed",
    "cross.track-slots": "at least 6 slots (bonus on the 6th), found {count}",
    "cross.track-rises": "ranks never fall and VP rise up the track",
    "cross.career-bonus": "slot {slot} / {kind} does not fit",
    "cross.initiative": "VP start at 0 and never fall up the track",
    "cross.brides": "the head's slot and at least one more, VP not negative",
    "cross.cities": "5 different cities needed, found {names}",
    "cross.city-values": "values 1 to 4 needed, found {values}",
    "cross.city-order": "list the values lowest first",
    "cross.houses": "6 different houses needed, found {houses}",
    "cross.alliance-houses": "one entry per house needed, found {houses}",
    "cross.alliance-count": "9 tiles needed, found {count}",
    "cross.alliance-values": "fronts show 2 to 5 VP, found {values}",
    "cross.boards": "4 boards of different colours needed, found {colours}",
    "cross.shields": "4 shields, 2 of one house and 2 different, found {shields}",
    "cross.unknown-house": "unknown house {house!r}",
    "cross.marriage": "the 6 houses once each, found {houses}",
    "cross.rounds": "bonus_tiles_used + vp_tiles_used must equal rounds (one per round)",
    "cross.too-many-used": "more reward tiles used than exist",
    "cross.extra-florins": "one value per starting position (4)",
    "cross.wedding-rounds": "weddings happen in the bonus rounds only",
    "cross.dice": "2, 3 and 4 players, at most 4 dice per colour",
    "cross.cities-used": "2, 3 and 4 players, at most the cities that exist",
    "cross.alliance-removed": "2, 3 and 4 players, 0 to 8 each",
    "cross.threshold": "base above max",
    "cross.divisor": "career_end_divisor at least 1; at most 5 dice a round (5 colours)",
}


class Said(str):
    """A problem of `cross_check` as `components check` prints it ("place: sentence", in
    English) that keeps its place, template and values, so the editor words it in its reader's
    language (`worded`); the place is the file's own path and stays as written."""

    place: str
    template: str
    fields: dict[str, Any]

    def worded(self) -> str:
        """The problem in the language of the moment (`tavola.i18n`)."""
        return f"{self.place}: " + i18n.gettext(_DOMAIN, self.template).format(**self.fields)


def _said(place: str, key: str, **fields: Any) -> Said:
    template = CROSS_CHECKS["cross." + key]
    said = Said(f"{place}: " + template.format(**fields))
    said.place, said.template, said.fields = place, template, fields
    return said


def cross_check(c: Components) -> list[Said]:
    """Every rule between values of the file; empty when the file is consistent."""
    return (_check_colours(c) + _check_helpers(c) + _check_assignments(c) + _check_rewards(c)
            + _check_tracks(c) + _check_cities(c) + _check_houses(c) + _check_plans(c)
            + _check_rules(c) + _check_die_scaled(c))


def _check_die_scaled(c: Components) -> list[Said]:
    """Only helpers scale with a die: they act after a die of their column is placed."""
    places = [(f"action_slots[{i}].signoria", s.signoria.value.effect)
              for i, s in enumerate(c.action_slots)]
    places += [(f"assignment_tiles[{i}] ({t.value.name})", t.value.effect)
               for i, t in enumerate(c.assignment_tiles)]
    places += [(f"bonus_tiles[{i}]", t.value.effect) for i, t in enumerate(c.bonus_tiles)]
    places += [(f"vp_tiles[{i}]", t.value.effect) for i, t in enumerate(c.vp_tiles)]
    places += [(f"rules.career_bonuses[{i}]", b.effect)
               for i, b in enumerate(c.rules.career_bonuses.value)]
    return [_said(where, "per-pips") for where, effect in places if effect.per_pips is not None]


def _check_colours(c: Components) -> list[Said]:
    colours = [s.colour.value for s in c.action_slots]
    out = []
    if len(c.action_slots) != 5 or len(set(colours)) != 5:
        out.append(_said("action_slots", "slot-colours", colours=colours))
    for i, s in enumerate(c.action_slots):
        if s.ring.value not in colours:
            out.append(_said(f"action_slots[{i}].ring", "not-die-colour", value=s.ring.value))
        if not 0 <= s.cost.value <= 6:
            out.append(_said(f"action_slots[{i}].cost", "cost-range", value=s.cost.value, most=6))
        if s.signoria.value.effect.kind in ("vp_per", "threshold"):
            out.append(_said(f"action_slots[{i}].signoria", "not-signoria",
                             kind=s.signoria.value.effect.kind))
    return out


def _check_helpers(c: Components) -> list[Said]:
    colours = {s.colour.value for s in c.action_slots}
    slots = c.helper_slots.value
    out = []
    if len(slots) != 12:
        out.append(_said("helper_slots", "helper-slots", count=len(slots)))
    for i, h in enumerate(slots):
        if h.column not in colours:
            out.append(_said(f"helper_slots[{i}].column", "not-die-colour", value=h.column))
        if not 0 <= h.cost.value <= 9:
            out.append(_said(f"helper_slots[{i}].cost", "cost-range", value=h.cost.value, most=9))
        if h.effect.value.kind in ("threshold", "vp_per"):
            out.append(_said(f"helper_slots[{i}].effect", "not-helpers", kind=h.effect.value.kind))
    for colour in sorted(colours):
        orders = [h.order for h in slots if h.column == colour]
        if sorted(orders) != list(range(1, len(orders) + 1)):
            out.append(_said("helper_slots", "column-orders", colour=colour, orders=orders))
    rings = {s.ring.value for s in c.action_slots}
    for ring in sorted(rings):
        if not any(h.column == ring for h in slots):
            out.append(_said("helper_slots", "no-ring-slot", ring=ring))
    if sum(h.effect.value.kind == "face_down_tile" for h in slots) != 3:
        out.append(_said("helper_slots", "face-down"))
    return out


def _check_assignments(c: Components) -> list[Said]:
    colours = [s.colour.value for s in c.action_slots]
    out = []
    pairs = Counter((s.colour, s.sex) for s in c.assignment_slots.value)
    for colour in colours:
        for sex in ("male", "female"):
            if pairs[(colour, sex)] != 1:
                out.append(_said("assignment_slots", "area-slot", colour=colour, sex=sex,
                                 count=pairs[(colour, sex)]))
    if len(c.assignment_slots.value) != 10:
        out.append(_said("assignment_slots", "assignment-slots",
                         count=len(c.assignment_slots.value)))
    if len(c.assignment_tiles) != len(c.assignment_slots.value):
        out.append(_said("assignment_tiles", "tiles-for-slots", tiles=len(c.assignment_tiles),
                         slots=len(c.assignment_slots.value)))
    for i, t in enumerate(c.assignment_tiles):
        kind = t.value.effect.kind
        if t.value.meeples == "..3" and kind not in REPEATABLE:
            out.append(_said(f"assignment_tiles[{i}] ({t.value.name})", "no-repeat", kind=kind))
        if kind == "vp_per":
            out.append(_said(f"assignment_tiles[{i}] ({t.value.name})", "vp-per-reward"))
    return out


def _check_rewards(c: Components) -> list[Said]:
    out = []
    if len(c.bonus_tiles) != 9:
        out.append(_said("bonus_tiles", "bonus-tiles", count=len(c.bonus_tiles)))
    if len(c.vp_tiles) != 5:
        out.append(_said("vp_tiles", "vp-tiles", count=len(c.vp_tiles)))
    for i, t in enumerate(c.bonus_tiles):
        if t.value.effect.kind in ("vp_per", "threshold"):
            out.append(_said(f"bonus_tiles[{i}]", "not-bonus", kind=t.value.effect.kind))
    for i, t in enumerate(c.vp_tiles):
        if t.value.effect.kind != "vp_per":
            out.append(_said(f"vp_tiles[{i}]", "vp-tile"))
    return out


def _check_tracks(c: Components) -> list[Said]:
    out = []
    slots = c.career_tracks.slots.value
    if len(c.career_tracks.tracks.value) != 3:
        out.append(_said("career_tracks.tracks", "careers"))
    if len(slots) < 6:
        out.append(_said("career_tracks.slots", "track-slots", count=len(slots)))
    for i in range(1, len(slots)):
        if slots[i].rank < slots[i - 1].rank or slots[i].vp <= slots[i - 1].vp:
            out.append(_said(f"career_tracks.slots[{i}]", "track-rises"))
    for b in c.rules.career_bonuses.value:
        if b.slot > len(slots) or b.effect.kind not in ("florins", "initiative", "vp"):
            out.append(_said("rules.career_bonuses", "career-bonus", slot=b.slot,
                             kind=b.effect.kind))
    track = c.initiative_track.value
    if len(track) < 2 or track[0] != 0 or any(b < a for a, b in pairwise(track)):
        out.append(_said("initiative_track", "initiative"))
    brides = c.bride_slots.value
    if len(brides) < 2 or any(v < 0 for v in brides):
        out.append(_said("bride_slots", "brides"))
    return out


def _check_cities(c: Components) -> list[Said]:
    out = []
    names = [city.name.value for city in c.cities]
    if len(names) != 5 or len(set(names)) != 5:
        out.append(_said("cities", "cities", names=names))
    for city in c.cities:
        values = city.slots.value
        if not values or any(not 1 <= v <= 4 for v in values):
            out.append(_said(f"cities[{city.name.value}].slots", "city-values", values=values))
        elif values != sorted(values):
            out.append(_said(f"cities[{city.name.value}].slots", "city-order"))
    return out


def _check_houses(c: Components) -> list[Said]:
    houses = c.houses.value
    out = []
    if len(houses) != 6 or len(set(houses)) != 6:
        out.append(_said("houses", "houses", houses=houses))
    tiles = c.alliance_tiles.value
    if sorted(tiles) != sorted(houses):
        out.append(_said("alliance_tiles", "alliance-houses", houses=sorted(tiles)))
    for house, values in tiles.items():
        if len(values) != 9:
            out.append(_said(f"alliance_tiles[{house}]", "alliance-count", count=len(values)))
        if any(not 2 <= v <= 5 for v in values):
            out.append(_said(f"alliance_tiles[{house}]", "alliance-values", values=values))
    return out


def _check_plans(c: Components) -> list[Said]:
    houses = set(c.houses.value)
    out = []
    colours = [b.colour.value for b in c.player_boards]
    if len(colours) != 4 or len(set(colours)) != 4:
        out.append(_said("player_boards", "boards", colours=colours))
    for b in c.player_boards:
        where = f"player_boards[{b.colour.value}].plan"
        plan = b.plan.value
        for row in ROWS[:3]:
            shields = getattr(plan, row)
            counts = sorted(Counter(shields).values())
            if len(shields) != 4 or counts != [1, 1, 2]:
                out.append(_said(f"{where}.{row}", "shields", shields=shields))
            out += [_said(f"{where}.{row}", "unknown-house", house=h) for h in shields
                    if h not in houses]
        if sorted(plan.marriage) != sorted(houses):
            out.append(_said(f"{where}.marriage", "marriage", houses=plan.marriage))
    return out


def _check_rules(c: Components) -> list[Said]:
    r = c.rules
    out = []
    if r.bonus_tiles_used.value + r.vp_tiles_used.value != r.rounds.value:
        out.append(_said("rules", "rounds"))
    if r.bonus_tiles_used.value > len(c.bonus_tiles) or r.vp_tiles_used.value > len(c.vp_tiles):
        out.append(_said("rules", "too-many-used"))
    if len(r.extra_florins.value) != 4:
        out.append(_said("rules.extra_florins", "extra-florins"))
    bonus_rounds = range(1, r.bonus_tiles_used.value + 1)
    if any(n not in bonus_rounds for n in r.wedding_florins.value.rounds):
        out.append(_said("rules.wedding_florins.rounds", "wedding-rounds"))
    if max(r.dice_per_colour.value.values(), default=0) > 4 or set(
            r.dice_per_colour.value) != {"2", "3", "4"}:
        out.append(_said("rules.dice_per_colour", "dice"))
    if set(r.cities_used.value) != {"2", "3", "4"} or any(
            not 1 <= v <= len(c.cities) for v in r.cities_used.value.values()):
        out.append(_said("rules.cities_used", "cities-used"))
    if set(r.alliance_removed_per_house.value) != {"2", "3", "4"} or any(
            not 0 <= v <= 8 for v in r.alliance_removed_per_house.value.values()):
        out.append(_said("rules.alliance_removed_per_house", "alliance-removed"))
    if not r.threshold.value.base <= r.threshold.value.max:
        out.append(_said("rules.threshold", "threshold"))
    if r.career_end_divisor.value < 1 or r.max_dice_per_round.value > 5:
        out.append(_said("rules", "divisor"))
    return out


# -- loading and the command-line check ---------------------------------------------------------


def parse(data: Any) -> Components:
    return Components.model_validate(data)


@cache
def load(path: str | None = None) -> Components:
    """The validated components (the shipped file when `path` is None)."""
    return parse(json.loads(Path(path or DATA).read_text(encoding="utf-8")))


def check_components(path: str | Path | None = None) -> list[str]:
    """The problems of a component file, each naming its place; empty when the file is fine."""
    try:
        data = json.loads(Path(path or DATA).read_text(encoding="utf-8"))
    except OSError as err:
        return [f"{path}: cannot be read ({err.strerror})"]
    except json.JSONDecodeError as err:
        return [f"{path}: not JSON (line {err.lineno}, column {err.colno}: {err.msg})"]
    try:
        parse(data)
    except ValidationError as err:
        return [problem_text(e) for e in err.errors()]
    return []


def problem_text(error: Any) -> str:
    place = ".".join(str(p) for p in error["loc"]) or "file"
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{place}: {message}"


def count_statuses(node: Any, counts: Counter[str]) -> None:
    if isinstance(node, dict):
        if node.get("status") in ("known", "provisional") and "value" in node:
            counts[node["status"]] += 1
        for value in node.values():
            count_statuses(value, counts)
    elif isinstance(node, list):
        for value in node:
            count_statuses(value, counts)


def summary(path: str | Path | None = None) -> str:
    """A few lines for people: what the file holds and how much of it is known."""
    c = load(str(path) if path else None)
    counts: Counter[str] = Counter()
    count_statuses(json.loads(Path(path or DATA).read_text(encoding="utf-8")), counts)
    colours = ", ".join(f"{s.colour.value} {s.cost.value} ({s.signoria.value.name})"
                        for s in c.action_slots)
    return "\n".join([
        f"Signorie components ({c.format})",
        f"action slots: {colours}",
        f"helper slots: {len(c.helper_slots.value)}; assignment tiles: "
        f"{len(c.assignment_tiles)}; reward tiles: {len(c.bonus_tiles)} bonus, "
        f"{len(c.vp_tiles)} VP",
        f"cities: {', '.join(city.name.value for city in c.cities)}",
        f"houses: {', '.join(c.houses.value)}",
        f"values: {counts['known']} known, {counts['provisional']} provisional",
    ])


def json_schema() -> dict[str, Any]:
    return Components.model_json_schema()


def schema_text() -> str:
    """The JSON Schema as exported to docs/ (a test keeps the exported file current)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
