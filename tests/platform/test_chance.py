"""`chance.shuffle` deals as `random.Random.shuffle` does: seeded games and searches keep
their deals and every later draw."""

from __future__ import annotations

import random

import pytest

from tavola.chance import shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 8, 9, 16, 33, 130])
def test_shuffle_is_randoms_shuffle_with_the_same_draws(length):
    for seed in range(300):
        ours, theirs = list(range(length)), list(range(length))
        mine, python = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        python.shuffle(theirs)
        assert ours == theirs
        assert mine.getstate() == python.getstate()

