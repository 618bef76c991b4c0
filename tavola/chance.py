"""Chance drawn the way Python's `random` draws it, with less overhead per item.

Searches deal thousands of hidden decks a decision, and `random.Random.shuffle` spends most
of its time in a method call per item; a seeded game or search must still draw the same
numbers in the same order, so the permutation here is `shuffle`'s own."""

from __future__ import annotations

import random
from typing import Any


def shuffle(items: list[Any], rng: random.Random) -> None:
    """`rng.shuffle(items)`: the same permutation and the same draws from `rng`."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
