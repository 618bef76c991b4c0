"""Speed figures of the engine, measured on one core (`gonzaga bench`)."""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from typing import Any

from .actions import PlaceFief
from .board import load_board
from .bots import make_bot
from .engine import apply, apply_in_place, free_placements, legal_actions, new_game, view
from .placement import placement_tables
from .state import GameState, Phase


def _pin_to_one_core() -> tuple[str, set[int] | None]:
    """Pin this process to one core; returns a description and the cores to restore."""
    try:
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(before)})
        return "pinned to one core", before
    except (AttributeError, OSError):
        return "not pinned (no affinity support)", None


def random_game(seed: int, players: int = 4) -> GameState:
    """A game of uniformly random legal actions, straight on the engine."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    while not state.is_over:
        seat = state.to_move()[0]
        legal = legal_actions(state, seat)
        apply_in_place(state, legal[rng.randrange(len(legal))])
    return state


def run_bench(games: int = 200, seed: int = 0, mcts_decisions: int = 16,
              mcts_spec: str = "mcts:hard") -> dict[str, Any]:
    pinning, cores = _pin_to_one_core()
    try:
        figures = _measure(games, seed, pinning)
        if mcts_decisions > 0:
            figures.update(measure_search(mcts_decisions, seed, mcts_spec))
        return figures
    finally:
        if cores is not None:
            os.sched_setaffinity(0, cores)


def _measure(games: int, seed: int, pinning: str) -> dict[str, Any]:
    board = load_board()
    t0 = time.perf_counter()
    placement_tables(board).fiefs  # noqa: B018 - build the static tables once
    build = time.perf_counter() - t0
    random_game(seed)  # warm caches (rules per scenario)

    t0 = time.perf_counter()
    rounds = 0
    for i in range(games):
        rounds += random_game(seed + i).round
    elapsed = time.perf_counter() - t0

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

    # clone + apply throughput (what tree search pays per simulated step)
    state = new_game(4, seed)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        s = state
        r = random.Random(steps)
        while not s.is_over:
            seat = s.to_move()[0]
            legal = legal_actions(s, seat)
            s = apply(s, legal[r.randrange(len(legal))])
            steps += 1
    clone_apply = steps / (time.perf_counter() - t0)

    return {
        "machine": f"{platform.machine()} {platform.python_implementation()} "
                   f"{platform.python_version()}, {pinning}",
        "board": f"{board.name} ({board.hex_count} hexes)",
        "placement tables build (s)": round(build, 3),
        "static placements (all fiefs)": sum(len(fp) for fp in placement_tables(board)
                                            .fiefs.values()),
        "random 4-player games": games,
        "random 4-player games/s": round(games / elapsed, 1),
        "mean rounds per random game": round(rounds / games, 2),
        "positions timed": len(positions),
        "legal placements per position (median)": int(statistics.median(counts)),
        "list legal actions, median (ms)": round(statistics.median(lazy) * 1000, 4),
        "list and build every placement, median (ms)": round(statistics.median(full) * 1000, 4),
        "placements of the fief under any plan (median)": int(statistics.median(anycounts)),
        "list them (any plan), median (ms)": round(statistics.median(anyplan) * 1000, 4),
        "clone+apply states/s": round(clone_apply),
    }


def measure_search(decisions: int, seed: int, spec: str = "mcts:hard") -> dict[str, Any]:
    """Time the search bot on positions of greedy games: half 2-player, half 4-player, planning
    and placing alike, spread over the whole game."""
    positions: list[tuple[GameState, int]] = []
    per_size = max(1, decisions // 2)
    for players in (2, 4):
        state = new_game(players, seed + players)
        bots = [make_bot("greedy", seed + i) for i in range(players)]
        seen: list[tuple[GameState, int]] = []
        while not state.is_over:
            seat = state.to_move()[0]
            seen.append((state.clone(), seat))
            apply_in_place(state, bots[seat].decide(view(state, seat),
                                                    legal_actions(state, seat)))
        step = max(1, len(seen) // per_size)
        positions += seen[::step][:per_size]
    times, iterations = [], 0
    for i, (state, seat) in enumerate(positions):
        bot = make_bot(spec, seed + i)
        t = time.perf_counter()
        bot.decide(view(state, seat), legal_actions(state, seat))
        times.append(time.perf_counter() - t)
        iterations += getattr(bot, "last_iterations", 0)
    total = sum(times)
    return {
        f"{spec} decisions timed": len(times),
        f"{spec} decision, mean (s)": round(total / len(times), 3),
        f"{spec} decision, max (s)": round(max(times), 3),
        "MCTS iterations/s": round(iterations / total) if total else 0,
    }
