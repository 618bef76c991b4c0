"""The value over the map: each player's hexes add their worth, its fit finds known worths,
its training is reproducible, its file is checked and fits only its board and 2 players."""

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
from tavola.games.gonzaga.bots.map_value import (
    FORMAT,
    SCHEMA_PATH,
    MapValue,
    MapValueModel,
    fit_rows,
    load_map_value,
    map_snapshot,
    map_value_schema,
    pair_rows,
    train_map,
)
from tavola.games.gonzaga.game import GAME

runner = CliRunner()




def _row(hexes: int, **changes):
    row = {"from_rounds_left": 1, "coefficients": [1, 1, 1, 1, 1], "fief": [0.0] * hexes,
           "ring": [0.0] * hexes, "ridge": 100, "pairs": 1, "correlation_before": 0.5,
           "correlation_after": 0.6}
    row.update(changes)
    return row


def _model(state, rows=None, **changes):
    hexes = len(state.board.coords)
    data = {"format": FORMAT, "version": 1, "command": "c", "seed": 0, "games": 1,
            "board": state.board.content_hash, "hexes": hexes, "players": 2,
            "parts": list(PARTS), "rows": rows or [_row(hexes)]}
    data.update(changes)
    return data


def test_each_players_hexes_add_their_worth_to_the_estimate():
    state = _midgame()
    hexes = len(state.board.coords)
    rng = np.random.default_rng(1)
    fief, ring = rng.normal(0, 1, hexes), rng.normal(0, 1, hexes)
    worth = [1.0, 0.5, 2.0, 0.0, 1.5]
    model = MapValueModel.model_validate(_model(state, [_row(
        hexes, coefficients=worth, fief=fief.round(4).tolist(), ring=ring.round(4).tolist())]))
    value = MapValue.of(model)
    term = value.map_term(state)
    assert term is not None
    for i in range(2):
        covered = [h for h in range(hexes) if state.fief_owner[h] == i]
        ringed = [h for h in range(hexes) if state.ring_owner[h] == i]
        assert covered  # the position has pieces to count
        assert term[i] == pytest.approx(fief.round(4)[covered].sum() + ring.round(4)[ringed].sum())
    _, parts = estimate_parts(state)
    estimate = estimates_with(state, public_prospects(state, value=value))
    assert np.allclose(estimate, parts @ np.array(worth) + term)


def test_another_board_or_number_of_players_keeps_the_hand_made_estimate():
    three = _midgame(players=3)
    model = MapValueModel.model_validate(_model(three))
    value = MapValue.of(model)
    assert value.map_term(three) is None
    assert value.coefficients(3, 2) == (1.0,) * 5
    assert estimates_with(three, public_prospects(three, value=value)).tolist() == \
        final_estimates(three).tolist()
    two = _midgame()
    elsewhere = MapValue.of(MapValueModel.model_validate(_model(two, board="another")))
    assert elsewhere.map_term(two) is None


def test_pairs_read_the_first_players_pieces_against_the_seconds():
    state = _midgame()
    left, parts, fiefs, rings = map_snapshot(state)
    (row,) = pair_rows([(left, parts, fiefs, rings)], np.array([90.0, 84.0]))
    got_left, part_diff, hexes, y = row
    n = len(fiefs)
    assert got_left == left and y == 6.0
    assert np.allclose(part_diff, parts[0] - parts[1])
    assert hexes[:n].tolist() == [1 if f == 0 else -1 if f == 1 else 0 for f in fiefs]
    assert hexes[n:].tolist() == [1 if r == 0 else -1 if r == 1 else 0 for r in rings]


def test_the_fit_finds_known_worths_and_gains_on_held_out_games():
    rng = np.random.default_rng(0)
    hexes = 6
    parts_worth = np.array([1.0, 0.8, 0.5, 1.6, 1.3])
    fief_worth = np.array([3.0, -2.0, 0.0, 1.0, 0.0, 0.0])
    games = []
    for _ in range(1500):  # enough that the ridge barely shrinks the worths
        rows = []
        for left in (1, 2, 3, 5, 9):
            parts = rng.normal(0, 5, size=5)
            cover = rng.integers(-1, 2, size=2 * hexes).astype(np.int8)
            cover[hexes + 2:] = 0  # rings on the first two hexes only, worth nothing
            y = parts @ parts_worth + cover[:hexes] @ fief_worth + rng.normal(0, 0.5)
            rows.append((left, parts, cover, float(y)))
        games.append(rows)
    fitted = fit_rows(games, hexes)
    assert [r.from_rounds_left for r in fitted] == [1, 2, 3, 5, 8]
    for row in fitted:
        assert row.coefficients[0] == 1.0
        assert np.allclose(row.coefficients, parts_worth, atol=0.1)
        assert np.allclose(row.fief, fief_worth, atol=0.35)
        assert row.ring[2:] == (0.0,) * (hexes - 2)  # never covered: no worth
        assert row.correlation_after > row.correlation_before


def test_too_few_games_for_the_last_round_are_refused():
    rows = [(4, np.ones(5), np.zeros(4, dtype=np.int8), 1.0)] * 30
    with pytest.raises(ValueError, match="play more"):
        fit_rows([rows], 2)


def test_training_is_reproducible_from_its_seed():
    one = train_map(GAME, 20, 500, "test")
    assert one == train_map(GAME, 20, 500, "test")
    assert one.rows != train_map(GAME, 20, 501, "test").rows
    assert one.hexes == len(_midgame(actions=0).board.coords)


def test_a_map_value_file_is_checked():
    state = _midgame()
    hexes = len(state.board.coords)
    assert MapValueModel.model_validate(_model(state)).row(5).from_rounds_left == 1
    bad = [
        {"rows": [_row(hexes, from_rounds_left=2)]},  # the last round missing
        {"rows": [_row(hexes), _row(hexes)]},  # rows must climb
        {"rows": [_row(hexes, fief=[0.0] * (hexes - 1))]},
        {"rows": [_row(hexes, ring=[float("nan")] * hexes)]},
        {"rows": [_row(hexes, coefficients=[1, 1, 1, 1, 50])]},
        {"players": 3},
        {"parts": ["score"]},
        {"format": "tavola-gonzaga-value/1"},
        {"surprise": 1},
    ]
    for changes in bad:
        with pytest.raises(ValidationError):
            MapValueModel.model_validate(_model(state, **changes))


def test_the_exported_schema_is_the_models():
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == map_value_schema(), (
        "regenerate it: python -c 'from tavola.games.gonzaga.bots.map_value import "
        "write_schema; write_schema()'")


def test_the_command_writes_a_map_value_and_raises_its_version(tmp_path):
    out = tmp_path / "map.json"
    args = ["train-value", "--map", "--games", "20", "--seed", "7", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert load_map_value(out).version == 1 and "from 1 rounds left" in first.output
    assert runner.invoke(app, args).exit_code == 0
    again = load_map_value(out)
    assert again.version == 2 and again.command.startswith("tavola train-value --map --games 20")
    refused = runner.invoke(app, [*args, "--players", "4"])
    assert refused.exit_code != 0 and "for 2 players" in refused.output
    assert load_map_value(out).version == 2  # a refused command changes nothing


def test_the_shipped_map_value_fits_the_board_and_names_its_command():
    model = load_map_value()
    assert model.command.startswith("tavola train-value --map ")
    state = _midgame()
    assert MapValue.of(model).fits(state)
    assert model.hexes == len(state.board.coords)


def test_a_spec_asks_for_the_map_value_and_plays_a_seeded_decision():
    from tavola.games.gonzaga.bots.mcts import SEARCH
    from tavola.search import make_mcts

    state = _midgame(actions=10)
    seat = state.to_move()[0]
    view = GAME.view(state, seat)
    bot = make_mcts(GAME, 1, "hard:value=map")
    assert SEARCH.hooks(view, seat, bot.settings).value is SEARCH.map_value()
    legal = GAME.legal_actions(state, seat)
    chosen = {make_mcts(GAME, 5, "iterations=60:value=map").decide(view, legal)
              for _ in range(2)}
    assert len(chosen) == 1 and chosen <= set(legal)


def test_the_hard_level_values_with_the_map_only_with_2_players():
    from tavola.games.gonzaga.bots.mcts import SEARCH
    from tavola.search import make_mcts

    hard = make_mcts(GAME, 1, "hard").settings
    plain = make_mcts(GAME, 1, "hard:value=estimate").settings
    for players in (2, 3):
        state = _midgame(players=players, actions=4)
        seat = state.to_move()[0]
        view = GAME.view(state, seat)
        value = SEARCH.hooks(view, seat, hard.at(players)).value
        assert value is (SEARCH.map_value() if players == 2 else None)
        assert SEARCH.hooks(view, seat, plain.at(players)).value is None
