"""Board files: loading, structural errors, game invariants and the `board check` command."""

from __future__ import annotations

import copy
import json

import pytest
from boards import tiny_board_dict
from typer.testing import CliRunner

from tavola.cli import app
from tavola.games.gonzaga.board import BoardError, board_from_dict, default_board_path, load_board
from tavola.games.gonzaga.boardcheck import check_board, fixed_piece, free_shape

HAVE_REAL_BOARD = default_board_path().exists()
runner = CliRunner()


def problems_after(change) -> list[str]:
    data = copy.deepcopy(tiny_board_dict())
    change(data)
    return check_board(board_from_dict(data))


@pytest.mark.skipif(not HAVE_REAL_BOARD, reason="the shipped board is not built yet")
def test_shipped_board_meets_every_invariant():
    board = load_board()
    assert check_board(board) == []
    assert len(board.cities) == 24 and len(board.harbors) == 24
    assert "Vilnius" in {c.name for c in board.cities.values()}
    colombo = board.scenarios["Colombo"]
    assert set(colombo.flourishing) == {"hispania", "francia", "britannia", "italia"}


@pytest.mark.skipif(not HAVE_REAL_BOARD, reason="the shipped board is not built yet")
def test_board_check_command_passes_on_the_shipped_board():
    result = runner.invoke(app, ["board", "check"])
    assert result.exit_code == 0, result.output
    assert "24 cities" in result.output


def test_polyhex_canonical_forms():
    line = [(0, 0), (1, 0), (2, 0)]
    assert free_shape(line) == free_shape([(0, 0), (0, 1), (0, 2)])
    bent = [(0, 0), (1, 0), (1, 1)]
    triangle = [(0, 0), (1, 0), (0, 1)]
    assert len({free_shape(line), free_shape(bent), free_shape(triangle)}) == 3
    # a piece turned round is the same piece; castles elsewhere make another one
    assert fixed_piece(line, [(0, 0), (2, 0)]) == fixed_piece([(0, 0), (0, 1), (0, 2)],
                                                               [(0, 0), (0, 2)])
    assert fixed_piece(line, [(0, 0), (1, 0)]) != fixed_piece(line, [(0, 0), (2, 0)])


def test_a_finding_names_regions_seas_and_symbols_as_the_file_does():
    """An edition's own names (Iberia for the region hispania) are the reader's words: the
    sentence says them, not the file's ids."""
    def renamed(data):
        region, sea, symbol = data["regions"][0], data["seas"][0], data["symbols"][0]
        region["name"], sea["name"], symbol["name"] = "Iberia", "Mare Nostrum", "Corona"
        data["cities"].remove(next(c for c in data["cities"] if c["region"] == region["id"]
                                   and c["symbol"] == symbol["id"]))
        data["harbors"].remove(next(h for h in data["harbors"] if h["sea"] == sea["id"]))

    found = problems_after(renamed)
    assert any(p.startswith("region Iberia must have 4 cities") for p in found), found
    assert any(p.startswith("sea Mare Nostrum must have 4 harbors") for p in found), found
    assert any(p.startswith("symbol Corona must be on 3 cities") for p in found), found


def test_violations_are_named():
    def no_city(data):
        data["cities"].pop()

    assert any("must have 4 cities" in p for p in problems_after(no_city))

    def same_hex(data):
        data["harbors"][0]["at"] = data["cities"][0]["at"]

    found = problems_after(same_hex)
    assert any("share hex" in p for p in found)

    def harbor_inland(data):
        data["harbors"][0]["at"] = [0, 1]

    assert any("does not touch" in p for p in problems_after(harbor_inland))

    def inner_barrier(data):
        data["barriers"][0]["edges"].append([[0, 0], [1, 0]])

    assert any("border between two regions" in p for p in problems_after(inner_barrier))

    def twin_fiefs(data):
        data["fiefs"][1]["hexes"] = data["fiefs"][0]["hexes"]
        data["fiefs"][1]["castles"] = data["fiefs"][0]["castles"]

    assert any("cannot be told apart" in p for p in problems_after(twin_fiefs))

    def one_castle(data):
        data["fiefs"][0]["castles"] = [[0, 0]]

    assert any("two or more castles" in p for p in problems_after(one_castle))

    def symbols_twice(data):
        data["cities"][1]["symbol"] = data["cities"][0]["symbol"]

    assert any("symbol" in p for p in problems_after(symbols_twice))

    def split_grid(data):
        data["terrain"][4] = "." * data["columns"]  # rows 0-3 lose touch with the rest
        data["legend"]["."] = {"off": True}

    assert any("not connected" in p for p in problems_after(split_grid))


def test_synthetic_board_reports_its_missing_pieces():
    found = check_board(board_from_dict(tiny_board_dict()))
    assert any("16 scenario tiles" in p for p in found)


def test_structural_errors_raise_board_error():
    with pytest.raises(BoardError, match="missing keys: fiefs"):
        data = tiny_board_dict()
        del data["fiefs"]
        board_from_dict(data)
    with pytest.raises(BoardError, match="unknown region"):
        data = tiny_board_dict()
        data["cities"][0]["region"] = "atlantis"
        board_from_dict(data)
    with pytest.raises(BoardError, match="legend lacks"):
        data = tiny_board_dict()
        data["terrain"][0] = "?" + data["terrain"][0][1:]
        board_from_dict(data)
    with pytest.raises(BoardError, match="format"):
        board_from_dict({**tiny_board_dict(), "format": "other/2"})
    with pytest.raises(BoardError, match=r"pair of whole numbers \(column, row\)"):
        data = tiny_board_dict()
        data["cities"][0]["at"] = ["a", 1]
        board_from_dict(data)


def test_board_check_command_names_each_violation(tmp_path):
    data = tiny_board_dict()
    data["cities"].pop()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["board", "check", str(path)])
    assert result.exit_code == 1
    assert "must have 4 cities" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    result = runner.invoke(app, ["board", "check", str(broken)])
    assert result.exit_code == 1 and "not valid JSON" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["board", "check", str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "cannot read" in result.output


def test_content_hash_identifies_the_board():
    a = board_from_dict(tiny_board_dict())
    data = tiny_board_dict()
    data["cities"][0]["name"] = "Renamed"
    b = board_from_dict(data)
    assert a.content_hash != b.content_hash
    assert board_from_dict(tiny_board_dict()).content_hash == a.content_hash


def test_the_exported_json_schema_is_current():
    """docs/gonzaga-board.schema.json is the schema the loader validates with; regenerate it
    with `python -c "from tavola.games.gonzaga.board import write_board_schema;
    write_board_schema()"`."""
    from tavola.games.gonzaga.board import SCHEMA_PATH, board_schema

    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == board_schema()


def test_the_shipped_board_meets_its_schema():
    from tavola.games.gonzaga.board import BoardModel

    data = json.loads(default_board_path().read_text(encoding="utf-8"))
    assert BoardModel.model_validate(data).name == load_board().name


def test_schema_errors_name_the_entry():
    data = tiny_board_dict()
    data["regions"][0]["colour"] = 3
    data["fiefs"][0]["shade"] = "dark"
    with pytest.raises(BoardError) as caught:
        board_from_dict(data)
    problems = caught.value.problems
    assert f"Region {data['regions'][0]['id']}, colour: text is needed here" in problems
    assert "Fief 10, shade: this entry is not part of the format" in problems
