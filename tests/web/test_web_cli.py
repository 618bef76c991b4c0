"""`gonzaga serve` and `gonzaga bench --server` from the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tabletop.cli import app

runner = CliRunner()


def test_serve_refuses_unknown_database_urls():
    result = runner.invoke(app, ["serve", "--db", "postgresql://localhost/games"])
    assert result.exit_code == 2
    assert "unsupported database URL" in " ".join(result.output.split())


def test_bench_server_plays_concurrent_games_and_reports_percentiles():
    result = runner.invoke(app, ["bench", "--server", "--server-games", "3", "--think", "0",
                                 "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 3 and figures["moves timed"] >= 3 * 2 * 7 * 2 - 6
    assert 0 < figures["move → new view p50 (ms)"] <= figures["move → new view p99 (ms)"]
    assert figures["games per minute"] > 0
