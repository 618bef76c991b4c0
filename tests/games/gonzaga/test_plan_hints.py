"""The planning hints a view carries are worked out once a round and seat: what is kept is
always what a fresh computation gives, over random games, and a changed board is never served
from before the change."""

from __future__ import annotations

import random

from tavola.games.gonzaga.engine import apply_in_place, legal_actions, new_game, view
from tavola.games.gonzaga.state import Phase
from tavola.games.gonzaga.web import wire


def test_kept_hints_are_the_hints_of_the_position_now():
    checked = 0
    for seed in range(8):
        state = new_game(3, seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move()[0]
            if state.phase is Phase.PLANNING:
                for me in state.to_move():
                    v = view(state, me)
                    fief = v.players[me].fief
                    first = wire.plan_hints(v, me, fief)
                    assert first == wire._plan_hints(v, me, fief)
                    assert wire.plan_hints(v, me, fief) is first  # kept, not recomputed
                    checked += 1
            legal = legal_actions(state, seat)
            apply_in_place(state, legal[rng.randrange(len(legal))])
    assert checked > 100
    assert len(wire._PLAN_HINTS) <= wire.PLAN_HINTS_KEPT
