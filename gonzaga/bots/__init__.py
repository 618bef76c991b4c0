"""Bots: anything with `decide(view, legal_actions) -> action`.

A bot is handed a `PlayerView` (never the full state) and the legal actions of its seat; the
`match` module enforces this. `make_bot("greedy", seed=1)` builds a bot from its spec string.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..actions import Action
from ..engine import PlayerView
from .greedy import GreedyBot
from .random_bot import RandomBot


class Bot(Protocol):
    name: str

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action: ...


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
}


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec such as `random` or `greedy`; an unknown name raises ValueError."""
    name = spec.strip().lower()
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; choose from {', '.join(sorted(BOTS))}")
    return factory(seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]
