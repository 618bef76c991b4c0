"""Print each game's spaces as Markdown: `python -m tavola.rl.describe [GAME ...]`.

The tables of `docs/research.md` are this output, so they come from the layouts themselves.
"""

from __future__ import annotations

import sys

from ..registry import available
from .table import Table


def spaces_table(name: str) -> str:
    """A game's action count, observation size and one row per observation slot."""
    encoding = Table(name).encoding
    layout = encoding.layout
    lines = [f"{encoding.action_count} actions; an observation of {layout.size} values.", "",
             "| slot | offset | shape | meaning |", "| --- | --- | --- | --- |"]
    lines += [f"| {name} | {offset} | {shape} | {meaning} |"
              for name, offset, shape, meaning in layout.describe()]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    for name in argv or available():
        print(f"### {name}\n\n{spaces_table(name)}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
