"""Speed figures of any game's engine and search, measured on one core (`tavola bench`).

Every game gets the same figures through its `Game` interface: random games per second,
clone+apply steps per second and the search bot's decision time and iterations per second.
A game may add figures of its own in `tavola/games/NAME/bench.py` (`figures(seed) -> dict`).
A game with a web side also gets the cost of the view messages its server builds after each move.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import collector, compiling, registry
from .bots import make_bot
from .game import Game


def _pin_to_one_core() -> tuple[str, set[int] | None]:
    """Pin this process to one core; returns a description and the cores to restore."""
    try:
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(before)})
        return "pinned to one core", before
    except (AttributeError, OSError):
        return "not pinned (no affinity support)", None


def seats(game: Game, players: int) -> list[str]:
    return [f"seat {i + 1}" for i in range(players)]


def random_game(game: Game, seed: int, players: int = 4,
                options: Mapping[str, Any] | None = None) -> Any:
    """A game of uniformly random legal actions, through the public interface only.

    The index is drawn as `int(random() * n)`, one call into C, where `randrange` costs
    about half a microsecond of Python a step: 6% of a compiled Signorie game (a bias below
    one in 2**45 for the lists a game makes)."""
    draw = random.Random(seed).random
    state = game.new_game(seats(game, players), seed, options)
    while not state.is_over:
        legal = game.legal_actions(state, state.to_move()[0])
        game.apply_in_place(state, legal[int(draw() * len(legal))])
    return state


def engine_path(game: Game) -> str:
    """How the game's engine runs here: Python, and which of its modules are compiled from
    that same source (`tavola compile`), if any; and the garbage collector's settings."""
    kit = registry.kit(game.info.name)
    return f"Python {platform.python_version()}, numpy {np.__version__}; " \
        + compiling.path_used(kit) + "; " + collector.describe()


def run_bench(game: Game, games: int = 200, seed: int = 0, mcts_decisions: int = 16,
              mcts_spec: str = "mcts:hard", options: Mapping[str, Any] | None = None
              ) -> dict[str, Any]:
    """The figures of `game` played with `options` (the game's own figures are of its
    standard game)."""
    game.new_game(seats(game, game.info.min_players), seed, options)  # refused before timing
    pinning, cores = _pin_to_one_core()
    try:
        figures: dict[str, Any] = {
            "game": game.info.title,
            "machine": f"{platform.machine()} {platform.python_implementation()} "
                       f"{platform.python_version()}, {pinning}",
            "engine": engine_path(game)}
        figures.update(_game_figures(game, seed))
        figures.update(measure_views(game, seed, options=options))
        figures.update(measure_random(game, games, seed, options))
        if mcts_decisions > 0:
            figures.update(measure_search(game, mcts_decisions, seed, mcts_spec, options))
        return figures
    finally:
        if cores is not None:
            os.sched_setaffinity(0, cores)


def _game_figures(game: Game, seed: int) -> dict[str, Any]:
    """The game's own figures, where its kit declares some (`GameKit.bench`)."""
    part = registry.kit(game.info.name).bench
    return part.load()(seed) if part else {}


def measure_views(game: Game, seed: int, games: int = 4, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Microseconds per move a web server spends on the game's side of the view messages:
    after each move of seeded random games, every seat's and a spectator's view, the new log
    entries (once, shared), the view message (`WebGame.view_json`) and its change from that
    viewer's message before (`tavola.web.changes`), as a room builds them; games of the fewest
    players by default; {} without a web side."""
    try:
        from .web.changes import change
        from .web.site import load_site
        site = load_site(game.info.name)
    except (ImportError, ValueError):
        return {}
    players = players or game.info.min_players
    parts = dict.fromkeys(("view", "log_json", "view_json", "change"), 0.0)
    moves = 0
    # the first games (other deals) warm what a running server has warm: tables per rules
    for i in (*range(-2, 0), *range(games)):
        rng = random.Random(seed + i)
        state = game.new_game(seats(game, players), seed + i, options)
        sent: dict[int | None, dict[str, Any]] = {}
        log: list[dict[str, Any]] = []
        timed = dict.fromkeys(parts, 0.0)
        while not state.is_over:
            legal = game.legal_actions(state, state.to_move()[0])
            game.apply_in_place(state, legal[rng.randrange(len(legal))])
            moves += i >= 0
            _time_views(game, site, state, players, log, sent, timed, change)
        if i >= 0:
            parts = {name: parts[name] + t for name, t in timed.items()}
    total = sum(parts.values())
    return {f"view messages, {players} seats and a spectator, per move (us)":
            round(total / moves * 1e6),
            **{f"  of which {name} (us)": round(t / moves * 1e6) for name, t in parts.items()}}


def _time_views(game: Game, site: Any, state: Any, players: int, log: list[dict[str, Any]],
                sent: dict[int | None, dict[str, Any]], parts: dict[str, float],
                change: Any) -> None:
    """One move's messages, as `tavola.web.room.Room` builds them, each part timed."""
    seats_json = [{"kind": "person", "connected": True} for _ in range(players)]
    for seat in (*range(players), None):
        t0 = time.thread_time()
        v = game.view(state, seat)
        t1 = time.thread_time()
        if seat == 0:
            log.extend(site.log_json(v, len(log)))
        t2 = time.thread_time()
        msg = site.view_json(v, game_id="bench", seq=len(state.history), seats=seats_json,
                             log=[])
        msg["log"] = list(log)
        t3 = time.thread_time()
        if seat in sent:
            _json_text(change(sent[seat], msg))
        sent[seat] = msg
        t4 = time.thread_time()
        for name, t in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name] += t


def _json_text(value: Any) -> bytes:
    import orjson
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def measure_random(game: Game, games: int, seed: int,
                   options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Random 4-player (or the most players) games per second, and clone+apply steps/s."""
    players = min(4, game.info.max_players)
    random_game(game, seed, players, options)  # warm caches
    t0 = time.perf_counter()
    rounds = 0
    for i in range(games):
        rounds += game.round(random_game(game, seed + i, players, options))
    elapsed = time.perf_counter() - t0

    state = game.new_game(seats(game, players), seed, options)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        s = state
        r = random.Random(steps)
        while not s.is_over:
            legal = game.legal_actions(s, s.to_move()[0])
            s = game.apply(s, legal[r.randrange(len(legal))])
            steps += 1
    return {
        f"random {players}-player games": games,
        f"random {players}-player games/s": round(games / elapsed, 1),
        "mean rounds per random game": round(rounds / games, 2),
        "clone+apply states/s": round(steps / (time.perf_counter() - t0)),
    }


def measure_search(game: Game, decisions: int, seed: int, spec: str = "mcts:hard",
                   options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Time the search bot on positions of heuristic games (greedy if the game has one):
    half with the fewest players, half with the most, spread over the whole game."""
    positions: list[tuple[Any, int]] = []
    per_size = max(1, decisions // 2)
    policy = "greedy" if "greedy" in game.bots else "random"
    for players in sorted({game.info.min_players, min(4, game.info.max_players)}):
        state = game.new_game(seats(game, players), seed + players, options)
        bots = [make_bot(game, policy, seed + i) for i in range(players)]
        seen: list[tuple[Any, int]] = []
        while not state.is_over:
            seat = state.to_move()[0]
            seen.append((game.clone(state), seat))
            game.apply_in_place(state, bots[seat].decide(game.view(state, seat),
                                                         game.legal_actions(state, seat)))
        step = max(1, len(seen) // per_size)
        positions += seen[::step][:per_size]
    times, iterations = [], 0
    for i, (state, seat) in enumerate(positions):
        bot = make_bot(game, spec, seed + i)
        t = time.perf_counter()
        bot.decide(game.view(state, seat), game.legal_actions(state, seat))
        times.append(time.perf_counter() - t)
        iterations += getattr(bot, "last_iterations", 0)
    total = sum(times)
    return {
        f"{spec} decisions timed": len(times),
        f"{spec} decision, mean (s)": round(total / len(times), 3),
        f"{spec} decision, max (s)": round(max(times), 3),
        "MCTS iterations/s": round(iterations / total) if total else 0,
    }
