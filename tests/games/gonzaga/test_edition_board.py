"""Games on a board given as data (an edition's map, entered by an owner of the printed box):
set up, rebuilt from their setup, recorded with the board inside and verified anywhere."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tavola.cli import app
from tavola.games.gonzaga.board import BoardError, load_board
from tavola.games.gonzaga.game import GAME, make_bot
from tavola.games.gonzaga.match import play_game
from tavola.games.gonzaga.record import RecordError, game_record, verify_record
from tavola.games.gonzaga.state import GameState


def printed_edition() -> dict[str, Any]:
    """The shipped board's data as an owner might have corrected it: another name, a city
    renamed (every rule still holds)."""
    data = copy.deepcopy(load_board().raw)
    data["name"] = "Printed edition (transcribed)"
    data["cities"][0]["name"] = "Lisboa"
    return data


@pytest.fixture(scope="module")
def finished() -> GameState:
    bots = [make_bot("greedy", seed=1), make_bot("random", seed=2)]
    board = GAME.new_game(["a", "b"], 5, {"board": printed_edition()}).board
    return play_game(bots, seed=5, board=board, names=["greedy", "random"])


def test_a_game_is_set_up_on_a_board_given_as_data() -> None:
    state = GAME.new_game(["Ann", "Bea", "Cy"], 3, {"board": printed_edition()})
    assert state.board.name == "Printed edition (transcribed)"
    assert state.board.cities[load_board().model.cities[0].id].name == "Lisboa"
    # the same data, in any key order, is the same board (built once)
    shuffled = json.loads(json.dumps(printed_edition(), sort_keys=True))
    assert GAME.new_game(["Ann", "Bea"], 3, {"board": shuffled}).board is state.board


def test_the_setup_carries_an_editions_board_and_only_then() -> None:
    state = GAME.new_game(["Ann", "Bea"], 4, {"board": printed_edition()})
    setup = json.loads(json.dumps(GAME.setup_of(state)))  # as stored
    assert setup["board"]["name"] == "Printed edition (transcribed)"
    again = GAME.from_setup(setup)
    assert again.board.content_hash == state.board.content_hash
    assert again.setup == state.setup
    shipped = GAME.new_game(["Ann", "Bea"], 4)
    assert "board" not in GAME.setup_of(shipped)
    # the shipped board's data is the shipped board
    assert GAME.new_game(["Ann", "Bea"], 4, {"board": load_board().raw}).board is load_board()


def test_a_board_that_breaks_a_rule_is_refused_with_its_problems() -> None:
    data = printed_edition()
    del data["cities"][0]
    with pytest.raises(BoardError, match="must have 4 cities"):
        GAME.new_game(["Ann", "Bea"], 1, {"board": data})
    data = printed_edition()
    data["columns"] = 10_000
    with pytest.raises(BoardError, match="at most 80 columns"):
        GAME.new_game(["Ann", "Bea"], 1, {"board": data})


def test_a_record_holds_an_editions_board_and_verifies_without_it(finished: GameState,
                                                                  tmp_path: Path) -> None:
    record = json.loads(json.dumps(game_record(finished)))
    assert record["board"]["data"]["name"] == "Printed edition (transcribed)"
    assert record["board"]["content_hash"] == finished.board.content_hash
    replayed = verify_record(record)
    assert [p.score for p in replayed.players] == [p.score for p in finished.players]
    path = tmp_path / "edition-game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay exactly" in result.output


def test_a_shipped_board_record_holds_no_board_data() -> None:
    state = GAME.new_game(["Ann", "Bea"], 2)
    assert "data" not in game_record(state)["board"]


def test_a_record_whose_board_data_was_changed_is_refused(finished: GameState) -> None:
    record = json.loads(json.dumps(game_record(finished)))
    record["board"]["data"]["cities"][1]["name"] = "Somewhere else"
    with pytest.raises(RecordError, match="the record was changed"):
        verify_record(record)
    record = json.loads(json.dumps(game_record(finished)))
    record["board"]["name"] = "Another name"
    with pytest.raises(RecordError, match="board mismatch"):
        verify_record(record)
