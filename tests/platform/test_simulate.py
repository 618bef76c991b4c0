"""`tavola simulate`: reproducible runs, per-seat figures that add up, clear errors."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from platform_helpers import tiny_board
from rich.console import Console

from tavola.games.gonzaga.board import Board
from tavola.games.gonzaga.game import GAME
from tavola.games.gonzaga.record import load_record, verify_record
from tavola.simulate import (
    GameResult,
    Summary,
    print_summary,
    run_simulation,
    summarise,
)


@pytest.fixture(scope="module")
def tiny() -> Board:
    return tiny_board()


SOURCES = GAME.info.score_sources


def quiet() -> Console:
    return Console(file=io.StringIO(), width=140)


def simulate(tiny: Board, specs: list[str], games: int = 6, seed: int = 0, workers: int = 1,
             records: Path | None = None, scenario: str | None = None) -> Summary:
    return run_simulation(GAME, specs, games=games, seed=seed, records=records,
                          workers=workers, console=quiet(),
                          options={"scenario": scenario, "board": tiny})


@pytest.fixture(scope="module")
def three(tiny: Board) -> Summary:
    return simulate(tiny, ["greedy", "random", "greedy"], games=8, seed=100)


def test_wins_add_up_to_games(three: Summary) -> None:
    assert three.games == 8 and len(three.results) == 8
    assert math.isclose(sum(s.wins for s in three.seats), three.games)
    for s in three.seats:
        assert s.outright_wins + s.shared_wins == sum(1 for r in three.results
                                                      if s.seat in r.winners)
        assert s.outright_wins <= s.wins <= s.outright_wins + s.shared_wins


def test_scores_are_sums_of_points_by_source(three: Summary) -> None:
    for s in three.seats:
        assert set(s.points_by_source) == set(SOURCES) == {
            "city", "harbor", "sea-league", "donation", "gonzaga-tile", "objective"}
        assert math.isclose(sum(s.points_by_source.values()), s.score_mean)
        assert s.score_min <= s.score_mean <= s.score_max
        assert s.score_stdev >= 0
    for r in three.results:
        assert [sum(p.values()) for p in r.points] == list(r.scores)


def test_rounds_and_seeds(three: Summary) -> None:
    assert [r.seed for r in three.results] == list(range(100, 108))
    assert [r.index for r in three.results] == list(range(8))
    assert 7 <= three.rounds_min <= three.rounds_mean <= three.rounds_max <= 12
    assert sum(three.setups.values()) == 8
    assert three.specs == ("greedy", "random", "greedy")
    assert [s.colour for s in three.seats] == ["red", "yellow", "green"]


def test_workers_give_identical_results(tiny: Board, three: Summary) -> None:
    parallel = simulate(tiny, ["greedy", "random", "greedy"], games=8, seed=100, workers=2)
    assert parallel.results == three.results
    assert parallel == three


def test_same_seed_same_run_and_seat_order_kept(tiny: Board) -> None:
    a = simulate(tiny, ["greedy", "random"], games=3, seed=7)
    b = simulate(tiny, ["greedy", "random"], games=3, seed=7)
    assert a.results == b.results
    swapped = simulate(tiny, ["random", "greedy"], games=3, seed=7)
    assert [s.spec for s in swapped.seats] == ["random", "greedy"]
    # greedy beats random on the tiny board from either seat
    assert a.seats[0].score_mean > a.seats[1].score_mean
    assert swapped.seats[1].score_mean > swapped.seats[0].score_mean


def test_records_are_written_and_verify(tiny: Board, tmp_path: Path) -> None:
    out = tmp_path / "records"
    summary = simulate(tiny, ["random", "greedy"], games=3, seed=40, records=out, workers=2)
    files = sorted(p.name for p in out.iterdir())
    assert files == ["game-00000.json", "game-00001.json", "game-00002.json"]
    for result in summary.results:
        data = load_record(out / f"game-{result.index:05d}.json")
        assert data["seed"] == result.seed
        assert [p["spec"] for p in data["players"]] == ["random", "greedy"]
        state = verify_record(data, board=tiny)
        assert tuple(p.score for p in state.players) == result.scores


def test_scenario_option(tiny: Board) -> None:
    summary = simulate(tiny, ["random", "random"], games=2, scenario="duo")
    assert summary.setups == {"Duo": 2}
    with pytest.raises(ValueError, match="scenario Trio is for 3 players, not 2"):
        simulate(tiny, ["random", "random"], games=2, scenario="Trio")
    with pytest.raises(ValueError, match="unknown scenario 'Atlantis'"):
        simulate(tiny, ["random", "random"], games=2, scenario="Atlantis")


@pytest.mark.parametrize(("specs", "games", "message"), [
    (["greedy", "alphazero"], 2,
     "unknown bot 'alphazero'; choose from greedy, mcts, planner, random"),
    (["greedy"], 2, "a game of Gonzaga needs 2 to 4 seats, got 1"),
    (["random"] * 5, 2, "a game of Gonzaga needs 2 to 4 seats, got 5"),
    ([], 2, "a game of Gonzaga needs 2 to 4 seats, got 0"),
    (["human", "greedy"], 2, "simulate plays bots only"),
    (["greedy", "random"], 0, "games must be at least 1, not 0"),
])
def test_bad_arguments(tiny: Board, specs: list[str], games: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(tiny, specs, games=games)
    with pytest.raises(ValueError, match="workers must be at least 1"):
        simulate(tiny, ["greedy", "random"], workers=0)


def test_shared_wins_count_fractionally() -> None:
    zero = dict.fromkeys(SOURCES, 0)
    results = [
        GameResult(0, 0, "Duo", 12, (10, 10), (0, 1), ({**zero, "city": 10},
                                                       {**zero, "donation": 10})),
        GameResult(1, 1, "Duo", 8, (20, 5), (0,), ({**zero, "objective": 20},
                                                    {**zero, "harbor": 5})),
    ]
    summary = summarise(GAME, ["greedy", "random"], results)
    red, yellow = summary.seats
    assert (red.wins, red.outright_wins, red.shared_wins) == (1.5, 1, 1)
    assert (yellow.wins, yellow.outright_wins, yellow.shared_wins) == (0.5, 0, 1)
    assert red.score_mean == 15 and math.isclose(red.score_stdev, math.sqrt(50))
    assert red.points_by_source["city"] == 5 and red.points_by_source["objective"] == 10
    assert (summary.rounds_mean, summary.rounds_min, summary.rounds_max) == (10, 8, 12)


def test_print_summary(three: Summary) -> None:
    console = Console(file=io.StringIO(), width=160, record=True)
    print_summary(three, console)
    text = console.export_text()
    assert "8 game(s) on tiny test board, seeds 100–107" in text
    assert "Mean points per game by source" in text
    assert "sea-league" in text and "rounds per game" in text


def test_cli_simulate_reports_bad_specs() -> None:
    from typer.testing import CliRunner

    from tavola.cli import app

    result = CliRunner().invoke(app, ["simulate", "--players", "greedy,nobody", "--games", "1"])
    assert result.exit_code == 2
    assert "unknown bot 'nobody'" in result.output
