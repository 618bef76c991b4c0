"""Gonzaga through the platform's interface only: `tavola.games.gonzaga.game.GAME`."""

from __future__ import annotations

import json
import random

import pytest

from tavola import registry as games
from tavola.game import IllegalAction, LogEntry, Position
from tavola.games.gonzaga import text


@pytest.fixture(scope="module")
def game():
    return games.get("gonzaga")


def test_the_declaration(game):
    info = game.info
    assert (info.name, info.title, info.record_format) == ("gonzaga", "Gonzaga", "gonzaga-record")
    assert (info.min_players, info.max_players) == (2, 4)
    assert info.simultaneous and info.hidden_information and not info.chance
    assert set(info.options) == {"scenario", "variants", "board"}
    with pytest.raises(ValueError, match="2 to 4"):
        game.new_game(["a"], seed=1)
    with pytest.raises(ValueError, match="unknown options"):
        game.new_game(["a", "b"], seed=1, options={"dice": True})


@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_through_the_interface(game, seed):
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy"]
    state = game.new_game(names, seed=seed, options={"variants": ["one-league-per-sea"]})
    assert isinstance(state, Position) and list(state.names) == names
    moves = 0
    while not state.is_over:
        seat = state.to_move()[0]
        seen = game.view(state, seat)
        assert isinstance(seen, Position)
        legal = game.legal_actions(seen, seat)
        action = legal[rng.randrange(len(legal))]
        data = json.loads(json.dumps(game.action_to_json(action)))
        assert game.action_from_json(data) == action
        assert game.describe_action(seen, action)
        before = game.clone(state)
        after = game.apply(state, action)
        assert game.scores(state) == game.scores(before)  # apply changed nothing
        game.apply_in_place(state, action)
        assert game.scores(state) == game.scores(after)
        guess = game.resample(game.view(state, seat), rng)
        assert game.scores(guess) == game.scores(state)
        moves += 1
    assert game.chance_events(state) == ()
    winners = game.winners(state)
    best = max(game.scores(state))
    assert winners and all(game.scores(state)[w] == best for w in winners)
    log = game.log(state)
    assert all(isinstance(e, LogEntry) for e in log) and log[-1].kind == "end"
    assert sum(e.kind == "turn" for e in log) == moves - sum(
        len(e.data["plans"]) for e in log if e.kind == "reveal")
    lines = [game.describe_log(state, e) for e in log]
    assert lines[0].startswith("Round 1") and lines[-1].startswith("Final scoring")


def test_an_illegal_action_is_the_platforms(game):
    state = game.new_game(["Ann", "Bob"], seed=3)
    action = game.action_from_json({"type": "donate", "player": 0})
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, action)
    assert caught.value.rule == "phase"
    # the rules name the sentence (`key`); the platform gets it worded by the text layer
    assert caught.value.message == text.say("illegal.planning-phase") != caught.value.key
    with pytest.raises(ValueError):
        game.describe_log(state, LogEntry("turn", 0, {"index": 99}))
