"""Positions built by hand for the Signorie rule tests."""

from __future__ import annotations

import random
from typing import Any

from tavola.games.signorie import engine
from tavola.games.signorie.state import ACTIONS, REWARDS, SignorieState
from tavola.games.signorie.tables import tables

T = tables()
NAMES = ("Yellow", "Red", "Purple", "Blue")


def game(n: int = 4, seed: int = 1) -> SignorieState:
    return engine.new_game(NAMES[:n], seed)


def col(name: str) -> int:
    return T.colours.index(name)


def track(name: str) -> int:
    return T.tracks.index(name)


def city(name: str) -> int:
    return T.city_names.index(name)


def tile_of(s: SignorieState, house: str, vp: int | None = None) -> int:
    """An alliance tile of the house (and VP) that is still in the stack; taken out of it."""
    h = T.houses.index(house)
    for x in s.deck:
        if T.tile_house[x] == h and (vp is None or T.tile_vp[x] == vp):
            s.deck.remove(x)
            return x
    raise LookupError(house)


def turn(s: SignorieState, seat: int) -> None:
    """Make it `seat`'s turn in Phase 2 (everything else as it is)."""
    s.phase, s.queue = ACTIONS, []
    s.stack = [["turn", seat]]
    s.cursor = s.order.index(seat)
    engine.settle(s)


def ask(s: SignorieState, *frames: list) -> None:
    """Ask `seat` the questions of these frames (the last is asked first) during its turn."""
    seat = frames[0][1]
    s.phase, s.queue = ACTIONS, []
    s.cursor = s.order.index(seat)
    s.stack = [["turn", seat], *[list(f) for f in frames]]
    s.taken[seat] = [0] * len(T.colours)
    engine.settle(s)


def end_of_actions(s: SignorieState) -> None:
    """Everybody passes now: Phase 3 begins."""
    s.phase, s.stack, s.queue = ACTIONS, [], []
    s.passed = [True] * s.n
    engine.settle(s)


def end_rewards(s: SignorieState) -> None:
    """Phase 3 with nobody left to reward: the round ends."""
    s.phase, s.stack, s.queue = REWARDS, [], []
    engine.settle(s)


def play(s: SignorieState, seed: int = 0, until=None) -> SignorieState:
    rng = random.Random(seed)
    while not s.is_over and not (until and until(s)):
        seat = s.to_move()[0]
        legal = engine.legal_actions(s, seat)
        engine.apply_in_place(s, legal[rng.randrange(len(legal))])
    return s


def facts(obj: Any) -> dict[str, Any]:
    """An object's attributes by name, as Python runs it or compiled (`tavola compile`:
    compiled classes keep their attributes in slots listed by `__mypyc_attrs__`)."""
    names = getattr(type(obj), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(obj))
    return {name: getattr(obj, name) for name in names if hasattr(obj, name)}
