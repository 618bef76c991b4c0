"""Precomputed fief placements on the static board.

A fief placement is a fief, a rotation (sixths of a turn clockwise) and an anchor hex. Whether it
lies wholly on the map, keeps its castles on land (placing rule 3) and crosses no barrier
(placing rule 4) never changes during a game, nor do the cities, harbors and regions it covers.
So every such placement is listed once per board, as numpy arrays, and the engine only has to
test the few things that change: which hexes already hold a fief or the player's own ring.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from .actions import ACTION_COVERAGE
from .board import AXIAL_DIRECTIONS, Board, FiefShape, axial_to_offset, offset_to_axial


def action_allows(action: str, cities: int, harbors: int) -> bool:
    """Whether an action card lets a fief cover so many cities and harbors (`ACTION_COVERAGE`)."""
    return (cities, harbors) in _coverage(action)


def _coverage(action: str) -> frozenset[tuple[int, int]]:
    allowed = ACTION_COVERAGE.get(action)
    if allowed is None:
        raise ValueError(f"unknown action card {action!r}")
    return allowed


def cells_of(board: Board, fief: FiefShape, anchor: int, rotation: int) -> list[int | None]:
    """Hex indices covered by a fief placement, with None for a cell off the map."""
    col, row = board.coords[anchor]
    q0, r0 = offset_to_axial(col, row)
    cells, _ = fief.rotated(rotation)
    return [board.index_of.get(axial_to_offset(q0 + dq, r0 + dr)) for dq, dr in cells]


def static_problem(board: Board, fief: FiefShape, anchor: int, rotation: int) -> str | None:
    """Why a placement can never be legal on this board, or None if it can be."""
    found = cells_of(board, fief, anchor, rotation)
    cells = [c for c in found if c is not None]
    if len(cells) < len(found):
        return "off-map"
    _, castles = fief.rotated(rotation)
    if any(is_castle and board.region_of[c] is None for c, is_castle in zip(cells, castles,
                                                                                strict=True)):
        return "castle-at-sea"
    edges = board.barrier_edges
    if edges:
        cs = set(cells)
        for c in cells:
            for n in board.neighbours[c]:
                if n in cs and (c, n) in edges:
                    return "barrier"
    return None


@dataclass(eq=False)
class FiefPlacements:
    """All statically possible placements of one fief, deduplicated by covered hexes.

    The forms the engine reads them in are worked out as the table is made, into fields: a
    class compiled by mypyc does not keep a `cached_property`."""

    fief: FiefShape
    cells: np.ndarray  # (K, size) hex indices
    anchors: np.ndarray  # (K,) anchor hex index of the canonical (anchor, rotation)
    rotations: np.ndarray  # (K,)
    cities: np.ndarray  # (K,) cities covered
    harbors: np.ndarray  # (K,) harbors covered
    regions: np.ndarray  # (K, R) bool: covers land of region r
    lookup: dict[int, int]  # anchor * 6 + rotation -> row, for every equivalent pair
    #: `cells` widened to 4 columns (or a multiple of 8) by repeating each row's first hex,
    #: so that a row's one-byte flags per hex read as whole machine words (`free_rows`):
    #: listing placements tests thousands of rows on every turn. Kept as numpy's own index
    #: type, which indexing would otherwise convert to each time.
    padded_cells: np.ndarray = field(init=False, repr=False)
    #: each row's hexes as Python ints: a move applied reads a handful of hexes, where
    #: numpy's per-call cost outweighs the work
    cell_tuples: list[tuple[int, ...]] = field(init=False, repr=False)
    city_counts: list[int] = field(init=False, repr=False)  # `cities` as Python ints
    harbor_counts: list[int] = field(init=False, repr=False)  # `harbors` as Python ints
    #: per row, the regions whose land it touches as bits (bit r: region number r)
    region_bits: list[int] = field(init=False, repr=False)
    codes: list[int] = field(init=False, repr=False)  # each row's own anchor * 6 + rotation
    _castle_columns: list[int] = field(init=False, repr=False)  # the cells under castles

    def __post_init__(self) -> None:
        size = self.cells.shape[1]
        width = 4 if size <= 4 else -(-size // 8) * 8
        pad = np.repeat(self.cells[:, :1], width - size, axis=1)
        self.padded_cells = np.concatenate([self.cells, pad], axis=1).astype(np.intp)
        self.cell_tuples = [tuple(row) for row in self.cells.tolist()]
        self.city_counts = self.cities.tolist()
        self.harbor_counts = self.harbors.tolist()
        self.region_bits = [sum(1 << r for r, touched in enumerate(row) if touched)
                            for row in self.regions.tolist()]
        self.codes = (self.anchors.astype(np.int64) * 6 + self.rotations).tolist()
        self._castle_columns = [k for k, castle in enumerate(self.fief.rotated(0)[1]) if castle]

    def __len__(self) -> int:
        return len(self.anchors)

    def row_of(self, anchor: int, rotation: int) -> int | None:
        return self.lookup.get(anchor * 6 + rotation)

    def canonical_row(self, anchor: int, rotation: int) -> int | None:
        """The row whose own (anchor, rotation) this is, else None: only then are the row's
        cells in the order `cells_of` gives, so the row can stand for the placement."""
        row = self.lookup.get(anchor * 6 + rotation)
        if row is None or self.codes[row] != anchor * 6 + rotation:
            return None
        return row

    def castles(self, row: int) -> tuple[int, ...]:
        """The row's hexes under castles, in the order of its cells (a fief's castles are the
        same cells of its shape however it is turned)."""
        cells = self.cell_tuples[row]
        return tuple([cells[k] for k in self._castle_columns])


@dataclass(eq=False)
class PlacementTables:
    """A board's placement tables, fief by fief, and the rows each plan allows."""

    board: Board
    _fiefs: dict[int, FiefPlacements] | None = field(init=False, repr=False)
    _candidates: dict[tuple[int, tuple[int, ...], str], Candidates] = field(init=False,
                                                                            repr=False)
    _every: dict[int, Candidates] = field(init=False, repr=False)

    def __post_init__(self) -> None:  # the fields' defaults, set where mypyc sets them too
        self._fiefs, self._candidates, self._every = None, {}, {}

    @property
    def fiefs(self) -> dict[int, FiefPlacements]:
        """Every fief's table, built when first asked for (about a third of a second)."""
        if self._fiefs is None:
            self._fiefs = {n: _enumerate(self.board, f) for n, f in self.board.fiefs.items()}
        return self._fiefs

    def __getitem__(self, fief: int) -> FiefPlacements:
        return self.fiefs[fief]

    def candidates(self, fief: int, regions: tuple[int, ...], action: str) -> Candidates:
        """Rows of the fief's table touching any of `regions` (numbers) and allowed by an
        action card (`Candidates`); made once per board, whatever the scenario."""
        key = (fief, regions, action)
        found = self._candidates.get(key)
        if found is None:
            fp = self.fiefs[fief]
            in_region = fp.regions[:, list(regions)].any(axis=1)
            allowed = action_allows_array(action, fp.cities, fp.harbors)
            rows = np.flatnonzero(in_region & allowed).astype(np.int32)
            found = self._candidates[key] = Candidates.of(rows, fp.padded_cells[rows])
        return found

    def every_row(self, fief: int) -> Candidates:
        """Every row of the fief's table as `Candidates` (placements under any plan)."""
        found = self._every.get(fief)
        if found is None:
            fp = self.fiefs[fief]
            rows = np.arange(len(fp), dtype=np.int32)
            found = self._every[fief] = Candidates.of(rows, fp.padded_cells)
        return found


#: Each seat as the one byte its number is in an owner array (int8, -1 for none).
_SEAT_BYTE = tuple(bytes((seat,)) for seat in range(128))
_INT8 = np.dtype(np.int8)


@dataclass(frozen=True, eq=False)
class Candidates:
    """Placement rows that could be legal under one plan, made ready to be tested on every
    turn: the rows' `padded_cells` flat, so the owners of all their hexes are read in one
    gather and each row's bytes compared as machine words (a whole-map mask would cost
    more than the gather: a few hundred rows against 1,500 hexes)."""

    rows: np.ndarray  # (K,) rows of the fief's table
    cells: np.ndarray  # (K, width) their `padded_cells`
    flat: np.ndarray  # (K * width,) the same, flat
    word: np.dtype  # a row's bytes read as words of this type
    words: int  # words per row
    no_fief: np.ndarray  # 0-d (numpy compares with it at half a scalar's cost): a word of
    # hexes without a fief, every byte -1

    @classmethod
    def of(cls, rows: np.ndarray, cells: np.ndarray) -> Candidates:
        width = cells.shape[1]
        word: np.dtype[np.unsignedinteger[Any]] = np.dtype(np.uint32 if width == 4
                                                             else np.uint64)
        flat = np.ascontiguousarray(cells).reshape(-1)
        for array in (rows, cells, flat):
            array.setflags(write=False)
        return cls(rows, cells, flat, word, width // word.itemsize,
                   np.array(np.iinfo(word).max, dtype=word))

    def free(self, fief_owner: np.ndarray, ring_owner: np.ndarray, player: int) -> np.ndarray:
        """The rows covering no fief and none of `player`'s rings (NOTES 3), in order."""
        found: np.ndarray
        if fief_owner.dtype is not _INT8 or ring_owner.dtype is not _INT8:
            blocked = (fief_owner >= 0) | (ring_owner == player)
            found = self.rows[free_rows(blocked, self.cells)]
            return found
        words = _blocked_bytes(fief_owner, ring_owner, player)[self.flat].view(self.word)
        if self.words == 1:
            found = self.rows[words == self.no_fief]
        else:
            found = self.rows[(words == self.no_fief).reshape(-1, self.words).all(axis=1)]
        return found


def _blocked_bytes(fief_owner: np.ndarray, ring_owner: np.ndarray, player: int) -> np.ndarray:
    """The fief owners, with the hexes of `player`'s rings (a handful) marked as under a
    fief: a byte per hex, -1 (every bit set) exactly where a fief of `player` may go."""
    rings = ring_owner.tobytes()
    mine = _SEAT_BYTE[player]
    at = rings.find(mine)
    if at < 0:
        return fief_owner
    marked = fief_owner.copy()
    while at >= 0:
        marked[at] = 0
        at = rings.find(mine, at + 1)
    return marked


def free_rows(blocked: np.ndarray, padded: np.ndarray) -> np.ndarray:
    """Per row of `padded` cells (`FiefPlacements.padded_cells`), whether none of its hexes
    is `blocked` (a bool per hex): the row's flags, one byte a hex, read as words that must
    be zero."""
    flags = blocked.view(np.uint8)[padded]
    words = flags.view(np.uint32 if padded.shape[1] == 4 else np.uint64)
    found: np.ndarray = words[:, 0] == 0 if words.shape[1] == 1 else ~words.any(axis=1)
    return found


def action_allows_array(action: str, cities: np.ndarray, harbors: np.ndarray) -> np.ndarray:
    """`action_allows` over arrays of city and harbor counts."""
    return counts_allowed(_coverage(action), cities, harbors)


def counts_allowed(allowed: frozenset[tuple[int, int]], cities: np.ndarray,
                   harbors: np.ndarray) -> np.ndarray:
    """Per entry, whether its (cities, harbors) counts are in `allowed` (a table look-up)."""
    table = _allowed_table(allowed)
    size = table.shape[0] - 1
    found: np.ndarray = table[np.minimum(cities, size), np.minimum(harbors, size)]
    return found


@cache
def _allowed_table(allowed: frozenset[tuple[int, int]]) -> np.ndarray:
    """The look-up table of `counts_allowed`, made once per coverage rule."""
    size = 1 + max(max(c, h) for c, h in allowed)
    table = np.zeros((size + 1, size + 1), dtype=bool)  # the last row and column: too many
    for c, h in allowed:
        table[c, h] = True
    table.setflags(write=False)
    return table


def _grid_index(board: Board) -> np.ndarray:
    """(rows, columns) array of hex indices, -1 off the board."""
    grid = np.full((board.rows, board.columns), -1, dtype=np.int32)
    for i, (col, row) in enumerate(board.coords):
        grid[row, col] = i
    return grid


def _enumerate(board: Board, fief: FiefShape) -> FiefPlacements:
    """Vectorised over anchors: for each rotation, every anchor at once."""
    grid = _grid_index(board)
    coords = np.array(board.coords, dtype=np.int32).reshape(-1, 2)
    cols, rows = coords[:, 0], coords[:, 1]
    q0 = cols - (rows - (rows & 1)) // 2
    land = board.region_number >= 0
    barrier_codes = np.array(sorted(a * board.hex_count + b for a, b in board.barrier_edges),
                             dtype=np.int64)
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    rows_cells: list[np.ndarray] = []
    anchors: list[int] = []
    rotations: list[int] = []
    lookup: dict[int, int] = {}
    size = fief.size
    for rotation in range(6):
        offsets, castles = fief.rotated(rotation)
        cells = np.empty((board.hex_count, size), dtype=np.int32)
        for k, (dq, dr) in enumerate(offsets):
            r = rows + dr
            q = q0 + dq
            c = q + (r - (r & 1)) // 2
            inside = (r >= 0) & (r < board.rows) & (c >= 0) & (c < board.columns)
            cells[:, k] = np.where(inside, grid[np.clip(r, 0, board.rows - 1),
                                                np.clip(c, 0, board.columns - 1)], -1)
        ok = (cells >= 0).all(axis=1)
        safe = np.where(cells >= 0, cells, 0)
        castle_cols = [k for k, is_castle in enumerate(castles) if is_castle]
        ok &= land[safe[:, castle_cols]].all(axis=1)
        if len(barrier_codes):
            for a in range(size):
                for b in range(size):
                    if a != b and _adjacent(offsets[a], offsets[b]):
                        code = safe[:, a].astype(np.int64) * board.hex_count + safe[:, b]
                        ok &= ~np.isin(code, barrier_codes)
        for anchor in np.flatnonzero(ok):
            placed = cells[anchor]
            key = (tuple(sorted(placed.tolist())),
                   tuple(sorted(int(placed[k]) for k in castle_cols)))
            row = seen.get(key)
            if row is None:
                row = len(anchors)
                seen[key] = row
                rows_cells.append(placed)
                anchors.append(int(anchor))
                rotations.append(rotation)
            lookup[int(anchor) * 6 + rotation] = row
    cells_arr = (np.array(rows_cells, dtype=np.int32) if rows_cells
                 else np.zeros((0, size), dtype=np.int32)).reshape(-1, size)
    n_regions = len(board.regions)
    regions = np.zeros((len(anchors), n_regions), dtype=bool)
    if len(anchors):
        rn = board.region_number[cells_arr]
        for region in range(n_regions):
            regions[:, region] = (rn == region).any(axis=1)
    return FiefPlacements(
        fief=fief,
        cells=cells_arr,
        anchors=np.array(anchors, dtype=np.int32),
        rotations=np.array(rotations, dtype=np.int8),
        cities=board.is_city[cells_arr].sum(axis=1).astype(np.int8),
        harbors=board.is_harbor[cells_arr].sum(axis=1).astype(np.int8),
        regions=regions,
        lookup=lookup,
    )


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in AXIAL_DIRECTIONS


_tables: OrderedDict[str, PlacementTables] = OrderedDict()
#: The boards whose tables a process keeps, the most recently used: editions' boards come and go
#: (each check of a new one builds its tables), the shipped board's are used all the time.
TABLES_KEPT = 32


def placement_tables(board: Board) -> PlacementTables:
    """Placement tables of a board, built once per board content."""
    tables = _tables.get(board.content_hash)
    if tables is None or tables.board is not board:
        tables = PlacementTables(board)
        _tables[board.content_hash] = tables
    _tables.move_to_end(board.content_hash)
    while len(_tables) > TABLES_KEPT:
        _tables.popitem(last=False)
    return tables
