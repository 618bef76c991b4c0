"""The board and its pieces, loaded from a validated data file (see docs/board-format.md).

Everything the rules need about the static board is precomputed here once, as plain tuples and
numpy arrays indexed by hex number, so the engine never searches the map at run time.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
)
from pydantic_core import PydanticCustomError

from tavola import i18n
from tavola.editions import content_hash, field_name, schema_sentence

FORMAT = "gonzaga-board/1"
SQRT3 = math.sqrt(3.0)

#: Axial neighbour offsets, clockwise from east (pointy-top hexes).
AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


class Problem(str):
    """A problem's sentence that also says where it is, for an editor to show it: a JSON
    Pointer into the board file (`where`) and the hexes it is on (`marks`, "hex:C,R" with the
    file's column and row). `board check` prints the sentence alone (English); a problem made
    by `said` also keeps its English template and values, so the editor words it in its reader's
    language."""

    where: str
    marks: tuple[str, ...]
    template: str
    fields: dict[str, Any]

    speak: Callable[[], str] | None

    def __new__(cls, text: str, where: str = "", marks: Iterable[str] = ()) -> Problem:
        self = super().__new__(cls, text)
        self.where, self.marks = where, tuple(marks)
        self.template, self.fields, self.speak = "", {}, None
        return self

    @classmethod
    def spoken(cls, speak: Callable[[], str], where: str = "") -> Problem:
        """A sentence `speak` says in the language of the moment; English as a string."""
        with i18n.use(i18n.DEFAULT):
            self = cls(speak(), where)
        self.speak = speak
        return self

    @classmethod
    def said(cls, template: str, where: str = "", marks: Iterable[str] = (),
             **fields: Any) -> Problem:
        """A sentence of the game's text layer (`text.MESSAGES`) with its values, in English."""
        self = cls(template.format(**fields), where, marks)
        self.template, self.fields = template, fields
        return self

    def worded(self) -> str:
        """The sentence in the language of the moment (`tavola.i18n`); the data's own names
        stay as written."""
        if self.speak is not None:
            return self.speak()
        if not self.template:
            return str(self)
        fields = {k: v.worded() if isinstance(v, Spoken) else v for k, v in self.fields.items()}
        return i18n.gettext(_DOMAIN, self.template).format(**fields)


class Spoken(str):
    """A value of a problem's sentence that is itself words of the game's text layer (an action
    card's printed name): English as a string (`board check`, keys of reports), in the reader's
    language when its problem is worded."""

    say: Callable[[], str]

    def __new__(cls, say: Callable[[], str]) -> Spoken:
        with i18n.use(i18n.DEFAULT):
            self = super().__new__(cls, say())
        self.say = say
        return self

    def worded(self) -> str:
        return self.say()


_DOMAIN = "gonzaga"  # the catalogs the sentences below are translated in
#: The loader's sentences, written here only: the game's text layer (`text.MESSAGES`) takes them
#: in, since it imports this module and this module cannot import it; the catalogs read them
#: here (`GameKit.text_sources`). Worded in the reader's language by `Problem.worded`.
LOADING: dict[str, str] = {
    "load.not-object": "the board file must hold a JSON object",
    "load.format": "format must be {format!r}, found {found!r}",
    "load.missing": "missing keys: {keys}",
    "load.legend-key": "legend key {char!r} must be one character",
    "load.legend-region": "legend {char!r} names unknown region {region!r}",
    "load.legend-sea": "legend {char!r} names unknown sea {sea!r}",
    "load.legend-empty": "legend {char!r} must say region, sea or off",
    "load.terrain-rows": "terrain must have {rows} rows, found {count}",
    "load.terrain-row": "terrain row {row} must have {columns} characters",
    "load.terrain-char": "terrain ({col},{row}) uses {char!r}, which the legend lacks",
    "load.city-region": "city {city} names unknown region {region!r}",
    "load.city-symbol": "city {city} names unknown symbol {symbol!r}",
    "load.harbor-region": "harbor {harbor} names unknown region {region!r}",
    "load.harbor-sea": "harbor {harbor} names unknown sea {sea!r}",
    "load.fief-twice": "fief {fief} appears twice",
    "load.scenario-twice": "scenario {scenario!r} appears twice",
    "load.scenario-regions": "scenario {scenario} names unknown regions {regions}",
    "load.objective-symbols": "objective {objective} must name two known symbols, found {found}",
    "load.not-finite": "the board file holds a number that is not finite",
    "load.city-off": "city {city} at ({col},{row}) is not a playable hex",
    "load.harbor-off": "harbor {harbor} at ({col},{row}) is not a playable hex",
    "load.barrier-off": "barrier in {range} at ({col},{row}) is not a playable hex",
    "load.pair": "a pair of whole numbers (column, row) is needed, found {found}",
}


def _said(key: str, where: str = "", marks: Iterable[str] = (), **fields: Any) -> Problem:
    """The loader's sentence `key`, in English (`Problem.said`)."""
    return Problem.said(LOADING[key], where, marks, **fields)


def hex_mark(at: Iterable[int]) -> str:
    """A hex as a problem marks it ("hex:C,R")."""
    c, r = at
    return f"hex:{c},{r}"


def pointer(loc: Iterable[int | str]) -> str:
    """A location as a JSON Pointer (RFC 6901)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in loc)


class BoardError(ValueError):
    """A board file that cannot be used; the message names every problem found."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("invalid board: " + "; ".join(self.problems))


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    return q + (r - (r & 1)) // 2, r


def rotate_axial(q: int, r: int, turns: int) -> tuple[int, int]:
    """Rotate an axial offset by `turns` sixths of a turn clockwise."""
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def hex_centre(col: float, row: int) -> tuple[float, float]:
    return SQRT3 * (col + 0.5 * (row & 1)), 1.5 * row


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    colour: str
    objective_group: int
    seal: tuple[float, float]


@dataclass(frozen=True)
class Sea:
    id: str
    name: str
    symbol: str


@dataclass(frozen=True)
class Symbol:
    id: str
    name: str
    meaning: str
    objective_group: int


@dataclass(frozen=True)
class City:
    id: str
    name: str
    region: str
    symbol: str
    hex: int
    at: tuple[int, int]


@dataclass(frozen=True)
class Harbor:
    id: str
    name: str
    region: str
    sea: str
    hex: int
    at: tuple[int, int]


@dataclass(frozen=True)
class FiefShape:
    """One of the twelve fiefs every player owns; hexes and castles as axial offsets."""

    number: int
    hexes: tuple[tuple[int, int], ...]
    castles: tuple[tuple[int, int], ...]

    @property
    def size(self) -> int:
        return len(self.hexes)

    def rotated(self, turns: int) -> tuple[tuple[tuple[int, int], ...], tuple[bool, ...]]:
        """Hex offsets after `turns` clockwise sixths, with a castle flag per hex."""
        return _rotated(self, turns)


#: What players call the fief shapes (every polyhex of 3 and 4 hexes), by the cells of one
#: orientation; a fief is named by its shape, and by its castles when two fiefs share a shape.
SHAPE_NAMES: tuple[tuple[tuple[tuple[int, int], ...], str], ...] = (
    (((0, 0), (1, 0), (2, 0)), "short bar"),
    (((0, 0), (1, 0), (2, -1)), "bend"),
    (((0, 0), (1, 0), (0, 1)), "triangle"),
    (((0, 0), (1, 0), (2, 0), (3, 0)), "long bar"),
    (((0, 0), (0, 1), (0, 2), (1, -1)), "hook"),
    (((0, 0), (0, 1), (0, 2), (1, 0)), "flag"),
    (((0, 0), (0, 1), (1, -2), (1, -1)), "zigzag"),
    (((0, 0), (0, 1), (1, -1), (1, 0)), "diamond"),
    (((0, 0), (0, 1), (1, -1), (1, 1)), "arch"),
    (((0, 0), (1, -2), (1, -1), (2, -1)), "propeller"),
)


def shape_key(cells: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The same key for a set of hexes in any position, rotation or mirror image."""
    cells = tuple(cells)
    best: tuple[tuple[int, int], ...] | None = None
    for mirror in (False, True):
        for turns in range(6):
            moved = sorted(rotate_axial(r, q, turns) if mirror else rotate_axial(q, r, turns)
                           for q, r in cells)
            q0, r0 = moved[0]
            key = tuple((q - q0, r - r0) for q, r in moved)
            if best is None or key < best:
                best = key
    assert best is not None
    return best


_SHAPES = {shape_key(cells): name for cells, name in SHAPE_NAMES}


def _castles_apart(fief: FiefShape) -> bool:
    """Whether no two castles of a fief stand side by side."""
    castles = set(fief.castles)
    return not any((q + dq, r + dr) in castles for q, r in castles
                   for dq, dr in AXIAL_DIRECTIONS)


def fief_names(fiefs: Iterable[FiefShape]) -> dict[int, str]:
    """A name for every fief that players can tell from its picture: its shape ("long bar"),
    with its castles when another fief has the same shape ("long bar (3 castles)")."""
    fiefs = list(fiefs)
    shape = {f.number: _SHAPES.get(shape_key(f.hexes), f"{f.size}-hex fief") for f in fiefs}
    names: dict[int, str] = {}
    for f in fiefs:
        twins = [g for g in fiefs if shape[g.number] == shape[f.number]]
        if len(twins) == 1:
            names[f.number] = shape[f.number]
        elif len({len(g.castles) for g in twins}) == len(twins):
            names[f.number] = f"{shape[f.number]} ({len(f.castles)} castles)"
        elif len({_castles_apart(g) for g in twins}) == len(twins):
            side = "castles apart" if _castles_apart(f) else "castles side by side"
            names[f.number] = f"{shape[f.number]} ({side})"
        else:
            names[f.number] = f"{shape[f.number]} {twins.index(f) + 1}"
    return names


@lru_cache(maxsize=1024)
def _rotated(fief: FiefShape, turns: int) -> tuple[tuple[tuple[int, int], ...], tuple[bool, ...]]:
    # Cached: applying a placement asks for its rotated shape several times, and search applies
    # thousands of placements a second.
    castles = set(fief.castles)
    cells = tuple(rotate_axial(q, r, turns) for q, r in fief.hexes)
    return cells, tuple(h in castles for h in fief.hexes)


@dataclass(frozen=True)
class Scenario:
    name: str
    players: int
    flourishing: tuple[str, ...]
    person: str


@dataclass(frozen=True)
class Objective:
    id: int
    symbols: tuple[str, str]


@dataclass(eq=False)
class Board:
    """A loaded board: identity, geometry and pieces, with per-hex lookup tables."""

    raw: dict[str, Any]  # the file as read (its content hash identifies the board)
    model: BoardModel  # the file as validated
    name: str
    description: str
    content_hash: str
    columns: int
    rows: int
    coords: tuple[tuple[int, int], ...]
    index_of: dict[tuple[int, int], int]
    region_of: tuple[str | None, ...]
    sea_of: tuple[str | None, ...]
    regions: dict[str, Region]
    seas: dict[str, Sea]
    symbols: dict[str, Symbol]
    cities: dict[str, City]
    harbors: dict[str, Harbor]
    barriers: tuple[tuple[str, int, int], ...]
    church: tuple[float, float]
    fiefs: dict[int, FiefShape]
    scenarios: dict[str, Scenario]
    objectives: dict[int, Objective]
    scenery: tuple[tuple[int, int], ...] = field(default=())

    # -- derived tables -------------------------------------------------------------------------

    @property
    def hex_count(self) -> int:
        return len(self.coords)

    @cached_property
    def coord_array(self) -> np.ndarray:
        """(hexes, 2) `[column, row]` per hex index, for vectorised look-ups."""
        return np.array(self.coords, dtype=np.int32).reshape(-1, 2)

    @cached_property
    def is_land(self) -> np.ndarray:
        return np.array([r is not None for r in self.region_of], dtype=bool)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        out: list[tuple[int, ...]] = []
        for col, row in self.coords:
            q, r = offset_to_axial(col, row)
            near = []
            for dq, dr in AXIAL_DIRECTIONS:
                other = self.index_of.get(axial_to_offset(q + dq, r + dr))
                if other is not None:
                    near.append(other)
            out.append(tuple(near))
        return tuple(out)

    @cached_property
    def later_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Per hex, its neighbours of higher index: each side between two hexes once."""
        return tuple(tuple(n for n in near if n > h) for h, near in enumerate(self.neighbours))

    @cached_property
    def barrier_edges(self) -> frozenset[tuple[int, int]]:
        """Both orientations of every barrier edge, for O(1) look-ups."""
        edges = set()
        for _, a, b in self.barriers:
            edges.add((a, b))
            edges.add((b, a))
        return frozenset(edges)

    @cached_property
    def city_at(self) -> dict[int, City]:
        return {c.hex: c for c in self.cities.values()}

    @cached_property
    def harbor_at(self) -> dict[int, Harbor]:
        return {h.hex: h for h in self.harbors.values()}

    @cached_property
    def is_city(self) -> np.ndarray:
        arr = np.zeros(self.hex_count, dtype=bool)
        arr[list(self.city_at)] = True
        return arr

    @cached_property
    def place_hexes(self) -> np.ndarray:
        """The hexes of every city and harbor, in order."""
        return np.flatnonzero(self.is_city | self.is_harbor)

    @cached_property
    def is_harbor(self) -> np.ndarray:
        arr = np.zeros(self.hex_count, dtype=bool)
        arr[list(self.harbor_at)] = True
        return arr

    @cached_property
    def region_index(self) -> dict[str, int]:
        return {rid: i for i, rid in enumerate(self.regions)}

    @cached_property
    def region_number(self) -> np.ndarray:
        """Region index per hex, -1 at sea."""
        idx = self.region_index
        return np.array([idx[r] if r is not None else -1 for r in self.region_of], dtype=np.int8)

    @cached_property
    def sea_index(self) -> dict[str, int]:
        return {sid: i for i, sid in enumerate(self.seas)}

    @cached_property
    def sea_ids(self) -> tuple[str, ...]:
        """Sea ids in sea-index order."""
        return tuple(self.sea_index)

    @cached_property
    def sea_harbor_list(self) -> tuple[tuple[int, ...], ...]:
        """Per sea index, the hexes of its harbors."""
        number = self.harbor_sea_number
        return tuple(tuple(np.flatnonzero(number == s).tolist())
                     for s in range(len(self.sea_index)))

    @cached_property
    def harbor_hexes(self) -> np.ndarray:
        """The hexes of every harbor, sea by sea (`sea_harbor_list` as one index array)."""
        return np.array([h for hexes in self.sea_harbor_list for h in hexes], dtype=np.intp)

    @cached_property
    def harbor_hex_seas(self) -> tuple[int, ...]:
        """The sea index of each of `harbor_hexes`."""
        return tuple(s for s, hexes in enumerate(self.sea_harbor_list) for _ in hexes)

    @cached_property
    def harbor_sea_number(self) -> np.ndarray:
        """Sea index of the harbor on each hex, -1 where there is none."""
        arr = np.full(self.hex_count, -1, dtype=np.int8)
        for h in self.harbors.values():
            arr[h.hex] = self.sea_index[h.sea]
        return arr

    @cached_property
    def harbor_seas(self) -> list[int]:
        """`harbor_sea_number` as Python ints, for the few hexes of one move."""
        seas: list[int] = self.harbor_sea_number.tolist()
        return seas

    def objective_cities(self, objective: int) -> tuple[City, ...]:
        """The six cities an objective card names: those of its two symbols, symbol by symbol."""
        return self._objective_cities[objective]

    @cached_property
    def _objective_cities(self) -> dict[int, tuple[City, ...]]:
        return {number: tuple(c for s in card.symbols for c in self.cities.values()
                              if c.symbol == s) for number, card in self.objectives.items()}

    @cached_property
    def objective_masks(self) -> np.ndarray:
        """(highest objective number + 1, hexes) bool: the hexes of each card's cities."""
        masks = np.zeros((max(self.objectives, default=0) + 1, self.hex_count), dtype=bool)
        for number in self.objectives:
            masks[number, [c.hex for c in self.objective_cities(number)]] = True
        return masks

    @cached_property
    def objective_hexes(self) -> tuple[tuple[int, ...], ...]:
        """`objective_masks` as hex lists, for counting a card's six cities one by one."""
        return tuple(tuple(np.flatnonzero(mask).tolist()) for mask in self.objective_masks)

    def region_hexes(self, region: str) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.region_of) if r == region)

    def centre(self, index: int) -> tuple[float, float]:
        col, row = self.coords[index]
        return hex_centre(col, row)

    @cached_property
    def fief_names(self) -> dict[int, str]:
        """The name players know each fief by (`fief_names`), never its number."""
        return fief_names(self.fiefs.values())

    def fief_name(self, fief: int) -> str:
        return self.fief_names.get(fief, "fief")

    def place_name(self, index: int) -> str | None:
        """The city or harbor on a hex, if any."""
        place = self.city_at.get(index) or self.harbor_at.get(index)
        return place.name if place else None

    def hex_label(self, index: int) -> str:
        """A short human name for a hex: its place name if any, else its coordinates."""
        col, row = self.coords[index]
        place = self.city_at.get(index) or self.harbor_at.get(index)
        return f"{place.name} ({col},{row})" if place else f"({col},{row})"

    def at(self, col: int, row: int) -> int:
        try:
            return self.index_of[(col, row)]
        except KeyError:
            raise KeyError(f"hex ({col},{row}) is not on the board") from None

    def scenarios_for(self, players: int) -> list[Scenario]:
        return [s for s in self.scenarios.values() if s.players == players]

    def inactive_regions(self, scenario: Scenario) -> tuple[str, ...]:
        return tuple(r for r in self.regions if r not in scenario.flourishing)


# ---------------------------------------------------------------------------------------------
# The board file's schema (docs/board-format.md; exported to docs/gonzaga-board.schema.json)


def _pair_value(value: Any) -> Any:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise PydanticCustomError("load.pair", LOADING["load.pair"],
                                  {"found": repr(value)[:40]})
    return (int(value[0]), int(value[1]))


HexPair = Annotated[tuple[int, int], BeforeValidator(_pair_value)]
Number = StrictInt | StrictFloat


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PointModel(_Model):
    x: Number
    y: Number


class LegendModel(_Model):
    region: StrictStr | None = None
    sea: StrictStr | None = None
    off: StrictBool | None = None
    land: StrictBool | None = None


class RegionModel(_Model):
    id: StrictStr
    name: StrictStr
    colour: StrictStr
    objective_group: StrictInt
    seal: PointModel


class SeaModel(_Model):
    id: StrictStr
    name: StrictStr
    symbol: StrictStr


class SymbolModel(_Model):
    id: StrictStr
    name: StrictStr
    meaning: StrictStr = ""
    objective_group: StrictInt


class CityModel(_Model):
    id: StrictStr
    name: StrictStr
    region: StrictStr
    symbol: StrictStr
    at: HexPair
    lat: Number | None = None  # the real place (documents the reconstruction)
    lon: Number | None = None


class HarborModel(_Model):
    id: StrictStr
    name: StrictStr
    region: StrictStr
    sea: StrictStr
    at: HexPair
    lat: Number | None = None
    lon: Number | None = None


class BarrierModel(_Model):
    range: StrictStr
    edges: list[tuple[HexPair, HexPair]]


class FiefModel(_Model):
    number: StrictInt
    hexes: list[HexPair]  # axial offsets from the anchor, hexes[0] = [0, 0]
    castles: list[HexPair]


class ScenarioModel(_Model):
    name: StrictStr
    players: StrictInt
    flourishing: list[StrictStr]
    person: StrictStr = ""


class ObjectiveModel(_Model):
    id: StrictInt
    symbols: list[StrictStr]


class BoardModel(_Model):
    """A board file (`gonzaga-board/1`): everything printed on the board and its pieces."""

    model_config = ConfigDict(extra="forbid", frozen=True,
                              json_schema_extra={"title": "Gonzaga board file"})

    format: Literal["gonzaga-board/1"]
    name: StrictStr
    description: StrictStr = ""
    columns: Annotated[StrictInt, Field(gt=0)]
    rows: Annotated[StrictInt, Field(gt=0)]
    terrain: list[StrictStr]  # `rows` lines of `columns` legend characters
    legend: dict[str, LegendModel]
    regions: list[RegionModel]
    seas: list[SeaModel]
    symbols: list[SymbolModel]
    cities: list[CityModel]
    harbors: list[HarborModel]
    barriers: list[BarrierModel]
    church: PointModel
    fiefs: list[FiefModel]
    scenarios: list[ScenarioModel]
    objectives: list[ObjectiveModel]


SCHEMA_PATH = Path(__file__).resolve().parents[3] / "docs" / "gonzaga-board.schema.json"


def board_schema() -> dict[str, Any]:
    """The JSON Schema of a board file (docs/gonzaga-board.schema.json is this, exported)."""
    return BoardModel.model_json_schema()


def write_board_schema(path: Path = SCHEMA_PATH) -> None:
    path.write_text(json.dumps(board_schema(), indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8")


#: The board file's keys as the map editor labels them (its words, in the game's catalogs);
#: any other key is named as the file writes it.
FIELD_WORDS = {
    "cities": "City", "harbors": "Harbor", "fiefs": "Fief", "regions": "Region", "seas": "Sea",
    "barriers": "Barrier", "church": "Church", "symbols": "Symbol", "symbol": "Symbol",
    "name": "Name", "region": "Region", "sea": "Sea", "columns": "Columns", "rows": "Rows",
    "person": "Person", "players": "Players", "flourishing": "Flourishing regions",
    "scenarios": "Scenario", "objectives": "Objective", "legend": "Legend", "seal": "Seal",
}
#: What pydantic adds to a place when a value may be of several types (not the file's keys).
_TYPE_TAGS = frozenset({"int", "float", "str", "bool", "list", "tuple", "dict", "none"})


def _field_word(key: str) -> str:
    return i18n.gettext(_DOMAIN, FIELD_WORDS[key]) if key in FIELD_WORDS else key


def _field(loc: list[int | str], data: dict[str, Any]) -> str:
    """A place of the file in the editor's words: an entry by its id or number ("City
    toledo, Symbol"), in the language of the moment."""
    if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int) \
            and isinstance(data.get(loc[0]), list) and loc[1] < len(data[loc[0]]):
        entry = data[loc[0]][loc[1]]
        ident = entry.get("id", entry.get("name", entry.get("number"))) \
            if isinstance(entry, dict) else None
        if ident is not None:
            head = f"{_field_word(loc[0])} {ident}"
            return f"{head}, {field_name(loc[2:], _field_word)}" if loc[2:] else head
    return field_name(loc, _field_word)


def _schema_sentence(err: Any, loc: list[int | str], data: dict[str, Any]) -> str:
    field = _field(loc, data)
    kind = str(err.get("type"))
    if kind in LOADING:
        return f"{field}: " + i18n.gettext(_DOMAIN, LOADING[kind]).format(
            **(err.get("ctx") or {}))
    return schema_sentence(err, field)


def _schema_problems(error: ValidationError, data: dict[str, Any]) -> list[Problem]:
    """Each schema error as the text layer's sentence naming the entry (a city by its id, not
    its index), said in the reader's language (`Problem.spoken`)."""
    problems: dict[str, Problem] = {}  # a value of several types is one problem, the last's
    for err in error.errors():
        loc = [p for p in err["loc"] if not (isinstance(p, str) and p in _TYPE_TAGS)]
        problems[pointer(loc)] = Problem.spoken(
            functools.partial(_schema_sentence, err, loc, data), pointer(loc))
    return list(problems.values())


# ---------------------------------------------------------------------------------------------
# Loading


def default_board_path() -> Path:
    return Path(str(resources.files("tavola.games.gonzaga") / "data" / "europa.json"))


_cache: dict[str, Board] = {}
_DEFAULT = ""  # the key of the shipped board in `_cache`, besides its resolved path


def load_board(path: str | Path | None = None) -> Board:
    """Load and structurally validate a board file (the shipped one by default).

    Structural problems (missing keys, wrong types, unknown references) raise `BoardError`;
    the game-level invariants are checked by `gonzaga.boardcheck.check_board`.
    """
    if path is None:  # every new game asks: the shipped board is found on disk once
        board = _cache.get(_DEFAULT)
        if board is None:
            board = _cache[_DEFAULT] = load_board(default_board_path())
        return board
    p = Path(path)
    key = str(p.resolve())
    if key in _cache:
        return _cache[key]
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError([f"cannot read {p.name}: {exc.strerror or exc}"]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError([f"{p.name} is not valid JSON (line {exc.lineno}: {exc.msg})"]) from None
    board = board_from_dict(data, text=text)
    _cache[key] = board
    return board


def board_from_dict(data: Any, *, text: str | None = None) -> Board:
    """A board from a parsed board file: the schema (`BoardModel`) first, then the references
    between its parts. Every problem found raises one `BoardError` naming them all."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise BoardError([_said("load.not-object")])
    if data.get("format") != FORMAT:
        problems.append(_said("load.format", "/format", format=FORMAT, found=data.get("format")))
    required = [name for name, f in BoardModel.model_fields.items() if f.is_required()]
    missing = [k for k in required if k not in data]
    if missing:
        problems.append(_said("load.missing", keys=", ".join(missing)))
        raise BoardError(problems)
    try:
        model = BoardModel.model_validate(data)
    except ValidationError as exc:
        raise BoardError(problems + [p for p in _schema_problems(exc, data)
                                     if p.where != "/format"]) from None
    if problems:
        raise BoardError(problems)
    return _build(model, data, problems)


def _terrain(m: BoardModel, problems: list[str]) -> tuple[list[tuple[int, int]],
                                                        list[str | None], list[str | None],
                                                        list[tuple[int, int]]]:
    """The playable hexes of the terrain lines with their region or sea, and the scenery."""
    regions = {r.id for r in m.regions}
    seas = {s.id for s in m.seas}
    for ch, entry in m.legend.items():
        where = pointer(("legend", ch))
        if len(ch) != 1:
            problems.append(_said("load.legend-key", where, char=ch))
        elif entry.region is not None and entry.region not in regions:
            problems.append(_said("load.legend-region", where + "/region", char=ch,
                                  region=entry.region))
        elif entry.sea is not None and entry.sea not in seas:
            problems.append(_said("load.legend-sea", where + "/sea", char=ch, sea=entry.sea))
        elif entry.region is None and entry.sea is None and entry.off is None:
            problems.append(_said("load.legend-empty", where, char=ch))
    if len(m.terrain) != m.rows:
        problems.append(_said("load.terrain-rows", "/terrain", rows=m.rows,
                              count=len(m.terrain)))
        raise BoardError(problems)
    coords: list[tuple[int, int]] = []
    region_of: list[str | None] = []
    sea_of: list[str | None] = []
    scenery: list[tuple[int, int]] = []
    for row, line in enumerate(m.terrain):
        if len(line) != m.columns:
            problems.append(_said("load.terrain-row", f"/terrain/{row}", row=row,
                                  columns=m.columns))
            continue
        for col, ch in enumerate(line):
            kind = m.legend.get(ch)
            if kind is None:
                problems.append(_said("load.terrain-char", f"/terrain/{row}",
                                      [hex_mark((col, row))], col=col, row=row, char=ch))
            elif kind.region is not None or kind.sea is not None:
                coords.append((col, row))
                region_of.append(kind.region)
                sea_of.append(kind.sea)
            elif kind.land:
                scenery.append((col, row))
    if problems:
        raise BoardError(problems)
    return coords, region_of, sea_of, scenery


def _on_grid(m: BoardModel, at: tuple[int, int]) -> bool:
    return 0 <= at[0] < m.columns and 0 <= at[1] < m.rows


def _build(m: BoardModel, data: dict[str, Any], problems: list[str]) -> Board:
    coords, region_of, sea_of, scenery = _terrain(m, problems)
    index_of = {c: i for i, c in enumerate(coords)}

    def hex_of(at: tuple[int, int], key: str, where: str, **what: str) -> int:
        if at not in index_of:
            problems.append(_said(key, where, [hex_mark(at)] if _on_grid(m, at) else [],
                                  col=at[0], row=at[1], **what))
            return -1
        return index_of[at]

    regions = {r.id: Region(r.id, r.name, r.colour, r.objective_group,
                            (float(r.seal.x), float(r.seal.y))) for r in m.regions}
    seas = {x.id: Sea(x.id, x.name, x.symbol) for x in m.seas}
    symbols = {x.id: Symbol(x.id, x.name, x.meaning, x.objective_group) for x in m.symbols}
    cities = {c.id: City(c.id, c.name, c.region, c.symbol,
                         hex_of(c.at, "load.city-off", f"/cities/{i}/at", city=c.id), c.at)
              for i, c in enumerate(m.cities)}
    harbors = {h.id: Harbor(h.id, h.name, h.region, h.sea,
                            hex_of(h.at, "load.harbor-off", f"/harbors/{i}/at", harbor=h.id), h.at)
               for i, h in enumerate(m.harbors)}
    for i, c in enumerate(m.cities):
        mark = [hex_mark(c.at)]
        if c.region not in regions:
            problems.append(_said("load.city-region", f"/cities/{i}/region", mark, city=c.id,
                                  region=c.region))
        if c.symbol not in symbols:
            problems.append(_said("load.city-symbol", f"/cities/{i}/symbol", mark, city=c.id,
                                  symbol=c.symbol))
    for i, h in enumerate(m.harbors):
        mark = [hex_mark(h.at)]
        if h.region not in regions:
            problems.append(_said("load.harbor-region", f"/harbors/{i}/region", mark,
                                  harbor=h.id, region=h.region))
        if h.sea not in seas:
            problems.append(_said("load.harbor-sea", f"/harbors/{i}/sea", mark, harbor=h.id,
                                  sea=h.sea))
    barriers = [(group.range,
                 hex_of(a, "load.barrier-off", f"/barriers/{g}/edges/{e}", range=group.range),
                 hex_of(b, "load.barrier-off", f"/barriers/{g}/edges/{e}", range=group.range))
                for g, group in enumerate(m.barriers) for e, (a, b) in enumerate(group.edges)]
    fiefs: dict[int, FiefShape] = {}
    for i, f in enumerate(m.fiefs):
        if f.number in fiefs:
            problems.append(_said("load.fief-twice", f"/fiefs/{i}/number", fief=f.number))
        fiefs[f.number] = FiefShape(f.number, tuple(f.hexes), tuple(f.castles))
    scenarios: dict[str, Scenario] = {}
    for i, x in enumerate(m.scenarios):
        if x.name in scenarios:
            problems.append(_said("load.scenario-twice", f"/scenarios/{i}/name",
                                  scenario=x.name))
        unknown = [r for r in x.flourishing if r not in regions]
        if unknown:
            problems.append(_said("load.scenario-regions", f"/scenarios/{i}/flourishing",
                                  scenario=x.name, regions=unknown))
        scenarios[x.name] = Scenario(x.name, x.players, tuple(x.flourishing), x.person)
    objectives = {}
    for i, o in enumerate(m.objectives):
        pair = tuple(o.symbols)
        if len(pair) != 2 or any(sym not in symbols for sym in pair):
            problems.append(_said("load.objective-symbols", f"/objectives/{i}/symbols",
                                  objective=o.id, found=pair))
            continue
        objectives[o.id] = Objective(o.id, (pair[0], pair[1]))
    if problems:
        raise BoardError(problems)
    try:
        digest = content_hash(data)  # as an edition's (`tavola.editions`)
    except ValueError:
        raise BoardError([_said("load.not-finite")]) from None
    return Board(
        raw=data,
        model=m,
        name=m.name,
        description=m.description,
        content_hash=digest,
        columns=m.columns,
        rows=m.rows,
        coords=tuple(coords),
        index_of=index_of,
        region_of=tuple(region_of),
        sea_of=tuple(sea_of),
        regions=regions,
        seas=seas,
        symbols=symbols,
        cities=cities,
        harbors=harbors,
        barriers=tuple(barriers),
        church=(float(m.church.x), float(m.church.y)),
        fiefs=fiefs,
        scenarios=scenarios,
        objectives=objectives,
        scenery=tuple(scenery),
    )
