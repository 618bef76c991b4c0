"""Sea leagues within reach when players race for the same harbors (`contested_leagues`,
`mcts:...:value=contested`)."""

from __future__ import annotations

import random

import pytest

from tavola.games.gonzaga import engine
from tavola.games.gonzaga.bots.evaluation import _harbor_counts, public_prospects
from tavola.games.gonzaga.bots.mcts import SEARCH
from tavola.games.gonzaga.game import GAME
from tavola.games.gonzaga.state import POINTS_SEA_LEAGUE
from tavola.search import make_mcts


def _sea_harbors(state, sea: int = 0) -> list[int]:
    board = state.board
    return [int(h) for h, s in zip(board.harbor_hexes, board.harbor_hex_seas, strict=True)
            if s == sea]


def _leagues(state) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(plain, contested) sea leagues within reach of every player."""
    return (public_prospects(state).leagues, public_prospects(state, contested=True).leagues)


def test_two_players_racing_for_the_last_free_harbor_share_it():
    state = engine.new_game(2, seed=1)  # round 1: twelve rounds left, the whole chance
    a, b, c, _ = _sea_harbors(state)
    state.fief_owner[[a, b]] = 0
    state.fief_owner[c] = 1
    state.ring_owner[a] = 1  # a hex with a fief and a ring belongs to both owners
    plain, contested = _leagues(state)
    assert plain == (0.5 * POINTS_SEA_LEAGUE, 0.5 * POINTS_SEA_LEAGUE)
    assert contested == (0.25 * POINTS_SEA_LEAGUE, 0.25 * POINTS_SEA_LEAGUE)


def test_a_lone_contender_keeps_the_whole_chance():
    state = engine.new_game(2, seed=1)
    a, b, _, _ = _sea_harbors(state)
    state.fief_owner[[a, b]] = 0
    plain, contested = _leagues(state)
    assert contested == plain == (0.5 * POINTS_SEA_LEAGUE, 0.0)


def test_one_harbor_needs_two_free_ones():
    state = engine.new_game(2, seed=1)
    a, b, c, _ = _sea_harbors(state)
    state.fief_owner[a] = 0
    state.fief_owner[[b, c]] = 1
    state.ring_owner[c] = 1  # the player's own ring on its own fief changes nothing
    plain, contested = _leagues(state)
    assert plain[0] == pytest.approx(0.12 * POINTS_SEA_LEAGUE)
    assert contested[0] == 0.0  # one harbor free: a league needs two more
    assert contested[1] == plain[1] == 0.5 * POINTS_SEA_LEAGUE


def test_a_scored_sea_is_nobodys_race():
    state = engine.new_game(2, seed=1)
    a, b, c, _ = _sea_harbors(state)
    state.fief_owner[[a, b]] = 0
    state.fief_owner[c] = 1
    state.ring_owner[a] = 1
    state.players[1].leagues = frozenset({state.board.sea_ids[0]})  # as if scored before
    _, contested = _leagues(state)
    assert contested == (0.5 * POINTS_SEA_LEAGUE, 0.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_contested_never_counts_more_and_agrees_without_a_race(players):
    for seed in range(6):
        state = engine.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move()[0]
            legal = engine.legal_actions(state, seat)
            engine.apply_in_place(state, legal[int(rng.random() * len(legal))])
            if state.is_over:
                break
            plain, contested = _leagues(state)
            assert all(c <= p for c, p in zip(contested, plain, strict=True))
            free, have = _harbor_counts(state)
            crowded = any(sum(h[sea] == 2 for h in have) > free[sea] > 0
                          or (any(h[sea] == 1 for h in have) and free[sea] == 1)
                          for sea in range(len(free)))
            if not crowded:
                assert contested == plain


def test_a_spec_asks_for_the_race_and_the_levels_do_not():
    view = GAME.view(engine.new_game(2, seed=1), 0)
    for spec in ("hard:value=contested", "medium:value=contested"):
        settings = make_mcts(GAME, 1, spec).settings
        assert all(SEARCH.hooks(view, 0, settings.at(n)).contested for n in (2, 3, 4))
    for spec in ("hard", "hard:value=learned"):
        settings = make_mcts(GAME, 1, spec).settings
        assert not any(SEARCH.hooks(view, 0, settings.at(n)).contested for n in (2, 3, 4))


def test_the_race_plays_a_seeded_decision():
    state = engine.new_game(2, seed=4)
    seat = state.to_move()[0]
    legal = GAME.legal_actions(state, seat)
    chosen = {make_mcts(GAME, 5, "iterations=60:value=contested").decide(
        GAME.view(state, seat), legal) for _ in range(2)}
    assert len(chosen) == 1 and chosen <= set(legal)
