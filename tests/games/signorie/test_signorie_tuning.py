"""Signorie's part of the tuner (`tavola/games/signorie/bots/tuning.py`) and the weights its search
loads (`weights.json`)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from tavola.bots import make_bot
from tavola.games.signorie.bots.greedy import GreedyBot
from tavola.games.signorie.bots.planner import PlannerBot
from tavola.games.signorie.bots.search import SEARCH, WEIGHTS_PATH, SignorieSearch, search_weights
from tavola.games.signorie.bots.tuning import tuning
from tavola.games.signorie.bots.values import GREEDY, PLANNER, Weights
from tavola.games.signorie.game import GAME
from tavola.search import MCTSBot
from tavola.tune import TunedWeights, run_tune, values_of

NAMES = {f.name for f in fields(Weights)}


def _tiny(seed: int) -> dict[str, float]:
    return run_tune(GAME, tuning("planner"), seed=seed, generations=1, population=3,
                    games=2).weights


def test_a_signorie_tuning_run_is_reproducible_from_its_seed_and_tunes_every_weight() -> None:
    first = _tiny(11)
    assert _tiny(11) == first
    assert _tiny(12) != first
    assert set(first) == NAMES


def test_the_tuning_starts_from_the_planners_weights_and_plays_them_as_given() -> None:
    tune = tuning("planner")
    start = values_of(tune, [0.0] * len(tune.names))
    assert start == {n: round(getattr(PLANNER, n), 4) for n in tune.names}
    doubled = values_of(tune, [0.6931] * len(tune.names))
    bot = tune.player(doubled, seed=3)
    assert isinstance(bot, PlannerBot)
    assert bot.weights.reach == pytest.approx(2 * PLANNER.reach, rel=1e-3)
    assert tune.opponent == "planner"


def test_a_search_candidate_searches_with_its_own_weights() -> None:
    tune = tuning("mcts:iterations=5")
    bot = tune.player({"reach": 1.7}, seed=1)
    assert isinstance(bot, MCTSBot)
    assert isinstance(bot.search, SignorieSearch)
    assert bot.search.weights.reach == 1.7
    assert bot.settings.iterations == 5
    view = GAME.view(GAME.new_game(["A", "B"], 4), 0)
    assert bot.search.hooks(view, 0, bot.settings).weights.reach == 1.7


def test_the_signorie_tuner_refuses_a_player_it_cannot_tune_with() -> None:
    with pytest.raises(ValueError, match="greedy"):
        tuning("greedy")
    with pytest.raises(ValueError, match="mcts option"):
        tuning("mcts:bogus=1")


def test_a_candidates_weights_do_not_leak_into_the_levels() -> None:
    PlannerBot(1, weights=Weights(reach=9.0))
    assert PlannerBot(2).weights == PLANNER
    assert GreedyBot(2).weights == GREEDY
    assert make_bot(GAME, "planner", seed=1).weights == PLANNER


def test_the_search_plays_the_shipped_weights_and_the_planner_the_hand_set_ones() -> None:
    shipped = TunedWeights.model_validate_json(WEIGHTS_PATH.read_text(encoding="utf-8"))
    assert shipped.game == "signorie"
    assert shipped.command.startswith("tavola tune --game signorie")
    assert set(shipped.weights) <= NAMES
    for name, value in shipped.weights.items():
        assert getattr(SEARCH.weights, name) == value
    assert SEARCH.weights != PLANNER  # the file changes something


def test_a_signorie_weights_file_refuses_what_it_does_not_know(tmp_path: Path) -> None:
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    path = tmp_path / "w.json"
    path.write_text(json.dumps({**data, "weights": {"rings_galore": 1.0}}), encoding="utf-8")
    with pytest.raises(ValueError, match="rings_galore"):
        search_weights(path)
    path.write_text(json.dumps({**data, "game": "gonzaga"}), encoding="utf-8")
    with pytest.raises(ValueError, match="gonzaga"):
        search_weights(path)
    path.write_text(json.dumps({**data, "weights": {"reach": 0.0}}), encoding="utf-8")
    with pytest.raises(ValueError, match="positive"):
        search_weights(path)
