"""The `gonzaga` command: clear errors for bad input, never a traceback."""

from __future__ import annotations

from typer.testing import CliRunner

from gonzaga.cli import app

runner = CliRunner()


def test_unknown_bot_is_named():
    result = runner.invoke(app, ["simulate", "--players", "greedy,wizard", "--games", "1"])
    assert result.exit_code == 2
    assert "wizard" in result.output and "Traceback" not in result.output


def test_wrong_scenario_is_named():
    result = runner.invoke(app, ["simulate", "--players", "greedy,random", "--games", "1",
                                 "--scenario", "Nobody"])
    assert result.exit_code == 2 and "Nobody" in result.output


def test_simulate_prints_a_summary():
    result = runner.invoke(app, ["simulate", "--players", "greedy,random", "--games", "2",
                                 "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "rounds per game" in result.output


def test_board_show_refuses_other_formats(tmp_path):
    result = runner.invoke(app, ["board", "show", "--out", str(tmp_path / "board.gif")])
    assert result.exit_code == 2 and ".svg or .png" in result.output


def test_board_show_writes_svg(tmp_path):
    out = tmp_path / "board.svg"
    result = runner.invoke(app, ["board", "show", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_scenarios_lists_colombo():
    result = runner.invoke(app, ["scenarios", "--players", "4"])
    assert result.exit_code == 0 and "Colombo" in result.output


def test_play_with_too_many_seats_is_refused():
    result = runner.invoke(app, ["play", "--players", "random,random,random,random,random"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_bench_json_reports_the_targets():
    import json

    result = runner.invoke(app, ["bench", "--json", "--games", "3", "--mcts", "2",
                                 "--bot", "mcts:iterations=20"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["random 4-player games/s"] > 0
    assert figures["list legal actions, median (ms)"] > 0
    assert figures["clone+apply states/s"] > 0
    assert figures["mcts:iterations=20 decisions timed"] == 2
    assert figures["MCTS iterations/s"] > 0


def test_bench_names_a_bad_bot():
    result = runner.invoke(app, ["bench", "--games", "1", "--bot", "mcts:fast"])
    assert result.exit_code == 2 and "fast" in result.output
