"""What the search says of each option (`MCTSBot.analyse`), the ground of hints and reviews:
the options it ranks are legal, its first is the move it would make, its leads are points."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tavola import registry as games
from tavola.search import MCTSBot, MoveValue, Settings
from tavola.testing import game_names

GAMES = game_names()


def _position(name: str, seed: int, moves: int) -> tuple[Any, Any, int]:
    """A 2-seat game after `moves` random actions, at a seat with a real choice."""
    game = games.get(name)
    state = game.new_game(["Ann", "Bea"], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.to_move()[0]
        legal = game.legal_actions(state, seat)
        game.apply_in_place(state, legal[rng.randrange(len(legal))])
    while True:
        seat = state.to_move()[0]
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            return game, state, seat
        game.apply_in_place(state, legal[0])


def _analyse(game: Any, state: Any, seat: int, seed: int, n: int = 60) -> list[MoveValue]:
    bot = MCTSBot(game, seed, Settings(iterations=n))
    return bot.analyse(game.view(state, seat), game.legal_actions(state, seat))


@pytest.mark.parametrize("name", GAMES)
def test_the_options_are_legal_ranked_and_counted(name: str) -> None:
    game, state, seat = _position(name, seed=4, moves=7)
    legal = game.legal_actions(state, seat)
    ranked = _analyse(game, state, seat, seed=1)
    assert ranked and all(move.action in legal for move in ranked)
    visits = [move.visits for move in ranked]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == 60  # every iteration tried one of the seat's options at the root
    for move in ranked:
        assert 0.0 <= move.reward <= 1.0
        assert abs(move.lead) < 500  # points of a whole game, not a reward in [0, 1]
    assert any(abs(move.lead) > 1 for move in ranked)  # in points: not squeezed into [0, 1]


@pytest.mark.parametrize("name", GAMES)
def test_the_first_option_is_the_move_the_bot_makes(name: str) -> None:
    game, state, seat = _position(name, seed=9, moves=3)
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    for seed in range(3):
        analysed = MCTSBot(game, seed, Settings(iterations=40)).analyse(view, legal)
        decided = MCTSBot(game, seed, Settings(iterations=40)).decide(view, legal)
        assert analysed[0].action == decided
        again = MCTSBot(game, seed, Settings(iterations=40)).analyse(view, legal)
        assert again == analysed  # seed for seed, the same analysis


def test_a_spectator_or_no_option_gets_a_clear_error() -> None:
    game, state, seat = _position("gonzaga", seed=2, moves=0)
    bot = MCTSBot(game, 0, Settings(iterations=5))
    with pytest.raises(ValueError, match="no legal action"):
        bot.analyse(game.view(state, seat), [])
    with pytest.raises(ValueError, match="spectator"):
        bot.analyse(game.view(state, None), game.legal_actions(state, seat))


@pytest.mark.parametrize("name", GAMES)
def test_the_collector_runs_less_often_during_a_search_and_as_before_after_it(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search makes and drops many positions: its youngest generation is collected less
    often while it runs, and the thresholds are as they were after it, even after an error."""
    import gc

    from tavola.collector import SEARCH_YOUNGEST

    game, state, seat = _position(name, seed=3, moves=5)
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    before = gc.get_threshold()
    seen: list[tuple[int, ...]] = []
    real = game.resample

    def resample(view: Any, rng: random.Random) -> Any:
        seen.append(gc.get_threshold())
        if len(seen) == 30:
            raise RuntimeError("a search that fails")
        return real(view, rng)

    monkeypatch.setattr(game, "resample", resample)
    MCTSBot(game, 0, Settings(iterations=20)).decide(view, legal)
    assert seen and all(t[0] == max(before[0], SEARCH_YOUNGEST) and t[1:] == before[1:]
                        for t in seen)
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError, match="fails"):
        MCTSBot(game, 0, Settings(iterations=20)).decide(view, legal)
    assert gc.get_threshold() == before
