"""The hex map as coloured text: regions, seas, places, fiefs, rings, a preview; its legend.

Map conventions: hexes are written `column,row` as in the board file and the engine; odd rows
are shifted half a hex to the right; a fief's rotation is in sixths of a turn clockwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.color import Color, ColorParseError
from rich.text import Text

from .. import text as words
from ..board import Board
from ..engine import PlayerView
from ..state import POINTS_FLOURISHING, POINTS_INACTIVE
from .layout import pack

#: Player pieces as printed: strong colours for fiefs, rings and names.
PLAYER_BG = {"red": "#c62f25", "yellow": "#e8b90c", "green": "#2b8a3e", "blue": "#2459c4"}
PLAYER_INK = {"red": "white", "yellow": "black", "green": "white", "blue": "white"}
PLAYER_FG = {"red": "#ff6352", "yellow": "#ffd43b", "green": "#51cf66", "blue": "#5c9bff"}
#: Seas in shades of blue, one per sea so their borders show; exact xterm-256 colours, so they
#: look the same on terminals without true colour.
SEA_SHADES = ("#005f87", "#0087af", "#005faf", "#0087d7", "#5f87af", "#005fd7")
SCENERY_BG = "#303030"
INACTIVE_TINT = "#6c6c6c"
INACTIVE_DOT = "·"
FALLBACK_REGION = ("#d9a85e", "#7f9fc6", "#d08c8c", "#a9bd73", "#e3cc7e", "#b49ac4")
CITY_INK = "bold #101010"
HARBOR_INK = "bold #0a2a78"
PLACE_BG = "on #d9c9a3"
BARRIER_INK = "#5b3a1a"
CASTLE = "▲"
ANCHOR = "◆"
PREVIEW_BG = "#f4f4f4"
HEX_WIDTHS = (2, 3, 4)


def player_name(v: PlayerView, seat: int) -> Text:
    p = v.players[seat]
    return Text(p.name, style=f"bold {PLAYER_FG.get(p.colour, 'white')}")


def swatch(colour: str, width: int = 2) -> Text:
    return Text(" " * width, style=f"on {PLAYER_BG.get(colour, colour)}")


def hexes_text(board: Board, hexes: Iterable[int]) -> str:
    return " + ".join(words.hex_text(board.coords[h]) for h in hexes)


def objective_hexes(v: PlayerView, seat: int) -> list[int]:
    """Hexes of the cities on the player's objective card (empty if it is hidden)."""
    objective = v.players[seat].objective
    if objective is None:
        return []
    return [c.hex for c in v.board.objective_cities(objective)]


def _rgb(colour: str) -> tuple[int, int, int] | None:
    try:
        tc = Color.parse(colour).get_truecolor()
    except ColorParseError:
        return None
    return tc.red, tc.green, tc.blue


def _blend(colour: str, other: str, amount: float) -> str:
    """Mix two colours; used to grey out the inactive regions (they score 1 point, not 3)."""
    a, b = _rgb(colour), _rgb(other)
    if a is None or b is None:
        return colour
    mix = (round(x + (y - x) * amount) for x, y in zip(a, b, strict=True))
    return "#{:02x}{:02x}{:02x}".format(*mix)


def _unique_letters(names: dict[str, str], upper: bool) -> dict[str, str]:
    """One letter per key, the first letter of its name not taken yet (book B, bell E)."""
    taken: set[str] = set()
    out: dict[str, str] = {}
    for key, name in names.items():
        letters = [ch for ch in name + key + "abcdefghijklmnopqrstuvwxyz0123456789"
                   if ch.isalnum() and ch.isascii()]
        for ch in letters:
            ch = ch.upper() if upper else ch.lower()
            if ch not in taken:
                taken.add(ch)
                out[key] = ch
                break
        else:  # pragma: no cover - more keys than letters
            out[key] = "?"
    return out


_glyphs_cache: dict[str, Glyphs] = {}


@dataclass(frozen=True)
class Glyphs:
    """Letters marking cities (by symbol, upper case) and harbors (by sea, lower case)."""

    symbol: dict[str, str]
    sea: dict[str, str]

    @classmethod
    def of(cls, board: Board) -> Glyphs:
        glyphs = _glyphs_cache.get(board.content_hash)
        if glyphs is None:
            glyphs = cls(_unique_letters({s.id: s.name for s in board.symbols.values()}, True),
                         _unique_letters({s.id: s.name.split()[-1]
                                          for s in board.seas.values()}, False))
            _glyphs_cache[board.content_hash] = glyphs
        return glyphs

    def at(self, board: Board, h: int) -> str | None:
        city = board.city_at.get(h)
        if city is not None:
            return self.symbol[city.symbol]
        harbor = board.harbor_at.get(h)
        if harbor is not None:
            return self.sea[harbor.sea]
        return None


@dataclass(frozen=True)
class Highlight:
    """A placement being previewed: its hexes, which of them hold castles, and whose it is."""

    hexes: tuple[int, ...]
    castles: frozenset[int] = frozenset()
    colour: str = "red"
    rings: bool = False


def _region_colours(board: Board, flourishing: Iterable[str]) -> dict[str, str]:
    fl = set(flourishing)
    out = {}
    for i, (rid, region) in enumerate(board.regions.items()):
        colour = region.colour if _rgb(region.colour) else FALLBACK_REGION[i % 6]
        out[rid] = colour if rid in fl else _blend(colour, INACTIVE_TINT, 0.45)
    return out


# -- names written on the map ----------------------------------------------------------------

_Run = tuple[tuple[int, ...], str, bool]  # hexes, the characters over them, is a sea
_label_cache: dict[tuple[str, int, tuple[str, ...]], list[list[_Run]]] = {}


def _label_groups(board: Board, fl: tuple[str, ...]) -> list[tuple[list[str], set[int], bool]]:
    """Each region and sea: the names it may be written with (longest first), its hexes and
    whether it is a sea."""
    groups: list[tuple[list[str], set[int], bool]] = []
    for rid, region in board.regions.items():
        star = " ★" if rid in fl else ""
        names = [region.name.upper() + star, region.name.split()[-1].upper() + star,
                 region.name.split()[-1].upper()]
        groups.append((list(dict.fromkeys(names)), set(board.region_hexes(rid)), False))
    for sid, sea in board.seas.items():
        hexes = {i for i, s in enumerate(board.sea_of) if s == sid}
        groups.append((list(dict.fromkeys([sea.name, sea.name.split()[-1]])), hexes, True))
    return groups


def _runs(board: Board, hex_width: int, names: list[str], hexes: set[int], is_sea: bool,
          busy: set[int]) -> list[_Run]:
    """Every run of free hexes of a region or sea one of its names fits on, best first."""
    cols = [board.coords[h][0] + 0.5 * (board.coords[h][1] & 1) for h in hexes]
    rows = [board.coords[h][1] for h in hexes]
    cc, rc = sum(cols) / len(cols), sum(rows) / len(rows)
    runs: list[tuple[int, float, _Run]] = []
    tight = [(name, 0) for name in names if len(name) % hex_width == 0]
    for rank, (name, margin) in enumerate([(name, 2) for name in names] + tight):
        k = -(-(len(name) + margin) // hex_width)  # cells, with a margin if it fits
        text = name.center(k * hex_width)
        for h in sorted(hexes):
            c0, r = board.coords[h]
            run = [board.index_of.get((c0 + i, r)) for i in range(k)]
            if any(x is None or x not in hexes or x in busy for x in run):
                continue
            mid = c0 + (k - 1) / 2 + 0.5 * (r & 1)
            cost = 2.0 * abs(r - rc) + abs(mid - cc)
            runs.append((rank, cost, (tuple(x for x in run if x is not None), text, is_sea)))
    runs.sort(key=lambda x: (x[0], x[1]))
    return [run for _, _, run in runs]


def _label_candidates(board: Board, hex_width: int, fl: tuple[str, ...]) -> list[list[_Run]]:
    """For each region and sea, every run of free hexes its name could be written on, best
    (nearest its middle, longest name) first."""
    key = (board.content_hash, hex_width, fl)
    if key not in _label_cache:
        busy = set(board.city_at) | set(board.harbor_at)
        busy |= {a for _, a, _ in board.barriers} | {b for _, _, b in board.barriers}
        _label_cache[key] = [_runs(board, hex_width, names, hexes, is_sea, busy)
                             for names, hexes, is_sea in _label_groups(board, fl) if hexes]
    return _label_cache[key]


def map_label_runs(board: Board, hex_width: int, flourishing: Iterable[str],
                   blocked: Iterable[int] = ()) -> list[_Run]:
    """Region and sea names written across empty hexes near the middle of each, as on the
    printed map: (the hexes, the characters over them, is a sea). Flourishing regions get a ★.

    A name is written whole or not at all: never on a city, harbor or barrier, nor on
    `blocked` hexes (pieces, a preview, hexes outside the part of the map shown); when its
    best place is blocked it moves to the next best.
    """
    blocked = set(blocked)
    taken: set[int] = set()
    out: list[_Run] = []
    for candidates in _label_candidates(board, hex_width, tuple(sorted(flourishing))):
        for hexes, text, is_sea in candidates:
            if not any(h in blocked or h in taken for h in hexes):
                out.append((hexes, text, is_sea))
                taken.update(hexes)
                break
    return out


def map_labels(board: Board, hex_width: int, flourishing: Iterable[str],
               blocked: Iterable[int] = ()) -> dict[int, tuple[str, bool]]:
    """The names of `map_label_runs` hex by hex: hex -> (its characters, is a sea)."""
    labels: dict[int, tuple[str, bool]] = {}
    for hexes, text, is_sea in map_label_runs(board, hex_width, flourishing, blocked):
        for i, h in enumerate(hexes):
            labels[h] = (text[i * hex_width:(i + 1) * hex_width], is_sea)
    return labels


# -- the map ---------------------------------------------------------------------------------


def _castle_hexes(pieces: Iterable[Any]) -> set[int]:
    """Hexes of placed fiefs that hold a castle."""
    return {h for piece in pieces if piece.kind == "fief" for h in piece.castles}


def map_width(board: Board, hex_width: int) -> int:
    """Characters the map takes: row labels, the hexes, and the half-hex shift of odd rows."""
    return 3 + board.columns * hex_width + hex_width // 2


class _Painter:
    """What every hex of one drawing needs, worked out once: colours, castles, the preview,
    the names written on the map."""

    def __init__(self, v: PlayerView, hex_width: int, highlight: Highlight | None,
                 goal_hexes: Iterable[int], shown: set[int]) -> None:
        board = v.board
        self.v, self.board, self.hex_width, self.highlight = v, board, hex_width, highlight
        self.glyphs = Glyphs.of(board)
        self.flourishing = set(v.rules.scenario.flourishing)
        self.regions = _region_colours(board, self.flourishing)
        self.seas = {sid: SEA_SHADES[i % len(SEA_SHADES)] for i, sid in enumerate(board.seas)}
        self.colours = [p.colour for p in v.players]
        self.castles = _castle_hexes(v.pieces)
        self.barriers = {a for _, a, _ in board.barriers} | {b for _, _, b in board.barriers}
        self.preview = set(highlight.hexes) if highlight else set()
        self.goals = set(goal_hexes)
        blocked = set(np.flatnonzero((v.fief_owner >= 0) | (v.ring_owner >= 0)).tolist())
        blocked |= self.preview | (set(range(board.hex_count)) - shown)
        self.labels = map_labels(board, hex_width, self.flourishing, blocked)

    def ground(self, h: int, place: str | None) -> tuple[str, str, str]:
        """The hex's background, ink and glyph before rings and the preview."""
        fief = int(self.v.fief_owner[h])
        if fief >= 0:
            colour = self.colours[fief]
            return (PLAYER_BG[colour], f"bold {PLAYER_INK[colour]}",
                    place or (CASTLE if h in self.castles else " "))
        board = self.board
        region = board.region_of[h]
        sea = board.sea_of[h]
        bg = self.regions[region] if region is not None else self.seas.get(sea or "",
                                                                           SEA_SHADES[0])
        ink = CITY_INK if h in board.city_at else HARBOR_INK
        if place is None and region is not None and region not in self.flourishing:
            return bg, "#3a3a3a", INACTIVE_DOT
        return bg, ink, place or " "

    def cell(self, h: int) -> list[tuple[str, str]]:
        """The characters of one hex with their styles."""
        place = self.glyphs.at(self.board, h)
        bg, ink, glyph = self.ground(h, place)
        ring = int(self.v.ring_owner[h])
        pad, pad_style = " ", f"on {bg}"
        if h in self.barriers:
            pad, pad_style = "^", f"{BARRIER_INK} on {bg}"
        if ring >= 0:
            colour = self.colours[ring]
            pad, pad_style = "o", f"bold {PLAYER_INK[colour]} on {PLAYER_BG[colour]}"
        highlight = self.highlight
        if h in self.preview and highlight is not None:
            bg = PREVIEW_BG
            ink = f"bold {PLAYER_BG.get(highlight.colour, 'black')}"
            if highlight.colour == "yellow":
                ink = "bold #8a6d00"
            if place is None:
                glyph = CASTLE if h in highlight.castles else ("o" if highlight.rings else "*")
            pad, pad_style = "*", f"bold black on {PLAYER_BG.get(highlight.colour, 'white')}"
        glyph_style = f"{ink} on {bg}" + (" underline" if h in self.goals else "")
        label = self.labels.get(h)
        if label is not None:
            chars, is_sea = label
            return [(chars, f"{'italic #a8c8f0' if is_sea else 'bold #2a2a2a'} on {bg}")]
        if self.hex_width == 2:
            return [(glyph, glyph_style), (pad, pad_style)]
        left, right = ("(", ")") if ring >= 0 and h not in self.preview else (pad, pad)
        edge = left if left != "^" else " "
        if self.hex_width == 3:
            return [(edge, pad_style), (glyph, glyph_style), (right, pad_style)]
        return [(edge, pad_style), (glyph, glyph_style), (" ", f"on {bg}"), (right, pad_style)]


def _ruler(cols: range, hex_width: int) -> Text:
    """Column numbers, aligned with the even rows."""
    ruler = Text("   ", style="dim")
    for c in cols:
        if hex_width == 2:
            ruler.append(f"{c:<4}" if c % 2 == 0 else "  " if c == cols.start else "",
                         style="dim")
        else:
            ruler.append(f"{c:^{hex_width}}", style="dim")
    ruler.truncate(3 + len(cols) * hex_width + hex_width // 2, pad=True)
    return ruler


def render_map(v: PlayerView, *, hex_width: int = 3, highlight: Highlight | None = None,
               goal_hexes: Iterable[int] = (), rows: range | None = None,
               cols: range | None = None) -> Text:
    """The board as coloured text: regions, seas, cities, harbors, fiefs, rings, a preview.

    Each hex is `hex_width` characters (2 to 4) on one line; odd rows are shifted right by
    half a hex. A fief fills its hexes with its owner's colour (castles as ▲); a ring colours
    the edges of its hex, written ( ) (or a trailing o when hexes are two wide). `rows` and
    `cols` draw only that part of the map (a terminal too small for all of it); the ruler and
    the row labels keep the board's own numbers.
    """
    if hex_width not in HEX_WIDTHS:
        raise ValueError(f"hex width must be one of {HEX_WIDTHS}, not {hex_width}")
    board = v.board
    half = hex_width // 2
    rows = rows if rows is not None else range(board.rows)
    cols = cols if cols is not None else range(board.columns)
    shown = {board.index_of[(c, r)] for r in rows for c in cols if (c, r) in board.index_of}
    painter = _Painter(v, hex_width, highlight, goal_hexes, shown)
    scenery = set(board.scenery)
    out = Text(no_wrap=True, overflow="crop")
    out.append_text(_ruler(cols, hex_width))
    out.append("\n")
    for r in rows:
        out.append(f"{r:>2} ", style="dim")
        if r & 1:
            out.append(" " * half)
        for c in cols:
            h = board.index_of.get((c, r))
            if h is None:
                out.append(" " * hex_width, style=f"on {SCENERY_BG}" if (c, r) in scenery
                           else "")
                continue
            for chars, style in painter.cell(h):
                out.append(chars, style=style)
        if not r & 1:
            out.append(" " * half)
        if r < rows.stop - 1:
            out.append("\n")
    return out


def render_legend(v: PlayerView, *, width: int = 40) -> Text:
    """What the letters and marks of the map mean, packed into `width` columns.

    Region and sea names are written on the map itself, so only places and marks are here.
    """
    board = v.board
    glyphs = Glyphs.of(board)
    city_items = [Text.assemble((glyphs.symbol[sid], f"{CITY_INK} {PLACE_BG}"), f" {sym.name}")
                  for sid, sym in board.symbols.items()]
    sea_items = [Text.assemble((glyphs.sea[sid], f"{HARBOR_INK} {PLACE_BG}"),
                               f" {sea.name.split()[-1]}")
                 for sid, sea in board.seas.items()]
    mark = "bold black on #bbbbbb"
    star = "bold black on white"
    mark_items = [Text.assemble((f"{CASTLE}", mark), " " + words.say("legend.castle")),
                  Text.assemble(("(", mark), "x", (")", mark), " " + words.say("legend.ring")),
                  Text.assemble(("*", star), "x", ("*", star), " " + words.say("legend.preview")),
                  Text("^ " + words.say("legend.barrier")),
                  Text.assemble(("x", "underline"), " " + words.say("legend.objective")),
                  Text("★ " + words.say("legend.flourishing", points=POINTS_FLOURISHING)),
                  Text(f"{INACTIVE_DOT} " + words.say("legend.inactive",
                                                      points=POINTS_INACTIVE))]
    out = Text()
    for title, items in ((words.say("legend.cities"), city_items),
                         (words.say("legend.harbors"), sea_items),
                         (words.say("legend.marks"), mark_items)):
        if out:
            out.append("\n")
        out.append_text(pack([Text(title, style="bold"), *items], width, gap=1))
    return out
