"""The weights tuner (`tavola.tune`, `tavola tune`) and the tuned weights the search loads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from tavola.games.gonzaga.bots.evaluation import DEFAULT_WEIGHTS
from tavola.games.gonzaga.bots.mcts import SEARCH, WEIGHTS_PATH, search_weights
from tavola.games.gonzaga.bots.tuning import tuning
from tavola.games.gonzaga.game import GAME, make_bot
from tavola.tune import (
    SCHEMA_PATH,
    TunedWeights,
    cross_entropy,
    load_tuned,
    run_tune,
    tuned_schema,
    values_of,
)

TARGET = np.array([0.8, -0.5, 0.3])


def test_cross_entropy_moves_to_the_optimum_of_a_toy_objective() -> None:
    """A noisy quadratic with its peak away from the start: the centre must end near it."""
    noise = np.random.default_rng(99)

    def fitness(population: np.ndarray, generation: int) -> np.ndarray:
        exact = -((population - TARGET) ** 2).sum(axis=1)
        return exact + 0.02 * noise.standard_normal(len(population))

    centre, history = cross_entropy(fitness, 3, rng=np.random.default_rng(1), generations=20,
                                    population=12)
    assert np.linalg.norm(centre - TARGET) < 0.15 < np.linalg.norm(TARGET)
    assert history[-1].best > history[0].best


def test_cross_entropy_keeps_the_centre_when_nothing_beats_it() -> None:
    """At the optimum already, the best quarter stays around it."""
    def fitness(population: np.ndarray, generation: int) -> np.ndarray:
        return -(population ** 2).sum(axis=1)

    centre, _ = cross_entropy(fitness, 2, rng=np.random.default_rng(3), generations=8,
                              population=10)
    assert np.linalg.norm(centre) < 0.1


def _tiny(seed: int) -> dict[str, float]:
    return run_tune(GAME, tuning("planner"), seed=seed, generations=1, population=3,
                    games=2).weights


def test_a_tuning_run_is_reproducible_from_its_seed() -> None:
    first = _tiny(5)
    assert _tiny(5) == first
    assert _tiny(6) != first  # the seed does matter
    assert set(first) == {"ring", "group_step", "league_two", "league_one"}


def test_weights_are_log_ratios_of_their_starting_values() -> None:
    tune = tuning("planner")
    values = values_of(tune, [0.0, np.log(2.0), 0.0, np.log(0.5)])
    assert values["ring"] == DEFAULT_WEIGHTS.ring
    assert values["group_step"] == pytest.approx(2 * DEFAULT_WEIGHTS.group_step)
    assert values["league_one"] == pytest.approx(DEFAULT_WEIGHTS.league_one / 2, abs=1e-4)


def test_the_tuner_refuses_a_player_it_cannot_tune_with() -> None:
    with pytest.raises(ValueError, match="greedy"):
        tuning("greedy")
    with pytest.raises(ValueError, match="mcts option"):
        tuning("mcts:bogus=1")


def _file(**changes: object) -> dict[str, object]:
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    data.update(changes)
    return data


def test_a_weights_file_refuses_bad_values(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="positive"):
        TunedWeights.model_validate(_file(weights={"ring": -1.0}))
    with pytest.raises(ValidationError):
        TunedWeights.model_validate(_file(surprise=1))
    path = tmp_path / "w.json"
    path.write_text(json.dumps(_file(weights={"rings_galore": 1.0})), encoding="utf-8")
    with pytest.raises(ValueError, match="rings_galore"):
        search_weights(path)
    path.write_text(json.dumps(_file(game="signorie")), encoding="utf-8")
    with pytest.raises(ValueError, match="signorie"):
        load_tuned(path, "gonzaga", ["ring"])


def test_the_search_plays_the_shipped_weights_and_the_planner_the_hand_set_ones() -> None:
    shipped = TunedWeights.model_validate_json(WEIGHTS_PATH.read_text(encoding="utf-8"))
    for name, value in shipped.weights.items():
        assert getattr(SEARCH.weights, name) == value
    assert make_bot("planner", seed=1).weights == DEFAULT_WEIGHTS
    assert shipped.command.startswith("tavola tune")


def test_the_exported_json_schema_is_current() -> None:
    """Regenerate with `python -c "from tavola.tune import write_tuned_schema as w; w()"`."""
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == tuned_schema()
