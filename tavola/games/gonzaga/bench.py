"""Gonzaga's own speed figures for `tavola bench`: its placement tables and listings (the
platform adds random games/s, clone+apply and search timings for every game)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from .actions import PlaceFief
from .board import load_board
from .engine import apply_in_place, free_placements, legal_actions, new_game
from .placement import placement_tables
from .state import GameState, Phase


def random_game(seed: int, players: int = 4) -> GameState:
    """A game of uniformly random legal actions, straight on the engine."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    while not state.is_over:
        seat = state.to_move()[0]
        legal = legal_actions(state, seat)
        apply_in_place(state, legal[rng.randrange(len(legal))])
    return state


def figures(seed: int) -> dict[str, Any]:
    """The placement tables' size and build time, and the cost of listing placements."""
    board = load_board()
    t0 = time.perf_counter()
    placement_tables(board).fiefs  # noqa: B018 - build the static tables once
    build = time.perf_counter() - t0

    # Collect positions where a fief is to be placed, then time listing its placements.
    rng = random.Random(seed)
    positions: list[tuple[GameState, int]] = []
    for i in range(20):
        state = new_game(4, seed + 1000 + i)
        while not state.is_over:
            seat = state.to_move()[0]
            if state.phase is Phase.PLACING:
                positions.append((state.clone(), seat))
            legal = legal_actions(state, seat)
            apply_in_place(state, legal[rng.randrange(len(legal))])
    lazy, full, counts, anyplan, anycounts = [], [], [], [], []
    for state, seat in positions:
        t = time.perf_counter()
        rows = free_placements(state, seat, state.players[seat].fief or 10)
        anyplan.append(time.perf_counter() - t)
        anycounts.append(len(rows))
        t = time.perf_counter()
        legal = legal_actions(state, seat)
        lazy.append(time.perf_counter() - t)
        t = time.perf_counter()
        placements = [a for a in legal_actions(state, seat) if isinstance(a, PlaceFief)]
        full.append(time.perf_counter() - t)
        counts.append(len(placements))
        assert len(legal) >= len(placements)


    return {
        "board": f"{board.name} ({board.hex_count} hexes)",
        "placement tables build (s)": round(build, 3),
        "static placements (all fiefs)": sum(len(fp) for fp in placement_tables(board)
                                            .fiefs.values()),
        "positions timed": len(positions),
        "legal placements per position (median)": int(statistics.median(counts)),
        "list legal actions, median (ms)": round(statistics.median(lazy) * 1000, 4),
        "list and build every placement, median (ms)": round(statistics.median(full) * 1000, 4),
        "placements of the fief under any plan (median)": int(statistics.median(anycounts)),
        "list them (any plan), median (ms)": round(statistics.median(anyplan) * 1000, 4),
    }

