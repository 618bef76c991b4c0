"""The planning hints a view carries are worked out once a round and seat: what is kept is
always what a fresh computation gives, over random games, and a changed board is never served
from before the change."""

from __future__ import annotations

import random

import numpy as np

from tavola.games.gonzaga.actions import ACTION_CARDS
from tavola.games.gonzaga.engine import (
    apply_in_place,
    free_placements,
    legal_actions,
    new_game,
    placement_points,
    view,
)
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


def plain_hints(v, me, fief):
    """The hints worked out card pair by card pair, from the engine's points of each free
    placement the pair allows (the reading of the rule the server's one pass must match)."""
    rules = v.rules
    free = set(free_placements(v, me, fief).tolist())
    out = {}
    for card in rules.region_cards:
        out[card] = {}
        for action in ACTION_CARDS:
            rows = [r for r in rules.candidates(fief, card, action).tolist() if r in free]
            points = placement_points(v, me, fief, np.array(rows, dtype=np.int64)).tolist() \
                if rows else []
            out[card][action] = max(points) if points else None
    return out


def test_hints_taken_in_one_pass_are_each_card_pairs_best_placement():
    checked = nowhere = 0
    for seed in range(6):
        state = new_game(2 + seed % 3, seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase is Phase.PLANNING:
                for me in state.to_move():
                    v = view(state, me)
                    hints = wire._plan_hints(v, me, v.players[me].fief)
                    assert hints == plain_hints(v, me, v.players[me].fief)
                    nowhere += sum(p is None for by in hints.values() for p in by.values())
                    checked += 1
            legal = legal_actions(state, state.to_move()[0])
            apply_in_place(state, legal[rng.randrange(len(legal))])
    assert checked > 100
    assert nowhere > 0  # pairs with no placement were met too
