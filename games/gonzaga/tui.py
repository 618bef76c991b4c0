"""Play Gonzaga in the terminal: a coloured hex map, player boards, menus, drawn with rich.

People at the terminal sit at the table like any bot: `gonzaga.match.play_game` hands each of
them only their own `PlayerView` and legal actions, so the screen can never show what the rules
hide (another player's objective card or plan). The drawing functions (`render_*`) are pure:
they take a view and return rich renderables, so tests can look at them without a terminal.

Map conventions: hexes are written `column,row` as in the board file and the engine; odd rows
are shifted half a hex to the right; a fief's rotation is in sixths of a turn clockwise.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from rich.color import Color, ColorParseError
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from . import text as words
from .actions import (
    ALLIANCE,
    CITIES,
    HARBORS,
    INACTIVE,
    PRIVILEGE,
    WEDDING_CARD,
    Action,
    Donate,
    IllegalAction,
    PlaceFief,
    Plan,
    Wedding,
)
from .board import Board, FiefShape
from .bots import bot_title
from .engine import (
    LegalActions,
    PlayerView,
    action_events,
    castle_hexes,
    covered_hexes,
    covered_places,
    group_labels,
    largest_group,
    new_game,
    placement_points,
    placement_rows,
    uncovered_count,
    view,
)
from .state import (
    COLOUR_DIGIT,
    LAST_TURN_THRESHOLD,
    MAX_ROUNDS,
    POINTS_DONATION,
    POINTS_INACTIVE,
    RINGS,
    GameEnded,
    GameState,
    LastTurnChecked,
    Phase,
    PlansRevealed,
    Reason,
    RoundStarted,
    TurnPlayed,
)

HUMAN = "human"
T = TypeVar("T")

# -- colours and glyphs -----------------------------------------------------------------------

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
BARRIER_INK = "#5b3a1a"
CASTLE = "▲"
ANCHOR = "◆"
PREVIEW_BG = "#f4f4f4"

HEX_WIDTHS = (2, 3, 4)
SIDE_MIN = 38  # narrowest side panel beside the map
TOP_PLACEMENTS = 8
LOG_LINES = 12  # the log's length when the side panel has no height to fill


class GameAbandoned(Exception):
    """Someone closed the input (end of file, Ctrl-C) or typed q: stop without a traceback."""


# ---------------------------------------------------------------------------------------------
# Small helpers


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


def player_name(v: PlayerView, seat: int) -> Text:
    p = v.players[seat]
    return Text(p.name, style=f"bold {PLAYER_FG.get(p.colour, 'white')}")


def _possessive(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def _swatch(colour: str, width: int = 2) -> Text:
    return Text(" " * width, style=f"on {PLAYER_BG.get(colour, colour)}")


card_name = words.card_name


def _hexes_text(board: Board, hexes: Iterable[int]) -> str:
    return " + ".join("{},{}".format(*board.coords[h]) for h in hexes)


# ---------------------------------------------------------------------------------------------
# The map


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


_Run = tuple[tuple[int, ...], str, bool]  # hexes, the characters over them, is a sea
_label_cache: dict[tuple[str, int, tuple[str, ...]], list[list[_Run]]] = {}


def _label_candidates(board: Board, hex_width: int, fl: tuple[str, ...]) -> list[list[_Run]]:
    """For each region and sea, every run of free hexes its name could be written on, best
    (nearest its middle, longest name) first."""
    key = (board.content_hash, hex_width, fl)
    if key in _label_cache:
        return _label_cache[key]
    busy = set(board.city_at) | set(board.harbor_at)
    busy |= {a for _, a, _ in board.barriers} | {b for _, _, b in board.barriers}
    groups: list[tuple[list[str], set[int], bool]] = []
    for rid, region in board.regions.items():
        star = " ★" if rid in fl else ""
        names = [region.name.upper() + star, region.name.split()[-1].upper() + star,
                 region.name.split()[-1].upper()]
        groups.append((list(dict.fromkeys(names)), set(board.region_hexes(rid)), False))
    for sid, sea in board.seas.items():
        hexes = {i for i, s in enumerate(board.sea_of) if s == sid}
        groups.append((list(dict.fromkeys([sea.name, sea.name.split()[-1]])), hexes, True))
    out: list[list[_Run]] = []
    for names, hexes, is_sea in groups:
        if not hexes:
            continue
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
        out.append([run for _, _, run in runs])
    _label_cache[key] = out
    return out


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


def _castle_hexes(board: Board, pieces: Iterable[Any]) -> set[int]:
    """Hexes of placed fiefs that hold a castle."""
    return {h for piece in pieces if piece.kind == "fief" for h in piece.castles}


def map_width(board: Board, hex_width: int) -> int:
    """Characters the map takes: row labels, the hexes, and the half-hex shift of odd rows."""
    return 3 + board.columns * hex_width + hex_width // 2


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
    glyphs = Glyphs.of(board)
    flourishing = set(v.rules.scenario.flourishing)
    regions = _region_colours(board, flourishing)
    seas = {sid: SEA_SHADES[i % len(SEA_SHADES)] for i, sid in enumerate(board.seas)}
    colours = [p.colour for p in v.players]
    castles = _castle_hexes(board, v.pieces)
    scenery = set(board.scenery)
    barrier_hexes = {a for _, a, _ in board.barriers} | {b for _, _, b in board.barriers}
    preview = set(highlight.hexes) if highlight else set()
    goals = set(goal_hexes)
    half = hex_width // 2
    rows = rows if rows is not None else range(board.rows)
    cols = cols if cols is not None else range(board.columns)
    shown = {board.index_of[(c, r)] for r in rows for c in cols if (c, r) in board.index_of}
    blocked = set(np.flatnonzero((v.fief_owner >= 0) | (v.ring_owner >= 0)).tolist())
    blocked |= preview | (set(range(board.hex_count)) - shown)
    labels = map_labels(board, hex_width, flourishing, blocked)
    out = Text(no_wrap=True, overflow="crop")

    # Column ruler, aligned with the even rows.
    ruler = Text("   ", style="dim")
    for c in cols:
        if hex_width == 2:
            ruler.append(f"{c:<4}" if c % 2 == 0 else "  " if c == cols.start else "",
                         style="dim")
        else:
            ruler.append(f"{c:^{hex_width}}", style="dim")
    ruler.truncate(3 + len(cols) * hex_width + half, pad=True)
    out.append_text(ruler)
    out.append("\n")

    for r in rows:
        out.append(f"{r:>2} ", style="dim")
        if r & 1:
            out.append(" " * half)
        for c in cols:
            h = board.index_of.get((c, r))
            if h is None:
                style = f"on {SCENERY_BG}" if (c, r) in scenery else ""
                out.append(" " * hex_width, style=style)
                continue
            region = board.region_of[h]
            place = glyphs.at(board, h)
            fief = int(v.fief_owner[h])
            ring = int(v.ring_owner[h])
            if fief >= 0:
                bg = PLAYER_BG[colours[fief]]
                ink = f"bold {PLAYER_INK[colours[fief]]}"
                glyph = place or (CASTLE if h in castles else " ")
            else:
                sea = board.sea_of[h]
                bg = regions[region] if region is not None else seas.get(sea or "", SEA_SHADES[0])
                ink = CITY_INK if h in board.city_at else HARBOR_INK
                glyph = place or " "
                if place is None and region is not None and region not in flourishing:
                    glyph, ink = INACTIVE_DOT, "#3a3a3a"
            pad, pad_style = " ", f"on {bg}"
            if h in barrier_hexes:
                pad, pad_style = "^", f"{BARRIER_INK} on {bg}"
            if ring >= 0:
                ring_colour = colours[ring]
                pad = "o"
                pad_style = f"bold {PLAYER_INK[ring_colour]} on {PLAYER_BG[ring_colour]}"
            if h in preview and highlight is not None:
                bg = PREVIEW_BG
                ink = f"bold {PLAYER_BG.get(highlight.colour, 'black')}"
                if highlight.colour == "yellow":
                    ink = "bold #8a6d00"
                if place is None:
                    glyph = CASTLE if h in highlight.castles else ("o" if highlight.rings else "*")
                pad, pad_style = "*", f"bold black on {PLAYER_BG.get(highlight.colour, 'white')}"
            glyph_style = f"{ink} on {bg}"
            if h in goals:
                glyph_style += " underline"
            left, right = pad, pad
            if ring >= 0 and h not in preview:
                left, right = "(", ")"
            label = labels.get(h)
            if label is not None:
                chars, is_sea = label
                ink = "italic #a8c8f0" if is_sea else "bold #2a2a2a"
                out.append(chars, style=f"{ink} on {bg}")
            elif hex_width == 2:
                out.append(glyph, style=glyph_style)
                out.append(pad, style=pad_style)
            elif hex_width == 3:
                out.append(left if left != "^" else " ", style=pad_style)
                out.append(glyph, style=glyph_style)
                out.append(right, style=pad_style)
            else:
                out.append(left if left != "^" else " ", style=pad_style)
                out.append(glyph, style=glyph_style)
                out.append(" ", style=f"on {bg}")
                out.append(right, style=pad_style)
        if not r & 1:
            out.append(" " * half)
        if r < rows.stop - 1:
            out.append("\n")
    return out


def _pack(items: Sequence[Text], width: int, gap: int = 2, sep: str = "") -> Text:
    """Lay short items on lines of at most `width` cells, never splitting an item; `sep`
    goes between two items on one line."""
    out = Text()
    used = 0
    space = sep or " " * gap
    for item in items:
        n = item.cell_len
        if used and used + len(space) + n > width:
            out.append("\n")
            used = 0
        elif used:
            out.append(space, style="dim")
            used += len(space)
        out.append_text(item)
        used += n
    return out


def render_legend(v: PlayerView, *, width: int = 40) -> Text:
    """What the letters and marks of the map mean, packed into `width` columns.

    Region and sea names are written on the map itself, so only places and marks are here.
    """
    board = v.board
    glyphs = Glyphs.of(board)
    places = "on #d9c9a3"
    city_items = [Text.assemble((glyphs.symbol[sid], f"{CITY_INK} {places}"), f" {sym.name}")
                  for sid, sym in board.symbols.items()]
    sea_items = [Text.assemble((glyphs.sea[sid], f"{HARBOR_INK} {places}"),
                               f" {sea.name.split()[-1]}")
                 for sid, sea in board.seas.items()]
    mark = "bold black on #bbbbbb"
    mark_items = [Text.assemble((f"{CASTLE}", mark), " castle"),
                  Text.assemble(("(", mark), "x", (")", mark), " ring"),
                  Text.assemble(("*", "bold black on white"), "x", ("*", "bold black on white"),
                                " preview"),
                  Text("^ barrier"),
                  Text.assemble(("x", "underline"), " your objective"),
                  Text("★ flourishing 3 pts a place"),
                  Text(f"{INACTIVE_DOT} inactive 1 pt")]
    out = Text()
    for title, items in ((words.say("legend.cities"), city_items),
                         (words.say("legend.harbors"), sea_items),
                         (words.say("legend.marks"), mark_items)):
        if out:
            out.append("\n")
        out.append_text(_pack([Text(title, style="bold"), *items], width, gap=1))
    return out


# ---------------------------------------------------------------------------------------------
# Player boards, score track, status and log


def render_status(v: PlayerView) -> Text:
    """Round, turn order and the state of the Last Turn card."""
    out = Text()
    out.append(f"Round {v.round}", style="bold")
    phase = words.phase_name(v.phase)
    out.append(f" (≤{MAX_ROUNDS}) · {phase} · {v.rules.scenario.name}")
    if v.phase is Phase.PLACING and v.order:
        out.append("\nOrder: ")
        for k, seat in enumerate(v.order):
            if k:
                out.append(" › ")
            name = player_name(v, seat)
            if k == v.turn:
                name.stylize("reverse")
            elif k < v.turn:
                name.stylize("dim")
            out.append_text(name)
    out.append("\n")
    holder = v.players[v.last_turn_holder].name
    if v.final_round is not None:
        if v.round >= v.final_round and v.phase is not Phase.OVER:
            out.append("This is the LAST ROUND", style="bold red")
        else:
            out.append(f"Round {v.final_round} is the last", style="bold yellow")
    elif v.last_turn_check is not None and v.phase is not Phase.OVER:
        left = uncovered_count(v)
        out.append(f"Last Turn: {holder} counts after round {v.last_turn_check}; ")
        out.append(f"{left} places uncovered", style="bold")
        out.append(f" (≤{LAST_TURN_THRESHOLD} ends)", style="dim")
    if v.church:
        out.append("\nChurch: " + ", ".join(f"{v.players[p].name} {f}" for p, f in v.church),
                   style="dim")
    return out


def render_players(v: PlayerView) -> Text:
    """Each player's board: colour, score, rings, this round's fief card, resting cards, sea
    leagues and, once revealed, the plan."""
    board = v.board
    out = Text()
    for seat, p in enumerate(v.players):
        if seat:
            out.append("\n")
        out.append_text(_swatch(p.colour, 1))
        out.append(" ")
        out.append_text(player_name(v, seat))
        if seat == v.viewer:
            out.append(" (you)", style="dim")
        if seat in v.winners and v.phase is Phase.OVER:
            out.append(" ♛", style="bold yellow")
        out.append(f" {p.score} pts ", style="bold")
        out.append("●" * p.rings, style=PLAYER_FG[p.colour])
        out.append("○" * max(0, RINGS - p.rings), style="dim")
        if v.phase is Phase.PLANNING:
            out.append(" ✓ planned" if p.has_planned else " planning",
                       style="green" if p.has_planned else "dim")
        out.append("\n  ")
        if p.fief is not None:
            out.append(f"fief {p.fief} · card {p.fief + COLOUR_DIGIT[p.colour]}")
        else:
            out.append("fief placed" if v.phase is Phase.PLACING else "no fief", style="dim")
        if p.resting and not (v.phase is Phase.PLACING and p.played):
            out.append(" · rests ", style="dim")
            out.append(", ".join(card_name(board, c) for c in p.resting), style="dim")
        if p.leagues:
            out.append(" · leagues ", style="dim")
            out.append(", ".join(board.seas[s].name.split()[-1] for s in sorted(p.leagues)))
        if v.phase is Phase.PLACING and p.played:
            out.append("\n  plan ", style="dim")
            out.append(" + ".join(card_name(board, c) for c in p.played), style="bold")
    return out


def render_score_track(v: PlayerView, *, width: int = 30) -> Text:
    """The scoring track as bars, highest first."""
    top = max([p.score for p in v.players] + [1])
    out = Text()
    ranked = sorted(range(len(v.players)), key=lambda i: -v.players[i].score)
    name_width = max(len(p.name) for p in v.players)
    for k, seat in enumerate(ranked):
        p = v.players[seat]
        if k:
            out.append("\n")
        out.append(f"{p.name:<{name_width}} ", style=PLAYER_FG[p.colour])
        n = round(width * p.score / top)
        out.append("█" * n, style=PLAYER_FG[p.colour])
        out.append(f" {p.score}", style="bold")
    return out


_event_text = words.event_short


def describe_entry(v: PlayerView, entry: Any) -> Text:
    """One journal entry as a log line with the points it scored."""
    board = v.board
    out = Text()
    if isinstance(entry, RoundStarted):
        out.append(f"── Round {entry.round}: fief cards ", style="bold")
        for seat, fief in enumerate(entry.fiefs):
            colour = v.players[seat].colour
            out.append(f"{fief + COLOUR_DIGIT[colour]} ", style=PLAYER_FG[colour])
    elif isinstance(entry, PlansRevealed):
        out.append("Plans: ", style="bold")
        for k, plan in enumerate(entry.plans):
            if k:
                out.append(", ")
            out.append_text(player_name(v, plan.player))
            out.append(f" {words.plan_cards(board, plan)}")
    elif isinstance(entry, TurnPlayed):
        out.append_text(player_name(v, entry.player))
        action = entry.action
        if isinstance(action, PlaceFief):
            out.append(f" fief {action.fief} at {action.anchor[0]},{action.anchor[1]} "
                       f"r{action.rotation}")
        elif isinstance(action, Wedding):
            out.append(f" Wedding: ring{'s' if action.second else ''} at "
                       f"{_hexes_text(board, entry.hexes)}")
        else:
            out.append(" donated to the church")
        total = sum(e.points for e in entry.events)
        out.append(f" +{total}", style="bold green" if total else "dim")
        if entry.events and not isinstance(action, Donate):
            out.append(" (" + ", ".join(_event_text(board, e) for e in entry.events) + ")",
                       style="dim")
    elif isinstance(entry, LastTurnChecked):
        out.append("Last Turn check: ", style="bold")
        out.append(f"{entry.uncovered} uncovered → ")
        if entry.last_round_next:
            out.append(f"round {entry.round + 1} is the last!", style="bold red")
        else:
            out.append("play on")
    elif isinstance(entry, GameEnded):
        out.append(f"Game over after round {entry.round}. ", style="bold")
        for e in entry.events:
            if e.reason is Reason.GONZAGA_TILE:
                out.append_text(player_name(v, e.player))
                out.append(f" takes the Gonzaga tile +{e.points}. ")
        out.append("Winner: " if len(entry.winners) == 1 else "Shared victory: ")
        for k, seat in enumerate(entry.winners):
            if k:
                out.append(", ")
            out.append_text(player_name(v, seat))
    return out


def render_log(v: PlayerView, *, lines: int = 12, width: int | None = None) -> Text:
    """The most recent public events, newest last, in at most `lines` lines at `width`."""
    picked: list[Text] = []
    used = 0
    for entry in reversed(v.journal):
        text = describe_entry(v, entry)
        need = _height(text, width) if width else 1
        if used + need > lines:
            break
        picked.append(text)
        used += need
    if not picked:
        return Text("(nothing yet)", style="dim")
    return Text("\n").join(reversed(picked))


# ---------------------------------------------------------------------------------------------
# Fiefs and objectives


def render_fief_shape(shape: FiefShape, rotation: int = 0, colour: str = "red") -> Text:
    """A small drawing of a fief: its hexes in the owner's colour, castles ▲, the anchor ◆.

    The anchor is the hex you name when typing a position such as `12,7 r3`.
    """
    cells, castle_flags = shape.rotated(rotation)
    xs = [4 * q + 2 * r for q, r in cells]
    rs = [r for _, r in cells]
    x0, r0 = min(xs), min(rs)
    width = max(xs) - x0 + 3
    grid = [[(" ", "")] * width for _ in range(max(rs) - r0 + 1)]
    style = f"bold {PLAYER_INK.get(colour, 'white')} on {PLAYER_BG.get(colour, colour)}"
    for k, (x, r, castle) in enumerate(zip(xs, rs, castle_flags, strict=True)):
        line = grid[r - r0]
        mark = ANCHOR if k == 0 else " "
        line[x - x0] = (mark, style)
        line[x - x0 + 1] = (CASTLE if castle else " ", style)
        line[x - x0 + 2] = (" ", style)
    out = Text()
    for i, line in enumerate(grid):
        if i:
            out.append("\n")
        for ch, st in line:
            out.append(ch, style=st)
    return out


def render_fief_rotations(shape: FiefShape, colour: str, card: int | None = None, *,
                          per_row: int = 3) -> Table:
    """The fief in all six rotations, labelled r0..r5, to help type a position."""
    title = Text(f"Fief {shape.number}" + (f" · card {card}" if card is not None else ""),
                 style="bold")
    title.append(f"   {CASTLE} castle  {ANCHOR} anchor (the hex you type)", style="dim")
    table = Table.grid(padding=(0, 2))
    for _ in range(per_row):
        table.add_column(no_wrap=True, min_width=12)
    for start in range(0, 6, per_row):
        table.add_row(*[Text(f"r{k}", style="dim") for k in range(start, start + per_row)])
        table.add_row(*[render_fief_shape(shape, k, colour)
                        for k in range(start, start + per_row)])
    return _titled(title, table)


def _titled(title: Text, body: RenderableType) -> Table:
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_row(title)
    grid.add_row(body)
    return grid


def objective_hexes(v: PlayerView, seat: int) -> list[int]:
    """Hexes of the cities on the player's objective card (empty if it is hidden)."""
    objective = v.players[seat].objective
    if objective is None:
        return []
    return [c.hex for c in v.board.objective_cities(objective)]


def render_objective(v: PlayerView, seat: int, *, compact: bool = False,
                     width: int = 41) -> Text:
    """An objective card: its two symbols and six cities, each marked covered or not.

    `compact` fits a side panel `width` wide: no region names, two cities a line when they fit
    whole. Once the game is over the card is shown as revealed: who holds each city instead of
    where it is.
    """
    board = v.board
    p = v.players[seat]
    if p.objective is None:
        return Text("objective hidden", style="dim")
    glyphs = Glyphs.of(board)
    card = board.objectives[p.objective]
    cities = list(board.objective_cities(card.id))
    covered = sum(1 for c in cities if v.fief_owner[c.hex] == seat or v.ring_owner[c.hex] == seat)
    over = v.phase is Phase.OVER
    total = words.objective_total(covered)
    out = Text()
    if compact or over:
        out.append(" + ".join(board.symbols[s].name for s in card.symbols), style="bold")
        out.append(f"\n{total}" if over else f": {total}", style="bold" if over else "")
    else:
        out.append(f"Objective card {card.id}: ", style="bold")
        out.append(" + ".join(f"{board.symbols[s].name} ({glyphs.symbol[s]})"
                              for s in card.symbols))
    name_width = max(len(c.name) for c in cities)
    per_line = 2 if 2 * (name_width + 9) + 1 <= width else 1
    for k, city in enumerate(cities):
        mine = v.fief_owner[city.hex] == seat or v.ring_owner[city.hex] == seat
        other = int(v.fief_owner[city.hex])
        if compact:
            out.append("\n" if k % per_line == 0 else " ")
        else:
            out.append("\n" if over else "\n  ")
        out.append("✓" if mine else "·", style="bold green" if mine else "dim")
        out.append(glyphs.symbol[city.symbol], style=CITY_INK + " on #d9c9a3")
        if compact:
            where = f"{city.at[0]},{city.at[1]}"
            out.append(f" {city.name:<{name_width}} {where:<5}",
                       style="dim" if not mine and other >= 0 else "")
            continue
        if over:
            out.append(f" {city.name} ({card_name(board, city.region)})")
            if not mine and other >= 0:
                out.append(f" {v.players[other].name}", style="dim")
            continue
        out.append(f" {city.name} ({board.regions[city.region].name}) "
                   f"{city.at[0]},{city.at[1]}")
        if not mine and other >= 0:
            out.append(f" {_possessive(v.players[other].name)} fief (a ring may still go "
                       "there)", style="dim")
    if not compact and not over:
        out.append(f"\n  {total} at the end", style="bold")
    return out


# ---------------------------------------------------------------------------------------------
# Whole screens


def auto_hex_width(board: Board, width: int) -> int:
    """The widest hexes that leave room for the side panel (or the narrowest if none do)."""
    for w in (4, 3, 2):
        if map_width(board, w) + 1 + SIDE_MIN <= width:
            return w
    for w in (4, 3, 2):
        if map_width(board, w) <= width:
            return w
    return 2


def _height(renderable: RenderableType, width: int) -> int:
    """Lines a renderable takes at this width (measured on a throw-away console)."""
    console = Console(width=width, file=io.StringIO(), force_terminal=False)
    return len(console.render_lines(renderable, console.options.update(width=width),
                                    pad=False))


def _width(renderable: RenderableType) -> int:
    """Columns a renderable needs to be drawn without wrapping."""
    console = Console(width=400, file=io.StringIO(), force_terminal=False)
    return Measurement.get(console, console.options, renderable).maximum


def _section(title: str, body: RenderableType) -> Group:
    return Group(Rule(Text(title, style="bold"), style="dim", align="left"), body)


def render_side(v: PlayerView, *, width: int = 41, height: int | None = None,
                fill: int | None = None) -> Group:
    """The side of the table: status, player boards, score track, own objective, legend, log.

    The log gets the lines left to `fill` (at least three). With a `height` the side never
    takes more lines: sections that do not fit are left out (the log first, then the score
    track, the legend, the objective).
    """
    me = v.viewer
    sections: dict[str, Group] = {
        "status": _section("Gonzaga", render_status(v)),
        "players": _section("Players", render_players(v)),
        "score": _section("Score track", render_score_track(
            v, width=min(30, max(4, width - max(len(p.name) for p in v.players) - 6)))),
    }
    if me is not None and v.players[me].objective is not None and v.phase is not Phase.OVER:
        sections["objective"] = _section("Your objective",
                                         render_objective(v, me, compact=True, width=width))
    sections["legend"] = _section("Legend", render_legend(v, width=width))
    keep = list(sections)
    if height is None and fill is None:
        lines = LOG_LINES
    else:
        heights = {k: _height(s, width) for k, s in sections.items()}
        used = sum(heights.values())
        if height is not None:
            keep, used = [], 0
            for k in ("status", "players", "objective", "legend", "score"):
                if k in sections and (used + heights[k] <= height or not keep):
                    keep.append(k)
                    used += heights[k]
        lines = max(3, (fill or 0) - used - 1)  # - the log's title
        if height is not None:
            lines = min(lines, height - used - 1)
    shown = [s for k, s in sections.items() if k in keep]
    if lines >= 1:
        shown.append(_section("Log", render_log(v, lines=lines, width=width)))
    return Group(*shown)


def render_bar(v: PlayerView, *, width: int) -> Text:
    """The state of the game in two or three lines, for a terminal too small for the side
    panel: round, phase, Last Turn, and each player's points and rings (in turn order)."""
    phase = words.phase_name(v.phase)
    items = [Text(f"Round {v.round} of at most {MAX_ROUNDS}", style="bold"), Text(phase),
             Text(v.rules.scenario.name)]
    if v.final_round is not None and v.phase is not Phase.OVER:
        last = v.round >= v.final_round
        items.append(Text("this is the LAST ROUND" if last else
                          f"round {v.final_round} is the last",
                          style="bold red" if last else "bold yellow"))
    elif v.last_turn_check is not None and v.phase is not Phase.OVER:
        items.append(Text(f"Last Turn check after round {v.last_turn_check}: "
                          f"{uncovered_count(v)} places uncovered, {LAST_TURN_THRESHOLD} or "
                          "fewer end the game", style="dim"))
    seats = list(v.order) if v.phase is Phase.PLACING and v.order else range(len(v.players))
    chips = []
    for k, seat in enumerate(seats):
        p = v.players[seat]
        chip = Text.assemble(_swatch(p.colour, 1), " ", player_name(v, seat),
                             (f" {p.score} pts ", "bold"),
                             ("●" * p.rings, PLAYER_FG[p.colour]))
        if v.phase is Phase.PLACING and v.order and k == v.turn:
            chip.stylize("reverse", 2)
        elif v.phase is Phase.PLANNING:
            chip.append(" ✓" if p.has_planned else "", style="green")
        chips.append(chip)
    order = " › " if v.phase is Phase.PLACING and v.order else " · "
    return Text.assemble(_pack(items, width, sep=" · "), "\n", _pack(chips, width, sep=order))


def _window(focus: Sequence[int], size: int, total: int) -> range:
    """`size` consecutive lines (or columns) out of `total`, centred on the focus."""
    if size >= total:
        return range(total)
    centre = (min(focus) + max(focus)) / 2 if focus else (total - 1) / 2
    start = min(max(0, round(centre - (size - 1) / 2)), total - size)
    return range(start, start + size)


def render_screen(v: PlayerView, *, width: int = 160, height: int | None = None,
                  hex_width: int | None = None, highlight: Highlight | None = None,
                  focus: Iterable[int] = ()) -> RenderableType:
    """The table as one renderable: the map beside (or above) the boards, legend and log.

    With a `height` the screen takes at most that many lines: when the whole map does not
    fit, the part of it around `focus` (the hexes of interest; a preview's own hexes) is
    drawn, and on a narrow terminal the side panel gives way to a short status bar.
    """
    board = v.board
    hw = hex_width or auto_hex_width(board, width)
    goals = objective_hexes(v, v.viewer) if v.viewer is not None else []
    mw = map_width(board, hw)
    side_width = width - mw - 1
    beside = side_width >= SIDE_MIN
    full = board.rows + 1

    def draw(rows: range | None = None, cols: range | None = None) -> Text:
        return render_map(v, hex_width=hw, highlight=highlight, goal_hexes=goals, rows=rows,
                          cols=cols)

    def side_by_side(the_map: Text, lines: int, limit: int | None) -> Table:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=mw, no_wrap=True)
        grid.add_column(width=side_width)
        grid.add_row(the_map, render_side(v, width=side_width, height=limit, fill=lines))
        return grid

    if beside and (height is None or full <= height):
        # The side may run past the map's foot when the terminal has the lines for it.
        return side_by_side(draw(), full, height)
    if not beside and height is None:
        return Group(draw(), render_side(v, width=width))
    assert height is not None
    spot = [*highlight.hexes] if highlight is not None else list(focus)
    rows_of = [board.coords[h][1] for h in spot]
    cols_of = [board.coords[h][0] for h in spot]
    if beside:
        rows = _window(rows_of, max(1, height - 1), board.rows)
        return side_by_side(draw(rows), len(rows) + 1, len(rows) + 1)
    bar = render_bar(v, width=width)
    rows = _window(rows_of, max(1, height - _height(bar, width) - 1), board.rows)
    cols = _window(cols_of, max(1, (width - 3 - hw // 2) // hw), board.columns)
    return Group(bar, draw(rows, cols))


def points_by_source(v: PlayerView) -> dict[int, dict[Reason, int]]:
    totals: dict[int, dict[Reason, int]] = {i: dict.fromkeys(Reason, 0)
                                            for i in range(len(v.players))}
    for e in v.score_events():
        totals[e.player][e.reason] += e.points
    return totals


def _final_lines(v: PlayerView, ranked: list[int],
                 sources: dict[int, dict[Reason, int]]) -> Group:
    """The final scores as a few lines per player, for a terminal too narrow for the table."""
    rows = [Text("Final scores", style="bold")]
    for rank, seat in enumerate(ranked, 1):
        p = v.players[seat]
        line = Text.assemble(f"{rank}. ", player_name(v, seat),
                             (" ♛" if seat in v.winners else "", "bold yellow"),
                             (f" {p.score} pts", "bold"))
        parts = [f"{words.reason_name(r)} {sources[seat][r]}" for r in Reason]
        parts += [f"cities+harbors {covered_places(v, seat)}",
                  f"largest group {largest_group(v, seat)}"]
        line.append("\n   " + " · ".join(parts), style="dim")
        rows.append(line)
    return Group(*rows)


def render_final(v: PlayerView, *, width: int | None = None) -> RenderableType:
    """End of the game: the Gonzaga tile, the revealed objectives, the table and the winner.

    On a terminal narrower than the score table (`width`), the scores come as lines."""
    sources = points_by_source(v)
    table = Table(title="Final scores", title_style="bold")
    table.add_column("", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right", style="bold")
    for reason in Reason:
        table.add_column(words.reason_name(reason), justify="right")
    table.add_column("cities+harbors", justify="right")
    table.add_column("largest group", justify="right")
    ranked = sorted(range(len(v.players)),
                    key=lambda i: (-v.players[i].score, -covered_places(v, i)))
    for rank, seat in enumerate(ranked, 1):
        p = v.players[seat]
        name = player_name(v, seat)
        if seat in v.winners:
            name.append(" ♛", style="bold yellow")
        table.add_row(str(rank), name, str(p.score),
                      *[str(sources[seat][r]) for r in Reason],
                      str(covered_places(v, seat)),
                      str(largest_group(v, seat)))
    tile = Text("Gonzaga tile: ", style="bold")
    holders = [e for e in v.score_events() if e.reason is Reason.GONZAGA_TILE]
    if holders:
        for k, e in enumerate(holders):
            if k:
                tile.append(", ")
            tile.append_text(player_name(v, e.player))
            tile.append(f" ({e.detail}, +{e.points})")
    else:
        tile.append("nobody (no pieces on the map)")
    objectives = Table.grid(padding=(0, 1), expand=True)
    for _ in v.players:
        objectives.add_column(ratio=1)
    objectives.add_row(*[Panel(render_objective(v, i), title=player_name(v, i),
                               border_style=PLAYER_FG[v.players[i].colour])
                         for i in range(len(v.players))])
    if len(v.winners) == 1:
        verdict = Text("Winner: ", style="bold")
        verdict.append_text(player_name(v, v.winners[0]))
    else:
        verdict = Text("Shared victory: ", style="bold")
        for k, seat in enumerate(v.winners):
            if k:
                verdict.append(", ")
            verdict.append_text(player_name(v, seat))
        verdict.append(" (tied on points and on cities and harbors covered)", style="dim")
    colour = PLAYER_FG[v.players[v.winners[0]].colour] if v.winners else "white"
    scores: RenderableType = table
    if width is not None and _width(table) > width:
        scores = _final_lines(v, ranked, sources)
    return Group(tile, Text("Objectives revealed:", style="bold"), objectives, scores,
                 Panel(verdict, border_style=colour, expand=False))


# ---------------------------------------------------------------------------------------------
# Talking to the people at the terminal


class _Retry(Exception):
    """Input that cannot be used; the message says why, then the question is asked again."""


#: Keys of the action cards in the menus: their initials, the same all game long.
ACTION_KEYS = {HARBORS: "h", CITIES: "c", ALLIANCE: "a"}
#: Lines the map (with the status above it) keeps at least when a menu is long.
MAP_MIN_LINES = 12
HELP_PLACE = ("number: preview", "12,7 r3: place there", "12,7 or a name: placements covering it",
              "n/p: page", "all: the whole list", "d: donate (3 pts)", "w: Wedding",
              "v: whole map", "m: map size", "q: quit")
HELP_GROUP = ("group: your connected pieces after placing (the largest group wins the Gonzaga "
              "tile, 15 pts) · ★ your objective city")


def card_keys(v: PlayerView) -> dict[str, str]:
    """The key that picks each planning card in the menus: a region card by its place in the
    game's row of region cards, an action card by its initial. A card keeps its key all game
    long, whichever cards rest."""
    keys = {card: str(k) for k, card in enumerate(v.rules.region_cards, 1)}
    keys.update(ACTION_KEYS)
    return keys


def _keys_text(keys: Sequence[str]) -> str:
    """`1, 3 or 4`: the keys one may type, for a hint."""
    keys = list(keys)
    if len(keys) < 2:
        return "".join(keys)
    return ", ".join(keys[:-1]) + " or " + keys[-1]


def _menu(options: Sequence[tuple[Any, str]], keys: Sequence[str]) -> Text:
    """Menu lines, each with the key that picks it."""
    return Text("\n").join(Text.assemble((f"  {key}) ", "bold cyan"), label)
                           for key, (_, label) in zip(keys, options, strict=True))


@dataclass
class Terminal:
    """The screen and keyboard shared by every human seat (hot-seat when there are several).

    Each question is asked under a screen drawn to fit the terminal: the table (the part of
    the map that matters when all of it does not fit), then the menu or preview it is about,
    then the question on the last line.
    """

    console: Console
    input_fn: Callable[[str], str]
    humans: int = 1
    hex_width: int | None = None  # None: as wide as the console allows
    top: int = TOP_PLACEMENTS
    last_seat: int | None = None
    _last: tuple[PlayerView, RenderableType | None, Highlight | None, tuple[int, ...]] | None = \
        field(default=None, init=False, repr=False)

    # -- input ----------------------------------------------------------------------------------

    def _raw(self, prompt: str) -> str:
        try:
            answer = self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            raise GameAbandoned from None
        if answer is None:
            raise GameAbandoned
        return str(answer).strip()

    def ask(self, prompt: str) -> str:
        """One line of input; `q` asks to quit, `v` shows the whole map, end of input quits."""
        while True:
            answer = self._raw(f"{prompt} › ")
            low = answer.lower()
            if low in ("q", "quit", "exit"):
                sure = self._raw("Quit the game? (y/n) › ").lower()
                if sure in ("y", "yes"):
                    raise GameAbandoned
                self._redraw()
                continue
            if low in ("v", "view", "map") and self._last is not None:
                self.view_map(self._last[0], self._last[2])
                self._redraw()
                continue
            return answer

    def say(self, message: str, style: str = "yellow") -> None:
        """Tell the player why an answer cannot be used: the screen is drawn again with the
        message under it, so it never scrolls away."""
        if self._last is None:
            self.console.print(Text(message, style=style))
            return
        self._redraw(Text(message, style=style))

    def confirm(self, prompt: str) -> bool:
        while True:
            answer = self.ask(f"{prompt} (y/n)").lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("Please answer y (yes) or n (no).")

    def choose(self, prompt: str, options: Sequence[tuple[T, str]], *, back: bool = False,
               listed: bool = False, keys: Sequence[str] | None = None,
               unavailable: dict[str, str] | None = None) -> T | None:
        """A menu; answer with an option's key or the start of its name (`b` goes back).

        `keys` default to the numbers 1, 2, 3...; `unavailable` maps keys that cannot be
        chosen now to the reason. `listed`: the options are already on screen.
        """
        keys = list(keys) if keys is not None else [str(k) for k in
                                                    range(1, len(options) + 1)]
        if not listed:
            self.console.print(_menu(options, keys))
        hint = (f"1-{len(options)}" if keys == [str(k) for k in range(1, len(options) + 1)]
                else ", ".join(keys)) + (", b = back" if back else "")
        while True:
            answer = self.ask(f"{prompt} [{hint}]")
            try:
                return self._pick(answer, options, keys, back, unavailable or {})
            except _Retry as exc:
                self.say(str(exc))

    def _pick(self, answer: str, options: Sequence[tuple[T, str]], keys: list[str],
              back: bool, unavailable: dict[str, str]) -> T | None:
        what = (f"a number from {keys[0]} to {keys[-1]}"
                if keys == [str(k) for k in range(1, len(options) + 1)]
                else f"{'a number' if all(k.isdigit() for k in keys) else 'one of'} "
                     f"{_keys_text(keys)}")
        if not answer:
            raise _Retry(f"Type {what}.")
        low = answer.lower()
        if back and low in ("b", "back"):
            return None
        if low in keys:
            return options[keys.index(low)][0]
        if low in unavailable:
            raise _Retry(f"{unavailable[low]}: type {what}.")
        if answer.isdigit():
            raise _Retry(f"{answer} is not on the list: type {what}.")
        matches = [value for value, label in options if label.lower().startswith(low)]
        if len(matches) == 1:
            return matches[0]
        raise _Retry(f"{answer!r} is not an option: type {what}.")

    # -- screens ------------------------------------------------------------------------

    def screen(self, v: PlayerView, panel: RenderableType | None = None, *,
               highlight: Highlight | None = None, focus: Iterable[int] = (),
               notice: Text | None = None) -> None:
        """Clear the terminal and draw the table with `panel` (a menu, a preview) and a notice
        under it, the map cut to what fits so the question on the last line stays in view."""
        focus = tuple(focus)
        self._last = (v, panel, highlight, focus)
        width, height = self.console.width, self.console.height
        below = [x for x in (panel, notice) if x is not None]
        used = sum(_height(x, width) for x in below) + 1  # + the question
        self.console.clear()
        self.console.print(render_screen(v, width=width, height=max(4, height - used),
                                         hex_width=self.hex_width, highlight=highlight,
                                         focus=focus))
        for x in below:
            self.console.print(x)

    def _redraw(self, notice: Text | None = None) -> None:
        if self._last is not None:
            v, panel, highlight, focus = self._last
            self.screen(v, panel, highlight=highlight, focus=focus, notice=notice)

    def show(self, v: PlayerView, highlight: Highlight | None = None) -> None:
        self.screen(v, highlight=highlight)

    def view_map(self, v: PlayerView, highlight: Highlight | None = None) -> None:
        """The whole map with its legend (and the preview, if any), a terminal's height at a
        time."""
        board = v.board
        width, height = self.console.width, self.console.height
        fitting = [w for w in HEX_WIDTHS if map_width(board, w) <= width]
        hw = min(self.hex_width or max(fitting, default=2), max(fitting, default=2))
        legend = render_legend(v, width=width)
        size = max(4, height - _height(legend, width) - 2)  # the ruler and the question
        cols = _window([], max(1, (width - 3 - hw // 2) // hw), board.columns)
        goals = objective_hexes(v, v.viewer) if v.viewer is not None else []
        top = 0
        while True:
            rows = range(top, min(board.rows, top + size))
            self.console.clear()
            self.console.print(render_map(v, hex_width=hw, rows=rows, cols=cols,
                                          goal_hexes=goals, highlight=highlight))
            self.console.print(legend)
            more = rows.stop < board.rows
            answer = self._raw(f"Map rows {rows.start}-{rows.stop - 1} of 0-{board.rows - 1}: "
                               + ("Enter: further south · " if more else "")
                               + ("p: north · " if top else "") + "b: back to the game › ")
            low = answer.lower()
            if low in ("p", "prev", "north", "-") and top:
                top = max(0, top - size)
            elif not low and more:
                top = rows.stop
            elif low in ("b", "back", "q", "") or not more:
                return

    def pass_device(self, v: PlayerView, seat: int) -> None:
        """Hot-seat: hide the last player's secrets and wait for the next player."""
        self._last = None
        self.console.clear()
        name = player_name(v, seat)
        self.console.print(Panel(Text.assemble("Pass the device to ", name,
                                               " — nobody else should look now."),
                                 border_style=PLAYER_FG[v.players[seat].colour]))
        self._raw(f"{v.players[seat].name}, press Enter when ready › ")

    def decide(self, v: PlayerView, legal: Sequence[Action]) -> Action:
        me = v.viewer
        assert me is not None
        if self.humans > 1 and self.last_seat != me:
            self.pass_device(v, me)
        self.last_seat = me
        if v.phase is Phase.PLANNING:
            action = self.plan(v, me, [a for a in legal if isinstance(a, Plan)])
        elif isinstance(legal, LegalActions):
            action = self.place(v, me, legal)
        else:
            action = self.pick_from_list(v, me, legal)
        if self.humans > 1:
            self._last = None
            self.console.clear()
        return action

    def _beside(self, left: RenderableType, right: RenderableType | None) -> RenderableType:
        """`right` beside `left` when both fit the terminal's width whole, else `left` alone."""
        if right is None or _width(left) + 4 + _width(right) > self.console.width:
            return left
        grid = Table.grid(padding=(0, 4))
        grid.add_row(left, right)
        return grid

    def _fief_card(self, v: PlayerView, me: int) -> RenderableType | None:
        """This round's fief in its six rotations, or at least in one when space is short."""
        p = v.players[me]
        if p.fief is None:
            return None
        shape = v.board.fiefs[p.fief]
        card = p.fief + COLOUR_DIGIT[p.colour]
        rotations = render_fief_rotations(shape, p.colour, card)
        if _width(rotations) + 44 <= self.console.width:
            return rotations
        return _titled(Text(f"Fief {p.fief} · card {card}", style="bold"),
                       render_fief_shape(shape, 0, p.colour))

    # -- phase 2: planning ------------------------------------------------------------------------

    def plan(self, v: PlayerView, me: int, plans: list[Plan]) -> Plan:
        """Choose a region card, an action card and maybe the King's Privilege."""
        board = v.board
        p = v.players[me]
        keys = card_keys(v)
        resting = {keys[c]: f"{card_name(board, c)} rests this round (you played it last "
                   "round)" for c in p.resting if c in keys}
        regions = list(dict.fromkeys(pl.region for pl in plans))
        best = {(pl.region, pl.action): (best_points(v, me, p.fief, pl.region, pl.action)
                                         if p.fief is not None else None) for pl in plans}
        hints = render_plan_hints(v, me, plans, best)  # the table, then notes under it
        table = Group(self._beside(hints.renderables[0], self._fief_card(v, me)),
                      *hints.renderables[1:])
        fl = set(v.rules.scenario.flourishing)
        while True:
            self.screen(v, table)
            region = self.choose("Region card: where will your fief go?",
                                 [(r, card_name(board, r)) for r in regions],
                                 keys=[keys[r] for r in regions], unavailable=resting,
                                 listed=True)
            assert region is not None
            actions = list(dict.fromkeys(pl.action for pl in plans if pl.region == region))
            options = []
            for a in actions:
                pts = best[(region, a)]
                hint = "no placement now" if pts is None else f"best {pts} pts now"
                options.append((a, f"{card_name(board, a)}: {words.action_limits(a)} ({hint})"))
            name = card_name(board, region) + (" ★" if region in fl else "")
            hexes = _region_card_hexes(v, region)
            heading = Text.assemble(("Region card: ", "bold"), name,
                                    " · now the action card, how your fief goes there:")
            self.screen(v, Group(heading, _menu(options, [keys[a] for a in actions])),
                        focus=hexes)
            action = self.choose(f"Action card with {card_name(board, region)}",
                                 options, keys=[keys[a] for a in actions], back=True,
                                 unavailable=resting, listed=True)
            if action is None:
                continue
            privilege = False
            if any(pl.privilege for pl in plans if pl.region == region and pl.action == action):
                self.screen(v, Text.assemble(
                    ("Your plan: ", "bold"), f"{name} + {card_name(board, action)}. ",
                    (f"The {card_name(board, PRIVILEGE)} lets you place first this round.",
                     "dim")),
                    focus=hexes)
                privilege = self.confirm(f"Use the {card_name(board, PRIVILEGE)} (spend 1 of "
                                         f"your {p.rings} "
                                         "rings to place first)?")
            chosen = Plan(me, region, action, privilege)
            if chosen in plans:
                return chosen
            self.say("That plan is not allowed; choose again.")  # pragma: no cover

    # -- phase 4: placing -------------------------------------------------------------------------

    def _placing_panel(self, v: PlayerView, me: int, legal: LegalActions,
                       ranked: RankedPlacements, shown: np.ndarray, start: int, where: str,
                       notice: Text | None) -> tuple[RenderableType, int, list[int]]:
        """The page of placements with the help under it, as many lines as leave the map
        room; also the page's size and the hexes it covers (where the map looks)."""
        board = v.board
        p = v.players[me]
        plan = p.plan
        assert plan is not None and legal.fief is not None
        planned = words.plan_cards(board, plan)
        has_wedding = len(legal.wedding_pairs) > 0
        width = self.console.width
        keys = [k for k in HELP_PLACE if (has_wedding or not k.startswith("w:"))
                and (where or not k.startswith("all:"))]
        help_text = Text.assemble(_pack([Text(k) for k in keys], width, sep=" · "), "\n",
                                  HELP_GROUP, style="dim")
        room = self.console.height - 1 - (_height(notice, width) if notice else 0)
        room -= min(MAP_MIN_LINES, v.board.rows + 1)
        card = self._fief_card(v, me)
        count = self.top
        while True:
            if not legal.placement_count:
                listing: RenderableType = Text(
                    f"{planned}: no legal placement for this fief; donate it (d)"
                    + (" or arrange a Wedding (w)." if has_wedding else "."), style="yellow")
            else:
                page = f"{start + 1}-{min(start + count, len(shown))} of {len(shown)}"
                if where:
                    title = f"{planned}: placements{where}, {page}"
                else:
                    title = f"{planned}: best placements {page} ({legal.placement_count} positions)"
                listing = render_placement_list(v, me, legal, ranked, shown, start, count,
                                                title, ways=not where)
            panel = Group(self._beside(listing, card), help_text)
            if count <= 3 or _height(panel, width) <= room:
                break
            count -= 1
        arrays = legal.placement_arrays()
        cells = arrays.cells if arrays is not None else np.zeros((0, 1), dtype=np.int32)
        focus = sorted({int(h) for i in shown[start:start + count] for h in cells[int(i)]})
        if not focus:
            focus = _region_card_hexes(v, plan.region)
        return panel, count, focus

    def place(self, v: PlayerView, me: int, legal: LegalActions) -> Action:
        """Pick a placement from the best-scoring list or by position, donate, or wed."""
        board = v.board
        fief = legal.fief
        assert fief is not None and v.players[me].plan is not None
        ranked = RankedPlacements.of(v, me, legal)
        arrays = legal.placement_arrays()
        cells = arrays.cells if arrays is not None else np.zeros((0, 1), dtype=np.int32)
        ranking = ranked.order
        shown = ranked.distinct
        start = 0
        where = ""
        has_wedding = len(legal.wedding_pairs) > 0
        notice: Text | None = None
        while True:
            panel, count, focus = self._placing_panel(v, me, legal, ranked, shown, start,
                                                      where, notice)
            self.screen(v, panel, focus=focus, notice=notice)
            notice = None
            answer = self.ask("Your move")
            try:
                low = answer.lower()
                if not answer:
                    raise _Retry("Type a number from the list, a position like 12,7 r3, or d.")
                if low in ("n", "next", "+"):
                    if start + count >= len(shown):
                        raise _Retry("That is the last page (p goes back).")
                    start += count
                    continue
                if low in ("p", "prev", "previous", "-"):
                    if start == 0:
                        raise _Retry("That is the first page.")
                    start = max(0, start - count)
                    continue
                if low in ("all", "*"):
                    shown, start, where = ranked.distinct, 0, ""
                    continue
                if low == "m":
                    self._cycle_width(board)
                    continue
                if low in ("d", "donate"):
                    self.screen(v, Text(f"Donating gives up fief {fief}: it goes to the church "
                                        "and scores 3 points.", style="bold"), focus=focus)
                    if self.confirm(f"Donate fief {fief} to the church for 3 points?"):
                        return Donate(me)
                    continue
                if low in ("w", "wedding"):
                    if not has_wedding:
                        raise _Retry(f"A Wedding needs the {card_name(board, WEDDING_CARD)} "
                                     "card and a ring left.")
                    wedding = self.wedding(v, me, legal)
                    if wedding is not None:
                        return wedding
                    continue
                if answer.isdigit():
                    k = int(answer)
                    if not 1 <= k <= len(shown):
                        raise _Retry(f"{k} is not on the list (1 to {len(shown)})."
                                     if len(shown) else "There is nothing to pick: d donates.")
                    i = int(shown[k - 1])
                    action = legal.placement(i)
                    if self.preview(v, me, action):
                        return action
                    continue
                target = parse_position(answer)
                hex_asked: int | None = None
                if target is not None and target[2] is None:
                    hex_asked = board.index_of.get((target[0], target[1]))
                    if hex_asked is None:
                        raise _Retry(f"{target[0]},{target[1]} is not a hex of the map.")
                elif target is None:
                    hex_asked = _find_place(board, answer)
                if hex_asked is not None:
                    covering = np.flatnonzero((cells == hex_asked).any(axis=1))
                    keep = np.isin(ranking, covering)
                    label = board.hex_label(hex_asked)
                    if not keep.any():
                        raise _Retry(f"No legal placement covers {label} with your plan.")
                    shown, start, where = ranking[keep], 0, f" covering {label}"
                    continue
                if target is not None:
                    col, row, rotation = target
                    action = PlaceFief(me, fief, (col, row), rotation)
                    try:
                        action_events(v, action)
                    except IllegalAction as exc:
                        raise _Retry(f"Not there: {exc.message}.") from None
                    if self.preview(v, me, action):
                        return action
                    continue
                raise _Retry(f"I did not understand {answer!r}. Try a number from the list, a "
                             "position like 12,7 r3, or d to donate.")
            except _Retry as exc:
                notice = Text(str(exc), style="yellow")

    def _cycle_width(self, board: Board) -> None:
        current = self.hex_width or auto_hex_width(board, self.console.width)
        self.hex_width = HEX_WIDTHS[(HEX_WIDTHS.index(current) + 1) % len(HEX_WIDTHS)]

    def preview(self, v: PlayerView, me: int, action: PlaceFief | Wedding) -> bool:
        """Show an action on the map with what it scores; True if the player confirms it."""
        board = v.board
        colour = v.players[me].colour
        events = action_events(v, action)
        hexes = covered_hexes(v, action)
        if isinstance(action, PlaceFief):
            castles = frozenset(castle_hexes(board, action))
            highlight = Highlight(tuple(hexes), castles, colour)
            what = (f"fief {action.fief} at {action.anchor[0]},{action.anchor[1]} rotation "
                    f"{action.rotation}")
        else:
            highlight = Highlight(tuple(hexes), frozenset(), colour, rings=True)
            what = f"Wedding: ring{'s' if len(hexes) > 1 else ''} at {_hexes_text(board, hexes)}"
        total = sum(e.points for e in events)
        line = Text.assemble(("Preview (* on the map): ", "bold"), what, " — ",
                             (f"{total} points", "bold green"))
        if events:
            line.append(": " + ", ".join(_event_text(board, e) for e in events))
        group_of, sizes = _own_groups(v, me)
        touched = {group_of[n] for h in hexes for n in board.neighbours[h] if n in group_of}
        pieces = len(hexes) if isinstance(action, Wedding) else 1
        group = pieces + sum(sizes[g] for g in touched)
        line.append(f" · your group: {group} piece{'s' if group > 1 else ''}", style="dim")
        self.screen(v, line, highlight=highlight)
        return self.confirm("Place it here?")

    def wedding(self, v: PlayerView, me: int, legal: LegalActions) -> Wedding | None:
        """A Wedding: the first ring among the legal hexes, then maybe a second beside it."""
        board = v.board
        pairs = legal.wedding_pairs
        goals = set(objective_hexes(v, me))
        group_of, sizes = _own_groups(v, me)

        def worth(hexes: list[int]) -> tuple[int, int, int]:
            action = Wedding(me, board.coords[hexes[0]],
                             board.coords[hexes[1]] if len(hexes) > 1 else None)
            try:
                pts = sum(e.points for e in action_events(v, action))
            except IllegalAction:  # pragma: no cover - only legal hexes are offered
                pts = 0
            touched = {group_of[n] for h in hexes for n in board.neighbours[h] if n in group_of}
            return pts, len(goals.intersection(hexes)), len(hexes) + sum(sizes[g] for g in touched)

        def line(k: int, h: int, value: tuple[int, int, int]) -> Text:
            pts, goal, group = value
            out = Text.assemble((f"  {k}) ", "bold cyan"), f"{board.hex_label(h)}: ",
                                (f"{pts} pts", "bold"))
            if goal:
                out.append(" ★", style="bold yellow")
            out.append(f"  group {group}", style="bold" if group > 1 else "dim")
            return out

        rings = v.players[me].rings
        firsts = {int(f): worth([int(f)]) for f in set(pairs[:, 0].tolist())}
        ranked = sorted(firsts, key=lambda h: (-firsts[h][0], -firsts[h][1], -firsts[h][2], h))
        options = ranked[: self.top]
        heading = Text(f"Wedding ({rings} ring{'s' if rings != 1 else ''} left): the first ring "
                       "goes on a land hex of your planned region. Best hexes (points for "
                       "this ring alone):", style="bold")
        self.screen(v, Group(heading, *[line(k, h, firsts[h]) for k, h in
                                        enumerate(options, 1)]), focus=options)
        first = self._hex_choice("First ring", options, set(firsts), board)
        if first is None:
            return None
        partners = {int(s) for f, s in pairs.tolist() if f == first and s >= 0}
        partners |= {int(f) for f, s in pairs.tolist() if s == first}
        second: int | None = None
        if partners:
            values = {h: worth([first, h]) for h in partners}
            ranked = sorted(partners, key=lambda h: (-values[h][0], -values[h][1], h))
            heading = Text("A second ring may go next to the first (land or sea, even across "
                           "a barrier); points for both rings:", style="bold")
            self.screen(v, Group(heading, *[line(k, h, values[h]) for k, h in
                                            enumerate(ranked, 1)]),
                        highlight=Highlight((first,), colour=v.players[me].colour, rings=True))
            second = self._hex_choice("Second ring", ranked, partners, board, none_ok=True)
        action = Wedding(me, board.coords[first],
                         board.coords[second] if second is not None else None)
        return action if self.preview(v, me, action) else None

    def _hex_choice(self, prompt: str, options: list[int], allowed: set[int], board: Board,
                    none_ok: bool = False) -> int | None:
        while True:
            answer = self.ask(prompt + (" [number, col,row, 0 = none]" if none_ok
                                        else " [number, col,row, b = back]"))
            low = answer.lower()
            if not none_ok and low in ("b", "back"):
                return None
            if none_ok and low in ("0", "none", "n"):
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            try:
                pos = parse_position(answer)
            except _Retry:
                pos = None
            if pos is not None and pos[2] is None:
                h = board.index_of.get((pos[0], pos[1]))
                if h is not None and h in allowed:
                    return h
                self.say(f"{pos[0]},{pos[1]} is not a legal ring hex here.")
                continue
            self.say("Type a number from the list or a hex as col,row" +
                     (", or 0 for no second ring." if none_ok else ", or b to go back."))

    def pick_from_list(self, v: PlayerView, me: int, legal: Sequence[Action]) -> Action:
        """Fallback for a plain list of actions: a numbered menu of all of them."""
        options = [(a, f"{_move_words(v.board, a)}: "
                    f"{sum(e.points for e in action_events(v, a))} pts")
                   for a in legal]
        self.screen(v, _menu(options, [str(k) for k in range(1, len(options) + 1)]))
        choice = self.choose("Your move", options, listed=True)
        assert choice is not None
        return choice




def _move_words(board: Board, action: Action) -> str:
    return words.plan_text(board, action) if isinstance(action, Plan) else words.move_text(action)


def _find_place(board: Board, text: str) -> int | None:
    """A city or harbor named (or begun) by `text`, if exactly one matches."""
    key = text.strip().lower()
    if len(key) < 3:
        return None
    places = [*board.cities.values(), *board.harbors.values()]
    exact = [p.hex for p in places if p.name.lower() == key]
    if exact:
        return exact[0]
    found = [p.hex for p in places if p.name.lower().startswith(key)]
    return found[0] if len(found) == 1 else None


POSITION = re.compile(r"^\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/ ]?\s*r\s*(\d+))?\s*$",
                      re.IGNORECASE)


def parse_position(text: str) -> tuple[int, int, int | None] | None:
    """`12,7 r3` as (12, 7, 3); `12,7` as (12, 7, None); anything else None.

    A rotation outside 0-5 raises `_Retry` with an explanation.
    """
    m = POSITION.match(text)
    if m is None:
        return None
    rotation = None if m.group(3) is None else int(m.group(3))
    if rotation is not None and not 0 <= rotation <= 5:
        raise _Retry(f"Rotation r{rotation} does not exist: r0 to r5, in sixths of a turn "
                     "clockwise.")
    return int(m.group(1)), int(m.group(2)), rotation


def best_points(v: PlayerView, me: int, fief: int, region: str, action: str) -> int | None:
    """What the fief could score right now with these cards (None: nowhere to put it)."""
    rows = placement_rows(v, me, fief, region, action)
    if not len(rows):
        return None
    return int(placement_points(v, me, fief, rows).max())


def _region_card_hexes(v: PlayerView, card: str) -> list[int]:
    """The hexes a region card lets a fief go on (Inactive Regions: all of those regions)."""
    board = v.board
    regions = v.rules.inactive_regions if card == INACTIVE else (card,)
    return [h for r in regions for h in board.region_hexes(r)]


def render_plan_hints(v: PlayerView, me: int, plans: Sequence[Plan],
                      best: dict[tuple[str, str], int | None] | None = None) -> Group:
    """Every region card with the key that picks it, and the best points this round's fief
    could score now under each action card (others may place first and take the spot).
    Cards resting this round keep their row and column, so no key ever changes."""
    board = v.board
    p = v.players[me]
    fief = p.fief
    fl = set(v.rules.scenario.flourishing)
    keys = card_keys(v)
    allowed = {(pl.region, pl.action) for pl in plans}
    table = Table(box=None, padding=(0, 1), title_justify="left", title_style="bold",
                  title=f"Region cards · best points for fief {fief} now")
    table.add_column("", justify="right", style="bold cyan")
    table.add_column("region card")
    for a in ACTION_KEYS:
        table.add_column(card_name(board, a), justify="right",
                         style="dim" if a in p.resting else "")
    for r in v.rules.region_cards:
        label = Text(card_name(board, r) + (" ★" if r in fl else ""))
        if r in p.resting:
            label.append(" rests", style="dim")
            table.add_row(keys[r], label, *["" for _ in ACTION_KEYS], style="dim")
            continue
        cells = []
        for a in ACTION_KEYS:
            if a in p.resting:
                cells.append("rests")
                continue
            if (r, a) not in allowed:
                cells.append("—")
                continue
            if best is not None and (r, a) in best:
                pts = best[(r, a)]
            else:
                pts = best_points(v, me, fief, r, a) if fief is not None else None
            cells.append("—" if pts is None else str(pts))
        table.add_row(keys[r], label, *cells)
    notes = []
    if INACTIVE in v.rules.region_cards:
        notes.append(f"{card_name(board, INACTIVE)}: " + ", ".join(card_name(board, x) for x in
                                                      v.rules.inactive_regions)
                     + f" ({POINTS_INACTIVE} pt a place)")
    if PRIVILEGE in p.resting:
        notes.append(f"the {card_name(board, PRIVILEGE)} rests")
    elif not any(pl.privilege for pl in plans):
        notes.append(f"no ring left for the {card_name(board, PRIVILEGE)}")
    notes.append(f"donating the fief: {POINTS_DONATION} pts")
    if p.rings:
        notes.append(f"{card_name(board, WEDDING_CARD)}: or a Wedding")
    return Group(table, Text(" · ".join(notes), style="dim"))


@dataclass
class RankedPlacements:
    """This round's legal placements, best first: points now, then cities of your objective,
    then contact with your own pieces (which grows your group towards the Gonzaga tile).

    `distinct` keeps the best position for each set of cities and harbors covered (and
    contact), so the list shows real alternatives rather than the same city eight times.
    """

    points: np.ndarray
    goals: np.ndarray
    joins: np.ndarray
    order: np.ndarray
    distinct: np.ndarray
    ways: dict[int, int]

    @classmethod
    def of(cls, v: PlayerView, me: int, legal: LegalActions) -> RankedPlacements:
        board = v.board
        arrays = legal.placement_arrays()
        if arrays is None:
            empty = np.zeros(0, dtype=np.int64)
            return cls(empty, empty, empty, empty, empty, {})
        n = len(arrays)
        cells = arrays.cells
        points = arrays.points
        goal = np.zeros(board.hex_count, dtype=np.int32)
        for h in objective_hexes(v, me):
            if v.fief_owner[h] != me and v.ring_owner[h] != me:
                goal[h] = 1
        goals = goal[cells].sum(axis=1)
        own = (v.fief_owner == me) | (v.ring_owner == me)
        table = v.rules.neighbour_table
        near = np.zeros(board.hex_count, dtype=bool)
        nb = table[np.flatnonzero(own)]
        near[nb[nb >= 0]] = True
        joins = near[cells].any(axis=1).astype(np.int32)
        order = np.lexsort((np.arange(n), -joins, -goals, -points))
        special = board.is_city | board.is_harbor
        first: dict[tuple[Any, ...], int] = {}
        ways: dict[int, int] = {}
        for i in order:
            key = (tuple(sorted(int(h) for h in cells[i] if special[h])), int(joins[i]))
            if key in first:
                ways[first[key]] += 1
            else:
                first[key] = int(i)
                ways[int(i)] = 1
        distinct = np.array(list(first.values()), dtype=np.int64)
        return cls(points, goals, joins, order, distinct, ways)


def _own_groups(v: PlayerView, me: int) -> tuple[dict[int, int], dict[int, int]]:
    """The player's connected groups of pieces: hex -> group id, and group id -> pieces."""
    label, sizes = group_labels(v, me)
    return ({int(h): int(label[h]) for h in np.flatnonzero(label >= 0)},
            dict(enumerate(sizes.tolist())))


def render_placement_list(v: PlayerView, me: int, legal: LegalActions, ranked: RankedPlacements,
                          order: np.ndarray, start: int, count: int, title: str, *,
                          ways: bool = True) -> RenderableType:
    """A page of legal placements with their points, the cities and harbors each covers and
    the size of your group of connected pieces it would make (the Gonzaga tile)."""
    board = v.board
    glyphs = Glyphs.of(board)
    goals = set(objective_hexes(v, me))
    arrays = legal.placement_arrays()
    assert arrays is not None
    group_of, sizes = _own_groups(v, me)
    table = Table(box=None, padding=(0, 1))
    table.add_column("#", justify="right", style="bold cyan")
    table.add_column("pts", justify="right", style="bold")
    table.add_column("position")
    table.add_column("group", justify="right")
    table.add_column("covers")
    for k in range(start, min(start + count, len(order))):
        i = int(order[k])
        action = legal.placement(i)
        hexes = [int(h) for h in arrays.cells[i]]
        covers = Text()
        for h in hexes:
            g = glyphs.at(board, h)
            if g is None:
                continue
            place = board.city_at.get(h) or board.harbor_at.get(h)
            if covers:
                covers.append(" · ")
            covers.append(g, style=(CITY_INK if h in board.city_at else HARBOR_INK)
                          + " on #d9c9a3")
            covers.append(f" {place.name if place else ''}")
            if h in goals:
                covers.append("★", style="bold yellow")
        pts = int(ranked.points[i])
        hexes_pts = int(v.rules.hex_points[hexes].sum())
        if pts > hexes_pts:
            covers.append(f"  + sea league {pts - hexes_pts}", style="bold green")
        if not covers:
            covers.append("empty hexes", style="dim")
        if ways and ranked.ways.get(i, 1) > 1:
            covers.append(f"  ({ranked.ways[i]} ways)", style="dim")
        touched = {group_of[n] for h in hexes for n in board.neighbours[h] if n in group_of}
        group = 1 + sum(sizes[g] for g in touched)
        table.add_row(str(k + 1), str(pts),
                      f"{action.anchor[0]},{action.anchor[1]} r{action.rotation}",
                      Text(str(group), style="bold" if touched else "dim"), covers)
    return Group(Text(title, style="bold"), table)


class HumanPlayer:
    """A seat played by a person at this terminal; like a bot, it sees only its own view."""

    def __init__(self, name: str, terminal: Terminal) -> None:
        self.name = name
        self.terminal = terminal

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        return self.terminal.decide(view, legal_actions)


def _seat_names(specs: Sequence[str]) -> list[str]:
    humans = sum(1 for s in specs if s == HUMAN)
    names: list[str] = []
    counts: dict[str, int] = {}
    for spec in specs:
        counts[spec] = counts.get(spec, 0) + 1
        if spec == HUMAN:
            names.append("You" if humans == 1 else f"Player {counts[spec]}")
        else:
            total = sum(1 for s in specs if s == spec)
            names.append(bot_title(spec) + (f" {counts[spec]}" if total > 1 else ""))
    return names


def play_in_terminal(specs: list[str], *, seed: int | None, scenario: str | None,
                     record: Path | None, variants: list[str], console: Console,
                     board: Board | None = None,
                     input_fn: Callable[[str], str] | None = None) -> GameState:
    """Play one game at this terminal: `human` seats are asked, the others are bots.

    Returns the final state, or the state reached when the players quit (end of input, Ctrl-C
    or `q`), which is then not over. Raises ValueError for a wrong seat count, an unknown bot,
    scenario or variant.
    """
    from .bots import Bot, make_bot
    from .match import play_game

    seats = [s.strip().lower() for s in specs]
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"Gonzaga is for 2 to 4 players, not {len(seats)}")
    humans = sum(1 for s in seats if s == HUMAN)
    if input_fn is None:
        def input_fn(prompt: str) -> str:
            return console.input(Text(prompt, style="bold"))

    terminal = Terminal(console, input_fn, humans=humans)
    names = _seat_names(seats)
    players: list[Bot] = []
    for seat, spec in enumerate(seats):
        if spec == HUMAN:
            players.append(HumanPlayer(names[seat], terminal))
        else:
            players.append(make_bot(spec, seed=None if seed is None else seed * 101 + seat))
    state = new_game(names, seed, scenario, board=board, variants=variants)

    seen = [0]

    def observe(st: GameState, action: Action) -> None:
        """With no human at the table, narrate the public journal as it grows."""
        if humans:
            return
        spectator = view(st, None)
        for entry in st.journal[seen[0]:]:
            console.print(describe_entry(spectator, entry))
        seen[0] = len(st.journal)

    intro = view(state, None)
    console.print(Text.assemble(("Gonzaga", "bold"), f" — scenario {state.setup.scenario}: ",
                                ", ".join(state.board.regions[r].name
                                          for r in state.rules.scenario.flourishing),
                                " flourish. Seats: ",
                                *[x for seat in range(len(names))
                                  for x in (player_name(intro, seat), " ")]))
    try:
        play_game(players, state=state, observe=observe)
    except (GameAbandoned, KeyboardInterrupt):
        console.print(Text(f"\nGame abandoned in round {state.round}. Goodbye!", style="bold"))
        return state
    final = view(state, None)
    console.clear()
    console.print(render_screen(final, width=console.width, hex_width=terminal.hex_width))
    console.print(render_final(final, width=console.width))
    if record is not None:
        _write_record(state, record, seats, seed, console)
    return state


def _write_record(state: GameState, path: Path, specs: list[str], seed: int | None,
                  console: Console) -> None:
    """Write the game record; a missing records module or an unwritable path is reported."""
    try:
        from .record import write_record
    except ImportError as exc:
        console.print(Text(f"Cannot write the game record ({exc}).", style="red"))
        return
    try:
        write_record(state, path, players=specs, seed=seed)
    except OSError as exc:
        console.print(Text(f"Cannot write the game record to {path}: {exc}", style="red"))
        return
    console.print(f"Game record written to {path}")


__all__ = [
    "GameAbandoned",
    "Glyphs",
    "Highlight",
    "HumanPlayer",
    "RankedPlacements",
    "Terminal",
    "auto_hex_width",
    "describe_entry",
    "map_labels",
    "map_width",
    "parse_position",
    "play_in_terminal",
    "render_fief_rotations",
    "render_fief_shape",
    "render_final",
    "render_legend",
    "render_log",
    "render_map",
    "render_objective",
    "render_placement_list",
    "render_plan_hints",
    "render_players",
    "render_score_track",
    "render_screen",
    "render_side",
    "render_status",
]
