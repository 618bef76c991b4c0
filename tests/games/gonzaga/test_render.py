"""The board renderer writes valid PNG and SVG pictures and refuses anything else.

The pictures are checked for what a reader relies on: a real PNG of about the documented
width, an SVG that parses and still names every city and harbor, pieces accepted in the
documented form, and clear errors for a wrong file name or piece.
"""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from boards import tiny_board_dict

from tavola.games.gonzaga.render import draw_board

SHIPPED = (Path(__file__).resolve().parents[3] / "tavola" / "games" / "gonzaga" / "data"
           / "europa.json")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    if not SHIPPED.exists():
        pytest.skip("the shipped board tavola/games/gonzaga/data/europa.json is not built yet")
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (the IHDR chunk comes first)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_png_of_the_shipped_board(shipped: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    draw_board(shipped, out)
    assert out.stat().st_size > 100_000
    width, height = png_size(out)
    assert 1300 <= width <= 1500
    assert height > width  # map plus legend below it


def test_svg_names_every_place_and_shows_pieces(shipped: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    city = shipped["cities"][0]["at"]
    harbor = shipped["harbors"][0]["at"]
    pieces = [("red", "fief", [city]), ("blue", "ring", [harbor]),
              ("green", "fief", [[0, 0], [1, 0], [0, 1]])]
    draw_board(shipped, str(out), pieces=pieces, title="Test position")
    assert out.stat().st_size > 100_000
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = out.read_text(encoding="utf-8")
    for place in [*shipped["cities"], *shipped["harbors"]]:
        assert place["name"] in text, place["name"]
    assert "Test position" in text


def test_accepts_an_object_keeping_the_board_in_raw(tmp_path: Path) -> None:
    out = tmp_path / "tiny.svg"
    draw_board(SimpleNamespace(raw=tiny_board_dict()), out)
    ET.parse(out)
    assert "City 00" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["board.jpg", "board.pdf", "board", "board.png.txt"])
def test_other_extensions_are_refused(name: str, tmp_path: Path) -> None:
    out = tmp_path / name
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        draw_board(tiny_board_dict(), out)
    assert not out.exists()


@pytest.mark.parametrize("piece", [("purple", "fief", [[0, 0]]), ("red", "castle", [[0, 0]])])
def test_unknown_piece_is_refused(piece: tuple[str, str, list[list[int]]],
                                  tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=repr(piece[0]) if piece[0] == "purple" else "castle"):
        draw_board(tiny_board_dict(), tmp_path / "x.png", pieces=[piece])


def test_refuses_what_is_not_a_board(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        draw_board(42, tmp_path / "x.png")
