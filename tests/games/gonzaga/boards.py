"""A small synthetic board for rule tests whose every hex is known by heart.

24 columns x 12 rows. Rows 0-7 are land in six bands of four columns (region k: columns
4k..4k+3), rows 8-11 are sea in six bands (sea k below region k). Each region has its four
cities on row 6 and its four harbors on row 7 (on sea k), so one fief can hold both.
Barriers separate regions 0 and 1 on rows 0-3.
"""

from __future__ import annotations

import copy
from typing import Any

REGIONS = ["hispania", "francia", "britannia", "italia", "germania", "orientalis"]
SEAS = ["s0", "s1", "s2", "s3", "s4", "s5"]
SYMBOLS = ["crown", "mitre", "book", "florin", "tower", "bell", "quill", "scales"]

SHAPES: dict[int, tuple[list[list[int]], list[list[int]]]] = {
    10: ([[0, 0], [1, 0], [2, 0]], [[0, 0], [2, 0]]),
    20: ([[0, 0], [1, 0], [1, 1]], [[0, 0], [1, 1]]),
    30: ([[0, 0], [1, 0], [0, 1]], [[0, 0], [1, 0]]),
    40: ([[0, 0], [1, 0], [2, 0], [3, 0]], [[0, 0], [3, 0]]),
    50: ([[0, 0], [1, 0], [2, 0], [2, 1]], [[0, 0], [2, 1]]),
    60: ([[0, 0], [1, 0], [2, 0], [1, 1]], [[0, 0], [1, 1]]),
    70: ([[0, 0], [1, 0], [0, 1], [1, 1]], [[0, 0], [1, 1]]),
    80: ([[0, 0], [1, 0], [1, 1], [2, 1]], [[0, 0], [2, 1]]),
    90: ([[0, 0], [1, 0], [2, 0], [3, 0]], [[0, 0], [1, 0]]),
    100: ([[0, 0], [1, 0], [0, 1], [-1, 2]], [[0, 0], [-1, 2]]),
    110: ([[0, 0], [1, 0], [2, 0]], [[0, 0], [1, 0]]),
    120: ([[0, 0], [1, 0], [1, 1], [0, 2]], [[1, 0], [0, 2]]),
}


def tiny_board_dict() -> dict[str, Any]:
    columns, rows = 24, 12
    land = "HFBIGE"
    sea = "abcdef"
    terrain = []
    for r in range(rows):
        chars = land if r < 8 else sea
        terrain.append("".join(chars[c // 4] for c in range(columns)))
    legend: dict[str, Any] = {ch: {"region": REGIONS[i]} for i, ch in enumerate(land)}
    legend.update({ch: {"sea": SEAS[i]} for i, ch in enumerate(sea)})
    cities = []
    harbors = []
    for k, region in enumerate(REGIONS):
        group = 1 if k < 3 else 2
        for j in range(4):
            symbol = SYMBOLS[j if group == 1 else 4 + j]
            cities.append({"id": f"c{k}{j}", "name": f"City {k}{j}", "region": region,
                           "symbol": symbol, "at": [4 * k + j, 6], "lat": 0, "lon": 0})
            harbors.append({"id": f"h{k}{j}", "name": f"Harbor {k}{j}", "region": region,
                            "sea": SEAS[k], "at": [4 * k + j, 7], "lat": 0, "lon": 0})
    return {
        "format": "gonzaga-board/1",
        "name": "tiny test board",
        "description": "synthetic board for tests",
        "columns": columns,
        "rows": rows,
        "terrain": terrain,
        "legend": legend,
        "regions": [{"id": r, "name": r.title(), "colour": "#888888",
                     "objective_group": 1 if i < 3 else 2, "seal": {"x": 0, "y": 0}}
                    for i, r in enumerate(REGIONS)],
        "seas": [{"id": s, "name": f"Sea {s}", "symbol": "anchor"} for s in SEAS],
        "symbols": [{"id": s, "name": s.title(), "meaning": "", "objective_group":
                     1 if i < 4 else 2} for i, s in enumerate(SYMBOLS)],
        "cities": cities,
        "harbors": harbors,
        "barriers": [{"range": "Test range",
                      "edges": [[[3, r], [4, r]] for r in range(4)]}],
        "church": {"x": 1, "y": 1},
        "fiefs": [{"number": n, "hexes": h, "castles": c} for n, (h, c) in SHAPES.items()],
        "scenarios": [
            {"name": "Duo", "players": 2, "flourishing": REGIONS[:3], "person": ""},
            {"name": "Trio", "players": 3, "flourishing": REGIONS[:4], "person": ""},
            {"name": "Colombo", "players": 4,
             "flourishing": ["hispania", "francia", "britannia", "italia"], "person": ""},
        ],
        "objectives": [{"id": 1 + 4 * a + b, "symbols": [SYMBOLS[a], SYMBOLS[4 + b]]}
                       for a in range(4) for b in range(4)],
    }


def tiny_board(**changes: Any):
    from tavola.games.gonzaga.board import board_from_dict

    data = copy.deepcopy(tiny_board_dict())
    data.update(changes)
    return board_from_dict(data)
