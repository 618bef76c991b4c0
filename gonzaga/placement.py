"""Precomputed fief placements on the static board.

A fief placement is a fief, a rotation (sixths of a turn clockwise) and an anchor hex. Whether it
lies wholly on the map, keeps its castles on land (placing rule 3) and crosses no barrier
(placing rule 4) never changes during a game, nor do the cities, harbors and regions it covers.
So every such placement is listed once per board, as numpy arrays, and the engine only has to
test the few things that change: which hexes already hold a fief or the player's own ring.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .actions import ALLIANCE, CITIES, HARBORS
from .board import Board, FiefShape, axial_to_offset, offset_to_axial


def action_allows(action: str, cities: int, harbors: int) -> bool:
    """Coverage limits of an action card (rulebook "Plan your move", NOTES 1)."""
    if action == HARBORS:
        return cities == 0 and harbors in (1, 2)
    if action == CITIES:
        return harbors == 0 and cities <= 3
    if action == ALLIANCE:
        return (cities, harbors) in ((1, 1), (2, 1), (1, 2))
    raise ValueError(f"unknown action card {action!r}")


def cells_of(board: Board, fief: FiefShape, anchor: int, rotation: int) -> list[int | None]:
    """Hex indices covered by a fief placement, with None for a cell off the map."""
    col, row = board.coords[anchor]
    q0, r0 = offset_to_axial(col, row)
    cells, _ = fief.rotated(rotation)
    return [board.index_of.get(axial_to_offset(q0 + dq, r0 + dr)) for dq, dr in cells]


def static_problem(board: Board, fief: FiefShape, anchor: int, rotation: int) -> str | None:
    """Why a placement can never be legal on this board, or None if it can be."""
    cells = cells_of(board, fief, anchor, rotation)
    if any(c is None for c in cells):
        return "off-map"
    _, castles = fief.rotated(rotation)
    if any(is_castle and board.region_of[c] is None for c, is_castle in zip(cells, castles,
                                                                                strict=True)):
        return "castle-at-sea"
    edges = board.barrier_edges
    if edges:
        cs = set(cells)
        for c in cells:
            for n in board.neighbours[c]:  # type: ignore[index]
                if n in cs and (c, n) in edges:
                    return "barrier"
    return None


@dataclass(eq=False)
class FiefPlacements:
    """All statically possible placements of one fief, deduplicated by covered hexes."""

    fief: FiefShape
    cells: np.ndarray  # (K, size) hex indices
    anchors: np.ndarray  # (K,) anchor hex index of the canonical (anchor, rotation)
    rotations: np.ndarray  # (K,)
    cities: np.ndarray  # (K,) cities covered
    harbors: np.ndarray  # (K,) harbors covered
    regions: np.ndarray  # (K, R) bool: covers land of region r
    lookup: dict[int, int]  # anchor * 6 + rotation -> row, for every equivalent pair

    def __len__(self) -> int:
        return len(self.anchors)

    def row_of(self, anchor: int, rotation: int) -> int | None:
        return self.lookup.get(anchor * 6 + rotation)


@dataclass(eq=False)
class PlacementTables:
    board: Board

    @cached_property
    def fiefs(self) -> dict[int, FiefPlacements]:
        return {n: _enumerate(self.board, f) for n, f in self.board.fiefs.items()}

    def __getitem__(self, fief: int) -> FiefPlacements:
        return self.fiefs[fief]


def _enumerate(board: Board, fief: FiefShape) -> FiefPlacements:
    seen: dict[tuple[frozenset[int], frozenset[int]], int] = {}
    rows_cells: list[list[int]] = []
    anchors: list[int] = []
    rotations: list[int] = []
    lookup: dict[int, int] = {}
    for rotation in range(6):
        _, castles = fief.rotated(rotation)
        for anchor in range(board.hex_count):
            if static_problem(board, fief, anchor, rotation) is not None:
                continue
            cells = [c for c in cells_of(board, fief, anchor, rotation) if c is not None]
            key = (frozenset(cells),
                   frozenset(c for c, k in zip(cells, castles, strict=True) if k))
            row = seen.get(key)
            if row is None:
                row = len(anchors)
                seen[key] = row
                rows_cells.append(cells)
                anchors.append(anchor)
                rotations.append(rotation)
            lookup[anchor * 6 + rotation] = row
    size = fief.size
    cells_arr = np.array(rows_cells, dtype=np.int32).reshape(-1, size)
    n_regions = len(board.regions)
    region_number = board.region_number
    regions = np.zeros((len(anchors), n_regions), dtype=bool)
    if len(anchors):
        rn = region_number[cells_arr]
        for r in range(n_regions):
            regions[:, r] = (rn == r).any(axis=1)
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


_tables: dict[str, PlacementTables] = {}


def placement_tables(board: Board) -> PlacementTables:
    """Placement tables of a board, built once per board content."""
    tables = _tables.get(board.content_hash)
    if tables is None or tables.board is not board:
        tables = PlacementTables(board)
        _tables[board.content_hash] = tables
    return tables
