"""Talking to the people at the terminal: questions, menus, what they may type and what it
means, with every bad answer explained and the question asked again.

`Prompts` is the screen and keyboard shared by every person at the table; the planning and
placing turns (`planning`, `placing`) ask their questions through it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from .. import text as words
from ..board import Board
from ..engine import PlayerView
from ..state import COLOUR_DIGIT
from .hexmap import HEX_WIDTHS, Highlight, objective_hexes, render_legend, render_map
from .layout import columns_needed, lines_needed, titled, window
from .render import (
    auto_hex_width,
    map_hex_width,
    render_fief_rotations,
    render_fief_shape,
    render_screen,
)

T = TypeVar("T")
say = words.say
TOP_PLACEMENTS = 8

#: What people type, by meaning.
YES, NO = ("y", "yes"), ("n", "no")
QUIT, VIEW, BACK = ("q", "quit", "exit"), ("v", "view", "map"), ("b", "back")
HINT = ("?", "hint")
NORTH = ("p", "prev", "north", "-")


class GameAbandoned(Exception):
    """Someone closed the input (end of file, Ctrl-C) or typed q: stop without a traceback."""


class Retry(Exception):
    """Input that cannot be used; the message says why, then the question is asked again."""


POSITION = re.compile(r"^\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/ ]?\s*r\s*(\d+))?\s*$",
                      re.IGNORECASE)


def parse_position(text: str) -> tuple[int, int, int | None] | None:
    """`12,7 r3` as (12, 7, 3); `12,7` as (12, 7, None); anything else None.

    A rotation outside 0-5 raises `Retry` with an explanation.
    """
    m = POSITION.match(text)
    if m is None:
        return None
    rotation = None if m.group(3) is None else int(m.group(3))
    if rotation is not None and not 0 <= rotation <= 5:
        raise Retry(say("retry.rotation", rotation=rotation))
    return int(m.group(1)), int(m.group(2)), rotation


def find_place(board: Board, text: str) -> int | None:
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


def menu(options: Sequence[tuple[Any, str | Text]], keys: Sequence[str]) -> Text:
    """Menu lines, each with the key that picks it."""
    return Text("\n").join(Text.assemble((f"  {key}) ", "bold cyan"), label)
                           for key, (_, label) in zip(keys, options, strict=True))


def _numbered(keys: list[str], n: int) -> bool:
    return keys == [str(k) for k in range(1, n + 1)]


def pick(answer: str, options: Sequence[tuple[T, str]], keys: list[str], back: bool,
         unavailable: dict[str, str]) -> T | None:
    """The option an answer names: by its key or the start of its label (None: back)."""
    if _numbered(keys, len(options)):
        what = say("what.range", first=keys[0], last=keys[-1])
    else:
        kind = "what.number" if all(k.isdigit() for k in keys) else "what.one-of"
        what = say(kind, keys=words.join(keys, "or"))
    if not answer:
        raise Retry(say("retry.type", what=what))
    low = answer.lower()
    if back and low in BACK:
        return None
    if low in keys:
        return options[keys.index(low)][0]
    if low in unavailable:
        raise Retry(say("retry.unavailable", reason=unavailable[low], what=what))
    if answer.isdigit():
        raise Retry(say("retry.not-listed", answer=answer, what=what))
    matches = [value for value, label in options if label.lower().startswith(low)]
    if len(matches) == 1:
        return matches[0]
    raise Retry(say("retry.not-option", answer=answer, what=what))


Screen = tuple[PlayerView, RenderableType | None, Highlight | None, tuple[int, ...]]


@dataclass
class Prompts:
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
    _last: Screen | None = field(default=None, init=False, repr=False)
    #: what `?` shows on the current person's turn (None: no hint to give now)
    hinter: Callable[[], Text] | None = field(default=None, init=False, repr=False)

    # -- input ----------------------------------------------------------------------------

    def raw(self, prompt: str) -> str:
        """One line as typed; the end of the input (or Ctrl-C) abandons the game."""
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
            answer = self.raw(say("ask.prompt", question=prompt))
            low = answer.lower()
            if low in QUIT:
                sure = self.raw(say("ask.prompt", question=say("ask.quit"))).lower()
                if sure in YES:
                    raise GameAbandoned
                self.redraw()
                continue
            if low in VIEW and self._last is not None:
                self.view_map(self._last[0], self._last[2])
                self.redraw()
                continue
            if low in HINT and self.hinter is not None:
                self.say(self.hinter(), style="")
                continue
            return answer

    def say(self, message: str | Text, style: str = "yellow") -> None:
        """Tell the player why an answer cannot be used (or show a hint): the screen is drawn
        again with the message under it, so it never scrolls away."""
        text = message if isinstance(message, Text) else Text(message, style=style)
        if self._last is None:
            self.console.print(text)
            return
        self.redraw(text)

    def confirm(self, prompt: str) -> bool:
        while True:
            answer = self.ask(say("ask.yes-no", question=prompt)).lower()
            if answer in YES:
                return True
            if answer in NO:
                return False
            self.say(say("retry.yes-no"))

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
            self.console.print(menu(options, keys))
        hint = (say("hint.range", last=len(options)) if _numbered(keys, len(options))
                else ", ".join(keys))
        if back:
            hint = say("hint.back", keys=hint)
        while True:
            answer = self.ask(say("ask.menu", question=prompt, hint=hint))
            try:
                return pick(answer, options, keys, back, unavailable or {})
            except Retry as exc:
                self.say(str(exc))

    # -- screens --------------------------------------------------------------------------

    def screen(self, v: PlayerView, panel: RenderableType | None = None, *,
               highlight: Highlight | None = None, focus: Iterable[int] = (),
               notice: Text | None = None) -> None:
        """Clear the terminal and draw the table with `panel` (a menu, a preview) and a notice
        under it, the map cut to what fits so the question on the last line stays in view."""
        focus = tuple(focus)
        self._last = (v, panel, highlight, focus)
        width, height = self.console.width, self.console.height
        below = [x for x in (panel, notice) if x is not None]
        used = sum(lines_needed(x, width) for x in below) + 1  # + the question
        self.console.clear()
        self.console.print(render_screen(v, width=width, height=max(4, height - used),
                                         hex_width=self.hex_width, highlight=highlight,
                                         focus=focus))
        for x in below:
            self.console.print(x)

    def redraw(self, notice: Text | None = None) -> None:
        if self._last is not None:
            v, panel, highlight, focus = self._last
            self.screen(v, panel, highlight=highlight, focus=focus, notice=notice)

    def forget_screen(self) -> None:
        """Clear the terminal and keep nothing to redraw (a hot-seat player's secrets)."""
        self._last = None
        self.console.clear()

    def _map_page_prompt(self, rows: range, total: int) -> str:
        more = rows.stop < total
        return say("ask.prompt", question=(
            say("map.rows", first=rows.start, last=rows.stop - 1, end=total - 1)
            + (say("map.south") if more else "") + (say("map.north") if rows.start else "")
            + say("map.back")))

    def view_map(self, v: PlayerView, highlight: Highlight | None = None) -> None:
        """The whole map with its legend (and the preview, if any), a terminal's height at a
        time."""
        board = v.board
        width, height = self.console.width, self.console.height
        hw = map_hex_width(board, width, self.hex_width)
        legend = render_legend(v, width=width)
        size = max(4, height - lines_needed(legend, width) - 2)  # the ruler and the question
        cols = window([], max(1, (width - 3 - hw // 2) // hw), board.columns)
        goals = objective_hexes(v, v.viewer) if v.viewer is not None else []
        top = 0
        while True:
            rows = range(top, min(board.rows, top + size))
            self.console.clear()
            self.console.print(render_map(v, hex_width=hw, rows=rows, cols=cols,
                                          goal_hexes=goals, highlight=highlight))
            self.console.print(legend)
            more = rows.stop < board.rows
            low = self.raw(self._map_page_prompt(rows, board.rows)).lower()
            if low in NORTH and top:
                top = max(0, top - size)
            elif not low and more:
                top = rows.stop
            elif low in (*BACK, *QUIT[:1], "") or not more:
                return

    def cycle_width(self, board: Board) -> None:
        """The next map size (hexes 2, 3 or 4 characters wide)."""
        current = self.hex_width or auto_hex_width(board, self.console.width)
        self.hex_width = HEX_WIDTHS[(HEX_WIDTHS.index(current) + 1) % len(HEX_WIDTHS)]

    def beside(self, left: RenderableType, right: RenderableType | None) -> RenderableType:
        """`right` beside `left` when both fit the terminal's width whole, else `left` alone."""
        if right is None or columns_needed(left) + 4 + columns_needed(right) > \
                self.console.width:
            return left
        grid = Table.grid(padding=(0, 4))
        grid.add_row(left, right)
        return grid

    def fief_card(self, v: PlayerView, me: int) -> RenderableType | None:
        """This round's fief in its six rotations, or at least in one when space is short."""
        p = v.players[me]
        if p.fief is None:
            return None
        shape = v.board.fiefs[p.fief]
        card = p.fief + COLOUR_DIGIT[p.colour]
        rotations = render_fief_rotations(shape, p.colour, card)
        if columns_needed(rotations) + 44 <= self.console.width:
            return rotations
        return titled(Text(say("fief.card", fief=p.fief, card=card), style="bold"),
                      render_fief_shape(shape, 0, p.colour))
