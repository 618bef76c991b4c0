"""Signorie's valuation remembers, per position and seat, what valuing one decision works
out and the next asks again (the best use of advancement points, a die's choices...): the
values it gives are those of the plain computation, over random positions."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavola.games.signorie.bots.values import GREEDY, PLANNER, Ctx, action_value
from tavola.games.signorie.game import GAME


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
