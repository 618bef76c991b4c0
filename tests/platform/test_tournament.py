"""`tavola tournament`: balanced schedule, reproducible parallel runs, sound statistics,
well-formed outputs whose records all verify, clear errors."""

from __future__ import annotations

import io
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from platform_helpers import tiny_board
from rich.console import Console
from typer.testing import CliRunner

from tavola.cli import app
from tavola.games.gonzaga.board import Board
from tavola.games.gonzaga.game import GAME
from tavola.games.gonzaga.record import load_record, verify_record
from tavola.tournament import (
    GameResult,
    Tournament,
    bot_stats,
    lineups,
    ranks_of,
    rate,
    run_tournament,
    schedule,
    wilson,
)


@pytest.fixture(scope="module")
def tiny() -> Board:
    return tiny_board()


def quiet() -> Console:
    return Console(file=io.StringIO(), width=160)


@pytest.fixture(scope="module")
def run(tiny: Board, tmp_path_factory: pytest.TempPathFactory) -> Tournament:
    out = tmp_path_factory.mktemp("tour")
    return run_tournament(GAME, ["greedy", "random"], [2, 4], games=4, seed=10, workers=2,
                          out=out, console=quiet(), options={"board": tiny})


def test_lineups_repeat_bots_only_as_needed() -> None:
    assert [t.label for t in lineups(["mcts:hard", "greedy"], 2)] == ["mcts:hard vs greedy"]
    assert [t.seats for t in lineups(["a", "b"], 4)] == [
        ("a", "b", "b", "b"), ("a", "a", "b", "b"), ("a", "a", "a", "b")]
    assert [t.seats for t in lineups(["a", "b", "c"], 2)] == [("a", "b"), ("a", "c"),
                                                                ("b", "c")]
    assert sorted(Counter(t.seats).most_common(1)[0][1] for t in lineups(["a", "b", "c"], 4)) \
        == [2, 2, 2]  # one bot doubled, a different one in each line-up
    assert all(len(set(t.seats)) == 3 for t in lineups(["a", "b", "c"], 4))


@pytest.mark.parametrize(("bots", "players"), [(["mcts:hard", "greedy"], 4),
                                               (["a", "b", "c"], 3), (["a", "b"], 2)])
def test_every_bot_plays_every_seat_equally(bots: list[str], players: int) -> None:
    tables, games = schedule(bots, [players], 5, seed=100)
    for i, table in enumerate(tables):
        mine = [g for g in games if g.lineup == i]
        assert len(mine) % players == 0 and len(mine) >= 5
        for bot, k in table.counts:
            per_seat = [sum(1 for g in mine if g.seats[s] == bot) for s in range(players)]
            assert per_seat == [len(mine) * k // players] * players
        for deal in {g.deal for g in mine}:  # a deal is played in every rotation, same seed
            same = [g for g in mine if g.deal == deal]
            assert len(same) == players and len({g.seed for g in same}) == 1
    assert [g.index for g in games] == list(range(len(games)))
    assert "mcts:hard" in {s for g in games for s in g.seats} or "mcts:hard" not in bots


def test_workers_give_identical_results(tiny: Board, run: Tournament, tmp_path: Path) -> None:
    serial = run_tournament(GAME, ["greedy", "random"], [2, 4], games=4, seed=10,
                            workers=1, out=tmp_path, console=quiet(), options={"board": tiny})
    assert [r.index for r in serial.results] == list(range(len(serial.results)))
    assert [r.record for r in serial.results] == [r.record for r in run.results]
    assert serial.results == run.results
    assert serial.summary == run.summary


def test_outputs_are_written_and_records_verify(tiny: Board, run: Tournament) -> None:
    out = run.out
    assert out is not None
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    for key in ("format", "parameters", "methods", "lineups", "games", "bots", "by_players",
                "by_lineup", "ratings"):
        assert key in data
    assert data["parameters"]["bots"] == ["greedy", "random"]
    assert len(data["games"]) == len(run.results) == 4 + 3 * 4
    assert {lu["label"] for lu in data["lineups"]} >= {"greedy ×1 vs random ×3"}
    md = (out / "results.md").read_text(encoding="utf-8")
    assert "| greedy |" in md and "| random |" in md and "Wilson" in md
    assert (out / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for game in data["games"]:
        record = load_record(out / game["record"])
        state = verify_record(record, board=tiny)
        assert [p.score for p in state.players] == game["scores"]
        assert [p["spec"] for p in record["players"]] == game["seats"]
    greedy = next(b for b in data["bots"] if b["bot"] == "greedy")
    assert greedy["decisions"] > 0 and greedy["think_max"] >= greedy["think_mean"] > 0


def test_wilson_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-4) and math.isclose(hi, 0.7634, abs_tol=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0 and math.isclose(hi, 0.2775, abs_tol=1e-4)
    lo, hi = wilson(10, 10)
    assert math.isclose(lo, 0.7225, abs_tol=1e-4) and hi == 1


def _game(index: int, seats: tuple[str, ...], scores: tuple[int, ...],
          winners: tuple[int, ...]) -> GameResult:
    zero = dict.fromkeys(GAME.info.score_sources, 0)
    keys = [(s, 1 if i in winners else 0) for i, s in enumerate(scores)]
    return GameResult(index, 0, index, 0, index, seats, "Duo", 10, scores, ranks_of(keys),
                      winners, tuple({**zero, "city": s} for s in scores),
                      tuple(1 for _ in seats))


def test_stats_on_hand_made_results() -> None:
    results = [_game(0, ("a", "b"), (10, 10), (0, 1)),  # shared win: half each
               _game(1, ("b", "a"), (5, 20), (1,)),
               _game(2, ("a", "b", "b", "b"), (30, 1, 2, 3), (0,))]
    a = bot_stats("a", results)
    b = bot_stats("b", results)
    assert a is not None and b is not None
    assert (a.games, a.seats, a.wins) == (3, 3, 2.5)
    assert (b.games, b.seats, b.wins) == (3, 5, 0.5)
    assert math.isclose(a.par, (0.5 + 0.5 + 0.25) / 3)
    assert (a.ci_low, a.ci_high) == wilson(2.5, 3)
    assert a.score_mean == 20 and a.points_by_source["city"] == 20
    assert a.rank_mean == 1 and math.isclose(b.rank_mean, (1 + 2 + 4 + 3 + 2) / 5)
    assert ranks_of([5, 9, 5, 1]) == (2, 1, 2, 4)


def test_rating_favours_the_bot_that_always_wins() -> None:
    results = [_game(i, seats, (50, 10, 10, 10)[:len(seats)], (0,))
               for i, seats in enumerate([("a", "b"), ("a", "c"), ("a", "b", "c"),
                                          ("a", "b", "b", "b")] * 3)]
    ratings = rate(["b", "a", "c"], results)
    assert ratings[0].bot == "a"
    mus = {r.bot: r.mu for r in ratings}
    assert mus["a"] > 25 > mus["b"] and mus["a"] > mus["c"]
    # copies of b in one game do not rate against each other
    assert {r.bot: r.pairs for r in ratings}["a"] == 3 * (1 + 1 + 2 + 3)


runner = CliRunner()


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "greedy,wizard"], "unknown bot 'wizard'"),
    (["--bots", "greedy"], "at least 2 different bots"),
    (["--bots", "greedy,greedy"], "listed twice"),
    (["--players", "5"], "player counts must be 2 to 4, not 5"),
    (["--players", "1,2"], "player counts must be 2 to 4, not 1"),
    (["--players", "two"], "not 'two'"),
    (["--games", "0"], "--games"),
    (["--workers", "0"], "--workers"),
])
def test_cli_errors(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "--out", str(tmp_path / "t"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_cli_unwritable_out_and_existing_results(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["tournament", "--out", str(blocker / "sub")])
    assert result.exit_code == 2 and "cannot write to" in result.output
    out = tmp_path / "t"
    args = ["tournament", "--bots", "random,greedy", "--players", "2", "--games", "2",
            "--workers", "1", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "random vs greedy" in first.output and "Ratings" in first.output
    assert len(list((out / "records").glob("game-*.json"))) == 2
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "--overwrite" in again.output
    assert runner.invoke(app, [*args, "--overwrite"]).exit_code == 0


def test_solo_keeps_the_line_ups_with_one_seat_for_that_bot() -> None:
    tables, games = schedule(["mcts:hard", "greedy"], [2, 4], 4, seed=0, solo="mcts:hard")
    assert [t.seats for t in tables] == [("mcts:hard", "greedy"),
                                        ("mcts:hard", "greedy", "greedy", "greedy")]
    assert all(sum(1 for s in g.seats if s == "mcts:hard") == 1 for g in games)
    tables, _ = schedule(["a", "b", "c"], [2], 2, seed=0, solo="c")
    assert [t.seats for t in tables] == [("a", "c"), ("b", "c")]


def test_solo_must_be_one_of_the_bots(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "--bots", "greedy,random", "--solo", "planner",
                                 "--out", str(tmp_path / "t")])
    assert result.exit_code != 0 and "planner" in result.output


def test_an_interrupted_run_resumes_with_only_the_unfinished_games(
        tiny: Board, run: Tournament, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tavola.tournament as tournament

    real = tournament.play_scheduled
    played: list[int] = []

    def stops_after_five(game: object, options: object, job: tuple[object, bool]) -> object:
        if len(played) == 5:
            raise KeyboardInterrupt  # the player closed the terminal
        played.append(job[0].index)  # type: ignore[attr-defined]
        return real(game, options, job)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "play_scheduled", stops_after_five)
    args = dict(games=4, seed=10, workers=1, out=tmp_path, console=quiet(),
                options={"board": tiny})
    with pytest.raises(KeyboardInterrupt):
        run_tournament(GAME, ["greedy", "random"], [2, 4], **args)  # type: ignore[arg-type]
    journal = tmp_path / "games.jsonl"
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 1 + 5
    with journal.open("a", encoding="utf-8") as f:
        f.write('{"index": 5, "lineup"')  # a line cut short by the stop
    with pytest.raises(ValueError, match="--resume"):
        run_tournament(GAME, ["greedy", "random"], [2, 4], **args)  # type: ignore[arg-type]
    played.clear()
    monkeypatch.setattr(tournament, "play_scheduled", real)
    again: list[int] = []
    monkeypatch.setattr(tournament, "play_scheduled",
                        lambda g, o, job: again.append(job[0].index) or real(g, o, job))
    tour = run_tournament(GAME, ["greedy", "random"], [2, 4], resume=True,
                          **args)  # type: ignore[arg-type]
    assert again == list(range(5, len(run.results)))
    assert tour.resumed == 5 and tour.results == run.results and tour.summary == run.summary
    assert "5 games finished by an earlier run" in (tmp_path / "results.md").read_text(
        encoding="utf-8")
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(run.results)  # the cut line is gone
    for game in json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["games"]:
        state = verify_record(load_record(tmp_path / game["record"]), board=tiny)
        assert [p.score for p in state.players] == game["scores"]


@pytest.mark.parametrize(("change", "message"), [
    ({"seed": 11}, "seed 10, not 11"),
    ({"games": 8}, "games_per_lineup 4, not 8"),
    ({"bots": ["greedy", "planner"]}, "bots"),
])
def test_resuming_with_other_arguments_is_refused_and_changes_nothing(
        tiny: Board, run: Tournament, tmp_path: Path, change: dict[str, object],
        message: str) -> None:
    import shutil

    assert run.out is not None
    folder = tmp_path / "copy"
    shutil.copytree(run.out, folder)
    before = (folder / "games.jsonl").read_bytes()
    args: dict[str, object] = dict(bots=["greedy", "random"], games=4, seed=10)
    args.update(change)
    bots = args.pop("bots")
    with pytest.raises(ValueError, match=message):
        run_tournament(GAME, bots, [2, 4], workers=1, out=folder,  # type: ignore[arg-type]
                       console=quiet(), options={"board": tiny}, resume=True,
                       **args)  # type: ignore[arg-type]
    assert (folder / "games.jsonl").read_bytes() == before
    with pytest.raises(ValueError, match="no journal"):
        run_tournament(GAME, ["greedy", "random"], [2, 4], games=4, seed=10, workers=1,
                       out=tmp_path / "empty", console=quiet(), options={"board": tiny},
                       resume=True)
