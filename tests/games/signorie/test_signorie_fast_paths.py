"""Signorie's valuation remembers, per position and seat, what valuing one decision works
out and the next asks again (the best use of advancement points, a die's choices...): the
values it gives are those of the plain computation, over random positions."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavola.games.signorie.bots.search import SEARCH, SignorieSearch
from tavola.games.signorie.bots.values import (
    GREEDY,
    PLANNER,
    Contexts,
    Ctx,
    action_value,
    final_estimates,
    ranked,
)
from tavola.games.signorie.game import GAME
from tavola.games.signorie.state import Position, SignorieState
from tavola.search import MCTSBot, Settings


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_remembered_values_are_the_plain_values(players, seed):
    rng = random.Random(seed)
    state = GAME.new_game([f"P{i}" for i in range(players)], seed)
    while not state.is_over:
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        for weights in (GREEDY, PLANNER):
            plain = [action_value(Ctx(state, seat, weights, memo=False), a) for a in legal]
            remembered = Ctx(state, seat, weights)
            twice = legal + rng.sample(legal, len(legal))  # asked again, in another order
            values = [action_value(remembered, a) for a in twice]
            assert values == plain + [plain[legal.index(a)] for a in twice[len(legal):]]
        GAME.apply_in_place(state, legal[rng.randrange(len(legal))])


def _same_values_as_alone(position, contexts, weights):
    """The values and estimates through the shared contexts are those of a context of
    `position` alone (and of the plain computation)."""
    if position.is_over:
        return
    seat = position.to_move()[0]
    legal = list(position.legal)
    plain = [action_value(Ctx(position, seat, weights, memo=False), a) for a in legal]
    values = ranked(position, seat, legal, weights, contexts)
    assert values == ranked(position, seat, legal, weights)
    assert [v for _, v in values] == sorted(plain, key=lambda v: -v)
    assert final_estimates(position, weights, contexts) == final_estimates(position, weights)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_contexts_shared_between_positions_give_the_plain_values(players, seed):
    """A search's contexts are shared by every position with the same seat facts: over a
    whole game, the deals resampled from its views and every position one choice away (the
    siblings a search meets), each value and estimate is the one a context of that position
    alone gives."""
    rng = random.Random(seed)
    state = GAME.new_game([f"P{i}" for i in range(players)], seed)
    shared = {w: Contexts(w) for w in (GREEDY, PLANNER)}
    while not state.is_over:
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        dealt = GAME.resample(GAME.view(state, seat), rng)
        for weights, contexts in shared.items():
            for position in (state, dealt, *(GAME.apply(dealt, a) for a in legal)):
                _same_values_as_alone(position, contexts, weights)
        GAME.apply_in_place(state, legal[rng.randrange(len(legal))])


def test_a_copy_has_every_public_field_and_shares_no_list():
    """Copies (clones, views, resampled deals) name each field of `Position` one by one: one
    left out would be missing, one not copied would change with the original."""
    state = GAME.new_game(["A", "B", "C"], 3)
    for _ in range(40):
        GAME.apply_in_place(state, GAME.legal_actions(state, state.to_move()[0])[0])
    copies = (state.clone(), GAME.view(state, 1), GAME.resample(GAME.view(state, 1),
                                                                random.Random(1)))
    for copy in copies:
        for name in Position.__annotations__:
            mine, theirs = getattr(state, name), getattr(copy, name)
            assert mine == theirs, name
            if isinstance(mine, list):
                assert mine is not theirs, name
                assert all(a is not b for a, b in zip(mine, theirs, strict=True)
                           if isinstance(a, list)), name


def test_a_search_keeps_no_deal_in_its_contexts():
    """Each iteration's deal is a whole state: the shared contexts let go of it once the
    iteration's estimates are made, so a decision does not hold hundreds of them."""
    made = []

    class Kept(SignorieSearch):
        def hooks(self, view, seat, settings):  # type: ignore[no-untyped-def]
            made.append(super().hooks(view, seat, settings))
            return made[-1]

    state = GAME.new_game(["A", "B", "C"], 5)
    for _ in range(30):
        GAME.apply_in_place(state, GAME.legal_actions(state, state.to_move()[0])[0])
    seat = state.to_move()[0]
    bot = MCTSBot(GAME, 1, Settings(iterations=40), search=Kept(SEARCH.weights))
    bot.decide(GAME.view(state, seat), GAME.legal_actions(state, seat))
    contexts = made[0].contexts.known.values()
    assert len(contexts) > 3
    assert not any(isinstance(c.p, SignorieState) for c in contexts)
