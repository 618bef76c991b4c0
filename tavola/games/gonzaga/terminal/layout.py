"""Fitting renderables to the terminal: measuring, packing short items, windows on the map,
and text layer sentences with styled parts (a player's name in their colour)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from string import Formatter

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .. import text as words


def styled(key: str, **fields: str | Text) -> Text:
    """The message `key` with its fields filled in; a field given as Text keeps its style."""
    out = Text()
    for literal, name, spec, conversion in Formatter().parse(words.MESSAGES[key]):
        out.append(literal)
        if name is None:
            continue
        value = fields[name]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(Formatter().format_field(
                Formatter().convert_field(value, conversion), spec or ""))
    return out


def pack(items: Sequence[Text], width: int, gap: int = 2, sep: str = "") -> Text:
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


def lines_needed(renderable: RenderableType, width: int) -> int:
    """Lines a renderable takes at this width (measured on a throw-away console)."""
    console = Console(width=width, file=io.StringIO(), force_terminal=False)
    return len(console.render_lines(renderable, console.options.update(width=width),
                                    pad=False))


def columns_needed(renderable: RenderableType) -> int:
    """Columns a renderable needs to be drawn without wrapping."""
    console = Console(width=400, file=io.StringIO(), force_terminal=False)
    return Measurement.get(console, console.options, renderable).maximum


def window(focus: Sequence[int], size: int, total: int) -> range:
    """`size` consecutive lines (or columns) out of `total`, centred on the focus."""
    if size >= total:
        return range(total)
    centre = (min(focus) + max(focus)) / 2 if focus else (total - 1) / 2
    start = min(max(0, round(centre - (size - 1) / 2)), total - size)
    return range(start, start + size)


def titled(title: Text, body: RenderableType) -> Table:
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_row(title)
    grid.add_row(body)
    return grid


def section(title: str, body: RenderableType) -> Group:
    return Group(Rule(Text(title, style="bold"), style="dim", align="left"), body)
