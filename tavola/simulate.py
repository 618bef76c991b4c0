"""`simulate`: many bot games of any game, in parallel if asked, summarised per seat.

Game i is played with seed `seed + i`, and each seat's bot is seeded from the game seed and the
seat, so a run is reproducible and its results do not depend on the number of worker processes,
nor on whether the games ran on Ray.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .bots import bot_names, make_bot
from .game import Game
from .match import play_game
from .parallel import Executor, Options, check_executor, play_all
from .records import dumps_record


@dataclass(frozen=True)
class GameResult:
    """What one game contributes to the summary (small, so it crosses process borders cheaply)."""

    index: int
    seed: int
    setup: str  # what chance or the options chose at setup (Gonzaga: the scenario)
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
    table: str  # what the games were played on, as `Game.describe_options` says it
    sources: tuple[str, ...]  # the game's kinds of points
    seats: list[SeatSummary]
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    setups: dict[str, int]
    results: list[GameResult]
    elapsed: float = field(default=0.0, compare=False)
    records: Path | None = None


# ---------------------------------------------------------------------------------------------
# Playing


def bot_seed(game_seed: int, seat: int) -> int:
    """Distinct for every (game, seat) pair, so no two bots share a random stream."""
    return game_seed * 8 + seat


def check_specs(game: Game, specs: Sequence[str]) -> list[str]:
    """Clean seat specs, or ValueError naming the first problem (before anything is played)."""
    clean = [s.strip().lower() for s in specs]
    info = game.info
    if not info.min_players <= len(clean) <= info.max_players:
        raise ValueError(f"a game of {info.title} needs {info.min_players} to "
                         f"{info.max_players} seats, got {len(clean)} "
                         f"({', '.join(specs) or 'none'})")
    for spec in clean:
        if spec == "human":
            raise ValueError("simulate plays bots only; 'human' cannot sit at a simulated game "
                             f"(choose from {', '.join(bot_names(game))})")
        make_bot(game, spec)  # raises ValueError naming the unknown bot and the known ones
    return clean


def check_options(game: Game, players: int, options: Options) -> None:
    """Raise the game's own ValueError for options it refuses, by setting up one game."""
    game.new_game([f"seat {i + 1}" for i in range(players)], 0, options)


SimJob = tuple[tuple[str, ...], int, int, bool]  # seats, game index, game seed, keep record


def play_one(game: Game, options: Options, job: SimJob) -> tuple[GameResult, str | None]:
    """Play one game; its record's text too if asked (for the caller to write: the game may
    have been played on another machine)."""
    specs, index, game_seed, keep_record = job
    bots = [make_bot(game, spec, seed=bot_seed(game_seed, seat))
            for seat, spec in enumerate(specs)]
    state = play_game(game, bots, seed=game_seed, options=options, names=list(specs))
    text = None
    if keep_record:
        text = dumps_record(game.record(state, players=list(specs), seed=game_seed)) + "\n"
    return GameResult(index, game_seed, game.setup_label(state), game.round(state),
                      game.scores(state), tuple(game.winners(state)),
                      game.score_breakdown(state)), text


def run_simulation(game: Game, specs: list[str], *, games: int, seed: int,
                   records: Path | None, workers: int | None, console: Console,
                   options: Options | None = None, ray: str | None = None) -> Summary:
    """Play `games` games between the bots `specs` (one per seat, kept in the given seats).

    The games run in `workers` processes, or as Ray tasks when `ray` is an address (or
    `parallel.LOCAL`, with `workers` CPUs); the results are the same either way.
    Raises ValueError for a bad seat list, option, game count or executor before playing.
    """
    seats = tuple(check_specs(game, specs))
    options = dict(options or {})
    how = Executor(workers, ray)
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    check_executor(how)
    check_options(game, len(seats), options)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    jobs = [(seats, i, seed + i, records is not None) for i in range(games)]
    started = time.perf_counter()
    results: list[GameResult] = []
    with Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task("games", total=games)
        for _, (result, text) in play_all(play_one, game, options, jobs, how, per_task=16):
            if records is not None and text is not None:
                (records / f"game-{result.index:05d}.json").write_text(text, encoding="utf-8")
            results.append(result)
            progress.advance(task)
    results.sort(key=lambda r: r.index)
    return summarise(game, seats, results, seed=seed, table=game.describe_options(options),
                     elapsed=time.perf_counter() - started, records=records)


# ---------------------------------------------------------------------------------------------
# Summarising


def summarise(game: Game, specs: Sequence[str], results: Sequence[GameResult], *,
              seed: int = 0, table: str = "", elapsed: float = 0.0, records: Path | None = None
              ) -> Summary:
    """Per-seat figures from game results (given in game order, so sums are reproducible)."""
    n = len(specs)
    sources = game.info.score_sources
    seats = []
    for seat in range(n):
        scores = [r.scores[seat] for r in results]
        won = [r for r in results if seat in r.winners]
        by_source = {s: sum(r.points[seat][s] for r in results) / len(results) for s in sources}
        seats.append(SeatSummary(
            seat=seat, spec=specs[seat], colour=game.info.seat_colours[seat],
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
        specs=tuple(specs), games=len(results), seed=seed, table=table, sources=sources,
        seats=seats,
        rounds_mean=statistics.fmean(rounds), rounds_min=min(rounds), rounds_max=max(rounds),
        setups=dict(sorted(Counter(r.setup for r in results).items())),
        results=list(results), elapsed=elapsed, records=records,
    )


def print_summary(summary: Summary, console: Console) -> None:
    """Two tables: results per seat, then where each seat's points came from."""
    last = summary.seed + summary.games - 1
    title = (f"{summary.games} game(s) on {summary.table}, seeds {summary.seed}–{last}"
             if summary.games > 1 else f"1 game on {summary.table}, seed {summary.seed}")
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
    for source in summary.sources:
        sources.add_column(source, justify="right")
    sources.add_column("total", justify="right", style="bold")
    for s in summary.seats:
        sources.add_row(f"[bold {s.colour}]{s.seat + 1} {s.spec}[/]",
                        *[f"{s.points_by_source[src]:.1f}" for src in summary.sources],
                        f"{sum(s.points_by_source.values()):.1f}")
    console.print(sources)

    setups = ", ".join(f"{name} {count}" for name, count in summary.setups.items())
    console.print(f"rounds per game: mean {summary.rounds_mean:.2f}, min {summary.rounds_min}, "
                  f"max {summary.rounds_max}; setups: {setups}")
    if summary.elapsed:
        console.print(f"{summary.games / summary.elapsed:.1f} games/s "
                      f"({summary.elapsed:.1f} s)", style="dim")
    if summary.records is not None:
        console.print(f"records written to {summary.records}/game-NNNNN.json", style="dim")


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}"


__all__ = ["GameResult", "SeatSummary", "Summary", "bot_seed", "check_specs", "print_summary",
           "run_simulation", "summarise"]
