"""Game records: writing, loading, verifying by replay, and rejecting hand-edited records.

The golden records in golden/ (beside this file) were played on a frozen copy of the tiny test
board (golden/tiny-board.json), so editing boards.py does not invalidate them, while any
engine change that alters a legal move, a turn order or a point fails `test_golden_records`.
Regenerate them deliberately with `python tests/games/gonzaga/test_record.py --regenerate-goldens`.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from boards import tiny_board

from tavola.games.gonzaga.board import Board, BoardError, board_from_dict, load_board
from tavola.games.gonzaga.engine import apply_in_place, legal_actions
from tavola.games.gonzaga.game import make_bot
from tavola.games.gonzaga.match import play_game
from tavola.games.gonzaga.placement import static_problem
from tavola.games.gonzaga.record import (
    FORMAT,
    RecordError,
    game_record,
    load_record,
    summarize_record,
    verify_record,
    write_record,
)
from tavola.games.gonzaga.state import GameState

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_BOARD = GOLDEN / "tiny-board.json"

#: name -> (seat specs, seed, variants, final scores, winners). The scores are written here as
#: well as in the files, so a regenerated golden that changed outcomes shows up in review.
GOLDENS: dict[str, tuple[list[str], int, list[str], list[int], list[int]]] = {
    "tiny-2p-greedy-vs-random-seed11.json":
        (["greedy", "random"], 11, [], [130, 18], [0]),
    "tiny-3p-random-greedy-greedy-seed12.json":
        (["random", "greedy", "greedy"], 12, [], [33, 110, 69], [1]),
    "tiny-4p-greedy-random-random-greedy-seed13-one-league-per-sea.json":
        (["greedy", "random", "random", "greedy"], 13, ["one-league-per-sea"],
         [93, 21, 20, 94], [3]),
}


def play(board: Board, specs: list[str], seed: int, variants: list[str] | None = None
         ) -> GameState:
    bots = [make_bot(spec, seed=seed * 8 + i) for i, spec in enumerate(specs)]
    return play_game(bots, seed=seed, board=board, names=specs, variants=variants or ())


@pytest.fixture(scope="module")
def tiny() -> Board:
    return tiny_board()


@pytest.fixture(scope="module")
def finished(tiny: Board) -> GameState:
    return play(tiny, ["greedy", "random", "greedy"], seed=4)


@pytest.fixture
def record(finished: GameState) -> dict[str, Any]:
    return game_record(finished, players=["greedy", "random", "greedy"], seed=4)


def rejected(data: Any, board: Board) -> str:
    with pytest.raises(RecordError) as info:
        verify_record(data, board=board)
    return str(info.value)


# -- round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("specs", [["greedy", "random"], ["random", "greedy", "random"],
                                   ["greedy", "greedy", "random", "random"]])
def test_round_trip_tiny_board(tiny: Board, tmp_path: Path, specs: list[str]) -> None:
    state = play(tiny, specs, seed=len(specs))
    path = tmp_path / "game.json"
    write_record(state, path, players=specs, seed=len(specs))
    data = load_record(path)
    replayed = verify_record(data, board=tiny)
    assert [p.score for p in replayed.players] == [p.score for p in state.players]
    assert replayed.winners == state.winners
    assert replayed.history == state.history
    assert data["finished"] is True
    assert data["scores"] == [p.score for p in state.players]


def test_round_trip_real_board(tmp_path: Path) -> None:
    try:
        board = load_board()
    except BoardError:
        pytest.skip("the shipped board tavola/games/gonzaga/data/europa.json is not there (yet)")
    state = play(board, ["greedy", "random", "greedy"], seed=21)
    path = tmp_path / "europa.json"
    write_record(state, path, players=["greedy", "random", "greedy"], seed=21)
    replayed = verify_record(load_record(path))  # the shipped board is the default
    assert [p.score for p in replayed.players] == [p.score for p in state.players]


def test_record_contents(finished: GameState, record: dict[str, Any]) -> None:
    board = finished.board
    assert record["format"] == FORMAT == "gonzaga-record/1"
    # not the shipped board: the record holds it (`test_edition_board.py`)
    assert record["board"] == {"name": board.name, "content_hash": board.content_hash,
                               "data": board.raw}
    assert record["seed"] == 4
    assert record["scenario"] == finished.setup.scenario
    assert record["last_turn_holder"] == finished.setup.oldest
    assert [p["deck"] for p in record["players"]] == [list(d) for d in finished.setup.decks]
    assert [p["objective"] for p in record["players"]] == list(finished.setup.objectives)
    assert [(p["kind"], p["spec"]) for p in record["players"]] == [
        ("bot", "greedy"), ("bot", "random"), ("bot", "greedy")]
    assert [r["round"] for r in record["rounds"]] == list(range(1, finished.round + 1))
    first = record["rounds"][0]
    assert first["fiefs"] == [d[0] for d in finished.setup.decks]
    assert all(p["type"] == "plan" for p in first["plans"])
    turn = next(t for r in record["rounds"] for t in r["turns"] if t["action"]["type"] == "fief")
    # covered hexes are [col, row] pairs of the board, including the anchor
    assert turn["action"]["anchor"] in turn["hexes"]
    assert all(tuple(h) in board.index_of for h in turn["hexes"])
    checks = [r["last_turn_check"] for r in record["rounds"] if r["last_turn_check"]]
    assert checks and checks[0]["holder"] == finished.setup.oldest
    total = [0] * 3
    for r in record["rounds"]:
        for t in r["turns"]:
            for e in t["events"]:
                total[e["player"]] += e["points"]
    for e in record["final_scoring"]:
        total[e["player"]] += e["points"]
    assert total == record["scores"]
    json.dumps(record)  # plain JSON all the way down


def test_unfinished_games(tiny: Board) -> None:
    bots = [make_bot("greedy", seed=1), make_bot("random", seed=2)]
    state = play_game(bots, seed=9, board=tiny, names=["a", "b"])
    # replay the first part of that game, stopping at several points
    for stop in (0, 1, 2, 3, 11, 25):
        partial = _prefix(tiny, state, stop)
        data = game_record(partial)
        assert data["finished"] is False and data["winners"] == []
        replayed = verify_record(data, board=tiny)
        assert replayed.round == partial.round
        assert [p.score for p in replayed.players] == [p.score for p in partial.players]


def _prefix(board: Board, state: GameState, actions: int) -> GameState:
    from tavola.games.gonzaga.engine import new_game

    fresh = new_game(list(state.setup.names), board=board, setup=state.setup)
    for action in state.history[:actions]:
        apply_in_place(fresh, action)
    return fresh


def test_unrevealed_plans_are_not_recorded(tiny: Board) -> None:
    from tavola.games.gonzaga.engine import new_game

    state = new_game(["a", "b"], seed=1, board=tiny)
    apply_in_place(state, legal_actions(state, 0)[0])  # seat 0 has planned, seat 1 not yet
    data = game_record(state)
    assert data["rounds"][0]["plans"] is None and data["rounds"][0]["order"] is None
    assert verify_record(data, board=tiny).round == 1


# -- rejecting hand-edited records -------------------------------------------------------------


def _first_scoring_turn(record: dict[str, Any]) -> tuple[int, int, dict[str, Any]]:
    for r, rnd in enumerate(record["rounds"]):
        for t, turn in enumerate(rnd["turns"]):
            if turn["events"] and turn["events"][0]["reason"] in ("city", "harbor"):
                return r, t, turn
    raise AssertionError("no scoring turn")


def test_changed_points(tiny: Board, record: dict[str, Any]) -> None:
    r, t, turn = _first_scoring_turn(record)
    event = turn["events"][0]
    real = event["points"]
    event["points"] = real + 3
    colour = record["players"][turn["action"]["player"]]["colour"]
    message = rejected(record, tiny)
    assert message == (f"round {r + 1}, turn {t + 1} ({colour}): recorded {real + 3} points "
                       f"for {event['reason']} {event['detail']}, engine scores {real}")


def test_changed_final_score(tiny: Board, record: dict[str, Any]) -> None:
    record["scores"][1] += 1
    assert rejected(record, tiny).startswith("scores: recorded ")


def test_changed_final_scoring_event(tiny: Board, record: dict[str, Any]) -> None:
    record["final_scoring"][-1]["points"] += 10
    assert rejected(record, tiny).startswith("final scoring: recorded ")


def test_missing_and_extra_events(tiny: Board, record: dict[str, Any]) -> None:
    r, t, turn = _first_scoring_turn(record)
    edited = copy.deepcopy(record)
    edited["rounds"][r]["turns"][t]["events"].pop()
    assert "the record misses a scoring event" in rejected(edited, tiny)
    edited = copy.deepcopy(record)
    edited["rounds"][r]["turns"][t]["events"].append(
        {"player": turn["action"]["player"], "points": 10, "reason": "sea-league",
         "detail": "s0: invented"})
    assert "the engine scores nothing for it" in rejected(edited, tiny)


def test_changed_winners(tiny: Board, record: dict[str, Any]) -> None:
    losers = [i for i in range(3) if i not in record["winners"]]
    record["winners"] = losers[:1]
    assert rejected(record, tiny).startswith("winners: recorded ")


def test_fief_onto_another_fief(tiny: Board, record: dict[str, Any]) -> None:
    """Move a later fief so that its anchor lies on a hex an earlier fief covers."""
    covered: list[tuple[int, int]] = []
    for r, rnd in enumerate(record["rounds"]):
        for t, turn in enumerate(rnd["turns"]):
            action = turn["action"]
            if action["type"] == "fief" and covered:
                fief = tiny.fiefs[action["fief"]]
                for hex_ in covered:
                    rot = next((rot for rot in range(6)
                                if static_problem(tiny, fief, tiny.index_of[hex_], rot) is None),
                               None)
                    if rot is not None:
                        action["anchor"], action["rotation"] = list(hex_), rot
                        colour = record["players"][action["player"]]["colour"]
                        message = rejected(record, tiny)
                        assert message.startswith(f"round {r + 1}, turn {t + 1} ({colour}): "
                                                  "illegal action: ")
                        assert "already holds a fief" in message
                        assert message.endswith("[placing-2]")
                        return
            if action["type"] == "fief":
                covered += [tuple(h) for h in turn["hexes"]]
    raise AssertionError("no fief to move")


def test_illegal_plan(tiny: Board, record: dict[str, Any]) -> None:
    # the cards played in round 1 rest in round 2 (NOTES 6)
    record["rounds"][1]["plans"][0] = dict(record["rounds"][0]["plans"][0])
    colour = record["players"][0]["colour"]
    message = rejected(record, tiny)
    assert message.startswith(f"round 2, plan ({colour}): illegal action: ")
    assert message.endswith("[resting-card]")


def test_reordered_turns(tiny: Board, record: dict[str, Any]) -> None:
    turns = record["rounds"][2]["turns"]
    turns[0], turns[1] = turns[1], turns[0]
    order = record["rounds"][2]["order"]
    colours = [record["players"][i]["colour"] for i in order]
    message = rejected(record, tiny)
    assert message == (f"round 3, turn 1 ({colours[1]}): recorded a turn by {colours[1]}, but "
                       f"the turn order ({', '.join(colours)}) gives this turn to {colours[0]}")


def test_changed_turn_order(tiny: Board, record: dict[str, Any]) -> None:
    order = record["rounds"][0]["order"]
    order[0], order[1] = order[1], order[0]
    assert rejected(record, tiny).startswith("round 1: recorded turn order ")


def test_changed_covered_hexes(tiny: Board, record: dict[str, Any]) -> None:
    r, t, turn = _first_scoring_turn(record)
    turn["hexes"][0] = [turn["hexes"][0][0], turn["hexes"][0][1] + 1]
    assert f"round {r + 1}, turn {t + 1}" in (message := rejected(record, tiny))
    assert "recorded covered hexes" in message


def test_changed_fiefs_and_decks(tiny: Board, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    edited["rounds"][4]["fiefs"][0] = 999
    assert rejected(edited, tiny).startswith("round 5: recorded fiefs drawn 999")
    edited = copy.deepcopy(record)
    edited["players"][0]["deck"][0] = 10 if edited["players"][0]["deck"][0] != 10 else 20
    assert rejected(edited, tiny).startswith("cannot set the game up: invalid setup")


def test_changed_last_turn_check(tiny: Board, record: dict[str, Any]) -> None:
    rnd = next(r for r in record["rounds"] if r["last_turn_check"])
    rnd["last_turn_check"]["uncovered"] += 1
    assert rejected(record, tiny).startswith(f"round {rnd['round']}, Last Turn check: recorded ")
    rnd["last_turn_check"] = None
    assert "the record has none" in rejected(record, tiny)


def test_truncated_or_extended_games(tiny: Board, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    edited["rounds"].pop()
    assert "marked finished after round" in rejected(edited, tiny)
    edited = copy.deepcopy(record)
    extra = copy.deepcopy(edited["rounds"][-1])
    extra["round"] += 1
    edited["rounds"].append(extra)
    assert "the game already ended" in rejected(edited, tiny)


def test_wrong_board(tiny: Board, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    edited["board"]["content_hash"] = "0" * 64
    message = rejected(edited, tiny)
    assert message.startswith("board mismatch:") and "has changed" in message
    other = tiny_board(name="another board")
    message = rejected(record, other)
    assert message.startswith("board mismatch: the record was played on 'tiny test board'")


def test_changed_setup_is_caught(tiny: Board, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    edited["scenario"] = "Nobody"
    assert "unknown scenario" in rejected(edited, tiny)
    edited = copy.deepcopy(record)
    edited["variants"] = ["no-such-variant"]
    assert "unknown rule variants" in rejected(edited, tiny)


# -- structural problems: load_record ---------------------------------------------------------


def _load_edited(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(path)
    return str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        load_record(tmp_path / "nothing.json")
    with pytest.raises(RecordError, match="directory"):
        load_record(tmp_path)


def test_truncated_json(tmp_path: Path, record: dict[str, Any]) -> None:
    text = json.dumps(record)
    message = _load_edited(tmp_path, text[: len(text) // 2])
    assert message.startswith("edited.json is not valid JSON (line 1, column ")


def test_wrong_format_or_version(tmp_path: Path, record: dict[str, Any]) -> None:
    record["format"] = "gonzaga-record/2"
    assert _load_edited(tmp_path, record) == (
        "format: record version '2' is not supported; this version of Gonzaga reads "
        "'gonzaga-record/1'")
    record["format"] = "gonzaga-board/1"
    assert "is not a Gonzaga game record" in _load_edited(tmp_path, record)
    del record["format"]
    assert _load_edited(tmp_path, record).startswith("missing key 'format'")
    assert _load_edited(tmp_path, [1, 2]) == "a game record must be a JSON object, found an array"


def test_missing_keys(tmp_path: Path, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    del edited["rounds"][2]["fiefs"]
    assert _load_edited(tmp_path, edited) == "missing key 'fiefs' at rounds[2]"
    edited = copy.deepcopy(record)
    del edited["board"]
    assert _load_edited(tmp_path, edited) == "missing key 'board'"
    edited = copy.deepcopy(record)
    del edited["rounds"][0]["turns"][1]["action"]["anchor"]
    message = _load_edited(tmp_path, edited)
    assert message.startswith("rounds[0].turns[1].action: ")
    assert "anchor" in message


def test_wrong_types(tmp_path: Path, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    r, t, _ = _first_scoring_turn(edited)
    edited["rounds"][r]["turns"][t]["events"][0]["points"] = "3"
    assert _load_edited(tmp_path, edited).startswith(
        f"rounds[{r}].turns[{t}].events[0].points: Input should be a valid integer")
    edited = copy.deepcopy(record)
    edited["rounds"][0]["turns"][0]["events"] = [{"player": 0, "points": 3, "reason": "bribe",
                                                   "detail": "x"}]
    assert _load_edited(tmp_path, edited).startswith("rounds[0].turns[0].events[0].reason: ")
    edited = copy.deepcopy(record)
    edited["rounds"][0]["turns"][0]["hexes"] = [[1, 2, 3]]
    assert _load_edited(tmp_path, edited).startswith("rounds[0].turns[0].hexes[0]: ")
    edited = copy.deepcopy(record)
    edited["finished"] = "yes"
    assert _load_edited(tmp_path, edited).startswith("finished: ")
    edited = copy.deepcopy(record)
    edited["rounds"][0]["plans"][1] = {"type": "donate", "player": 1}
    assert "a plan must have type 'plan'" in _load_edited(tmp_path, edited)
    edited = copy.deepcopy(record)
    edited["rounds"][0]["colour"] = "red"
    assert _load_edited(tmp_path, edited) == "unknown key 'colour' at rounds[0]"


def test_inconsistent_structure(tmp_path: Path, record: dict[str, Any]) -> None:
    edited = copy.deepcopy(record)
    edited["rounds"][3]["round"] = 7
    assert _load_edited(tmp_path, edited) == "rounds[3].round: expected round 4, found 7"
    edited = copy.deepcopy(record)
    edited["scores"].pop()
    assert _load_edited(tmp_path, edited).startswith("scores: expected 3 values")
    edited = copy.deepcopy(record)
    edited["rounds"][1]["turns"].pop()
    assert "round 2 is incomplete but later rounds follow" in _load_edited(tmp_path, edited)
    edited = copy.deepcopy(record)
    edited["rounds"][0]["order"] = [0, 0, 1]
    assert _load_edited(tmp_path, edited).startswith("rounds[0].order: must list each")


def test_summary_renders(record: dict[str, Any]) -> None:
    from rich.console import Console

    console = Console(width=160, record=True)
    console.print(summarize_record(record))
    text = console.export_text()
    assert "Rounds" in text and "Result" in text and "Winner:" in text
    assert "Last Turn check" in text


def test_cli_replay(tmp_path: Path, finished: GameState) -> None:
    from typer.testing import CliRunner

    from tavola.cli import app

    path = tmp_path / "game.json"
    write_record(finished, path, players=["greedy", "random", "greedy"])
    runner = CliRunner()
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Rounds" in result.output
    path.write_text(path.read_text()[:100])
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "not valid JSON" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_default_board(monkeypatch: pytest.MonkeyPatch, tiny: Board, tmp_path: Path,
                       finished: GameState) -> None:
    """Without a board, records are verified against the shipped board (here: patched)."""
    from typer.testing import CliRunner

    import tavola.games.gonzaga.record
    from tavola.cli import app

    path = tmp_path / "game.json"
    data = game_record(finished)
    del data["board"]["data"]  # as a record of a game on the shipped board is
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(tavola.games.gonzaga.record, "load_board", lambda: tiny)
    result = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay exactly" in result.output

    def missing() -> Board:
        raise BoardError(["cannot read europa.json: No such file or directory"])

    monkeypatch.setattr(tavola.games.gonzaga.record, "load_board", missing)
    with pytest.raises(RecordError, match="cannot load the shipped board to verify against"):
        verify_record(load_record(path))
    result = CliRunner().invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code == 1
    assert "cannot load the shipped board" in result.output


# -- golden records -----------------------------------------------------------------------------


def golden_board() -> Board:
    return board_from_dict(json.loads(GOLDEN_BOARD.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_records(name: str) -> None:
    specs, seed, variants, scores, winners = GOLDENS[name]
    data = load_record(GOLDEN / name)
    assert [p["spec"] for p in data["players"]] == specs
    assert data["seed"] == seed and data["variants"] == variants
    assert data["scores"] == scores and data["winners"] == winners
    state = verify_record(data, board=golden_board())
    assert [p.score for p in state.players] == scores
    assert list(state.winners) == winners


def test_golden_board_is_the_tiny_board() -> None:
    """Not required for the goldens to verify; a reminder when boards.py changes."""
    if golden_board().content_hash != tiny_board().content_hash:
        pytest.skip("tests/games/gonzaga/boards.py changed since the goldens were made; they "
                    "still verify on their frozen board copy")


def regenerate_goldens() -> None:
    """Write the frozen board and the golden records (then update GOLDENS' scores by hand)."""
    from boards import tiny_board_dict

    GOLDEN.mkdir(exist_ok=True)
    GOLDEN_BOARD.write_text(json.dumps(tiny_board_dict(), indent=1) + "\n", encoding="utf-8")
    board = golden_board()
    for name, (specs, seed, variants, _, _) in GOLDENS.items():
        state = play(board, specs, seed, variants)
        write_record(state, GOLDEN / name, players=specs, seed=seed)
        print(name, [p.score for p in state.players], list(state.winners))


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate-goldens"]:
        regenerate_goldens()
    else:
        print(__doc__)

