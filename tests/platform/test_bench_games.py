"""The benchmarks of the web server ask the registry for their game: `--game` reaches the
notification and rolling-restart benchmarks, and each picks a game by what it needs."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from tavola import cli, registry
from tavola.web import noticebench, restartbench

runner = CliRunner()


def test_the_notification_benchmark_plays_a_game_in_turns() -> None:
    game = noticebench.turn_based()
    assert not registry.get(game).info.simultaneous
    assert game == next(name for name in registry.available()
                        if not registry.get(name).info.simultaneous)


@pytest.mark.parametrize("game", registry.available())
def test_the_restart_benchmark_seats_the_games_own_cover_bot(game: str) -> None:
    made = [restartbench.new_game(game, g) for g in range(4)]
    assert {m["game"] for m in made} == {game}
    bots = [s.get("bot") for m in made for s in m["seats"] if s["kind"] == "bot"]
    assert bots == [registry.kit(game).cover_bot]


@pytest.mark.parametrize("flag, module, run", [
    ("--notices", noticebench, "run_notice_bench"),
    ("--rolling-restart", restartbench, "run_restart_bench"),
])
def test_bench_passes_the_game_to_the_server_benchmarks(monkeypatch, flag: str, module: Any,
                                                         run: str) -> None:
    asked: list[Any] = []
    monkeypatch.setattr(module, run, lambda **kw: asked.append(kw.get("game")) or {"lost": 0})
    last = registry.available()[-1]
    assert runner.invoke(cli.app, ["bench", flag, "--game", last]).exit_code == 0
    assert asked == [last]
    refused = runner.invoke(cli.app, ["bench", flag, "--game", "chess"])
    assert refused.exit_code == 2 and "unknown game 'chess'" in refused.output
    assert asked == [last]
