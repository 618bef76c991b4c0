"""`tournament`: seat-rotated bot matches of any game, win rates with intervals, ratings, a report.

The pieces are kept apart so each can be tested on its own: `schedule` (which games, with which
seeds), `run_tournament` (plays them, in worker processes or on Ray if asked, writes every record),
`summarise` (pure arithmetic on the game results), `rate` (openskill ratings) and the writers
of `results.json`, `results.md` and `scores.png`. See docs/tournament.md for the methods.

Bot specs are opaque strings handed to `tavola.bots.make_bot`, so new bots and their options
(`mcts:hard`, `mcts:iterations=2000`) work here without any change.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .bots import Bot, make_bot
from .game import Game
from .match import play_game, seat_names
from .parallel import Executor, Options, check_executor, default_workers, play_all
from .records import dumps_record
from .simulate import bot_seed, check_options

FORMAT = "tavola-tournament/1"
#: Each finished game is appended here as one JSON line, after a first line with the run's
#: parameters, so a long run that stops (a crash, a closed terminal) resumes with `--resume`.
JOURNAL = "games.jsonl"
REPORTS = ("results.json", "results.md", "scores.png")  # written over all the games at the end
#: Before the platform named its own format, a tournament's was `NAME-tournament/1` after a
#: game (and the earliest did not name their game in `parameters`: it is that NAME).
EARLIER = re.compile(r"(?P<game>[a-z0-9_-]+)-tournament/1")
Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval
RATING_METHOD = ("openskill Plackett-Luce, updated game by game in schedule order with one "
                 "1-v-1 result for every pair of seats held by different bots (higher final "
                 "rank wins, equal rank draws); ordinal = mu - 3 sigma")
CI_METHOD = "Wilson score interval, 95%, over seats (a shared win counts 1/k)"
ORDERS = 100  # shuffles of the games that `rate_in_any_order` averages
ORDERLESS_METHOD = (f"openskill Plackett-Luce with one 1-v-1 result for every pair of seats "
                    f"held by different bots (higher final rank wins, equal rank draws), mu "
                    f"and sigma averaged over {ORDERS} seeded shuffles of the games, so the "
                    f"order in which they were played does not matter; ordinal = mu - 3 sigma")


# ---------------------------------------------------------------------------------------------
# The schedule


@dataclass(frozen=True)
class Lineup:
    """Which bots sit at a table of `players` seats, and how many seats each holds."""

    players: int
    counts: tuple[tuple[str, int], ...]  # (spec, seats) in --bots order

    @property
    def seats(self) -> tuple[str, ...]:
        """The line-up's first seating; the other seatings are its rotations."""
        return tuple(spec for spec, k in self.counts for _ in range(k))

    @property
    def label(self) -> str:
        if all(k == 1 for _, k in self.counts):
            return " vs ".join(spec for spec, _ in self.counts)
        return " vs ".join(f"{spec} ×{k}" for spec, k in self.counts)


@dataclass(frozen=True)
class ScheduledGame:
    index: int
    lineup: int  # index into the line-up list
    deal: int  # games of one line-up that share a deal differ only by a seat rotation
    rotation: int
    seed: int
    seats: tuple[str, ...]


def lineups(bots: Sequence[str], players: int) -> list[Lineup]:
    """Every table of `players` seats that the bots can fill, repeating a bot only when needed.

    With at least as many bots as seats: every combination of distinct bots. With fewer: every
    way to give each bot at least one seat (4 seats, bots A and B: A×1 B×3, A×2 B×2, A×3 B×1),
    so one strong bot against several copies of another is always part of the schedule.
    """
    n = len(bots)
    if n >= players:
        return [Lineup(players, tuple((b, 1) for b in combo))
                for combo in itertools.combinations(bots, players)]
    out = []
    # compositions of `players` into n positive parts, in lexicographic order of the counts
    for cuts in itertools.combinations(range(1, players), n - 1):
        bounds = (0, *cuts, players)
        counts = [bounds[i + 1] - bounds[i] for i in range(n)]
        out.append(Lineup(players, tuple(zip(bots, counts, strict=True))))
    return out


def rotations(seats: Sequence[str]) -> list[tuple[str, ...]]:
    """The p cyclic rotations: every seat instance plays every seat exactly once.

    Seat matters in Gonzaga (seat 0 holds the Last Turn card and plays first in ties of the
    turn order), so every line-up is played in all its rotations equally often.
    """
    p = len(seats)
    return [tuple(seats[(i - r) % p] for i in range(p)) for r in range(p)]


def schedule(bots: Sequence[str], players: Sequence[int], games: int, seed: int,
             solo: str | None = None) -> tuple[list[Lineup], list[ScheduledGame]]:
    """All games of a tournament, in the order they are reported.

    `games` is per line-up, rounded up to a whole number of rotations. Each deal (seed
    `seed + deal number`) is played once in every rotation of its line-up, so every bot meets
    the same fiefs, objectives and scenario from every seat (duplicate play: luck of the deal
    cancels out between the bots of a line-up).

    With `solo`, only the line-ups where that bot holds exactly one seat are played (one
    `mcts:hard` against three `greedy`, not two against two).
    """
    tables: list[Lineup] = []
    games_out: list[ScheduledGame] = []
    deal = 0
    for p in players:
        for lineup in lineups(bots, p):
            if solo is not None and dict(lineup.counts).get(solo) != 1:
                continue
            tables.append(lineup)
            for _ in range(math.ceil(games / p)):
                for r, seats in enumerate(rotations(lineup.seats)):
                    games_out.append(ScheduledGame(len(games_out), len(tables) - 1, deal, r,
                                                   seed + deal, seats))
                deal += 1
    return tables, games_out


# ---------------------------------------------------------------------------------------------
# Playing


@dataclass(frozen=True)
class GameResult:
    """One game's outcome; timings are left out of comparisons as they vary between runs."""

    index: int
    lineup: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    setup: str  # what chance or the options chose at setup (Gonzaga: the scenario)
    rounds: int
    scores: tuple[int, ...]
    ranks: tuple[int, ...]  # 1 = winner; ties by the rules' tie-break share a rank
    winners: tuple[int, ...]
    points: tuple[dict[str, int], ...]  # per seat: points by source
    decisions: tuple[int, ...]  # decide() calls per seat
    record: str | None = None  # path relative to the output folder
    think: tuple[float, ...] = field(default=(), compare=False)  # seconds in decide() per seat
    think_max: tuple[float, ...] = field(default=(), compare=False)  # longest single decide()
    wall: float = field(default=0.0, compare=False)  # seconds for the whole game


class TimedBot:
    """Wraps a bot to measure the time spent in `decide` (the mcts bot aims at ≤ 2 s a move)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0
        self.total = 0.0
        self.longest = 0.0

    def decide(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        started = time.perf_counter()
        action = self.bot.decide(view, legal_actions)
        spent = time.perf_counter() - started
        self.calls += 1
        self.total += spent
        self.longest = max(self.longest, spent)
        return action


def ranks_of(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranks (1, 2, 2, 4) of sort keys, highest first."""
    return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


def play_scheduled(game: Game, options: Options, job: tuple[ScheduledGame, bool]
                   ) -> tuple[GameResult, str | None]:
    """Play one scheduled game, timing every decision; its record's text too if asked.

    The record comes back as text for the caller to write: the game may have been played on
    another machine.
    """
    scheduled, keep_record = job
    started = time.perf_counter()
    bots = [TimedBot(make_bot(game, spec, seed=bot_seed(scheduled.seed, seat)))
            for seat, spec in enumerate(scheduled.seats)]
    state = play_game(game, bots, seed=scheduled.seed, options=options,
                      names=seat_names(list(scheduled.seats)))
    record = text = None
    if keep_record:
        record = f"records/game-{scheduled.index:05d}.json"
        text = dumps_record(game.record(state, players=list(scheduled.seats),
                                        seed=scheduled.seed)) + "\n"
    return GameResult(
        index=scheduled.index, lineup=scheduled.lineup, deal=scheduled.deal,
        rotation=scheduled.rotation, seed=scheduled.seed, seats=scheduled.seats,
        setup=game.setup_label(state), rounds=game.round(state), scores=game.scores(state),
        ranks=game.ranks(state), winners=tuple(game.winners(state)),
        points=game.score_breakdown(state), decisions=tuple(b.calls for b in bots),
        record=record, think=tuple(b.total for b in bots),
        think_max=tuple(b.longest for b in bots), wall=time.perf_counter() - started), text


def check_arguments(game: Game, bots: Sequence[str], players: Sequence[int], games: int,
                    how: Executor) -> list[str]:
    """Clean bot specs, or ValueError naming the first problem (before anything is played)."""
    specs = [b.strip() for b in bots if b.strip()]
    if len(specs) < 2:
        raise ValueError(f"a tournament needs at least 2 different bots, got {len(specs)} "
                         f"({', '.join(specs) or 'none'})")
    for spec in specs:
        if specs.count(spec) > 1:
            raise ValueError(f"bot {spec!r} is listed twice; a bot fills several seats by "
                             "itself when there are fewer bots than seats")
        if spec.lower() == "human":
            raise ValueError("a tournament plays bots only; 'human' cannot take part")
        make_bot(game, spec)  # raises ValueError naming an unknown bot and the known ones
    lo, hi = game.info.min_players, game.info.max_players
    if not players:
        raise ValueError(f"no player count given; use --players with counts from {lo} to {hi}")
    for p in players:
        if not lo <= p <= hi:
            raise ValueError(f"player counts must be {lo} to {hi}, not {p}")
    if len(set(players)) != len(players):
        raise ValueError(f"a player count is listed twice: {', '.join(map(str, players))}")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    check_executor(how)
    return specs


def prepare_out(out: Path, overwrite: bool, resume: bool = False) -> None:
    """Make the output folder, refusing to mix a new run into an old one unless asked.

    With `resume`, the games of an earlier run's journal stay (`resumable` checks them).
    """
    records = out / "records"
    old = [out / name for name in (*REPORTS, JOURNAL) if (out / name).exists()]
    if records.is_dir():
        old += sorted(records.glob("game-*.json"))
    if resume:
        old = [path for path in old if path.name in REPORTS]
    elif old and not overwrite:
        raise ValueError(f"{out} already holds a tournament ({old[0].name}); choose another "
                         "--out, pass --resume to finish it or --overwrite to replace it")
    try:
        records.mkdir(parents=True, exist_ok=True)
        for path in old:
            path.unlink()
        probe = records / ".write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"cannot write to {out}: {exc.strerror or exc}") from None


@dataclass
class Tournament:
    """Everything a report needs: the parameters, the schedule, every game, the aggregates."""

    bots: tuple[str, ...]
    players: tuple[int, ...]
    games_per_lineup: int
    seed: int
    workers: int | None  # None: as many as the Ray cluster has CPUs
    table: str  # what the games were played on, as `Game.describe_options` says it
    lineups: list[Lineup]
    results: list[GameResult]
    summary: Summary
    game: str  # the game's name (`GameInfo.name`)
    elapsed: float = field(default=0.0, compare=False)
    out: Path | None = None
    solo: str | None = None  # only line-ups where this bot holds one seat
    sources: tuple[str, ...] = ()  # the game's kinds of points
    ray: str | None = None  # the Ray address the games ran at (parallel.LOCAL: started here)
    resumed: int = 0  # games taken from an earlier, interrupted run's journal

    @property
    def executor(self) -> Executor:
        return Executor(self.workers, self.ray)


def run_tournament(game: Game, bots: Sequence[str], players: Sequence[int], *, games: int,
                   seed: int, workers: int | None, out: Path | None, console: Console,
                   overwrite: bool = False, options: Options | None = None,
                   command: str | None = None, solo: str | None = None,
                   records: bool = True, ray: str | None = None,
                   resume: bool = False) -> Tournament:
    """Check the arguments, play the schedule with a progress bar, write every output.

    The games run in `workers` processes, or as Ray tasks when `ray` is an address (or
    `parallel.LOCAL`, with `workers` CPUs); the results are the same either way. Each finished
    game goes to `out`'s journal; `resume` plays only the games an earlier run of the same
    tournament did not finish.
    Raises ValueError for bad arguments or an unwritable `out` before any game is played.
    """
    how = Executor(workers, ray)
    specs = check_arguments(game, bots, players, games, how)
    options = dict(options or {})
    if solo is not None:
        solo = solo.strip()
        if solo not in specs:
            raise ValueError(f"--solo {solo!r} is not one of the bots ({', '.join(specs)})")
    for p in players:
        check_options(game, p, options)
    if resume and out is None:
        raise ValueError("--resume needs the output folder of the run to finish")
    tables, scheduled = schedule(specs, players, games, seed, solo)
    plan = {"game": game.info.name, "bots": specs, "players": list(players),
            "games_per_lineup": games, "seed": seed, "solo": solo,
            "board": game.describe_options(options), "records": records}
    done: dict[int, GameResult] = {}
    if out is not None:
        done = resumable(out, plan, scheduled) if resume else {}
        prepare_out(out, overwrite, resume)
    started = time.perf_counter()
    results = _play(game, options, scheduled, out, records, how, console, plan, done)
    tour = Tournament(tuple(specs), tuple(players), games, seed, workers,
                      game.describe_options(options), tables, results,
                      summarise(specs, tables, results, game.info.score_sources),
                      elapsed=time.perf_counter() - started, out=out, solo=solo,
                      game=game.info.name, sources=game.info.score_sources, ray=ray,
                      resumed=len(done))
    if out is not None:
        write_outputs(tour, out, command)
    return tour


def resumable(out: Path, plan: dict[str, Any], scheduled: Sequence[ScheduledGame]
              ) -> dict[int, GameResult]:
    """The games an earlier run of this same tournament finished, by schedule index.

    ValueError if the journal is missing or was started with other parameters. A last line cut
    short by the stop, or a game whose record went missing, is simply played again.
    """
    path = out / JOURNAL
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        first = json.loads(lines[0])["tournament"] if lines else None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: no journal of a tournament to resume "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    if not isinstance(first, dict):
        raise ValueError(f"{path}: no journal of a tournament to resume (it is empty)")
    for key, value in plan.items():
        if first.get(key) != value:
            raise ValueError(f"{out} holds a tournament with {key} {first.get(key)!r}, not "
                             f"{value!r}; resume it with the same arguments")
    planned = {one.index: one for one in scheduled}
    done: dict[int, GameResult] = {}
    for line in lines[1:]:
        try:
            result = game_from_json(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue
        one = planned.get(result.index)
        if one is None or (one.seed, one.seats) != (result.seed, result.seats):
            raise ValueError(f"{path}: game {result.index} is not this tournament's")
        if result.record is None or (out / result.record).is_file():
            done[result.index] = result
    return done


def _play(game: Game, options: Options, scheduled: list[ScheduledGame], out: Path | None,
          records: bool, how: Executor, console: Console, plan: dict[str, Any],
          done: dict[int, GameResult]) -> list[GameResult]:
    """Every game's result in schedule order; records and the journal written here as the
    games finish (the journal rewritten first without any line a stop cut short)."""
    results: list[GameResult | None] = [done.get(one.index) for one in scheduled]
    todo = [one for one in scheduled if one.index not in done]
    jobs = [(one, out is not None and records) for one in todo]
    journal = None
    if out is not None:
        journal = (out / JOURNAL).open("w", encoding="utf-8")
        for line in [{"tournament": plan}, *(game_json(r) for r in results if r is not None)]:
            journal.write(json.dumps(line) + "\n")
        journal.flush()
    position = {one.index: i for i, one in enumerate(scheduled)}
    try:
        with Progress(TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as progress:
            task = progress.add_task("games", total=len(scheduled), completed=len(done))
            for _, (result, text) in play_all(play_scheduled, game, options, jobs, how):
                if out is not None and result.record is not None and text is not None:
                    (out / result.record).write_text(text, encoding="utf-8")
                if journal is not None:
                    journal.write(json.dumps(game_json(result)) + "\n")
                    journal.flush()
                results[position[result.index]] = result
                progress.advance(task)
    finally:
        if journal is not None:
            journal.close()
    return [r for r in results if r is not None]


# ---------------------------------------------------------------------------------------------
# Statistics


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: sound near 0 and 1 and for small n, unlike
    the normal approximation. Fractional wins (shared victories) are allowed."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact ends, free of rounding
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


@dataclass
class BotStats:
    """One bot's figures over a set of games, counted per seat it held."""

    bot: str
    games: int  # games in which it held at least one seat
    seats: int  # seat-games: a bot with 3 seats in a game counts 3
    wins: float  # per seat; a victory shared by k players counts 1/k
    win_rate: float
    ci_low: float
    ci_high: float
    par: float  # the win rate of an equal player: the mean of 1/p over its seats
    score_mean: float
    score_sd: float
    rank_mean: float
    points_by_source: dict[str, float]  # mean points per seat-game
    decisions: int
    # seconds per decision (0 when not known); timings differ between runs, so not compared
    think_mean: float = field(compare=False)
    think_max: float = field(compare=False)


def bot_stats(bot: str, results: Sequence[GameResult], sources: Sequence[str] = ()
              ) -> BotStats | None:
    """Figures for `bot` over the games given (None if it held no seat in any of them)."""
    seats = [(r, s) for r in results for s, spec in enumerate(r.seats) if spec == bot]
    if not seats:
        return None
    sources = sources or tuple(seats[0][0].points[seats[0][1]])
    n = len(seats)
    wins = math.fsum(1 / len(r.winners) for r, s in seats if s in r.winners)
    lo, hi = wilson(wins, n)
    scores = [r.scores[s] for r, s in seats]
    decisions = sum(r.decisions[s] for r, s in seats)
    think = math.fsum(r.think[s] for r, s in seats if r.think)
    return BotStats(
        bot=bot, games=len({r.index for r, _ in seats}), seats=n, wins=wins, win_rate=wins / n,
        ci_low=lo, ci_high=hi, par=math.fsum(1 / len(r.seats) for r, _ in seats) / n,
        score_mean=statistics.fmean(scores),
        score_sd=statistics.stdev(scores) if n > 1 else 0.0,
        rank_mean=statistics.fmean(r.ranks[s] for r, s in seats),
        points_by_source={src: math.fsum(r.points[s][src] for r, s in seats) / n
                          for src in sources},
        decisions=decisions, think_mean=think / decisions if decisions else 0.0,
        think_max=max((r.think_max[s] for r, s in seats if r.think_max), default=0.0))


@dataclass(frozen=True)
class Rating:
    bot: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: the conservative rating bots are ranked by
    pairs: int  # 1-v-1 results that went into it


def rate(bots: Sequence[str], results: Sequence[GameResult]) -> list[Rating]:
    """openskill ratings from the pairwise results inside each game, best first.

    Rating each seat as its own player would let copies of a bot rate against themselves, and
    merging copies into one team would reward a bot for holding more seats; a 1-v-1 result for
    every pair of seats held by different bots avoids both. Pairs from one game are correlated,
    so sigma understates the uncertainty: use the win-rate intervals for significance.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    pairs = dict.fromkeys(bots, 0)
    for r in results:
        for i, j in itertools.combinations(range(len(r.seats)), 2):
            a, b = r.seats[i], r.seats[j]
            if a == b:
                continue
            [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]],
                                      ranks=[r.ranks[i], r.ranks[j]])
            ratings[a], ratings[b] = ra, rb
            pairs[a] += 1
            pairs[b] += 1
    out = [Rating(b, ratings[b].mu, ratings[b].sigma, ratings[b].ordinal(), pairs[b])
           for b in bots]
    return sorted(out, key=lambda x: -x.ordinal)


def rate_in_any_order(bots: Sequence[str], results: Sequence[GameResult], *,
                      orders: int = ORDERS, seed: int = 0) -> list[Rating]:
    """`rate`, averaged over `orders` shuffles of the games (seeded): online updates weigh the
    last games most, so one order can put a stronger bot below a weaker one (Signorie's
    search, 4th in three of its last four 4-player games, fell below the Planner it beat in
    46 of 72 pairs). The bots' fixed ratings come from this (`tools/bot_ratings.py`)."""
    rng = random.Random(seed)
    sums: dict[str, list[float]] = {b: [0.0, 0.0] for b in bots}
    pairs: dict[str, int] = dict.fromkeys(bots, 0)
    games = list(results)
    for _ in range(orders):
        rng.shuffle(games)
        for r in rate(bots, games):
            sums[r.bot][0] += r.mu / orders
            sums[r.bot][1] += r.sigma / orders
            pairs[r.bot] = r.pairs
    out = [Rating(b, mu, sigma, mu - 3 * sigma, pairs[b]) for b, (mu, sigma) in sums.items()]
    return sorted(out, key=lambda x: -x.ordinal)


@dataclass
class Summary:
    overall: list[BotStats]
    by_players: dict[int, list[BotStats]]
    by_lineup: list[list[BotStats]]  # indexed like the line-ups
    ratings: list[Rating]
    rounds_mean: float
    wall_mean: float = field(default=0.0, compare=False)


def summarise(bots: Sequence[str], tables: Sequence[Lineup], results: Sequence[GameResult],
              sources: Sequence[str] = ()) -> Summary:
    """Per bot overall, per player count and per line-up, plus ratings (results in order)."""
    def stats(subset: Sequence[GameResult]) -> list[BotStats]:
        return [s for b in bots if (s := bot_stats(b, subset, sources)) is not None]

    players = sorted({len(r.seats) for r in results})
    return Summary(
        overall=stats(results),
        by_players={p: stats([r for r in results if len(r.seats) == p]) for p in players},
        by_lineup=[stats([r for r in results if r.lineup == i]) for i in range(len(tables))],
        ratings=rate(bots, results),
        rounds_mean=statistics.fmean(r.rounds for r in results) if results else 0.0,
        wall_mean=statistics.fmean(r.wall for r in results) if results else 0.0,
    )


# ---------------------------------------------------------------------------------------------
# Reports: one set of tables, drawn for the terminal and as markdown


@dataclass
class Report:
    title: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}"


def _win_rows(stats: Sequence[BotStats]) -> list[list[str]]:
    return [[s.bot, str(s.games), str(s.seats), _num(s.wins), _pct(s.win_rate),
             f"{_pct(s.ci_low)}–{_pct(s.ci_high)}", _pct(s.par),
             f"{s.score_mean:.1f} ± {s.score_sd:.1f}", f"{s.rank_mean:.2f}"] for s in stats]


WIN_HEADERS = ["bot", "games", "seats", "wins", "win %", "95% CI", "par %", "score ± sd",
               "mean rank"]


def header(tour: Tournament) -> str:
    players = ", ".join(map(str, tour.players))
    return (f"{len(tour.results)} games on {tour.table}: bots {', '.join(tour.bots)}; "
            f"{players} players; {tour.games_per_lineup} games per line-up, rounded up to "
            f"whole seat rotations; seed {tour.seed}"
            + (f"; only line-ups with one {tour.solo}" if tour.solo else "")
            + (f"; {tour.resumed} games finished by an earlier run and resumed"
               if tour.resumed else ""))


def reports(tour: Tournament) -> list[Report]:
    """Every table of the report, in order."""
    s = tour.summary
    out = [Report("Line-ups", ["#", "players", "line-up", "games", "deals", "seeds"],
                  [[str(i + 1), str(t.players), t.label, str(len(games)),
                    str(len({g.deal for g in games})),
                    f"{min(g.seed for g in games)}–{max(g.seed for g in games)}"]
                   for i, t in enumerate(tour.lineups)
                   if (games := [g for g in tour.results if g.lineup == i])],
                  "every deal is played in every seat rotation of its line-up")]
    out.append(Report("Results per bot (all games)", WIN_HEADERS, _win_rows(s.overall),
                      "win % per seat held; " + CI_METHOD + "; par = the win % of an equal "
                      "player"))
    out.append(Report("Ratings", ["bot", "mu", "sigma", "ordinal (mu − 3σ)", "1-v-1 pairs"],
                      [[r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}",
                        str(r.pairs)] for r in s.ratings], RATING_METHOD))
    for p, stats in s.by_players.items():
        if sum(1 for t in tour.lineups if t.players == p) > 1:  # else the line-up table says it
            out.append(Report(f"{p} players, all line-ups", WIN_HEADERS, _win_rows(stats)))
    for i, stats in enumerate(s.by_lineup):
        if stats:
            t = tour.lineups[i]
            out.append(Report(f"Line-up {i + 1}: {t.label} ({t.players} players)", WIN_HEADERS,
                              _win_rows(stats)))
    out.append(Report("Mean points per seat-game by source", ["bot", *tour.sources, "total"],
                      [[b.bot, *[f"{b.points_by_source[src]:.1f}" for src in tour.sources],
                        f"{sum(b.points_by_source.values()):.1f}"] for b in s.overall]))
    out.append(Report("Decision time", ["bot", "decisions", "mean s/decision",
                                        "max s/decision"],
                      [[b.bot, str(b.decisions), f"{b.think_mean:.3g}", f"{b.think_max:.3g}"]
                       for b in s.overall],
                      f"mean game: {s.rounds_mean:.2f} rounds, {s.wall_mean:.2f} s wall time "
                      f"(with {tour.executor.describe()})"))
    return out


def print_tournament(tour: Tournament, console: Console) -> None:
    console.print(header(tour), highlight=False)
    for rep in reports(tour):
        table = Table(title=rep.title, caption=rep.note or None)
        for i, h in enumerate(rep.headers):
            table.add_column(h, justify="left" if i == 0 or h == "line-up" else "right")
        for row in rep.rows:
            table.add_row(*row)
        console.print(table)
    if tour.elapsed:
        console.print(f"{len(tour.results)} games in {tour.elapsed:.1f} s", style="dim")
    if tour.out is not None:
        kept = " and records/game-NNNNN.json" if _has_records(tour) else ""
        console.print(f"wrote {tour.out}/results.md, results.json, scores.png{kept}",
                      style="dim")


def _has_records(tour: Tournament) -> bool:
    return any(r.record is not None for r in tour.results)


def markdown(tour: Tournament, command: str | None = None) -> str:
    lines = ["# Tournament results", "", header(tour) + ".", ""]
    if command:
        lines += ["```sh", command, "```", ""]
    for rep in reports(tour):
        lines += [f"## {rep.title}", ""]
        if rep.note:
            lines += [rep.note[0].upper() + rep.note[1:] + ".", ""]
        lines.append("| " + " | ".join(rep.headers) + " |")
        lines.append("| " + " | ".join("---" for _ in rep.headers) + " |")
        lines += ["| " + " | ".join(row) + " |" for row in rep.rows]
        lines.append("")
    lines += ["![Score distributions](scores.png)", ""]
    if _has_records(tour):
        lines += ["Every game's record is in `records/`; `tavola replay --verify FILE` "
                  "re-plays it.", ""]
    else:
        lines += ["Per-game records were not kept (`--no-records`); each game replays from its "
                  "seed (in `results.json`) with the same bots, seeded as the tournament seeds "
                  "them.", ""]
    return "\n".join(lines)


def to_json(tour: Tournament, command: str | None = None) -> dict[str, Any]:
    s = tour.summary
    return {
        "format": FORMAT,
        "command": command,
        "parameters": {"bots": list(tour.bots), "players": list(tour.players),
                       "games_per_lineup": tour.games_per_lineup, "seed": tour.seed,
                       "workers": tour.workers, "ray": tour.ray, "game": tour.game,
                       "board": tour.table,
                       "solo": tour.solo},
        "methods": {"win_rate_interval": CI_METHOD, "rating": RATING_METHOD},
        "lineups": [{"id": i + 1, "players": t.players, "label": t.label,
                     "bots": dict(t.counts), "seats": list(t.seats)}
                    for i, t in enumerate(tour.lineups)],
        "games": [game_json(r) for r in tour.results],
        "bots": [asdict(b) for b in s.overall],
        "by_players": {str(p): [asdict(b) for b in stats] for p, stats in s.by_players.items()},
        "by_lineup": [{"lineup": i + 1, "bots": [asdict(b) for b in stats]}
                      for i, stats in enumerate(s.by_lineup)],
        "ratings": [asdict(r) for r in s.ratings],
        "rounds_mean": s.rounds_mean,
        "elapsed_seconds": round(tour.elapsed, 3),
    }


def game_json(r: GameResult) -> dict[str, Any]:
    """One game as `results.json` and the journal hold it (line-ups counted from 1)."""
    return {"index": r.index, "lineup": r.lineup + 1, "deal": r.deal,
            "rotation": r.rotation, "seed": r.seed, "seats": list(r.seats),
            "setup": r.setup, "rounds": r.rounds, "scores": list(r.scores),
            "ranks": list(r.ranks), "winners": list(r.winners),
            "points": list(r.points), "record": r.record,
            "wall_seconds": round(r.wall, 4), "decisions": list(r.decisions),
            "think_seconds": [round(t, 4) for t in r.think],
            "think_max_seconds": [round(t, 4) for t in r.think_max]}


def game_from_json(d: dict[str, Any]) -> GameResult:
    """The inverse of `game_json`; KeyError or TypeError for a line that is not a game."""
    return GameResult(
        index=int(d["index"]), lineup=int(d["lineup"]) - 1, deal=int(d["deal"]),
        rotation=int(d["rotation"]), seed=int(d["seed"]), seats=tuple(d["seats"]),
        setup=str(d["setup"]), rounds=int(d["rounds"]), scores=tuple(d["scores"]),
        ranks=tuple(d["ranks"]), winners=tuple(d["winners"]),
        points=tuple(dict(p) for p in d["points"]), decisions=tuple(d["decisions"]),
        record=d["record"], think=tuple(d["think_seconds"]),
        think_max=tuple(d["think_max_seconds"]), wall=float(d["wall_seconds"]))


def read_results(path: Path) -> dict[str, Any]:
    """A tournament's `results.json`, written now or in an earlier format, with its game in
    `parameters.game` either way, so results already saved keep their meaning. ValueError
    names a file that is not a tournament's results."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read it: {exc}") from None
    fmt = data.get("format") if isinstance(data, dict) else None
    earlier = EARLIER.fullmatch(fmt) if isinstance(fmt, str) and fmt != FORMAT else None
    if fmt != FORMAT and earlier is None:
        raise ValueError(f"{path}: not a tournament's results (format {fmt!r}, not {FORMAT})")
    parameters = data.setdefault("parameters", {})
    if earlier is not None:
        parameters.setdefault("game", earlier["game"])
    if not parameters.get("game"):
        raise ValueError(f"{path}: the results do not name their game")
    return dict(data)


def plot_scores(tour: Tournament, path: Path) -> None:
    """Box plots of final scores per bot, one panel per player count (matplotlib, no pyplot,
    so no display is needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    counts = sorted({len(r.seats) for r in tour.results})
    fig = Figure(figsize=(4.2 * len(counts) + 0.6, 4.2), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    for ax, p in zip(axes, counts, strict=True):
        data = [[r.scores[s] for r in tour.results if len(r.seats) == p
                 for s, spec in enumerate(r.seats) if spec == bot] for bot in tour.bots]
        names = [b for b, d in zip(tour.bots, data, strict=True) if d]
        data = [d for d in data if d]
        ax.boxplot(data, showmeans=True)
        ax.set_xticks(range(1, len(names) + 1), names, rotation=15)
        for i, d in enumerate(data, start=1):
            ax.scatter([i + 0.18] * len(d), d, s=6, alpha=0.35, color="tab:gray")
        ax.set_title(f"{p} players")
        ax.set_xlabel("box: quartiles, line: median, ▲: mean, dots: games", fontsize=8)
        ax.set_ylabel("final score")
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"Score distributions ({len(tour.results)} games, seed {tour.seed})")
    fig.savefig(path, dpi=110)


def write_outputs(tour: Tournament, out: Path, command: str | None = None) -> None:
    """results.json, results.md and scores.png beside the records."""
    (out / "results.json").write_text(json.dumps(to_json(tour, command), indent=1) + "\n",
                                      encoding="utf-8")
    (out / "results.md").write_text(markdown(tour, command), encoding="utf-8")
    plot_scores(tour, out / "scores.png")


__all__ = ["BotStats", "GameResult", "Lineup", "Rating", "ScheduledGame", "Summary",
           "Tournament", "bot_stats", "check_arguments", "default_workers", "lineups",
           "play_scheduled", "print_tournament", "rate", "read_results", "rotations",
           "run_tournament", "schedule", "summarise", "wilson"]
