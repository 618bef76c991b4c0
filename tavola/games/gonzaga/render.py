"""Draw a Gonzaga board, and optionally pieces on it, to a PNG or SVG file.

Players and developers need to see the board the engine plays on, and the docs ship a picture
of it.  The renderer reads the board as the engine loads it (``board.board_from_dict``, the one
schema of docs/gonzaga-board.schema.json), so it draws any valid board, including a later
transcription of the printed one, and never parses the file a second way.

It uses matplotlib's object API (``Figure`` + Agg canvas), never pyplot, so it needs no display
and leaves no global state behind.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib as mpl
import matplotlib.patheffects as pe
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_hex, to_rgb
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Circle, FancyBboxPatch, PathPatch
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from .board import Board, board_from_dict

__all__ = ["PLAYER_COLOURS", "draw_board"]

Hex = tuple[int, int]
Point = tuple[float, float]
PieceSpec = tuple[str, str, Sequence[Sequence[int]]]

SQRT3 = math.sqrt(3.0)

# The players' pieces: each keeps the hue its name says, and every pair stays far apart (CIEDE2000
# 20 or more) also as people with deuteranopia or protanopia see them, and 15 or more from every
# region's colour (tests/web/test_browser_board.py checks both in the browser).
PLAYER_COLOURS: dict[str, str] = {
    "red": "#c40810",
    "yellow": "#fcf019",
    "green": "#19826d",
    "blue": "#022374",
}
# Region colours for drawing where the board file's own would be too close to a player's colour
# (Britannia's pink to the green pieces under protanopia, Germania's yellow to the yellow ones).
# Drawing only: the board file, whose content hash identifies stored games, is left alone.
REGION_COLOURS: dict[str, str] = {
    "britannia": "#e6a49e",
    "germania": "#dbcc97",
}


def region_colour(region: Mapping[str, Any]) -> str:
    """The colour a region is drawn in."""
    return REGION_COLOURS.get(str(region.get("id")), region.get("colour", "#cccccc"))

PARCHMENT = "#f2e7cd"
PARCHMENT_EDGE = "#8a6d3b"
INK = "#3b2a1a"
SCENERY = "#d6cfbf"
SCENERY_EDGE = "#c2b9a6"
SEA_INK = "#1d4f78"
SEA_LINE = "#2a6a9c"
COAST = "#34505f"
BORDER = "#3a2c24"
BARRIER = "#5a3718"
BARRIER_LIGHT = "#a0703c"
ROUTE = "#b0302a"
HARBOR_FACE = "#1f4e79"
CITY_FACE = "#fffaf0"
SEA_PALETTE = ["#a8c8dd", "#b5d2e3", "#9dbfd6", "#92b4ce", "#a9cfe2", "#bcd9e8"]
SEA_COLOURS: dict[str, str] = {
    "mare-germanicum": "#a3c2d8",
    "mare-balticum": "#b3d0e2",
    "oceanus-britannicus": "#98bbd4",
    "oceanus-atlanticus": "#8fb1cb",
    "mare-mediterraneum": "#a9cfe3",
    "mare-adriaticum": "#bcd9e9",
}

# Symbols as glyphs of DejaVu Sans (bundled with matplotlib), or drawn shapes below.
GLYPHS: dict[str, str] = {
    "crown": "♛", "mitre": "♝", "florin": "ƒ", "tower": "♜", "quill": "✒", "scales": "⚖",
    "anchor": "⚓", "trident": "♆", "compass": "✦", "wheel": "☸", "star": "✧", "lily": "⚜",
}
BOLD_GLYPHS = {"florin"}


# ------------------------------------------------------------------------------------------
# Geometry of the pixel frame (docs/board-format.md, "Coordinates")
# ------------------------------------------------------------------------------------------

def hex_centre(h: Sequence[int]) -> Point:
    """Centre of hex [c, r]; y grows downwards, the axes are inverted to match."""
    c, r = int(h[0]), int(h[1])
    return SQRT3 * (c + 0.5 * (r % 2)), 1.5 * r


def hex_corners(x: float, y: float, radius: float = 1.0) -> list[Point]:
    """Corners of a pointy-topped hex around (x, y)."""
    return [(x + radius * math.cos(math.radians(30 + 60 * k)),
             y + radius * math.sin(math.radians(30 + 60 * k))) for k in range(6)]


def neighbours(h: Hex, columns: int, rows: int) -> list[Hex]:
    """On-grid neighbours of an odd-r hex."""
    c, r = h
    if r % 2 == 0:
        deltas = ((1, 0), (-1, 0), (0, -1), (-1, -1), (0, 1), (-1, 1))
    else:
        deltas = ((1, 0), (-1, 0), (1, -1), (0, -1), (1, 1), (0, 1))
    return [(c + dc, r + dr) for dc, dr in deltas
            if 0 <= c + dc < columns and 0 <= r + dr < rows]


def shared_edge(a: Hex, b: Hex) -> tuple[Point, Point]:
    """The two corners common to neighbouring hexes a and b."""
    ax_, ay = hex_centre(a)
    bx, by = hex_centre(b)
    pts = [p for p in hex_corners(ax_, ay) if abs(math.dist(p, (bx, by)) - 1.0) < 1e-6]
    return pts[0], pts[1]


def _shade(colour: str, factor: float) -> str:
    """Darken (factor < 1) or lighten (factor > 1) a colour."""
    r, g, b = to_rgb(colour)
    if factor <= 1:
        return to_hex((r * factor, g * factor, b * factor))
    t = factor - 1
    return to_hex((r + (1 - r) * t, g + (1 - g) * t, b + (1 - b) * t))


# ------------------------------------------------------------------------------------------
# Icons: unit-size paths (about [-1, 1] on both axes, y up)
# ------------------------------------------------------------------------------------------

def _poly(points: Sequence[Point]) -> MplPath:
    """A closed polygon path."""
    return MplPath([*points, points[0]], closed=True)


def _circle_path(cx: float, cy: float, r: float, n: int = 24) -> MplPath:
    return _poly([(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n))
                  for k in range(n)])


def _custom_icon(name: str) -> MplPath | None:
    """Symbols DejaVu Sans has no glyph for, drawn as simple silhouettes."""
    if name == "book":
        left = [(-0.95, -0.55), (-0.05, -0.75), (-0.05, 0.6), (-0.95, 0.8)]
        right = [(0.05, -0.75), (0.95, -0.55), (0.95, 0.8), (0.05, 0.6)]
        return MplPath.make_compound_path(_poly(left), _poly(right))
    if name == "bell":
        body = [(-0.18, 0.72), (0.18, 0.72), (0.38, 0.55), (0.45, 0.1), (0.52, -0.25),
                (0.78, -0.5), (0.78, -0.62), (-0.78, -0.62), (-0.78, -0.5), (-0.52, -0.25),
                (-0.45, 0.1), (-0.38, 0.55)]
        return MplPath.make_compound_path(_poly(body), _circle_path(0, -0.78, 0.17),
                                          _circle_path(0, 0.82, 0.12))
    if name == "ship":
        hull = [(-0.95, -0.3), (0.95, -0.3), (0.6, -0.78), (-0.6, -0.78)]
        sail1 = [(0.06, 0.95), (0.06, -0.18), (0.75, -0.18)]
        sail2 = [(-0.06, 0.8), (-0.06, -0.18), (-0.62, -0.18)]
        return MplPath.make_compound_path(_poly(hull), _poly(sail1), _poly(sail2))
    if name == "shell":  # a scallop: five ribs fanning out from the hinge
        parts = []
        apex = (0.0, -0.62)
        for i in range(5):
            a0 = math.radians(12 + i * 31.2 + 2.2)
            a1 = math.radians(12 + (i + 1) * 31.2 - 2.2)
            arc = [(apex[0] + 1.15 * math.cos(a0 + (a1 - a0) * k / 6),
                    apex[1] + 1.3 * math.sin(a0 + (a1 - a0) * k / 6)) for k in range(7)]
            parts.append(_poly([apex, *arc]))
        parts.append(_poly([(-0.38, -0.5), (0.38, -0.5), (0.24, -0.85), (-0.24, -0.85)]))
        return MplPath.make_compound_path(*parts)
    if name == "church":
        nave = [(-0.9, -0.85), (0.9, -0.85), (0.9, 0.0), (0.0, 0.35), (-0.9, 0.0)]
        tower = [(-0.3, -0.85), (0.3, -0.85), (0.3, 0.55), (0.0, 0.78), (-0.3, 0.55)]
        cross_v = [(-0.06, 0.7), (0.06, 0.7), (0.06, 1.15), (-0.06, 1.15)]
        cross_h = [(-0.2, 0.92), (0.2, 0.92), (0.2, 1.02), (-0.2, 1.02)]
        return MplPath.make_compound_path(_poly(nave), _poly(tower), _poly(cross_v),
                                          _poly(cross_h))
    return None


@cache
def icon_path(name: str) -> MplPath:
    """A symbol's silhouette, centred and scaled to fit [-1, 1]; unknown ids get a letter."""
    path = _custom_icon(name)
    if path is None:
        text = GLYPHS.get(name) or (name[:1].upper() or "?")
        weight = "bold" if name in BOLD_GLYPHS else "normal"
        path = TextPath((0, 0), text, size=1.0,
                        prop=FontProperties(family="DejaVu Sans", weight=weight))
    verts = path.vertices
    (x0, y0), (x1, y1) = verts.min(axis=0), verts.max(axis=0)
    scale = 2.0 / max(x1 - x0, y1 - y0, 1e-9)
    t = Affine2D().translate(-(x0 + x1) / 2, -(y0 + y1) / 2).scale(scale)
    return t.transform_path(path)


def _draw_icon(ax: Axes, name: str, x: float, y: float, size: float, colour: str,
               zorder: float) -> None:
    """Place an icon at (x, y) of the pixel frame (whose y axis points down)."""
    path = Affine2D().scale(size, -size).translate(x, y).transform_path(icon_path(name))
    ax.add_patch(PathPatch(path, facecolor=colour, edgecolor="none", zorder=zorder))


# ------------------------------------------------------------------------------------------
# Board reading
# ------------------------------------------------------------------------------------------

def _loaded(board: Any) -> Board:
    """The board as the engine loads it (one parser, one schema): a `Board`, the parsed board
    file (a dict), or an object keeping that dict in `.raw`."""
    if isinstance(board, Board):
        return board
    raw = board if isinstance(board, Mapping) else getattr(board, "raw", None)
    if not isinstance(raw, Mapping):
        raise TypeError("draw_board needs a Board, the parsed board file (a dict) or an object "
                        "with .raw")
    return board_from_dict(dict(raw))


def _raw_board(board: Any) -> Mapping[str, Any]:
    """The validated board file as plain data, for the drawing code below."""
    return _loaded(board).model.model_dump(mode="json")


class _Grid:
    """Terrain of a board: what each hex is, in a form convenient for drawing (from the
    loaded board, not parsed again)."""

    def __init__(self, board: Board) -> None:
        self.columns = board.columns
        self.rows = board.rows
        self.kind: dict[Hex, str] = {}  # region / sea / scenery / off
        self.ident: dict[Hex, str] = {}
        for r in range(board.rows):
            for c in range(board.columns):
                self.kind[(c, r)], self.ident[(c, r)] = "off", ""
        for h in board.scenery:
            self.kind[h] = "scenery"
        for i, h in enumerate(board.coords):
            region, sea = board.region_of[i], board.sea_of[i]
            self.kind[h], self.ident[h] = ("region", region) if region else ("sea", sea or "")

    def nbrs(self, h: Hex) -> list[Hex]:
        return neighbours(h, self.columns, self.rows)

    def edges(self) -> Iterable[tuple[Hex, Hex]]:
        """Every pair of neighbouring hexes, once."""
        for h in self.kind:
            for n in self.nbrs(h):
                if n > h:
                    yield h, n


# ------------------------------------------------------------------------------------------
# Label placement
# ------------------------------------------------------------------------------------------

class _Labels:
    """Greedy placement of short labels next to markers, avoiding earlier boxes."""

    def __init__(self, units_per_point: float) -> None:
        self.upp = units_per_point
        self.boxes: list[tuple[float, float, float, float]] = []

    def block(self, x: float, y: float, r: float) -> None:
        self.boxes.append((x - r, y - r, x + r, y + r))

    def _overlap(self, box: tuple[float, float, float, float]) -> float:
        total = 0.0
        for b in self.boxes:
            w = min(box[2], b[2]) - max(box[0], b[0])
            h = min(box[3], b[3]) - max(box[1], b[1])
            if w > 0 and h > 0:
                total += w * h
        return total

    def place(self, x: float, y: float, text: str, size: float, gap: float,
              bounds: tuple[float, float, float, float]) -> tuple[float, float, str, str]:
        """Choose right, left, below or above (x, y); returns position and alignment."""
        w = len(text) * size * 0.58 * self.upp
        h = size * 1.15 * self.upp
        options = [
            (x + gap, y, "left", "center", (x + gap, y - h / 2, x + gap + w, y + h / 2)),
            (x - gap, y, "right", "center", (x - gap - w, y - h / 2, x - gap, y + h / 2)),
            (x, y + gap + 0.1, "center", "top", (x - w / 2, y + gap, x + w / 2, y + gap + h)),
            (x, y - gap - 0.1, "center", "bottom", (x - w / 2, y - gap - h, x + w / 2, y - gap)),
        ]
        best = None
        for i, (tx, ty, ha, va, box) in enumerate(options):
            outside = (max(0.0, bounds[0] - box[0]) + max(0.0, box[2] - bounds[2])
                       + max(0.0, bounds[1] - box[1]) + max(0.0, box[3] - bounds[3]))
            score = self._overlap(box) + outside * 10 + i * 0.01
            if best is None or score < best[0]:
                best = (score, tx, ty, ha, va, box)
        assert best is not None
        self.boxes.append(best[5])
        return best[1], best[2], best[3], best[4]


def _text(ax: Axes, x: float, y: float, s: str, *, size: float, colour: str,
          halo: str | None = "white", halo_width: float = 2.6, zorder: float = 20,
          gid: str | None = None, **kw: Any) -> None:
    """Text with an optional halo drawn as a separate artist, so the SVG keeps the words."""
    if halo:
        ax.text(x, y, s, size=size, color=halo, zorder=zorder - 0.1,
                path_effects=[pe.Stroke(linewidth=halo_width, foreground=halo)], **kw)
    t = ax.text(x, y, s, size=size, color=colour, zorder=zorder, **kw)
    if gid:
        t.set_gid(gid)


# ------------------------------------------------------------------------------------------
# Sea routes
# ------------------------------------------------------------------------------------------

def _sea_path(grid: _Grid, start: Hex, goal: Hex, sea: str | None) -> list[Hex] | None:
    """Shortest hex path between two harbors through sea hexes (of `sea` if given)."""
    prev: dict[Hex, Hex | None] = {start: None}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in grid.nbrs(h):
            if n in prev:
                continue
            if n != goal and not (grid.kind[n] == "sea" and (sea is None or grid.ident[n] == sea)):
                continue
            prev[n] = h
            if n == goal:
                out = [n]
                cur: Hex | None = h
                while cur is not None:
                    out.append(cur)
                    cur = prev[cur]
                return out[::-1]
            queue.append(n)
    return None


def _chaikin(points: list[Point], rounds: int = 3) -> list[Point]:
    """Corner-cutting smoothing that keeps both ends."""
    for _ in range(rounds):
        if len(points) < 3:
            return points
        out = [points[0]]
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            out.append((0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1))
            out.append((0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1))
        out.append(points[-1])
        points = out
    return points


def _routes(grid: _Grid, raw: Mapping[str, Any]) -> list[list[Point]]:
    """Dotted routes: for each sea, the shortest chain through its harbors, by sea."""
    out: list[list[Point]] = []
    for sea in raw["seas"]:
        ports = [tuple(hb["at"]) for hb in raw["harbors"] if hb["sea"] == sea["id"]]
        if len(ports) < 2:
            continue
        paths: dict[tuple[Hex, Hex], list[Hex]] = {}
        for a, b in itertools.combinations(ports, 2):
            p = _sea_path(grid, a, b, sea["id"]) or _sea_path(grid, a, b, None) or [a, b]
            paths[(a, b)] = p
            paths[(b, a)] = p[::-1]
        best: tuple[int, tuple[Hex, ...]] | None = None
        for order in itertools.permutations(ports):
            if order[0] > order[-1]:
                continue
            length = sum(len(paths[(a, b)]) for a, b in itertools.pairwise(order))
            if best is None or length < best[0]:
                best = (length, order)
        assert best is not None
        for a, b in itertools.pairwise(best[1]):
            pts = [hex_centre(h) for h in paths[(a, b)]]
            # start and end at the badge's rim rather than its centre
            out.append(_chaikin(_trim(pts, 0.55)))
    return out


def sea_routes(board: Any) -> list[list[Point]]:
    """The sea routes as smoothed polylines in the board's pixel frame, for other renderers
    (the web board) to draw exactly what this one draws."""
    loaded = _loaded(board)
    return _routes(_Grid(loaded), _raw_board(loaded))


def _trim(pts: list[Point], r: float) -> list[Point]:
    """Shorten a polyline by r at both ends (routes start at a badge's rim)."""
    if len(pts) < 2:
        return pts

    def step(p: Point, q: Point) -> Point:
        d = math.dist(p, q) or 1.0
        return p[0] + (q[0] - p[0]) * r / d, p[1] + (q[1] - p[1]) * r / d

    return [step(pts[0], pts[1]), *pts[1:-1], step(pts[-1], pts[-2])]


# ------------------------------------------------------------------------------------------
# Drawing
# ------------------------------------------------------------------------------------------

def _name_spot(grid: _Grid, cells: set[Hex], avoid: list[Point], width: float,
               height: float) -> Point | None:
    """Where a region's or sea's name goes: over its own hexes, clear of markers, central.

    The name's box (width x height, pixel-frame units) is tried on every hex of the area;
    points sampled in the box should fall on the area, and no marker should fall in it.
    """
    if not cells:
        return None
    mx = sum(hex_centre(h)[0] for h in cells) / len(cells)
    my = sum(hex_centre(h)[1] for h in cells) / len(cells)
    centres = {h: hex_centre(h) for h in grid.kind}

    def hex_at(x: float, y: float) -> Hex:
        r = round(y / 1.5)
        c = round(x / SQRT3 - 0.5 * (r % 2))
        best = (c, r)
        for n in [(c, r), *neighbours((c, r), grid.columns, grid.rows)]:
            if n in centres and math.dist(centres[n], (x, y)) < math.dist(
                    centres.get(best, (1e9, 1e9)), (x, y)):
                best = n
        return best

    best: tuple[float, Point] | None = None
    for h in sorted(cells):
        x, y = centres[h]
        samples = [(x + width * (i / 6 - 0.5), y + height * (j / 2 - 0.5))
                   for i in range(7) for j in range(3)]
        inside = sum(hex_at(px, py) in cells for px, py in samples) / len(samples)
        hits = sum(1 for ax_, ay in avoid
                   if abs(ax_ - x) < width / 2 + 0.7 and abs(ay - y) < height / 2 + 0.7)
        score = inside * 20 - hits * 12 - math.dist((x, y), (mx, my)) * 0.25
        if best is None or score > best[0]:
            best = (score, (x, y))
    assert best is not None
    return best[1]


def _seal(ax: Axes, x: float, y: float, region: Mapping[str, Any]) -> None:
    """The round space where the region's seal (flourishing or inactive) is laid."""
    colour = region_colour(region)
    ax.add_patch(Circle((x, y), 1.35, facecolor=_shade(colour, 1.15),
                        edgecolor=_shade(colour, 0.55), lw=2.2, zorder=12))
    ax.add_patch(Circle((x, y), 1.05, facecolor="none", edgecolor="#b8902e", lw=1.2,
                        linestyle=(0, (2, 1.5)), zorder=12.1))
    _text(ax, x, y + 1.55, region["name"], size=7.5, colour=_shade(colour, 0.4), ha="center",
          va="top", weight="bold", zorder=12.2, gid=f"seal-{region['id']}")


def _church(ax: Axes, x: float, y: float) -> None:
    """The space where donated fiefs are shown."""
    ax.add_patch(FancyBboxPatch((x - 2.2, y - 1.5), 4.4, 3.0,
                                boxstyle="round,pad=0.1,rounding_size=0.6",
                                facecolor="#efe3c4", edgecolor=INK, lw=1.6, zorder=12))
    _draw_icon(ax, "church", x, y - 0.25, 0.85, INK, zorder=12.1)
    _text(ax, x, y + 0.9, "Church", size=7.5, colour=INK, halo=None, ha="center", va="center",
          weight="bold", zorder=12.2, gid="church")


def _draw_map(ax: Axes, raw: Mapping[str, Any], grid: _Grid,
              pieces: list[tuple[str, str, list[Hex]]]) -> None:
    """Everything inside the map frame, bottom layer first."""
    regions = {r["id"]: r for r in raw["regions"]}
    sea_colour: dict[str, str] = {}
    for i, sea in enumerate(raw["seas"]):
        sea_colour[sea["id"]] = SEA_COLOURS.get(sea["id"], SEA_PALETTE[i % len(SEA_PALETTE)])
    sea_symbol = {s["id"]: s.get("symbol", "anchor") for s in raw["seas"]}

    # hexes, one compound path per colour (keeps the SVG small)
    by_colour: dict[tuple[str, str], list[list[Point]]] = {}
    for h, kind in grid.kind.items():
        if kind == "off":
            continue
        if kind == "region":
            face = region_colour(regions.get(grid.ident[h], {"colour": "#dddddd"}))
            edge = _shade(face, 0.78)
        elif kind == "sea":
            face = sea_colour.get(grid.ident[h], SEA_PALETTE[0])
            edge = _shade(face, 0.86)
        else:
            face, edge = SCENERY, SCENERY_EDGE
        by_colour.setdefault((face, edge), []).append(hex_corners(*hex_centre(h)))
    for (face, edge), polys in by_colour.items():
        path = MplPath.make_compound_path(*[_poly(p) for p in polys])
        ax.add_patch(PathPatch(path, facecolor=face, edgecolor=edge, lw=0.5, zorder=1))

    # borders between kinds of hexes
    styles: dict[str, list[tuple[Point, Point]]] = {
        "region": [], "coast": [], "sea": [], "scenery": []}
    for a, b in grid.edges():
        ka, kb = grid.kind[a], grid.kind[b]
        if "off" in (ka, kb):
            continue
        pair = {ka, kb}
        if ka == kb == "region" and grid.ident[a] != grid.ident[b]:
            styles["region"].append(shared_edge(a, b))
        elif ka == kb == "sea" and grid.ident[a] != grid.ident[b]:
            styles["sea"].append(shared_edge(a, b))
        elif "sea" in pair and pair != {"sea"}:
            styles["coast"].append(shared_edge(a, b))
        elif pair == {"region", "scenery"}:
            styles["scenery"].append(shared_edge(a, b))
    ax.add_collection(LineCollection(styles["sea"], colors=SEA_LINE, linewidths=2.2, zorder=2,
                                     capstyle="round"))
    ax.add_collection(LineCollection(styles["scenery"], colors="#7d7266", linewidths=1.3,
                                     zorder=2.1, capstyle="round"))
    ax.add_collection(LineCollection(styles["coast"], colors=COAST, linewidths=1.2, zorder=2.2,
                                     capstyle="round"))
    ax.add_collection(LineCollection(styles["region"], colors=BORDER, linewidths=2.4, zorder=2.3,
                                     capstyle="round"))

    # barriers: mountain ranges on borders
    segs = [shared_edge((int(a[0]), int(a[1])), (int(b[0]), int(b[1])))
            for br in raw.get("barriers", []) for a, b in br["edges"]]
    ax.add_collection(LineCollection(segs, colors=BARRIER, linewidths=5.2, zorder=3,
                                     capstyle="round"))
    ax.add_collection(LineCollection(segs, colors=BARRIER_LIGHT, linewidths=1.6, zorder=3.1,
                                     capstyle="round", linestyles=(0, (1.5, 1.5))))

    # names of regions (big, faint) and seas (italic), clear of markers, seals and church
    upp = _units_per_point(ax)
    avoid = [hex_centre(p["at"]) for p in [*raw["cities"], *raw["harbors"]]]
    for region in raw["regions"]:
        if region.get("seal"):
            avoid.append((float(region["seal"]["x"]), float(region["seal"]["y"])))
            avoid.append((float(region["seal"]["x"]), float(region["seal"]["y"]) + 1.5))
    if raw.get("church"):
        avoid.append((float(raw["church"]["x"]), float(raw["church"]["y"])))
    routes = _routes(grid, raw)
    for pts in routes:
        avoid += pts[::4]
    name_boxes: list[tuple[Point, float, float]] = []
    for rid, region in regions.items():
        cells = {h for h in grid.kind if grid.kind[h] == "region" and grid.ident[h] == rid}
        words = region["name"].upper().split()
        lines = [" ".join(w) for w in words] if len(region["name"]) >= 12 else \
            [" ".join(region["name"].upper())]
        size = 12.0
        width = max(len(t) for t in lines) * size * 0.62 * upp
        height = len(lines) * size * 1.2 * upp
        spot = _name_spot(grid, _largest(grid, cells), avoid, width, height)
        if spot is None:
            continue
        name_boxes.append((spot, width, height))
        ax.text(spot[0], spot[1], "\n".join(lines), size=size, ha="center", va="center",
                weight="bold", color=_shade(region_colour(region), 0.45), alpha=0.55,
                zorder=4, family="DejaVu Serif", linespacing=1.1)
    for sea in raw["seas"]:
        cells = {h for h in grid.kind if grid.kind[h] == "sea" and grid.ident[h] == sea["id"]}
        size = 10.0
        width = len(sea["name"]) * size * 0.55 * upp
        height = size * 1.3 * upp
        spot = _name_spot(grid, _largest(grid, cells), avoid, width, height)
        if spot is None:
            continue
        name_boxes.append((spot, width, height))
        _text(ax, spot[0], spot[1], sea["name"], size=size, colour=SEA_INK,
              halo=_shade(sea_colour[sea["id"]], 1.3), halo_width=3, ha="center", va="center",
              style="italic", family="DejaVu Serif", zorder=4, gid=f"sea-{sea['id']}")

    # sea routes
    for pts in routes:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=ROUTE, lw=1.6,
                linestyle=(0, (0.1, 2.2)), dash_capstyle="round", solid_capstyle="round",
                zorder=5)

    # pieces: fiefs below the markers (you still see what they cover), rings above
    for colour, kind, hexes in pieces:
        if kind != "fief":
            continue
        fill = PLAYER_COLOURS[colour]
        cells = set(hexes)
        ax.add_collection(PolyCollection([hex_corners(*hex_centre(h), 0.97) for h in hexes],
                                          facecolors=fill, edgecolors="none", alpha=0.82,
                                          zorder=6))
        outline = [shared_edge(h, n) for h in hexes for n in grid.nbrs(h) if n not in cells]
        outline += _grid_edge_segments(grid, hexes)
        ax.add_collection(LineCollection(outline, colors=_shade(fill, 0.5), linewidths=3.0,
                                         zorder=6.1, capstyle="round"))

    # harbors and cities
    labels = _Labels(upp)
    (x0, x1), (y1, y0) = ax.get_xlim(), ax.get_ylim()
    bounds = (x0 + 0.3, y0 + 0.3, x1 - 0.3, y1 - 0.3)  # inside the frame
    for p in [*raw["harbors"], *raw["cities"]]:
        labels.block(*hex_centre(p["at"]), 0.55)
    for (x, y), w, h in name_boxes:
        labels.boxes.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    for region in raw["regions"]:
        if region.get("seal"):
            labels.block(float(region["seal"]["x"]), float(region["seal"]["y"]) + 0.4, 1.6)
    for hb in raw["harbors"]:
        x, y = hex_centre(hb["at"])
        ax.add_patch(Circle((x, y), 0.55, facecolor=HARBOR_FACE, edgecolor="white", lw=1.0,
                            zorder=8))
        _draw_icon(ax, sea_symbol.get(hb["sea"], "anchor"), x, y, 0.35, "white", zorder=8.1)
        tx, ty, ha, va = labels.place(x, y, hb["name"], 6.8, 0.62, bounds)
        _text(ax, tx, ty, hb["name"], size=6.8, colour=HARBOR_FACE, ha=ha, va=va,
              style="italic", weight="bold", zorder=9, gid=f"harbor-{hb['id']}")
    for city in raw["cities"]:
        x, y = hex_centre(city["at"])
        ax.add_patch(Circle((x, y), 0.57, facecolor=CITY_FACE, edgecolor=INK, lw=1.2, zorder=8))
        _draw_icon(ax, city["symbol"], x, y, 0.37, INK, zorder=8.1)
        tx, ty, ha, va = labels.place(x, y, city["name"], 7.6, 0.65, bounds)
        _text(ax, tx, ty, city["name"], size=7.6, colour=INK, ha=ha, va=va, weight="bold",
              zorder=9, gid=f"city-{city['id']}")

    # rings on top of everything they sit on
    for colour, kind, hexes in pieces:
        if kind != "ring":
            continue
        for h in hexes:
            x, y = hex_centre(h)
            ax.add_patch(Circle((x, y), 0.68, facecolor="none", edgecolor=_shade(
                PLAYER_COLOURS[colour], 0.5), lw=5.5, zorder=10))
            ax.add_patch(Circle((x, y), 0.68, facecolor="none",
                                edgecolor=PLAYER_COLOURS[colour], lw=3.5, zorder=10.1))

    # seals and church
    for region in raw["regions"]:
        seal = region.get("seal")
        if seal:
            _seal(ax, float(seal["x"]), float(seal["y"]), region)
    church = raw.get("church")
    if church:
        _church(ax, float(church["x"]), float(church["y"]))


def _largest(grid: _Grid, cells: set[Hex]) -> set[Hex]:
    """Largest connected piece of a set of hexes."""
    best: set[Hex] = set()
    seen: set[Hex] = set()
    for start in sorted(cells):
        if start in seen:
            continue
        comp = {start}
        queue = deque([start])
        seen.add(start)
        while queue:
            h = queue.popleft()
            for n in grid.nbrs(h):
                if n in cells and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    queue.append(n)
        if len(comp) > len(best):
            best = comp
    return best


def _grid_edge_segments(grid: _Grid, hexes: list[Hex]) -> list[tuple[Point, Point]]:
    """Sides of hexes on the board's rim (no neighbour there), for outlining pieces."""
    out = []
    for h in hexes:
        x, y = hex_centre(h)
        corners = hex_corners(x, y)
        for k in range(6):
            p, q = corners[k], corners[(k + 1) % 6]
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            nx, ny = 2 * mx - x, 2 * my - y  # centre of the hex across this side
            if not any(math.dist(hex_centre(n), (nx, ny)) < 0.1 for n in grid.nbrs(h)):
                out.append((p, q))
    return out


def _units_per_point(ax: Axes) -> float:
    """Pixel-frame units per typographic point, to size label boxes before drawing them."""
    fig = ax.figure
    width_in = fig.get_figwidth() * ax.get_position().width
    x0, x1 = ax.get_xlim()
    return abs(x1 - x0) / (width_in * 72.0)


def _legend(ax: Axes, raw: Mapping[str, Any], height: float) -> None:
    """Symbols of cities and seas, and the map's other marks, in four columns.

    The axes span 100 units across and `height` units down, the same unit both ways.
    """
    ax.set_xlim(0, 100)
    ax.set_ylim(height, 0)
    ax.axis("off")
    small = 7.6
    groups: dict[int, list[Mapping[str, Any]]] = {}
    for s in raw["symbols"]:
        groups.setdefault(int(s.get("objective_group", 1)), []).append(s)
    regions_of: dict[int, list[str]] = {}
    for r in raw["regions"]:
        regions_of.setdefault(int(r["objective_group"]), []).append(r["name"])

    def head(x: float, title: str, sub: str) -> None:
        ax.text(x, 0.7, title, size=8.6, weight="bold", color=INK, va="center")
        ax.text(x, 2.1, sub, size=small - 0.4, color=INK, va="center", style="italic")

    def badge(x: float, y: float, face: str, edge: str, icon: str, colour: str) -> None:
        ax.add_patch(Circle((x, y), 0.75, facecolor=face, edgecolor=edge, lw=1.0))
        _draw_icon(ax, icon, x, y, 0.48, colour, zorder=3)

    for i, (g, syms) in enumerate(sorted(groups.items())[:2]):
        x0 = 0.5 + 25.5 * i
        head(x0, f"City symbols, group {g}", ", ".join(regions_of.get(g, [])))
        for j, s in enumerate(syms):
            y = 4.0 + j * 2.5
            badge(x0 + 0.9, y, CITY_FACE, INK, s["id"], INK)
            label = f"{s['name']}: {s['meaning']}" if s.get("meaning") else s["name"]
            ax.text(x0 + 2.2, y, label, size=small, color=INK, va="center")
    x0 = 51.5
    head(x0, "Sea symbols", "on the four harbors of each sea")
    for j, sea in enumerate(raw["seas"]):
        y = 3.8 + j * 2.0
        badge(x0 + 0.9, y, HARBOR_FACE, "white", sea.get("symbol", "anchor"), "white")
        ax.text(x0 + 2.2, y, sea["name"], size=small, color=SEA_INK, va="center",
                style="italic")
    x0 = 76.0
    head(x0, "Map", "fiefs may not be laid across a barrier")
    step = 2.0
    y = 3.8
    ax.plot([x0 + 0.1, x0 + 1.8], [y, y], color=BARRIER, lw=5.2, solid_capstyle="round")
    ax.plot([x0 + 0.1, x0 + 1.8], [y, y], color=BARRIER_LIGHT, lw=1.6, linestyle=(0, (1.5, 1.5)))
    ax.text(x0 + 2.6, y, "Barrier (mountain range)", size=small, color=INK, va="center")
    y += step
    ax.plot([x0 + 0.1, x0 + 1.8], [y, y], color=ROUTE, lw=1.6, linestyle=(0, (0.1, 2.2)),
            dash_capstyle="round")
    ax.text(x0 + 2.6, y, "Sea route between harbors", size=small, color=INK, va="center")
    y += step
    ax.plot([x0 + 0.1, x0 + 1.8], [y, y], color=SEA_LINE, lw=2.2)
    ax.text(x0 + 2.6, y, "Border between seas", size=small, color=INK, va="center")
    y += step
    ax.plot([x0 + 0.1, x0 + 1.8], [y, y], color=BORDER, lw=2.4)
    ax.text(x0 + 2.6, y, "Border between regions", size=small, color=INK, va="center")
    y += step
    ax.add_patch(Circle((x0 + 0.95, y), 0.7, facecolor="#e6dcc8", edgecolor="#8a6d3b", lw=1.4))
    ax.text(x0 + 2.6, y, "Seal space of a region", size=small, color=INK, va="center")
    y += step
    ax.add_patch(Circle((x0 + 0.95, y), 0.7, facecolor=SCENERY, edgecolor="#7d7266"))
    ax.text(x0 + 2.6, y, "Land outside the six regions", size=small, color=INK, va="center")


def _parse_pieces(pieces: Iterable[PieceSpec] | None) -> list[tuple[str, str, list[Hex]]]:
    """Check the pieces before drawing anything, so a bad one leaves no half-written file."""
    out = []
    for item in pieces or []:
        colour, kind, hexes = item
        if colour not in PLAYER_COLOURS:
            raise ValueError(f"unknown player colour {colour!r}; use one of "
                             f"{', '.join(PLAYER_COLOURS)}")
        if kind not in ("fief", "ring"):
            raise ValueError(f"unknown piece kind {kind!r}; use 'fief' or 'ring'")
        out.append((colour, kind, [(int(h[0]), int(h[1])) for h in hexes]))
    return out


def draw_board(board: Any, path: str | Path, *, pieces: Iterable[PieceSpec] | None = None,
               title: str | None = None) -> None:
    """Draw `board` (the parsed board file, or an object with `.raw`) to a .png or .svg file.

    `pieces` lists placed pieces as (colour, kind, hexes): colour is red, yellow, green or
    blue, kind is "fief" (the hexes are filled and outlined together) or "ring" (a ring on
    each hex).
    """
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"cannot draw to {out.name!r}: the file name must end in .png or .svg")
    loaded = _loaded(board)
    raw = _raw_board(loaded)
    placed = _parse_pieces(pieces)
    grid = _Grid(loaded)

    width_units = SQRT3 * (grid.columns + 0.5)
    height_units = 1.5 * (grid.rows - 1) + 2.0
    fig_w = 14.0
    map_w = 13.4
    map_h = map_w * height_units / width_units
    top, legend_h, gap = 0.75, 2.05, 0.15
    fig_h = top + map_h + gap + legend_h + 0.2
    with mpl.rc_context({"svg.fonttype": "path", "svg.hashsalt": "gonzaga",
                         "font.family": "DejaVu Sans"}):
        fig = Figure(figsize=(fig_w, fig_h), facecolor=PARCHMENT)
        FigureCanvasAgg(fig)
        left = (fig_w - map_w) / 2
        ax = fig.add_axes((left / fig_w, (gap + legend_h + 0.2) / fig_h, map_w / fig_w,
                           map_h / fig_h))
        ax.set_xlim(-SQRT3 / 2, width_units - SQRT3 / 2)
        ax.set_ylim(height_units - 1.0, -1.0)
        ax.set_aspect("equal")
        ax.set_facecolor(PARCHMENT)
        for spine in ax.spines.values():
            spine.set_edgecolor(PARCHMENT_EDGE)
            spine.set_linewidth(2.0)
        ax.set_xticks([])
        ax.set_yticks([])
        _draw_map(ax, raw, grid, placed)
        heading = title if title is not None else f"Gonzaga · {raw.get('name', 'board')}"
        fig.text(0.5, 1 - (top * 0.5) / fig_h, heading, ha="center", va="center", size=18,
                 color=INK, family="DejaVu Serif", weight="bold")
        lax = fig.add_axes((left / fig_w, 0.15 / fig_h, map_w / fig_w, legend_h / fig_h))
        _legend(lax, raw, 100.0 * legend_h / map_w)
        if suffix == ".png":
            fig.savefig(out, dpi=100, facecolor=PARCHMENT, metadata={"Software": None})
        else:
            fig.savefig(out, format="svg", facecolor=PARCHMENT, metadata={"Date": None})

