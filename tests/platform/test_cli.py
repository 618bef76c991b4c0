"""The `gonzaga` command: clear errors for bad input, never a traceback."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavola import registry
from tavola.cli import app

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
    assert figures["view messages, 2 seats and a spectator, per move (us)"] > 0
    assert figures["mcts:iterations=20 decisions timed"] == 2
    assert figures["MCTS iterations/s"] > 0


def test_bench_every_game_gives_each_games_figures_and_the_engine_path():
    import json

    from tavola.testing import game_names

    result = runner.invoke(app, ["bench", "--json", "--every-game", "--games", "2", "--mcts",
                                 "1", "--bot", "mcts:iterations=10"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert sorted(figures) == sorted(game_names())
    for name, mine in figures.items():
        assert mine["game"] == registry.get(name).info.title
        assert mine["engine"].startswith("Python") and "compiled" in mine["engine"]
        assert mine["random 4-player games/s"] > 0 and mine["MCTS iterations/s"] > 0


def test_bench_every_game_refuses_one_games_options():
    result = runner.invoke(app, ["bench", "--every-game", "--option",
                                 "variants=one-league-per-sea"])
    assert result.exit_code != 0 and "--every-game" in result.output


def test_bench_names_a_bad_bot():
    result = runner.invoke(app, ["bench", "--games", "1", "--bot", "mcts:fast"])
    assert result.exit_code == 2 and "fast" in result.output


# -- play: one default line-up -----------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def make_dry_run(*args: str) -> str:
    """The commands `make` would run (printed, not run)."""
    done = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout


@needs_make
def test_play_default_seats_are_one_fact(monkeypatch):
    from tavola.games.gonzaga.terminal import DEFAULT_PLAYERS as seats
    from tavola.games.gonzaga.terminal import loop

    seen: list[list[str]] = []
    monkeypatch.setattr(loop, "play_in_terminal", lambda specs, **kw: seen.append(specs))
    assert runner.invoke(app, ["play"]).exit_code == 0
    assert seen == [seats.split(",")]
    shown = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    assert f"gonzaga: {seats}" in " ".join(shown.replace("│", " ").split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"`tavola play [--players {seats}]" in readme
    section = readme.split("## Play in the terminal", 1)[1].split("\n## ", 1)[0]
    assert f"`{seats}`" in section
    play = [line for line in make_dry_run("play").splitlines() if "tavola play" in line]
    assert play and "--players" not in play[-1]  # make play uses the command's own default
    chosen = make_dry_run("play", "PLAYERS=human,random")
    assert "--players human,random" in chosen


# -- serve: a busy port ------------------------------------------------------------------------


def test_serve_on_a_busy_port_says_what_to_do_and_prints_no_url(monkeypatch, tmp_path):
    import tavola.web

    def never(*args, **kwargs):
        raise AssertionError("the server must not start on a busy port")

    monkeypatch.setattr(tavola.web, "serve", never)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port),
                                     "--db", f"sqlite:///{tmp_path / 'games.db'}"])
    text = " ".join(result.output.split())
    assert result.exit_code != 0
    assert f"port {port} is in use" in text
    assert "make run PORT=" in text and "stop the other server" in text
    assert "http://" not in text and "Traceback" not in text


@needs_make
def test_make_run_takes_a_port():
    assert "--port 8000" in make_dry_run("run")
    assert "--port 8001" in make_dry_run("run", "PORT=8001")


def test_python_dash_m_tavola_runs_the_command():
    """`python -m tavola` is the command: it lists the registered games (running the
    `tavola.cli` module as `__main__` once imported it twice and failed)."""
    done = subprocess.run([sys.executable, "-m", "tavola", "games"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for name in registry.available():
        assert name in done.stdout
