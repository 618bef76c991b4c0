"""The learned value: its parts are the hand-made estimate's, its fit finds known worths, its
training is reproducible, its file is checked."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gonzaga_helpers import midgame as _midgame
from pydantic import ValidationError
from typer.testing import CliRunner

from tavola.cli import app
from tavola.games.gonzaga.bots.evaluation import (
    PARTS,
    estimate_parts,
    estimates_with,
    final_estimates,
    public_prospects,
)
from tavola.games.gonzaga.bots.value import (
    FORMAT,
    SCHEMA_PATH,
    ValueModel,
    fit,
    load_value,
    pair_differences,
    self_play,
    train,
    value_schema,
)
from tavola.games.gonzaga.game import GAME

runner = CliRunner()




class _Fixed:
    def __init__(self, coefficients: tuple[float, ...]) -> None:
        self.values = coefficients

    def coefficients(self, players: int, left: int) -> tuple[float, ...]:
        return self.values


@pytest.mark.parametrize("players", [2, 4])
def test_the_parts_add_up_to_the_hand_made_estimate(players):
    state = _midgame(players=players)
    _, parts = estimate_parts(state)
    assert parts.shape == (players, len(PARTS))
    assert np.allclose(parts.sum(axis=1), final_estimates(state))
    assert parts[:, 0].tolist() == [p.score for p in state.players]


def test_a_learned_value_weighs_each_part():
    state = _midgame()
    _, parts = estimate_parts(state)
    worth = (1.0, 0.5, 2.0, 0.0, 1.5)
    learned = estimates_with(state, public_prospects(state, value=_Fixed(worth)))
    assert np.allclose(learned, parts @ np.array(worth))
    plain = estimates_with(state, public_prospects(state, value=_Fixed((1.0,) * 5)))
    assert plain.tolist() == final_estimates(state).tolist()  # all 1: the hand-made one


def test_the_fit_finds_known_worths_and_keeps_a_point_a_point():
    rng = np.random.default_rng(0)
    worth = np.array([1.0, 0.8, 0.5, 1.6, 1.3])
    pairs = []
    for left in (1, 2, 3, 5, 9):
        for _ in range(200):
            x = rng.normal(0, 5, size=5)
            pairs.append((left, x, float(x @ worth + rng.normal(0, 0.5))))
    rows = fit(pairs)
    assert [r.from_rounds_left for r in rows] == [1, 2, 3, 5, 8]
    for row in rows:
        assert row.coefficients[0] == 1.0
        assert np.allclose(row.coefficients, worth, atol=0.05)
        assert row.correlation_after > row.correlation_before


def test_too_few_games_for_the_last_round_are_refused():
    with pytest.raises(ValueError, match="play more"):
        fit([(4, np.ones(5), 1.0)] * 20)


def test_self_play_snapshots_every_round_and_pairs_every_two_players():
    snapshots, final = self_play(GAME, 30000, 3)
    lefts = [left for left, _ in snapshots]
    assert lefts == sorted(lefts, reverse=True) and lefts[-1] >= 1
    assert len(final) == 3
    pairs = pair_differences(snapshots, final)
    assert len(pairs) == 3 * len(snapshots)
    left, x, y = pairs[0]
    assert left == snapshots[0][0]
    assert np.allclose(x, snapshots[0][1][0] - snapshots[0][1][1])
    assert y == final[0] - final[1]


def test_training_is_reproducible_from_its_seed():
    one = train(GAME, 20, 500, [2], "test")
    assert one == train(GAME, 20, 500, [2], "test")
    assert one != train(GAME, 20, 501, [2], "test")
    assert one.coefficients(2, 1) == one.by_players[2][0].coefficients
    assert one.coefficients(4, 1) == one.coefficients(2, 1)  # the nearest count trained


def _model(**changes):
    row = {"from_rounds_left": 1, "coefficients": [1, 1, 1, 1, 1], "pairs": 1,
           "correlation_before": 0.5, "correlation_after": 0.6}
    data = {"format": FORMAT, "version": 1, "command": "c", "seed": 0, "games": 1,
            "parts": list(PARTS), "by_players": {"2": [row, {**row, "from_rounds_left": 4}]}}
    data.update(changes)
    return data


def test_a_value_file_is_checked():
    model = ValueModel.model_validate(_model())
    assert model.coefficients(2, 3) == (1, 1, 1, 1, 1)
    row = _model()["by_players"]["2"][0]
    bad = [
        {"by_players": {"2": [{**row, "from_rounds_left": 2}]}},  # the last round missing
        {"by_players": {"2": [{**row, "coefficients": [1, 1, 1, 1, float("inf")]}]}},
        {"by_players": {"2": [{**row, "coefficients": [1, 1, 1, 1]}]}},
        {"by_players": {"5": [row]}},
        {"parts": ["score"]},
        {"format": "other/1"},
        {"surprise": 1},
    ]
    for changes in bad:
        with pytest.raises(ValidationError):
            ValueModel.model_validate(_model(**changes))


def test_the_exported_schema_is_the_models():
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == value_schema(), (
        "regenerate it: python -c 'from tavola.games.gonzaga.bots.value import write_schema; "
        "write_schema()'")


def test_the_command_writes_a_value_and_raises_its_version(tmp_path):
    out = tmp_path / "value.json"
    args = ["train-value", "--games", "20", "--players", "2", "--seed", "7", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert load_value(out).version == 1 and "2 players, from 1 rounds left" in first.output
    assert runner.invoke(app, args).exit_code == 0
    again = load_value(out)
    assert again.version == 2 and again.command.startswith("tavola train-value --games 20")
    refused = runner.invoke(app, [*args[:3], "--players", "2,9", "--out", str(out)])
    assert refused.exit_code != 0 and "between 2 and 4" in refused.output
    assert load_value(out).version == 2  # a refused command changes nothing


def test_the_shipped_value_is_valid_and_made_by_its_command():
    model = load_value()
    assert model.command.startswith("tavola train-value ")
    assert sorted(model.by_players) == [2, 4]


def test_a_spec_asks_for_the_learned_value_and_an_unknown_one_is_refused():
    from tavola.games.gonzaga.bots.mcts import SEARCH
    from tavola.games.signorie.game import GAME as SIGNORIE
    from tavola.search import make_mcts

    bot = make_mcts(GAME, 1, "hard:value=learned")
    state = _midgame()
    view = GAME.view(state, 0)
    assert SEARCH.hooks(view, 0, bot.settings).value is SEARCH.learned()
    assert SEARCH.hooks(view, 0, make_mcts(GAME, 1, "hard").settings).value is None
    with pytest.raises(ValueError, match="lends learned"):
        make_mcts(GAME, 1, "hard:value=oracle")
    with pytest.raises(ValueError, match="no other evaluation"):
        make_mcts(SIGNORIE, 1, "hard:value=learned")
    with pytest.raises(ValueError, match="value=NAME"):
        make_mcts(GAME, 1, "hard:value=no-such-thing")


def test_the_learned_value_plays_a_seeded_decision():
    from tavola.search import make_mcts

    state = _midgame(actions=10)
    legal = GAME.legal_actions(state, state.to_move()[0])
    seat = state.to_move()[0]
    chosen = {make_mcts(GAME, 5, "iterations=60:value=learned").decide(GAME.view(state, seat),
                                                                        legal)
              for _ in range(2)}
    assert len(chosen) == 1 and chosen <= set(legal)


def test_training_games_seat_the_given_bots_in_turn(monkeypatch):
    import tavola.bots

    made: dict[int, str] = {}
    real = tavola.bots.make_bot

    def recording(game, spec, seed=None):
        made[seed % 8] = spec
        return real(game, spec, seed)

    monkeypatch.setattr(tavola.bots, "make_bot", recording)
    for seed in (40, 41):
        made.clear()
        self_play(GAME, seed, 3, ("greedy", "planner"))
        first = seed % 3  # the first bot's seat rotates with the seed, the others follow it
        assert made == {first: "greedy", (first + 1) % 3: "planner", (first + 2) % 3: "greedy"}


def test_the_command_names_its_bots_and_refuses_unknown_ones(tmp_path):
    out = tmp_path / "value.json"
    args = ["train-value", "--games", "20", "--players", "2", "--seed", "9", "--out", str(out)]
    refused = runner.invoke(app, [*args, "--bots", "greedy,no-such-bot"])
    assert refused.exit_code != 0 and "no-such-bot" in refused.output
    assert not out.exists()  # a refused command writes nothing
    done = runner.invoke(app, [*args, "--bots", "greedy,random"])
    assert done.exit_code == 0, done.output
    model = load_value(out)
    assert model.bots == ("greedy", "random") and "--bots greedy,random" in model.command
    planners = train(GAME, 20, 9, [2], model.command)
    assert model.by_players != planners.by_players  # fitted to the games of the bots named
