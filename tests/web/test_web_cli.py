"""`tavola serve` and `tavola bench --server` from the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tavola.cli import app
from tavola.web.loadbench import free_port
from tavola.web.storage import open_store

runner = CliRunner()


def test_serve_refuses_unknown_database_urls():
    result = runner.invoke(app, ["serve", "--db", "mysql://localhost/games"])
    assert result.exit_code == 2
    assert "unsupported database URL" in " ".join(result.output.split())


def test_serve_names_a_postgresql_it_cannot_reach():
    url = f"postgresql://games@127.0.0.1:{free_port()}/games?connect_timeout=1"
    result = runner.invoke(app, ["serve", "--db", url])
    assert result.exit_code == 2
    assert "cannot connect to PostgreSQL" in " ".join(result.output.split())


def test_serve_believes_forwarded_headers_only_from_the_proxies_named(monkeypatch):
    import tavola.web

    runs: list[dict] = []
    monkeypatch.setattr(tavola.web, "serve", lambda *a, **kw: runs.append(kw))
    common = ["serve", "--db", "sqlite://:memory:", "--port", str(free_port())]
    assert runner.invoke(app, common).exit_code == 0
    result = runner.invoke(app, [*common, "--proxy", "127.0.0.1", "--proxy", "10.0.0.0/8"])
    assert result.exit_code == 0, result.output
    assert [run["proxies"] for run in runs] == [[], ["127.0.0.1", "10.0.0.0/8"]]
    result = runner.invoke(app, [*common, "--proxy", "*"])
    assert result.exit_code == 2 and "IP address or network" in " ".join(result.output.split())


def test_serve_takes_the_metrics_token_from_the_environment_and_a_log_format(monkeypatch):
    import tavola.web

    runs: list[dict] = []
    monkeypatch.setattr(tavola.web, "serve", lambda *a, **kw: runs.append(kw))
    monkeypatch.delenv("TAVOLA_METRICS_TOKEN", raising=False)
    common = ["serve", "--db", "sqlite://:memory:", "--port", str(free_port())]
    assert runner.invoke(app, common).exit_code == 0
    monkeypatch.setenv("TAVOLA_METRICS_TOKEN", "from-the-environment")
    assert runner.invoke(app, [*common, "--log-format", "json"]).exit_code == 0
    assert [(run["metrics_token"], run["log_format"]) for run in runs] == [
        (None, "text"), ("from-the-environment", "json")]
    result = runner.invoke(app, [*common, "--log-format", "xml"])
    assert result.exit_code == 2 and "text or json" in " ".join(result.output.split())
    assert len(runs) == 2


def test_bench_server_on_postgresql(pg_url):
    result = runner.invoke(app, ["bench", "--server", "--server-games", "2", "--think", "0",
                                 "--json", "--db", pg_url])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 2 and "PostgreSQL" in figures["server"]
    store = open_store(pg_url)
    assert len(store.game_ids("over")) == 2  # the bench's games were played on PostgreSQL
    store.close()


def test_bench_server_plays_concurrent_games_and_reports_percentiles():
    result = runner.invoke(app, ["bench", "--server", "--server-games", "3", "--think", "0",
                                 "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 3 and figures["moves timed"] >= 3 * 2 * 7 * 2 - 6
    assert 0 < figures["move → new view p50 (ms)"] <= figures["move → new view p99 (ms)"]
    assert figures["games per minute"] > 0
    # the server's own processor time while the games were played, per move
    assert 0 < figures["server CPU per move (ms)"] < 1000
