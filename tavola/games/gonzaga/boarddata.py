"""Boards given as data rather than as a file on disk: an edition's map that a person entered.

A game on such a board carries the board's data with it (in its setup and its record), so
whoever rebuilds the game (a bot worker, a restarted server, `replay --verify` on another
machine) needs nothing else. The data comes from people: it is refused beyond the limits below,
and a game is set up on it only when every rule of `board check` holds.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from tavola.editions import content_hash

from .board import Board, BoardError, Problem, board_from_dict, load_board
from .boardcheck import check_board
from .text import MESSAGES

#: The largest board file accepted as data, in bytes of UTF-8 JSON (the shipped one has 19 kB).
MAX_BYTES = 256_000
#: The largest grid: columns and rows each (the shipped board has 38 x 46).
MAX_SIDE = 80
#: The most entries of each list in a board file, and of a fief's hexes.
MAX_ENTRIES = {"regions": 24, "seas": 24, "symbols": 32, "cities": 400, "harbors": 400,
               "barriers": 200, "fiefs": 48, "scenarios": 120, "objectives": 200}
MAX_EDGES = 2_000  # barrier edges, all ranges together
MAX_FIEF_HEXES = 8
#: The longest text of any one name, id or description.
MAX_NAME = 80
MAX_DESCRIPTION = 2_000

#: Boards built from data, by content hash, the most recent last (a bot worker sees the same
#: few boards again and again; its placement tables are built once per board object).
_boards: OrderedDict[str, Board] = OrderedDict()
_KEEP = 16


def _said(key: str, **fields: Any) -> Problem:
    """A limit's sentence of the text layer, in English (`Problem.said`)."""
    return Problem.said(MESSAGES[key], **fields)


def limit_problems(data: Any) -> list[tuple[str, Problem]]:
    """Where the data goes past a limit, as (JSON Pointer, sentence): checked before anything
    else reads it, so hostile data costs no more than its size."""
    if not isinstance(data, Mapping):
        return []
    out: list[tuple[str, Problem]] = []
    for key in ("columns", "rows"):
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_SIDE:
            out.append((f"/{key}", _said("size.side", most=MAX_SIDE, what=key, count=value)))
    for key, most in MAX_ENTRIES.items():
        value = data.get(key)
        if isinstance(value, list) and len(value) > most:
            out.append((f"/{key}", _said("size.entries", most=most, what=key, count=len(value))))
    edges = sum(len(b["edges"]) for b in data.get("barriers") or ()
                if isinstance(b, Mapping) and isinstance(b.get("edges"), list)) \
        if isinstance(data.get("barriers"), list) else 0
    if edges > MAX_EDGES:
        out.append(("/barriers", _said("size.edges", most=MAX_EDGES, count=edges)))
    for i, fief in enumerate(data.get("fiefs") or () if isinstance(data.get("fiefs"), list)
                             else ()):
        if isinstance(fief, Mapping) and isinstance(fief.get("hexes"), list) \
                and len(fief["hexes"]) > MAX_FIEF_HEXES:
            out.append((f"/fiefs/{i}/hexes", _said("size.fief-hexes", most=MAX_FIEF_HEXES,
                                                    count=len(fief["hexes"]))))
    out += _long_texts(data, "", 0)
    return out


def _long_texts(value: Any, where: str, depth: int) -> list[tuple[str, Problem]]:
    """Every text longer than a name may be (the description: longer than a description)."""
    if depth > 6:
        return [(where, _said("size.deep"))]
    if isinstance(value, str):
        most = MAX_DESCRIPTION if where == "/description" else MAX_NAME
        if where.startswith("/terrain/"):
            most = MAX_SIDE
        return [(where, _said("size.text", count=len(value), most=most))] \
            if len(value) > most else []
    if isinstance(value, Mapping):
        return [p for k, v in value.items() for p in _long_texts(v, f"{where}/{_escape(k)}",
                                                                 depth + 1)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _long_texts(v, f"{where}/{i}",
                                                                    depth + 1)]
    return []


def _escape(key: Any) -> str:
    """A key as a JSON Pointer token (RFC 6901)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def shipped_hash() -> str:
    return load_board().content_hash


def board_of_data(data: Any) -> Board:
    """The board of a board file's data, built once per content. Raises `BoardError` naming
    every problem when the data goes past a limit, does not load, or breaks a rule of
    `board check`: no game is ever set up on a board the rules cannot play."""
    try:
        digest = content_hash(data)
    except (TypeError, ValueError):
        raise BoardError(["the board's data is not plain JSON"]) from None
    if digest == shipped_hash():
        return load_board()
    board = _boards.get(digest)
    if board is not None:
        _boards.move_to_end(digest)
        return board
    too_big = [sentence for _, sentence in limit_problems(data)]
    if too_big:
        raise BoardError(too_big)
    board = board_from_dict(data)
    problems = check_board(board)
    if problems:
        raise BoardError(problems)
    _boards[digest] = board
    while len(_boards) > _KEEP:
        _boards.popitem(last=False)
    return board


def board_setup(board: Board) -> dict[str, Any]:
    """What a game's setup holds of its board: nothing for the shipped board, else its data."""
    if board.content_hash == shipped_hash():
        return {}
    return {"board": board.raw}


def setup_board(setup: Mapping[str, Any]) -> Board | None:
    """The board a setup carries (`board_setup`), None for the shipped board."""
    data = setup.get("board")
    return None if data is None else board_of_data(data)
