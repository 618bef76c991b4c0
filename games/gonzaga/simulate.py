"""`gonzaga simulate`: many bot games, in parallel if asked, summarised per seat.

Game i is played with seed `seed + i`, and each seat's bot is seeded from the game seed and the
seat, so a run is reproducible and its results do not depend on the number of worker processes.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .board import Board, board_from_dict, load_board
from .bots import BOTS, make_bot
from .match import play_game
from .record import dumps_record, game_record
from .state import COLOURS, GameState, Reason

SOURCES: tuple[str, ...] = tuple(str(r) for r in Reason)


@dataclass(frozen=True)
class GameResult:
    """What one game contributes to the summary (small, so it crosses process borders cheaply)."""

    index: int
    seed: int
    scenario: str
    rounds: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[dict[str, int], ...]  # per seat: points by source (Reason value)


@dataclass
class SeatSummary:
    seat: int
    spec: str
    colour: str
    wins: float  # a victory shared by k players counts 1/k
    outright_wins: int
    shared_wins: int
    score_mean: float
    score_stdev: float
    score_min: int
    score_max: int
    points_by_source: dict[str, float]  # mean points per game


@dataclass
class Summary:
    specs: tuple[str, ...]
    games: int
    seed: int
    board: str
    seats: list[SeatSummary]
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    scenarios: dict[str, int]
    results: list[GameResult]
    elapsed: float = field(default=0.0, compare=False)
    records: Path | None = None


# ---------------------------------------------------------------------------------------------
# Playing


def bot_seed(game_seed: int, seat: int) -> int:
    """Distinct for every (game, seat) pair, so no two bots share a random stream."""
    return game_seed * 8 + seat


def _check_specs(specs: Sequence[str]) -> list[str]:
    clean = [s.strip().lower() for s in specs]
    if not 2 <= len(clean) <= 4:
        raise ValueError(f"a game needs 2 to 4 seats, got {len(clean)} "
                         f"({', '.join(specs) or 'none'})")
    for spec in clean:
        if spec == "human":
            raise ValueError("simulate plays bots only; 'human' cannot sit at a simulated game "
                             f"(choose from {', '.join(sorted(BOTS))})")
        make_bot(spec)  # raises ValueError naming the unknown bot and the known ones
    return clean


_worker_board: Board | None = None


def _init_worker(raw_board: dict[str, Any] | None) -> None:
    """Build the board once per worker process (its placement tables are then cached)."""
    global _worker_board
    _worker_board = board_from_dict(raw_board) if raw_board is not None else None


def _play_one(specs: tuple[str, ...], index: int, game_seed: int, scenario: str | None,
              records: Path | None, board: Board | None = None) -> GameResult:
    board = board or _worker_board or load_board()
    bots = [make_bot(spec, seed=bot_seed(game_seed, seat)) for seat, spec in enumerate(specs)]
    state = play_game(bots, seed=game_seed, scenario=scenario, board=board, names=list(specs))
    if records is not None:
        data = game_record(state, players=list(specs), seed=game_seed)
        (records / f"game-{index:05d}.json").write_text(dumps_record(data) + "\n",
                                                       encoding="utf-8")
    return GameResult(index, game_seed, state.setup.scenario, state.round,
                      tuple(p.score for p in state.players), tuple(state.winners),
                      points_by_source(state))


def points_by_source(state: GameState) -> tuple[dict[str, int], ...]:
    """Each seat's points split by scoring reason; shared by simulate and tournament."""
    points = [dict.fromkeys(SOURCES, 0) for _ in state.players]
    for event in state.score_events():
        points[event.player][str(event.reason)] += event.points
    return tuple(points)


def _play_in_worker(args: tuple[tuple[str, ...], int, int, str | None, Path | None]
                    ) -> GameResult:
    return _play_one(*args)


def run_simulation(specs: list[str], *, games: int, seed: int, records: Path | None,
                   workers: int, scenario: str | None, console: Console,
                   board: Board | None = None) -> Summary:
    """Play `games` games between the bots `specs` (one per seat, kept in the given seats).

    Raises ValueError for a bad seat list, game count or worker count before playing.
    """
    seats = tuple(_check_specs(specs))
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    board = board or load_board()
    if scenario is not None:
        _check_scenario(board, scenario, len(seats))
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    jobs = [(seats, i, seed + i, scenario, records) for i in range(games)]
    started = time.perf_counter()
    results: list[GameResult] = []
    with Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task("games", total=games)
        for result in _results(jobs, workers, board):
            results.append(result)
            progress.advance(task)
    results.sort(key=lambda r: r.index)
    return summarise(seats, results, seed=seed, board=board.name,
                     elapsed=time.perf_counter() - started, records=records)


def _check_scenario(board: Board, scenario: str, n: int) -> None:
    names = {s.lower(): s for s in board.scenarios}
    match = names.get(scenario.lower())
    known = ", ".join(s.name for s in board.scenarios_for(n))
    if match is None:
        raise ValueError(f"unknown scenario {scenario!r}; for {n} players: {known}")
    if board.scenarios[match].players != n:
        raise ValueError(f"scenario {match} is for {board.scenarios[match].players} players, "
                         f"not {n}; for {n} players: {known}")


def _results(jobs: list[tuple[tuple[str, ...], int, int, str | None, Path | None]],
             workers: int, board: Board) -> Iterator[GameResult]:
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            yield _play_one(*job, board=board)
        return
    chunk = max(1, min(16, len(jobs) // (workers * 4)))
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                             initargs=(board.raw,)) as pool:
        yield from pool.map(_play_in_worker, jobs, chunksize=chunk)


# ---------------------------------------------------------------------------------------------
# Summarising


def summarise(specs: Sequence[str], results: Sequence[GameResult], *, seed: int = 0,
              board: str = "", elapsed: float = 0.0, records: Path | None = None) -> Summary:
    """Per-seat figures from game results (given in game order, so sums are reproducible)."""
    n = len(specs)
    seats = []
    for seat in range(n):
        scores = [r.scores[seat] for r in results]
        won = [r for r in results if seat in r.winners]
        by_source = {s: sum(r.points[seat][s] for r in results) / len(results) for s in SOURCES}
        seats.append(SeatSummary(
            seat=seat, spec=specs[seat], colour=COLOURS[seat],
            wins=math.fsum(1 / len(r.winners) for r in won),
            outright_wins=sum(1 for r in won if len(r.winners) == 1),
            shared_wins=sum(1 for r in won if len(r.winners) > 1),
            score_mean=statistics.fmean(scores),
            score_stdev=statistics.stdev(scores) if len(scores) > 1 else 0.0,
            score_min=min(scores), score_max=max(scores),
            points_by_source=by_source,
        ))
    rounds = [r.rounds for r in results]
    return Summary(
        specs=tuple(specs), games=len(results), seed=seed, board=board, seats=seats,
        rounds_mean=statistics.fmean(rounds), rounds_min=min(rounds), rounds_max=max(rounds),
        scenarios=dict(sorted(Counter(r.scenario for r in results).items())),
        results=list(results), elapsed=elapsed, records=records,
    )


def print_summary(summary: Summary, console: Console) -> None:
    """Two tables: results per seat, then where each seat's points came from."""
    last = summary.seed + summary.games - 1
    title = (f"{summary.games} game(s) on {summary.board}, seeds {summary.seed}–{last}"
             if summary.games > 1 else f"1 game on {summary.board}, seed {summary.seed}")
    table = Table(title=title)
    for column in ("seat", "bot", "wins", "win %", "outright", "shared", "mean score",
                   "std dev", "min", "max"):
        table.add_column(column, justify="left" if column in ("seat", "bot") else "right")
    for s in summary.seats:
        table.add_row(f"[bold {s.colour}]{s.seat + 1} {s.colour}[/]", s.spec,
                      _num(s.wins), f"{100 * s.wins / summary.games:.1f}", str(s.outright_wins),
                      str(s.shared_wins), f"{s.score_mean:.1f}", f"{s.score_stdev:.1f}",
                      str(s.score_min), str(s.score_max))
    console.print(table)

    sources = Table(title="Mean points per game by source")
    sources.add_column("seat")
    for source in SOURCES:
        sources.add_column(source, justify="right")
    sources.add_column("total", justify="right", style="bold")
    for s in summary.seats:
        sources.add_row(f"[bold {s.colour}]{s.seat + 1} {s.spec}[/]",
                        *[f"{s.points_by_source[src]:.1f}" for src in SOURCES],
                        f"{sum(s.points_by_source.values()):.1f}")
    console.print(sources)

    scenarios = ", ".join(f"{name} {count}" for name, count in summary.scenarios.items())
    console.print(f"rounds per game: mean {summary.rounds_mean:.2f}, min {summary.rounds_min}, "
                  f"max {summary.rounds_max}; scenarios: {scenarios}")
    if summary.elapsed:
        console.print(f"{summary.games / summary.elapsed:.1f} games/s "
                      f"({summary.elapsed:.1f} s)", style="dim")
    if summary.records is not None:
        console.print(f"records written to {summary.records}/game-NNNNN.json", style="dim")


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}"


__all__ = ["GameResult", "SeatSummary", "Summary", "bot_seed", "points_by_source", "print_summary",
           "run_simulation", "summarise"]
