"""What a game supplies to the learning environments: its `Encoding`, and the `Layout` that
names every slot of its observation array (the same table documents the spaces)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np


@dataclass(frozen=True)
class Slot:
    """A named part of the observation: `repeat` rows of `size` values, each in [0, high]."""

    name: str
    start: int
    repeat: int
    size: int
    high: float
    meaning: str

    @property
    def length(self) -> int:
        return self.repeat * self.size


class Layout:
    """The observation's slots in order; `part` gives the numpy view of one slot to fill."""

    def __init__(self) -> None:
        self.slots: dict[str, Slot] = {}
        self.size = 0

    def add(self, name: str, size: int, meaning: str, *, repeat: int = 1,
            high: float = 1.0) -> None:
        if name in self.slots:
            raise ValueError(f"observation slot {name!r} named twice")
        self.slots[name] = Slot(name, self.size, repeat, size, high, meaning)
        self.size += repeat * size

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def part(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The slot as a writable view, shaped (repeat, size), or (size,) when not repeated."""
        slot = self.slots[name]
        block = obs[slot.start:slot.start + slot.length]
        return block.reshape(slot.repeat, slot.size) if slot.repeat > 1 else block

    @cached_property
    def high(self) -> np.ndarray:
        out = self.zeros()
        for slot in self.slots.values():
            out[slot.start:slot.start + slot.length] = slot.high
        return out

    def clip(self, obs: np.ndarray) -> np.ndarray:
        """Values past a slot's bound are held at it, so an observation is always in its space."""
        return np.clip(obs, 0.0, self.high, out=obs)

    def describe(self) -> list[tuple[str, str, str, str]]:
        """(slot, offset, shape, meaning) rows, for the documentation."""
        rows = []
        for s in self.slots.values():
            shape = f"{s.repeat} x {s.size}" if s.repeat > 1 else str(s.size)
            rows.append((s.name, str(s.start), shape, s.meaning))
        return rows


def one_hot(row: np.ndarray, index: int | None) -> None:
    """Set one entry of a slot (nothing for None: unknown or absent)."""
    if index is not None:
        row[index] = 1.0


def relative_seats(viewer: int, seats: int) -> list[int]:
    """Seats in the order an observation lists them: the viewer first, then clockwise."""
    return [(viewer + k) % seats for k in range(seats)]


class Encoding(Protocol):
    """A game's fixed spaces for one configuration (board, most seats)."""

    layout: Layout
    action_count: int

    def observe(self, view: Any, seat: int) -> np.ndarray:
        """The seat's observation, built from its view alone (never the full state)."""
        ...

    def action_mask(self, view: Any, seat: int, legal: Sequence[Hashable]) -> np.ndarray:
        """int8 of `action_count`: 1 where the index is one of `legal`."""
        ...

    def action_index(self, action: Hashable) -> int:
        """The index of an action; ValueError for one the game can never offer."""
        ...

    def action_at(self, seat: int, index: int) -> Hashable:
        """The action of `seat` at an index; ValueError outside the space."""
        ...


def check_index(index: int, count: int) -> None:
    if not 0 <= index < count:
        raise ValueError(f"action index {index} is outside the action space (0 to {count - 1})")
