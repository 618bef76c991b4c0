"""Setup by player count, and Phase 1 of every round."""

from __future__ import annotations

from collections import Counter

import pytest
from signorie_helpers import NAMES, T, game

from tavola.games.signorie import engine


@pytest.mark.parametrize("n", [2, 3, 4])
def test_supplies_by_player_count(n):
    s = game(n, seed=3)
    for position, seat in enumerate(s.order):
        assert s.florins[seat] == 5 + (1, 2, 2, 3)[position]
    assert all(a == [4, 3] for a in s.avail) and all(st == [8, 8] for st in s.stock)
    assert all(len(d) == {2: 2, 3: 3, 4: 4}[n] for d in s.dice)
    assert len(s.cities) == {2: 3, 3: 4, 4: 5}[n]
    removed = Counter(T.tile_house[x] for x in s.removed)
    assert all(removed[h] == {2: 2, 3: 1, 4: 0}[n] for h in range(6)) or (n == 4 and not removed)
    on_board = sum(1 for c in s.cities for x in s.city_tiles[c] if x >= 0)
    assert on_board == 2 * len(s.cities)
    assert len(s.deck) + len(s.removed) + on_board == 54


def test_reward_tiles_five_bonus_then_two_vp():
    s = game(4, seed=5)
    bonus, vp = s.rewards[:5], s.rewards[5:]
    assert len(set(bonus)) == 5 and all(0 <= b < 9 for b in bonus)
    assert len(set(vp)) == 2 and all(engine.VP_TILE <= v < engine.VP_TILE + 5 for v in vp)


def test_initiative_discs_stacked_first_player_on_top():
    s = game(4, seed=2)
    stamps = [s.init_stamp[seat] for seat in s.order]
    assert stamps == sorted(stamps, reverse=True)
    assert all(p == 0 for p in s.init_pos)


def test_setup_is_random_and_fixed_by_the_seed():
    orders = {tuple(game(4, seed).order) for seed in range(12)}
    cities = {tuple(game(2, seed).cities) for seed in range(12)}
    assert len(orders) > 1 and len(cities) > 1
    a, b = game(3, seed=9), game(3, seed=9)
    assert (a.order, a.cities, a.deck, a.dice, a.rewards) == (b.order, b.cities, b.deck, b.dice,
                                                               b.rewards)


def test_round_setup_refills_city_slots_and_shuffles_assignments():
    s = game(4, seed=4)
    city = s.cities[0]
    s.city_tiles[city] = [-1, -1]
    before = len(s.deck)
    s.round = 1
    s.phase, s.stack, s.queue = "rewards", [], []
    engine.settle(s)
    assert s.round == 2 and all(x >= 0 for x in s.city_tiles[city])
    assert len(s.deck) == before - 2
    assert sorted(s.assignment) == list(range(10))
    assert ("dice", 2, tuple(tuple(d) for d in s.dice)) in s.chance


def test_empty_alliance_stack_leaves_city_slots_empty():
    s = game(4, seed=4)
    city = s.cities[0]
    s.city_tiles[city] = [-1, -1]
    s.deck = []
    s.phase, s.stack, s.queue = "rewards", [], []
    engine.settle(s)
    assert s.city_tiles[city] == [-1, -1]


def test_player_counts_outside_two_to_four_are_refused():
    with pytest.raises(ValueError, match="2 to 4"):
        engine.new_game(NAMES[:1], 1)
    with pytest.raises(ValueError, match="options"):
        engine.new_game(NAMES[:2], 1, {"fast": True})
