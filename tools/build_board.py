"""Generate tavola/games/gonzaga/data/europa.json, the reconstructed Gonzaga board.

The printed map of the 2009 edition is not public, so the shipped board is rebuilt from real
geography: a pointy-top odd-r hex grid is laid over western and central Europe, each hex is
land or sea by majority vote of a coastline mask, land hexes get a region from the country
under them (then hand-coded historical rules), seas are grown from their harbors, and cities
and harbors sit on the hex nearest their real position.  A place moves only where it must: a
harbor whose hex is sea or inland goes to the nearest coastal hex of its region, and a place
whose hex is sea or already taken goes to the nearest free land hex of its region; each such
nudge is printed.  Run once by developers, from the repository root::

    .venv/bin/python tools/build_board.py    # writes tavola/games/gonzaga/data/europa.json

The result is validated with the engine's own `gonzaga.boardcheck.check_board` before it is
written (nothing is written, and the exit status is 1, if it reports a problem).  It needs the
optional ``board-tools`` extras (global-land-mask, reverse-geocoder); the game itself only
reads the JSON this script writes.  Every choice that is not geography (regions' historical
borders, seas' separating lines, fiefs, scenarios) is spelled out below so the board can be
regenerated and reviewed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

try:
    from tavola.games.gonzaga.board import Board, BoardError, board_from_dict
    from tavola.games.gonzaga.boardcheck import check_board, fit_table
except ImportError:  # a checkout without the package installed: use the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tavola.games.gonzaga.board import Board, BoardError, board_from_dict
    from tavola.games.gonzaga.boardcheck import check_board, fit_table

Hex = tuple[int, int]  # (column, row) in odd-r offset coordinates
Axial = tuple[int, int]  # (q, r)

OUT = (Path(__file__).resolve().parent.parent / "tavola" / "games" / "gonzaga" / "data"
       / "europa.json")

# --------------------------------------------------------------------------------------------
# Grid and projection
# --------------------------------------------------------------------------------------------

COLUMNS = 38
ROWS = 46
LON_WEST, LON_EAST = -10.5, 26.5
LAT_CENTRE = 47.6
# Equirectangular with longitudes shrunk by cos(47°); one scale for both axes keeps shapes true.
# With 46 rows the board is 4 % taller than wide (the printed board is 60 x 63 cm).
KX = math.cos(math.radians(47.0))
SQRT3 = math.sqrt(3.0)
WIDTH = SQRT3 * (COLUMNS + 0.5)  # pixel frame, hex circumradius 1
HEIGHT = 1.5 * (ROWS - 1) + 2.0
DEG_PER_UNIT = (LON_EAST - LON_WEST) * KX / WIDTH
LAT_NORTH = LAT_CENTRE + HEIGHT / 2 * DEG_PER_UNIT

LAND_CHARS = {"H": "hispania", "F": "francia", "B": "britannia", "I": "italia", "G": "germania",
              "E": "orientalis"}
SEA_CHARS = {"g": "mare-germanicum", "b": "mare-balticum", "n": "oceanus-britannicus",
             "a": "oceanus-atlanticus", "m": "mare-mediterraneum", "d": "mare-adriaticum"}
REGION_CHAR = {v: k for k, v in LAND_CHARS.items()}
SEA_CHAR = {v: k for k, v in SEA_CHARS.items()}
SCENERY = "x"
OFF = "."
WATER = "~"  # sea not yet given to a sea (only during generation)


def centre(h: Hex) -> tuple[float, float]:
    """Pixel-frame centre of a hex (format doc, 'Coordinates')."""
    c, r = h
    return SQRT3 * (c + 0.5 * (r % 2)), 1.5 * r


def to_latlon(x: float, y: float) -> tuple[float, float]:
    """Inverse projection: pixel frame to (lat, lon)."""
    lon = LON_WEST + (x + SQRT3 / 2) * DEG_PER_UNIT / KX
    lat = LAT_NORTH - (y + 1.0) * DEG_PER_UNIT
    return lat, lon


def to_xy(lat: float, lon: float) -> tuple[float, float]:
    """Projection: (lat, lon) to the pixel frame."""
    x = (lon - LON_WEST) * KX / DEG_PER_UNIT - SQRT3 / 2
    y = (LAT_NORTH - lat) / DEG_PER_UNIT - 1.0
    return x, y


def all_hexes() -> Iterator[Hex]:
    for r in range(ROWS):
        for c in range(COLUMNS):
            yield c, r


def neighbours(h: Hex) -> list[Hex]:
    """The up to six on-grid neighbours of an odd-r hex."""
    c, r = h
    if r % 2 == 0:
        deltas = ((1, 0), (-1, 0), (0, -1), (-1, -1), (0, 1), (-1, 1))
    else:
        deltas = ((1, 0), (-1, 0), (1, -1), (0, -1), (1, 1), (0, 1))
    out = []
    for dc, dr in deltas:
        cc, rr = c + dc, r + dr
        if 0 <= cc < COLUMNS and 0 <= rr < ROWS:
            out.append((cc, rr))
    return out


def to_axial(h: Hex) -> Axial:
    c, r = h
    return c - (r - (r % 2)) // 2, r


def hex_distance(a: Hex, b: Hex) -> int:
    (q1, r1), (q2, r2) = to_axial(a), to_axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def nearest_hex(lat: float, lon: float) -> Hex:
    x, y = to_xy(lat, lon)
    return min(all_hexes(), key=lambda h: math.dist(centre(h), (x, y)))


def pixel_distance(h: Hex, lat: float, lon: float) -> float:
    return math.dist(centre(h), to_xy(lat, lon))


def hex_latlon(h: Hex) -> tuple[float, float]:
    return to_latlon(*centre(h))


# Sample points inside a hex for the land vote: centre, an inner ring and an outer ring.
SAMPLES: list[tuple[float, float]] = [(0.0, 0.0)]
SAMPLES += [(0.45 * math.cos(math.radians(30 + 60 * k)), 0.45 * math.sin(math.radians(30 + 60 * k)))
            for k in range(6)]
SAMPLES += [(0.78 * math.cos(math.radians(15 * k)), 0.78 * math.sin(math.radians(15 * k)))
            for k in range(0, 24, 2)]


# --------------------------------------------------------------------------------------------
# Places (real positions, WGS84)
# --------------------------------------------------------------------------------------------

# (id, name, region, sea, lat, lon)
HARBORS: list[tuple[str, str, str, str, float, float]] = [
    ("london", "London", "britannia", "mare-germanicum", 51.507, -0.128),
    ("newcastle", "Newcastle", "britannia", "mare-germanicum", 54.978, -1.618),
    ("hamburg", "Hamburg", "germania", "mare-germanicum", 53.551, 9.994),
    ("amsterdam", "Amsterdam", "germania", "mare-germanicum", 52.370, 4.895),
    ("luebeck", "Lübeck", "germania", "mare-balticum", 53.866, 10.686),
    ("stettin", "Stettin", "germania", "mare-balticum", 53.428, 14.553),
    ("danzig", "Danzig", "orientalis", "mare-balticum", 54.352, 18.646),
    ("riga", "Riga", "orientalis", "mare-balticum", 56.950, 24.105),
    ("bristol", "Bristol", "britannia", "oceanus-britannicus", 51.454, -2.588),
    ("plymouth", "Plymouth", "britannia", "oceanus-britannicus", 50.376, -4.143),
    ("brest", "Brest", "francia", "oceanus-britannicus", 48.390, -4.486),
    ("saint_malo", "Saint-Malo", "francia", "oceanus-britannicus", 48.649, -2.026),
    ("bordeaux", "Bordeaux", "francia", "oceanus-atlanticus", 44.838, -0.579),
    ("bilbao", "Bilbao", "hispania", "oceanus-atlanticus", 43.263, -2.935),
    ("a_coruna", "A Coruña", "hispania", "oceanus-atlanticus", 43.362, -8.412),
    ("lisboa", "Lisboa", "hispania", "oceanus-atlanticus", 38.722, -9.139),
    ("barcelona", "Barcelona", "hispania", "mare-mediterraneum", 41.385, 2.173),
    ("marseille", "Marseille", "francia", "mare-mediterraneum", 43.297, 5.370),
    ("genova", "Genova", "italia", "mare-mediterraneum", 44.405, 8.946),
    ("napoli", "Napoli", "italia", "mare-mediterraneum", 40.852, 14.268),
    ("venezia", "Venezia", "italia", "mare-adriaticum", 45.441, 12.316),
    ("ancona", "Ancona", "italia", "mare-adriaticum", 43.616, 13.519),
    ("zara", "Zara", "orientalis", "mare-adriaticum", 44.119, 15.232),
    ("ragusa", "Ragusa", "orientalis", "mare-adriaticum", 42.650, 18.094),
]

# Where a harbor's ships lie when that is not the town itself and the coarse coast hides it:
# used instead of the real position to choose the hex (the JSON keeps the real lat/lon).
ANCHORAGES: dict[str, tuple[float, float, str]] = {
    "london": (51.65, 1.0, "the Thames estuary, so that London lies north of Canterbury"),
}

# (id, name, region, symbol, lat, lon)
CITIES: list[tuple[str, str, str, str, float, float]] = [
    ("toledo", "Toledo", "hispania", "crown", 39.857, -4.024),
    ("santiago", "Santiago de Compostela", "hispania", "mitre", 42.880, -8.545),
    ("salamanca", "Salamanca", "hispania", "book", 40.965, -5.664),
    ("sevilla", "Sevilla", "hispania", "florin", 37.389, -5.984),
    ("reims", "Reims", "francia", "crown", 49.258, 4.032),
    ("avignon", "Avignon", "francia", "mitre", 43.949, 4.806),
    ("paris", "Paris", "francia", "book", 48.857, 2.352),
    ("lyon", "Lyon", "francia", "florin", 45.764, 4.836),
    ("mantova", "Mantova", "italia", "crown", 45.156, 10.791),
    ("roma", "Roma", "italia", "mitre", 41.903, 12.496),
    ("bologna", "Bologna", "italia", "book", 44.494, 11.343),
    ("firenze", "Firenze", "italia", "florin", 43.770, 11.256),
    ("edinburgh", "Edinburgh", "britannia", "tower", 55.953, -3.188),
    ("canterbury", "Canterbury", "britannia", "bell", 51.280, 1.079),
    ("oxford", "Oxford", "britannia", "quill", 51.752, -1.258),
    ("york", "York", "britannia", "scales", 53.960, -1.082),
    ("wien", "Wien", "germania", "tower", 48.208, 16.373),
    ("koeln", "Köln", "germania", "bell", 50.938, 6.960),
    ("praha", "Praha", "germania", "quill", 50.076, 14.438),
    ("nuernberg", "Nürnberg", "germania", "scales", 49.454, 11.077),
    ("buda", "Buda", "orientalis", "tower", 47.498, 19.040),
    ("vilnius", "Vilnius", "orientalis", "bell", 54.687, 25.280),
    ("krakow", "Kraków", "orientalis", "quill", 50.065, 19.945),
    ("elbing", "Elbing", "orientalis", "scales", 54.156, 19.404),  # Elbląg, Hanseatic
]

REGIONS: list[dict[str, Any]] = [
    # colour: muted print-like palette; seal: (lat, lon) of a point at sea or off-board nearby.
    {"id": "hispania", "name": "Hispania", "colour": "#d9a55c", "objective_group": 1,
     "seal_at": (36.1, -8.3)},
    {"id": "francia", "name": "Francia", "colour": "#a793c9", "objective_group": 1,
     "seal_at": (46.0, -3.8)},
    {"id": "britannia", "name": "Britannia", "colour": "#d4857e", "objective_group": 2,
     "seal_at": (58.3, -6.3)},
    {"id": "italia", "name": "Italia", "colour": "#a9bd73", "objective_group": 1,
     "seal_at": (39.6, 11.4)},
    {"id": "germania", "name": "Germania", "colour": "#e3cc7e", "objective_group": 2,
     "seal_at": (56.0, 4.8)},
    {"id": "orientalis", "name": "Europa Orientalis", "colour": "#8fb89b", "objective_group": 2,
     "seal_at": (56.0, 18.2)},
]

SEAS: list[dict[str, str]] = [
    {"id": "mare-germanicum", "name": "Mare Germanicum", "symbol": "anchor"},
    {"id": "mare-balticum", "name": "Mare Balticum", "symbol": "shell"},
    {"id": "oceanus-britannicus", "name": "Oceanus Britannicus", "symbol": "ship"},
    {"id": "oceanus-atlanticus", "name": "Oceanus Atlanticus", "symbol": "compass"},
    {"id": "mare-mediterraneum", "name": "Mare Mediterraneum", "symbol": "trident"},
    {"id": "mare-adriaticum", "name": "Mare Adriaticum", "symbol": "wheel"},
]

SYMBOLS: list[dict[str, Any]] = [
    {"id": "crown", "name": "Crown", "meaning": "seat of a royal or princely court",
     "objective_group": 1},
    {"id": "mitre", "name": "Mitre", "meaning": "holy see or great pilgrimage",
     "objective_group": 1},
    {"id": "book", "name": "Book", "meaning": "old university", "objective_group": 1},
    {"id": "florin", "name": "Florin", "meaning": "banking and trade fairs", "objective_group": 1},
    {"id": "tower", "name": "Tower", "meaning": "fortress capital", "objective_group": 2},
    {"id": "bell", "name": "Bell", "meaning": "cathedral city", "objective_group": 2},
    {"id": "quill", "name": "Quill", "meaning": "charter and learning", "objective_group": 2},
    {"id": "scales", "name": "Scales", "meaning": "guilds and markets", "objective_group": 2},
]

# Church space: the empty Atlantic corner at the top left.
CHURCH_AT = (59.6, -8.6)

HIS, FRA, BRI, ITA, GER, ORI = ("hispania", "francia", "britannia", "italia", "germania",
                                "orientalis")
# Flourishing regions make a neighbourly group, as a person's Europe would.
SCENARIOS: list[tuple[str, int, list[str], str]] = [
    ("Cervantes", 2, [HIS, FRA, ITA],
     "Miguel de Cervantes (1547–1616), Spanish novelist, soldier in Italy"),
    ("Shakespeare", 2, [BRI, GER, ORI], "William Shakespeare (1564–1616), English playwright"),
    ("Marco Polo", 2, [FRA, ITA, ORI], "Marco Polo (1254–1324), Venetian merchant and traveller"),
    ("Copernico", 2, [ITA, GER, ORI],
     "Nicolaus Copernicus (1473–1543), astronomer of Toruń, Kraków and Bologna"),
    ("Gutenberg", 2, [FRA, BRI, GER], "Johannes Gutenberg (c. 1400–1468), printer of Mainz"),
    ("Giovanna d'Arco", 3, [HIS, FRA, BRI, GER],
     "Joan of Arc (1412–1431), the Maid of Orléans, in the Hundred Years' War"),
    ("Petrarca", 3, [HIS, FRA, ITA, GER],
     "Francesco Petrarca (1304–1374), poet and humanist of Avignon"),
    ("Leonardo", 3, [FRA, BRI, ITA, GER], "Leonardo da Vinci (1452–1519), painter and engineer"),
    ("Galileo", 3, [BRI, ITA, GER, ORI], "Galileo Galilei (1564–1642), astronomer and physicist"),
    ("Machiavelli", 3, [FRA, ITA, GER, ORI],
     "Niccolò Machiavelli (1469–1527), Florentine envoy to France and the Emperor"),
    ("Colombo", 4, [HIS, FRA, BRI, ITA],
     "Christopher Columbus (1451–1506), Genoese navigator for Castile"),
    ("Lorenzo de' Medici", 4, [HIS, FRA, BRI, ITA, GER],
     "Lorenzo the Magnificent (1449–1492), banker and ruler of Florence"),
    ("Isabella d'Este", 4, [HIS, FRA, ITA, GER, ORI],
     "Isabella d'Este (1474–1539), Marchioness of Mantua, wife of Francesco II Gonzaga"),
    ("Michelangelo", 4, [FRA, BRI, ITA, GER, ORI],
     "Michelangelo Buonarroti (1475–1564), sculptor and painter"),
    ("Dante", 4, [FRA, BRI, ITA, GER], "Dante Alighieri (1265–1321), Florentine poet"),
    ("Mantegna", 4, [HIS, ITA, GER, ORI],
     "Andrea Mantegna (c. 1431–1506), court painter of the Gonzaga"),
]

# --------------------------------------------------------------------------------------------
# Fiefs (axial coordinates; hexes[0] is the anchor [0, 0])
# --------------------------------------------------------------------------------------------

FIEFS: list[tuple[int, list[Axial], list[Axial]]] = [
    # three hexes: straight, bent (120°), triangle, and the straight once more
    (10, [(0, 0), (1, 0), (2, 0)], [(0, 0), (2, 0)]),
    (20, [(0, 0), (1, 0), (2, -1)], [(0, 0), (2, -1)]),
    (30, [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0)]),
    (40, [(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0)]),
    # four hexes: the seven free tetrahexes, and the bar once more
    (50, [(0, 0), (1, 0), (2, 0), (3, 0)], [(0, 0), (3, 0)]),  # bar
    (60, [(0, 0), (0, 1), (0, 2), (1, -1)], [(1, -1), (0, 2)]),  # bar with a bent end
    (70, [(0, 0), (0, 1), (0, 2), (1, 0)], [(1, 0), (0, 2)]),  # triangle with a tail
    (80, [(0, 0), (0, 1), (1, -2), (1, -1)], [(0, 1), (1, -2)]),  # zigzag
    (90, [(0, 0), (0, 1), (1, -1), (1, 0)], [(1, -1), (0, 1)]),  # rhombus
    (100, [(0, 0), (0, 1), (1, -1), (1, 1)], [(1, -1), (1, 1)]),  # arch
    (110, [(0, 0), (1, -2), (1, -1), (2, -1)], [(0, 0), (1, -2), (2, -1)]),  # propeller
    (120, [(0, 0), (1, 0), (2, 0), (3, 0)], [(0, 0), (1, 0), (2, 0)]),  # bar again
]


# --------------------------------------------------------------------------------------------
# Land, countries, regions
# --------------------------------------------------------------------------------------------

def land_fractions() -> dict[Hex, float]:
    """Share of each hex's sample points that the coastline mask calls land."""
    from global_land_mask import globe

    lats, lons, keys = [], [], []
    for h in all_hexes():
        x, y = centre(h)
        for dx, dy in SAMPLES:
            lat, lon = to_latlon(x + dx, y + dy)
            lats.append(lat)
            lons.append(lon)
            keys.append(h)
    land = globe.is_land(np.array(lats), np.array(lons))
    total: Counter[Hex] = Counter()
    for h, is_land in zip(keys, land, strict=True):
        total[h] += int(is_land)
    return {h: total[h] / len(SAMPLES) for h in all_hexes()}


def components(cells: set[Hex]) -> list[set[Hex]]:
    """Connected components of a set of hexes (hex adjacency)."""
    seen: set[Hex] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        comp = {start}
        queue = deque([start])
        seen.add(start)
        while queue:
            h = queue.popleft()
            for n in neighbours(h):
                if n in cells and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    queue.append(n)
        out.append(comp)
    return out


# Hexes forced to sea or land after the vote, where the coarse grid would close a strait or
# swallow a well-known island: (lat, lon) of a point inside the hex, and why.
FORCE_SEA: list[tuple[float, float, str]] = [
    (41.07, 9.20, "Strait of Bonifacio: Corsica and Sardinia stay two islands"),
]
FORCE_LAND: list[tuple[float, float, str]] = [
    (41.65, 9.20, "southern Corsica, so that Corsica has two hexes"),
    (39.60, 2.95, "Mallorca"),
]


def build_land(frac: dict[Hex, float]) -> set[Hex]:
    """Land hexes: majority vote, then remove single-hex noise and lakes."""
    land = {h for h, f in frac.items() if f >= 0.5}
    forced_sea = {nearest_hex(lat, lon) for lat, lon, _ in FORCE_SEA}
    forced_land = {nearest_hex(lat, lon) for lat, lon, _ in FORCE_LAND}
    land = (land - forced_sea) | forced_land
    # Islands of one hex look like noise at this scale, unless they are famous.
    for comp in components(land):
        if len(comp) == 1 and not comp & forced_land:
            land -= comp
    # A single-hex spike of land sticking into the sea (one land neighbour) goes unless the
    # vote was clear.
    for h in sorted(land - forced_land):
        if sum(n in land for n in neighbours(h)) == 1 and frac[h] < 0.62:
            land.discard(h)
    # Water that does not reach the open sea is a lake: fill it.  So is a sea hex with land
    # all around.
    water = set(all_hexes()) - land
    for comp in components(water):
        touches_edge = any(c in (0, COLUMNS - 1) or r in (0, ROWS - 1) for c, r in comp)
        if len(comp) < 12 and not touches_edge and not comp & forced_sea:
            land |= comp
    return land


def country_codes(land: set[Hex]) -> dict[Hex, str]:
    """Majority country code of each land hex's land sample points."""
    import reverse_geocoder as rg
    from global_land_mask import globe

    points: list[tuple[float, float]] = []
    keys: list[Hex] = []
    for h in sorted(land):
        x, y = centre(h)
        pts = [to_latlon(x + dx, y + dy) for dx, dy in SAMPLES]
        on_land = globe.is_land(np.array([p[0] for p in pts]), np.array([p[1] for p in pts]))
        chosen = [p for p, ok in zip(pts, on_land, strict=True) if ok] or [pts[0]]
        points += chosen
        keys += [h] * len(chosen)
    results = rg.search(points, mode=1, verbose=False)
    votes: dict[Hex, Counter[str]] = {}
    for h, res in zip(keys, results, strict=True):
        votes.setdefault(h, Counter())[res["cc"]] += 1
    return {h: v.most_common(1)[0][0] for h, v in votes.items()}


def region_of(cc: str, lat: float, lon: float) -> str:
    """Historical region (c. 1350–1550) of a hex from its modern country and position."""
    if cc in ("ES", "PT", "AD", "GI"):
        return "H"
    if cc in ("FR", "MC"):
        if lon > 8.3 and lat < 43.2:  # Corsica: Genoese, so Italia
            return "I"
        return "F"
    if cc == "BE":  # the County of Flanders held of the French crown; Brabant, Liège: Empire
        return "F" if lon < 3.9 else "G"
    if cc in ("GB", "IE", "IM", "JE", "GG"):
        return "B"
    if cc in ("IT", "SM", "VA", "MT"):
        return "I"
    if cc in ("DE", "NL", "LU", "LI", "CH", "AT", "CZ", "SI", "DK"):
        return "G"
    if cc == "PL":  # Pomerania and Neumark west of the Oder lowlands were imperial
        return "G" if lon < 15.4 and lat > 52.2 else "E"
    if cc in ("LT", "LV", "HU", "SK", "HR", "BA", "BY", "UA"):
        return "E"
    if cc == "RU":  # Kaliningrad: Prussia, a Polish fief
        return "E" if lon < 23.0 else SCENERY
    if cc == "RS":  # Vojvodina and the north: Hungarian crown lands
        return "E" if lat > 43.6 else SCENERY
    if cc == "RO":  # Transylvania, Crișana and the Banat: Kingdom of Hungary
        return "E" if (lat > 45.6 and lon < 25.4) or (lat > 44.9 and lon < 22.4) else SCENERY
    return SCENERY


# Hand-coded corrections after the country vote: (lat, lon, region char, why).
REGION_FIXES: list[tuple[float, float, str, str]] = [
    (42.79, 0.09, "H", "Aragon's side of the central Pyrenees, so the range runs straight"),
]


def smooth_regions(land: set[Hex], reg: dict[Hex, str]) -> None:
    """Remove one-hex enclaves and tiny fragments so borders read like a historian's."""
    for _ in range(4):
        changed = False
        for h in sorted(land):
            own = reg[h]
            ln = [reg[n] for n in neighbours(h) if n in land]
            if not ln:
                continue
            same = sum(x == own for x in ln)
            top, count = Counter(ln).most_common(1)[0]
            if same == 0 or (same == 1 and count >= 4 and top != own):
                reg[h] = top
                changed = True
        if not changed:
            break
    # fragments of a region that are not its main body and lie on another region's land
    for ch in set(reg.values()):
        cells = {h for h in land if reg[h] == ch}
        comps = sorted(components(cells), key=len, reverse=True)
        for comp in comps[1:]:
            border = Counter(reg[n] for h in comp for n in neighbours(h)
                             if n in land and n not in comp)
            if border and len(comp) <= 3:
                reg_new = border.most_common(1)[0][0]
                for h in comp:
                    reg[h] = reg_new


# --------------------------------------------------------------------------------------------
# Board assembly
# --------------------------------------------------------------------------------------------

class Builder:
    """Holds the grid while the board is being put together."""

    def __init__(self) -> None:
        self.frac = land_fractions()
        self.land = build_land(self.frac)
        self.cc = country_codes(self.land)
        self.terrain: dict[Hex, str] = {}
        for h in all_hexes():
            if h in self.land:
                lat, lon = hex_latlon(h)
                self.terrain[h] = region_of(self.cc[h], lat, lon)
            else:
                self.terrain[h] = WATER
        for lat, lon, ch, _why in REGION_FIXES:
            self.terrain[nearest_hex(lat, lon)] = ch
        region_land = {h for h in self.land if self.terrain[h] != SCENERY}
        sub = {h: self.terrain[h] for h in region_land}
        smooth_regions(region_land, sub)
        self.terrain.update(sub)
        self.notes: list[str] = []
        self.harbor_notes: list[str] = []
        self.harbor_at: dict[str, Hex] = {}
        self.city_at: dict[str, Hex] = {}

    # ---- helpers ----
    def is_region(self, h: Hex, ch: str | None = None) -> bool:
        t = self.terrain[h]
        return t in LAND_CHARS and (ch is None or t == ch)

    def is_water(self, h: Hex) -> bool:
        t = self.terrain[h]
        return t == WATER or t in SEA_CHARS

    # ---- harbors ----
    def place_harbors(self, own_sea: bool) -> None:
        """Each harbor goes on the coastal hex of its region nearest its real position.

        The first pass (own_sea False) only asks for water next to the hex, the seas are then
        grown from these harbors; the second pass asks for a hex of the harbor's own sea.
        """
        taken: set[Hex] = set()
        self.harbor_at = {}
        self.harbor_notes = []
        for hid, name, region, sea, real_lat, real_lon in HARBORS:
            ch = REGION_CHAR[region]
            want = SEA_CHAR[sea]
            lat, lon = ANCHORAGES.get(hid, (real_lat, real_lon, ""))[:2]

            def ok(n: Hex, want: str = want) -> bool:
                return self.terrain[n] == want if own_sea else self.is_water(n)

            cands = [h for h in all_hexes() if self.is_region(h, ch) and h not in taken
                     and any(ok(n) for n in neighbours(h))]
            best = min(cands, key=lambda h: pixel_distance(h, lat, lon))
            real = nearest_hex(real_lat, real_lon)
            if hid in ANCHORAGES:
                self.harbor_notes.append(f"harbor {name}: placed by {ANCHORAGES[hid][2]}")
            if best != real:
                self.harbor_notes.append(
                    f"harbor {name}: real hex {list(real)} is {self.describe(real)}, placed at "
                    f"{list(best)} ({hex_distance(best, real)} hex away)")
            self.harbor_at[hid] = best
            taken.add(best)

    def describe(self, h: Hex) -> str:
        t = self.terrain[h]
        if t in LAND_CHARS:
            return f"inland {LAND_CHARS[t]}" if not any(
                self.is_water(n) for n in neighbours(h)) else f"coast of {LAND_CHARS[t]}"
        if t == SCENERY:
            return "scenery"
        return "sea"

    # ---- seas ----
    def grow_seas(self) -> None:
        """Multi-source BFS through water from each sea's harbors, then hand corrections."""
        for h in all_hexes():
            if self.terrain[h] in SEA_CHARS:
                self.terrain[h] = WATER
        owner: dict[Hex, str] = {}
        queue: deque[Hex] = deque()
        for hid, _name, _region, sea, _lat, _lon in HARBORS:
            for n in neighbours(self.harbor_at[hid]):
                if self.is_water(n) and n not in owner:
                    owner[n] = SEA_CHAR[sea]
                    queue.append(n)
        while queue:
            h = queue.popleft()
            for n in neighbours(h):
                if self.is_water(n) and n not in owner:
                    owner[n] = owner[h]
                    queue.append(n)
        for h in all_hexes():
            if self.is_water(h) and h in owner:
                self.terrain[h] = owner[h]
        # water the BFS cannot reach (a bay cut off by the board's edge) joins the nearest sea
        reached = [h for h in all_hexes() if h in owner]
        for h in all_hexes():
            if self.terrain[h] == WATER:
                near = min(reached, key=lambda o: math.dist(centre(o), centre(h)))
                self.terrain[h] = owner[near]
        for old, pred, new in SEA_RULES:
            for h in all_hexes():
                if self.terrain[h] in old:
                    lat, lon = hex_latlon(h)
                    if pred(lat, lon):
                        self.terrain[h] = new

    # ---- cities ----
    def place_cities(self) -> None:
        """Cities on the hex nearest their real position, nudged off occupied hexes."""
        taken = set(self.harbor_at.values())
        for cid, name, region, _sym, lat, lon in CITIES:
            ch = REGION_CHAR[region]
            real = nearest_hex(lat, lon)
            cands = [h for h in all_hexes() if self.is_region(h, ch) and h not in taken]
            best = min(cands, key=lambda h: pixel_distance(h, lat, lon))
            if best != real:
                what = "taken" if real in taken else self.describe(real)
                self.notes.append(f"city {name}: real hex {list(real)} is {what}, "
                                  f"placed at {list(best)}")
            self.city_at[cid] = best
            taken.add(best)

    # ---- barriers ----
    def barriers(self) -> list[dict[str, Any]]:
        """Mountain ranges on borders between regions (see module docstring)."""
        ranges: dict[str, list[list[list[int]]]] = {
            "Pyrenees": [], "Alps": [], "Sudetes": [], "Carpathians": []}
        for h in all_hexes():
            for n in neighbours(h):
                if n <= h or not (self.is_region(h) and self.is_region(n)):
                    continue
                pair = {self.terrain[h], self.terrain[n]}
                if len(pair) == 1:
                    continue
                (x1, y1), (x2, y2) = centre(h), centre(n)
                lat, lon = to_latlon((x1 + x2) / 2, (y1 + y2) / 2)
                rng = None
                if pair == {"H", "F"}:
                    rng = "Pyrenees"
                elif pair in ({"I", "F"}, {"I", "G"}, {"I", "E"}):
                    rng = "Alps"
                elif pair == {"G", "E"} and lat < 50.8:
                    if lat > 49.6 and lon < 18.0:
                        rng = "Sudetes"
                    elif lat > 47.8:
                        rng = "Carpathians"
                    else:  # the easternmost spurs of the Alps, down to the Dinaric hills
                        rng = "Alps"
                if rng:
                    ranges[rng].append([list(h), list(n)])
        return [{"range": k, "edges": sorted(v)} for k, v in ranges.items() if v]


# Sea corrections, applied in order after the BFS: hexes of the seas in `from` whose centre
# (lat, lon) satisfies the predicate go to sea `to`.  They put the blue separating lines where
# a chart would: the Strait of Otranto, the Strait of Gibraltar, Ushant.
SEA_RULES: list[tuple[str, Callable[[float, float], bool], str]] = [
    ("d", lambda lat, lon: lat < 40.2 or lon > 19.9, "m"),  # Ionian Sea and beyond: Otranto
    ("n", lambda lat, lon: lat < 47.9, "a"),  # south of Ushant is the Bay of Biscay
    ("g", lambda lat, lon: lat < 51.15 and -6.0 < lon < 1.7, "n"),  # the Channel up to Dover
    ("gnm", lambda lat, lon: lon < -5.6 and lat < 37.5, "a"),  # west of Gibraltar
    ("a", lambda lat, lon: lon > -5.5 and lat < 37.5, "m"),  # east of Gibraltar
]


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

def dump(board: dict[str, Any]) -> str:
    """JSON with one terrain row / list item per line: small and friendly to diffs."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    lines = ["{"]
    keys = list(board)
    for i, k in enumerate(keys):
        v = board[k]
        comma = "," if i < len(keys) - 1 else ""
        if k == "barriers":
            lines.append(f"  {one(k)}: [")
            for j, br in enumerate(v):
                lines.append(f"    {{{one('range')}: {one(br['range'])}, {one('edges')}: [")
                lines += [f"      {one(e)}{',' if n < len(br['edges']) - 1 else ''}"
                          for n, e in enumerate(br["edges"])]
                lines.append(f"    ]}}{',' if j < len(v) - 1 else ''}")
            lines.append(f"  ]{comma}")
        elif isinstance(v, list) and v:
            lines.append(f"  {one(k)}: [")
            for j, item in enumerate(v):
                lines.append(f"    {one(item)}{',' if j < len(v) - 1 else ''}")
            lines.append(f"  ]{comma}")
        elif isinstance(v, dict) and v and k == "legend":
            lines.append(f"  {one(k)}: {{")
            items = list(v.items())
            for j, (kk, vv) in enumerate(items):
                lines.append(f"    {one(kk)}: {one(vv)}{',' if j < len(items) - 1 else ''}")
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {one(k)}: {one(v)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def make_board(b: Builder) -> dict[str, Any]:
    """Put the generated grid and the fixed tables into the board-file structure."""
    legend: dict[str, dict[str, Any]] = {}
    for ch, rid in LAND_CHARS.items():
        legend[ch] = {"region": rid}
    for ch, sid in SEA_CHARS.items():
        legend[ch] = {"sea": sid}
    legend[SCENERY] = {"off": True, "land": True}
    legend[OFF] = {"off": True}
    terrain = ["".join(b.terrain[(c, r)] for c in range(COLUMNS)) for r in range(ROWS)]

    def xy(lat: float, lon: float) -> dict[str, float]:
        x, y = to_xy(lat, lon)
        return {"x": round(x, 2), "y": round(y, 2)}

    regions = [{"id": r["id"], "name": r["name"], "colour": r["colour"],
                "objective_group": r["objective_group"], "seal": xy(*r["seal_at"])}
               for r in REGIONS]
    cities = [{"id": cid, "name": name, "region": region, "symbol": sym,
               "at": list(b.city_at[cid]), "lat": lat, "lon": lon}
              for cid, name, region, sym, lat, lon in CITIES]
    harbors = [{"id": hid, "name": name, "region": region, "sea": sea,
                "at": list(b.harbor_at[hid]), "lat": lat, "lon": lon}
               for hid, name, region, sea, lat, lon in HARBORS]
    g1 = [s["id"] for s in SYMBOLS if s["objective_group"] == 1]
    g2 = [s["id"] for s in SYMBOLS if s["objective_group"] == 2]
    objectives = [{"id": i + 1, "symbols": [a, c]}
                  for i, (a, c) in enumerate(itertools.product(g1, g2))]
    return {
        "format": "gonzaga-board/1",
        "name": "Europa (reconstruction)",
        "description": (
            "A reconstruction of the Gonzaga map (daVinci Editrice 2009), whose printed board "
            "is not public. Generated by tools/build_board.py: land and sea come from a real "
            "coastline mask sampled on the hex grid, regions from the modern country under each "
            "hex corrected to late-medieval borders by hand-written rules, seas are grown from "
            "their harbors. Cities and harbors stand on the hex nearest their real position "
            "(lat/lon recorded), nudged to the nearest free hex of their region only where that "
            "hex is sea, inland for a harbor, or taken by another place. Fiefs, scenarios and "
            "objectives are invented to satisfy every known constraint of the original."),
        "columns": COLUMNS,
        "rows": ROWS,
        "terrain": terrain,
        "legend": legend,
        "regions": regions,
        "seas": SEAS,
        "symbols": SYMBOLS,
        "cities": cities,
        "harbors": harbors,
        "barriers": b.barriers(),
        "church": xy(*CHURCH_AT),
        "fiefs": [{"number": n, "hexes": [list(a) for a in hs], "castles": [list(a) for a in cs]}
                  for n, hs, cs in FIEFS],
        "scenarios": [{"name": n, "players": p, "flourishing": fl, "person": who}
                      for n, p, fl, who in SCENARIOS],
        "objectives": objectives,
    }


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------

def region_hexes(board: dict[str, Any]) -> dict[Hex, str]:
    """Hex -> region id, or sea id prefixed with '~', for playable hexes."""
    out: dict[Hex, str] = {}
    for r, row in enumerate(board["terrain"]):
        for c, ch in enumerate(row):
            entry = board["legend"][ch]
            if "region" in entry:
                out[(c, r)] = entry["region"]
            elif "sea" in entry:
                out[(c, r)] = "~" + entry["sea"]
    return out


def summary(board: dict[str, Any]) -> str:
    """Hex counts per legend entry, and the pieces (islands) each region or sea is made of."""
    counts = Counter("".join(board["terrain"]))
    lines = []
    for ch, entry in board["legend"].items():
        label = entry.get("region") or entry.get("sea") or ("scenery" if entry.get("land")
                                                            else "off")
        cells = {(c, r) for r, row in enumerate(board["terrain"]) for c, x in enumerate(row)
                 if x == ch}
        pieces = sorted((len(p) for p in components(cells)), reverse=True)
        lines.append(f"  {ch} {label:<20} {counts.get(ch, 0):4d} hexes  pieces {pieces}")
    return "\n".join(lines)


def layout_problems(board: dict[str, Any]) -> list[str]:
    """What the engine's check does not look at: seals and the church must lie at sea or off
    the board, clear of every city and harbor, so that nothing printed hides a place."""
    problems: list[str] = []
    play = region_hexes(board)
    places = [tuple(p["at"]) for p in [*board["cities"], *board["harbors"]]]
    spots = [(f"seal of {r['id']}", r["seal"]) for r in board["regions"]]
    spots.append(("church", board["church"]))
    for what, spot in spots:
        x, y = spot["x"], spot["y"]
        under = min(all_hexes(), key=lambda h: math.dist(centre(h), (x, y)))
        if under in play and not play[under].startswith("~"):
            problems.append(f"{what} lies on land")
        if any(math.dist(centre(h), (x, y)) < 3.0 for h in places):
            problems.append(f"{what} hides a city or harbor")
    return problems


def engine_check(text: str) -> tuple[list[str], Board | None]:
    """The engine's own validation (`tavola board check`) of the board as written."""
    try:
        board = board_from_dict(json.loads(text), text=text)
    except BoardError as exc:
        return [f"engine: {p}" for p in exc.problems], None
    return [f"engine: {p}" for p in check_board(board)], board


def fits_summary(board: Board) -> str:
    """Which fiefs fit each action card in each region on the empty board; the Alliance card
    (a city and a harbor at once) is listed fief by fief, the others as a count."""
    table = fit_table(board)
    cards = sorted({card for _, card in table})
    lines = ["fits on the empty board (fiefs out of 12):"]
    for rid in board.regions:
        counts = ", ".join(f"{card} {len(table[(rid, card)])}" for card in cards
                           if card != "Alliance")
        alliance = table[(rid, "Alliance")]
        lines.append(f"  {rid:<11} Alliance {len(alliance):2d}: {alliance}")
        lines.append(f"  {'':<11} ({counts})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the board")
    parser.add_argument("--ascii", action="store_true", help="print the terrain grid")
    args = parser.parse_args(argv)
    b = Builder()
    b.place_harbors(own_sea=False)
    b.grow_seas()
    b.place_harbors(own_sea=True)
    b.grow_seas()
    b.place_cities()
    b.notes = b.harbor_notes + b.notes
    board = make_board(b)
    if args.ascii:
        for r, row in enumerate(board["terrain"]):
            print(f"{r:2d} " + (" " if r % 2 else "") + " ".join(row))
    print(f"grid {COLUMNS} x {ROWS}, {DEG_PER_UNIT:.3f}° per unit, "
          f"lat {LAT_NORTH - (HEIGHT) * DEG_PER_UNIT:.2f}..{LAT_NORTH:.2f}")
    print(summary(board))
    for note in b.notes:
        print("note:", note)
    for br in board["barriers"]:
        print(f"  barrier {br['range']}: {len(br['edges'])} edges")
    text = dump(board)
    problems, parsed = engine_check(text)
    problems += layout_problems(board)
    if parsed is not None:
        print(fits_summary(parsed))
    for p in problems:
        print("PROBLEM:", p)
    if problems:
        print("not written")
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out.name} ({len(text.encode()) // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
