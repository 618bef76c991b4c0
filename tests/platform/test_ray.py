"""Tournaments and simulations on Ray give what worker processes give, for both games.

One local Ray instance with 2 CPUs serves the whole module (Ray takes seconds to start) and is
shut down at the end. Without Ray installed these tests are skipped on a developer's machine
but fail in CI, where the dev extra installs it.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from platform_helpers import tiny_board
from rich.console import Console
from typer.testing import CliRunner

from tavola import registry as games
from tavola.cli import app, ray_alone
from tavola.parallel import LOCAL, Executor, check_executor, start_ray
from tavola.simulate import run_simulation
from tavola.testing import game_names
from tavola.tournament import Tournament, run_tournament

runner = CliRunner()
TIMINGS = {"wall_seconds", "think_seconds", "think_max_seconds", "think_mean", "think_max",
           "elapsed_seconds"}


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    if os.environ.get("CI") == "true":
        import ray  # in CI Ray must be there: a missing package fails the run
    else:
        ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    start_ray(ray, Executor(workers=2, ray=LOCAL))  # as `--ray --workers 2` starts it
    assert ray.cluster_resources()["CPU"] == 2
    yield ray
    ray.shutdown()


def quiet() -> Console:
    return Console(file=io.StringIO(), width=160)


def options_for(name: str) -> dict[str, Any]:
    return {"board": tiny_board()} if name == "gonzaga" else {}


def tour(name: str, out: Path, **where: Any) -> Tournament:
    return run_tournament(games.get(name), ["greedy", "random"], [2, 3], games=3, seed=21,
                          out=out, console=quiet(), options=options_for(name), **where)


def without(data: Any, keys: set[str]) -> Any:
    """`data` with the given keys left out at every depth (timings differ between runs)."""
    if isinstance(data, dict):
        return {k: without(v, keys) for k, v in data.items() if k not in keys}
    if isinstance(data, list):
        return [without(v, keys) for v in data]
    return data


def report_without_timings(path: Path) -> str:
    """results.md up to the decision-time table, the only one made of timings."""
    return path.read_text(encoding="utf-8").split("## Decision time")[0]


@pytest.mark.parametrize("name", game_names())
def test_tournament_on_ray_matches_worker_processes(ray: Any, name: str, tmp_path: Path) -> None:
    local = tour(name, tmp_path / "workers", workers=2)
    remote = tour(name, tmp_path / "ray", workers=None, ray=LOCAL)
    # 2 players: 2 deals x 2 seatings; 3 players: line-ups A+2B and 2A+B, 1 deal x 3 seatings
    assert len(remote.results) == 2 * 2 + 2 * 3
    assert remote.results == local.results and remote.summary == local.summary
    assert remote.ray == LOCAL and "Ray" in remote.executor.describe()
    a, b = tmp_path / "workers", tmp_path / "ray"
    names = sorted(p.name for p in (a / "records").iterdir())
    assert names == sorted(p.name for p in (b / "records").iterdir())
    assert len(names) == len(local.results)
    for record in names:
        assert (a / "records" / record).read_bytes() == (b / "records" / record).read_bytes()
    assert (a / "scores.png").read_bytes() == (b / "scores.png").read_bytes()
    assert report_without_timings(a / "results.md") == report_without_timings(b / "results.md")
    ja, jb = (json.loads((d / "results.json").read_text(encoding="utf-8")) for d in (a, b))
    assert (ja["parameters"]["workers"], ja["parameters"]["ray"]) == (2, None)
    assert (jb["parameters"]["workers"], jb["parameters"]["ray"]) == (None, LOCAL)
    for data in (ja, jb):
        del data["parameters"]["workers"], data["parameters"]["ray"]
    assert without(ja, TIMINGS) == without(jb, TIMINGS)


@pytest.mark.parametrize("name", game_names())
def test_simulation_on_ray_matches_worker_processes(ray: Any, name: str, tmp_path: Path) -> None:
    runs = {}
    for label, where in (("workers", {"workers": 2}), ("ray", {"workers": None, "ray": LOCAL})):
        runs[label] = run_simulation(games.get(name), ["random", "greedy", "random"], games=10,
                                     seed=5, records=tmp_path / label, console=quiet(),
                                     options=options_for(name), **where)
    assert replace(runs["ray"], records=None) == replace(runs["workers"], records=None)
    assert [r.index for r in runs["ray"].results] == list(range(10))
    for i in range(10):
        record = f"game-{i:05d}.json"
        assert (tmp_path / "ray" / record).read_bytes() == \
            (tmp_path / "workers" / record).read_bytes()


def test_cli_runs_a_tournament_on_ray(ray: Any, tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ray_alone(["tournament", "--game", "signorie", "--bots", "random,greedy",
                      "--players", "2", "--games", "4", "--out", str(out), "--ray"])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "with Ray, local" in (out / "results.md").read_text(encoding="utf-8")
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data["command"].endswith(f"--seed 0 --ray --out {out}")
    assert len(list((out / "records").glob("game-*.json"))) == len(data["games"]) == 4


def test_cli_simulates_on_ray(ray: Any, tmp_path: Path) -> None:
    result = runner.invoke(app, ray_alone(["simulate", "--players", "random,greedy", "--games",
                                           "3", "--ray", "--workers", "2"]))
    assert result.exit_code == 0, result.output
    assert "3 game(s)" in result.output


def test_a_bare_ray_means_a_local_instance() -> None:
    assert ray_alone(["simulate", "--ray"]) == ["simulate", f"--ray={LOCAL}"]
    assert ray_alone(["simulate", "--ray", "--games", "3"]) == \
        ["simulate", f"--ray={LOCAL}", "--games", "3"]
    assert ray_alone(["simulate", "--ray", "auto"]) == ["simulate", "--ray", "auto"]


def test_ray_arguments_are_checked_before_playing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="the cluster at auto has its own CPUs"):
        check_executor(Executor(workers=2, ray="auto"))
    with pytest.raises(ValueError, match="cluster address"):
        check_executor(Executor(workers=None, ray=" "))
    result = runner.invoke(app, ["simulate", "--ray", "auto", "--workers", "2"])
    assert result.exit_code == 2 and "leave --workers out" in result.output


def test_an_address_where_no_cluster_answers_is_refused_at_once(ray: Any,
                                                                tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--ray", f"127.0.0.1:{port}", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in result.output
    assert not out.exists()
    for wrong in ("head", "ray://head:port", ":6379"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            check_executor(Executor(workers=None, ray=wrong))


def test_missing_ray_is_named_with_its_install_command(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(ValueError, match="pip install"):
        check_executor(Executor(workers=None, ray=LOCAL))
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--ray", LOCAL, "--out", str(out)])
    assert result.exit_code == 2 and "Ray package" in result.output
    assert "pip install -e '.[ray]'" in " ".join(result.output.split())  # not read as markup
    assert not (out / "results.json").exists()
