"""The garbage collector's settings: Tavola's command and its worker processes collect less
often than CPython's default, unless told to keep it."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavola import collector, registry
from tavola.parallel import Executor, play_all

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def restored():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_tune_sets_the_thresholds_and_says_so(restored, monkeypatch):
    gc.set_threshold(700, 10, 10)
    monkeypatch.delenv(collector.ENVIRONMENT, raising=False)
    assert collector.tune() == collector.THRESHOLDS == gc.get_threshold()
    assert collector.THRESHOLDS[0] > 700  # less often than CPython's default
    assert "/".join(map(str, collector.THRESHOLDS)) in collector.describe()


def test_the_environment_keeps_pythons_own(restored, monkeypatch):
    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv(collector.ENVIRONMENT, "Python")
    assert collector.tune() == (700, 10, 10) == gc.get_threshold()


def thresholds(game, options, job):  # a worker's play: module level, sent by name
    return gc.get_threshold()


def test_worker_processes_are_tuned(restored):
    gc.set_threshold(700, 10, 10)  # the parent's own setting is not what a worker reports
    game = registry.get("gonzaga")
    results = dict(play_all(thresholds, game, {}, [1, 2, 3, 4], Executor(workers=2)))
    assert set(results.values()) == {collector.THRESHOLDS}


@pytest.mark.parametrize(("keep", "expected"), [("", collector.THRESHOLDS),
                                                 ("python", (700, 10, 10))])
def test_bench_reports_the_collector_of_its_process(keep, expected):
    env = {**os.environ, collector.ENVIRONMENT: keep, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "tavola", "bench", "--json", "--games", "1",
                          "--mcts", "1", "--bot", "mcts:iterations=5"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    engine = json.loads(out)["engine"]
    assert engine.endswith("garbage collector thresholds " + "/".join(map(str, expected)))


def test_what_lives_long_is_frozen_out_of_the_collectors_passes(restored, monkeypatch):
    monkeypatch.delenv(collector.ENVIRONMENT, raising=False)
    kept = [[n] for n in range(1000)]  # containers alive now
    try:
        collector.freeze_long_lived()
        assert gc.get_freeze_count() >= len(kept)
        assert gc.get_threshold() == collector.THRESHOLDS
    finally:
        gc.unfreeze()


def test_the_server_freezes_its_tables_and_tunes_the_collector(restored, tmp_path, monkeypatch):
    from tavola.web.app import create_app

    monkeypatch.delenv(collector.ENVIRONMENT, raising=False)
    gc.set_threshold(700, 10, 10)
    try:
        create_app(f"sqlite:///{tmp_path / 'g.db'}", games=["gonzaga"], bot_processes=False)
        assert gc.get_freeze_count() > 0 and gc.get_threshold() == collector.THRESHOLDS
    finally:
        gc.unfreeze()


def test_a_search_spaces_collections_only_while_it_runs(restored):
    gc.set_threshold(900, 10, 10)
    with collector.spaced():
        assert gc.get_threshold() == (collector.SEARCH_YOUNGEST, 10, 10)
    assert gc.get_threshold() == (900, 10, 10)
    with pytest.raises(RuntimeError), collector.spaced():
        raise RuntimeError("a decision that fails")
    assert gc.get_threshold() == (900, 10, 10)
