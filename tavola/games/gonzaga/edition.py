"""Gonzaga's editions (`tavola.editions`): the board file as data a person edits and plays on.

An owner of the printed box transcribes its map and pieces into a board file in the map editor;
every check of `tavola board check` (and the board file's schema) comes back as a `Finding`
located in the file (a JSON Pointer) and on the map (the hexes it is on, "hex:C,R" with the
file's column and row), so the editor can mark it. A board with no finding can be played on.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from tavola.editions import Finding, canonical

from .board import FORMAT, BoardError, Problem, board_from_dict, board_schema, load_board
from .boardcheck import check_board
from .boarddata import MAX_BYTES, limit_problems
from .text import say


def sentence(text: str) -> str:
    """A problem as a sentence: a capital first and a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _findings(problems: Iterable[str]) -> list[Finding]:
    """Problems (`board.Problem`s where they say where they are) as findings, in the language
    of the moment (each web request runs in its reader's, `tavola.web.i18n_web`)."""
    return [Finding(sentence(p.worded() if isinstance(p, Problem) else str(p)),
                    getattr(p, "where", ""), tuple(getattr(p, "marks", ())))
            for p in problems]


class GonzagaEditions:
    """The board file as an edition (`tavola.editions.EditionKind`)."""

    format = FORMAT
    max_bytes = MAX_BYTES

    def default(self) -> dict[str, Any]:
        """The shipped reconstruction's board file."""
        return copy.deepcopy(load_board().raw)

    def schema(self) -> dict[str, Any]:
        return board_schema()

    def check(self, data: Any) -> list[Finding]:
        """The schema, the limits and every rule of `board check`; never raises."""
        try:
            return self._check(data)
        except (RecursionError, MemoryError):
            return [Finding(say("edition.too-deep"))]
        except Exception as exc:  # hostile data is a finding, never a crash
            return [Finding(sentence(say("edition.unchecked", error=exc)))]

    def _check(self, data: Any) -> list[Finding]:
        try:
            size = len(canonical(data))
        except (TypeError, ValueError):
            return [Finding(say("edition.not-json"))]
        if size > self.max_bytes:
            return [Finding(say("edition.too-large", size=size, most=self.max_bytes))]
        if not isinstance(data, dict):
            return [Finding(say("edition.not-object"))]
        too_big = limit_problems(data)
        if too_big:
            return [Finding(message.worded(), where) for where, message in too_big]
        try:
            board = board_from_dict(data)
        except BoardError as exc:
            return _findings(exc.problems)
        return _findings(check_board(board))

    def options(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"board": data}

    def describe(self, data: dict[str, Any]) -> str:
        """Its size in hexes and pieces, from whatever the data holds."""
        def count(key: str) -> int:
            value = data.get(key) if isinstance(data, dict) else None
            return len(value) if isinstance(value, list) else 0

        legend = data.get("legend") if isinstance(data, dict) else None
        terrain = data.get("terrain") if isinstance(data, dict) else None
        playable = {ch for ch, entry in legend.items() if isinstance(entry, dict)
                    and (entry.get("region") or entry.get("sea"))} \
            if isinstance(legend, dict) else set()
        hexes = sum(ch in playable for line in terrain if isinstance(line, str) for ch in line) \
            if isinstance(terrain, list) else 0
        return say("edition.describe", hexes=hexes, cities=count("cities"),
                   harbors=count("harbors"), fiefs=count("fiefs"))


EDITIONS = GonzagaEditions()
