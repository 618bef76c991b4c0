"""Is the component data balanced? Bot self-play, counted: seats, actions, tiles, helpers, points.

`run_balance` plays seeded games between bots (seats rotated game by game) and `markdown`
writes the report of `docs/signorie-balance.md`: win rate per starting position and per board
colour against par, how often every Signoria action, helper slot, assignment tile and reward
tile was used, wins by the die colour each player took most, and mean points by source. The
provisional values of `data/components.json` are judged by it: every component must be used
and no seat, colour or strategy may run away with the game.
"""

from __future__ import annotations

import math
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tavola.bots import make_bot
from tavola.collector import tune
from tavola.match import play_game
from tavola.tournament import wilson

from . import text
from .engine import VP_TILE, game_tables
from .game import GAME
from .tables import Tables, tables

PAR_TOLERANCE = 0.05  # a seat within 5 percentage points of par is balanced


@dataclass(frozen=True)
class Facts:
    """What one game tells about the components, in counts."""

    players: int
    specs: tuple[str, ...]  # bot per seat
    start: tuple[int, ...]  # per seat: position in the first turn order (0 = first player)
    winner: int
    scores: tuple[int, ...]
    points: tuple[dict[str, int], ...]
    favourite: tuple[str, ...]  # per seat: the die colour taken most (ties: the dearer)
    counts: dict[str, int]  # "signoria:<colour>", "hire:<h>", "helper:<h>", "tile:<i>", ...


def game_facts(state: Any, specs: Sequence[str]) -> Facts:
    """Count, from the public log of a finished game, every use of every component."""
    t = state.t
    counts: Counter[str] = Counter()
    dice: list[Counter[int]] = [Counter() for _ in range(state.n)]
    order: list[int] = []
    for e in state.log:
        d = e.data
        if e.kind == "setup":
            order = list(d["order"])
            for r, tile in enumerate(d["rewards"]):
                counts[f"laid:{tile}"] += 1
                counts[f"round:{r}:{tile}"] += 1
        elif e.kind == "take_die":
            dice[e.seat][t.colours.index(d["colour"])] += 1
            counts[f"die:{d['colour']}"] += 1
        elif e.kind == "signoria":
            counts[f"signoria:{d['colour']}"] += 1
        elif e.kind == "hire":
            counts[f"hire:{d['helper']}"] += 1
        elif e.kind == "helper" and d["use"]:
            counts[f"helper:{d['helper']}"] += 1
        elif e.kind == "assignment":
            counts[f"tile:{d['tile']}"] += 1
            counts[f"tile_meeples:{d['tile']}"] += d["meeples"]
        elif e.kind == "reward":
            counts[f"reward:{d['choice']}:{d['tile']}"] += 1
        elif e.kind == "rewards":
            counts["qualified"] += len(d["qualified"])
            counts["chances"] += state.n
    favourite = tuple(t.colours[max(range(len(t.colours)), key=lambda c: (dc[c], c))]
                      if dc else "none" for dc in dice)
    return Facts(state.n, tuple(specs), tuple(order.index(s) for s in range(state.n)),
                 GAME.winners(state)[0], tuple(state.vp), tuple(GAME.score_breakdown(state)),
                 favourite, dict(counts))


def seats_for(players: int, game: int, specs: Sequence[str], search: str | None) -> list[str]:
    """The bots of one game: the heuristic bots alternate round the table, shifted each game;
    a search bot, if any, takes one seat, a different one each game."""
    seats = [specs[(i + game) % len(specs)] for i in range(players)]
    if search:
        seats[game % players] = search
    return seats


Job = tuple[int, int, tuple[str, ...], str | None, dict[str, Any]]


def play_facts(args: Job) -> Facts:
    """One seeded game (in a worker process), on the components its options name."""
    players, seed, specs, search, options = args
    seats = seats_for(players, seed, specs, search)
    bots = [make_bot(GAME, spec, seed=seed * 10 + i) for i, spec in enumerate(seats)]
    state = play_game(GAME, bots, seed=seed, names=[f"{s} {i + 1}" for i, s in enumerate(seats)],
                      options=options or None)
    return game_facts(state, seats)


@dataclass
class Run:
    """The games of one set-up (heuristic or search) at one player count."""

    label: str
    players: int
    facts: list[Facts] = field(default_factory=list)
    seconds: float = 0.0
    t: Tables = field(default_factory=tables)  # the components played on


def play_run(label: str, players: int, games: int, specs: Sequence[str], search: str | None,
             seed: int, workers: int, options: dict[str, Any] | None = None) -> Run:
    jobs: list[Job] = [(players, seed + g, tuple(specs), search, options or {})
                       for g in range(games)]
    started = time.perf_counter()
    if workers <= 1:
        facts = [play_facts(j) for j in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=tune) as pool:
            facts = list(pool.map(play_facts, jobs, chunksize=max(1, min(20, games // 40))))
    t = game_tables(options or {})[0]
    return Run(label, players, facts, time.perf_counter() - started, t)


def run_balance(players: Sequence[int] = (2, 3, 4), games: int = 1000,
                search: str | None = "mcts:easy", search_games: int = 100, seed: int = 0,
                workers: int = 2, specs: Sequence[str] = ("greedy", "planner"),
                progress: Any = None) -> list[Run]:
    """Heuristic self-play at each player count, then games with one search bot."""
    runs = []
    for p in players:
        runs.append(play_run(" and ".join(specs), p, games, specs, None, seed, workers))
        if progress:
            progress(runs[-1])
    if search and search_games:
        for p in players:
            runs.append(play_run(f"one {search}, the rest {' and '.join(specs)}", p,
                                 search_games, specs, search, seed + 100_000, workers))
            if progress:
                progress(runs[-1])
    return runs


# -- the report ---------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _rate(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{_pct(wins / n if n else 0)} ({_pct(lo)}–{_pct(hi)})"


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return [*out, ""]


def verdict(worst: float, par_outside: bool) -> str:
    """How a seat table stands against the target, telling noise from imbalance."""
    if worst <= PAR_TOLERANCE:
        return "within the target"
    if not par_outside:
        return "over the target, but par lies within every 95% interval: too few games to tell"
    return "**outside** the target"


def seat_rows(run: Run, key: str) -> tuple[list[list[str]], float, bool]:
    """Win rate per starting position (`start`) or per board colour (`colour`), the largest
    distance from par, and whether par lies outside some seat's 95% interval."""
    t = run.t
    n = run.players
    par = 1 / n
    rows, worst, outside = [], 0.0, False
    for s in range(n):
        if key == "start":
            seats = [(f, f.start.index(s)) for f in run.facts]
            name = text.ordinal(s + 1) + " player"
        else:
            seats = [(f, s) for f in run.facts]
            name = t.board_colours[s]
        wins = sum(1 for f, seat in seats if f.winner == seat)
        rate = wins / len(seats)
        worst = max(worst, abs(rate - par))
        outside = outside or wilson_gap(wins, len(seats), par) > 0
        mean = sum(f.scores[seat] for f, seat in seats) / len(seats)
        rows.append([name, str(len(seats)), _rate(wins, len(seats)), _pct(rate - par),
                     f"{mean:.1f}"])
    return rows, worst, outside


def usage_rows(runs: Sequence[Run]) -> dict[str, list[list[str]]]:
    """Every component and how often it was used, per run (columns) and in all."""
    t = runs[0].t if runs else tables()
    total: list[Counter[str]] = []
    for run in runs:
        c: Counter[str] = Counter()
        for f in run.facts:
            c.update(f.counts)
        total.append(c)
    games = [len(r.facts) for r in runs]

    def per_game(key: str) -> list[str]:
        return [f"{c[key] / g:.2f}" for c, g in zip(total, games, strict=True)]

    def always(key: str) -> str:
        return str(sum(c[key] for c in total))

    def row(name: str, key: str) -> list[str]:
        return [name, *per_game(key), always(key)]

    def meeples(i: int) -> str:
        uses = sum(c[f"tile:{i}"] for c in total)
        return f"{sum(c[f'tile_meeples:{i}'] for c in total) / max(1, uses):.2f}"

    colours = range(len(t.colours))
    out: dict[str, list[list[str]]] = {}
    out["signoria"] = [row(f"{t.colours[i]}: {t.signoria_name[i]}", f"signoria:{t.colours[i]}")
                       for i in colours]
    out["dice"] = [row(t.colours[i], f"die:{t.colours[i]}") for i in colours]
    helpers = []
    for h in range(len(t.helper_cost)):
        name = (f"{t.colours[t.helper_column[h]]} {t.helper_order[h]}: "
                f"{text.helper_effect_text(t, h)} ({t.helper_cost[h]} florins)")
        helpers.append([*row(name, f"hire:{h}"), *row("", f"helper:{h}")[1:]])
    out["helpers"] = helpers
    out["tiles"] = [[*row(f"{t.tile_name[i]}: {text.effect_text(t.tile_effect[i])}"
                          + (" per meeple" if t.tile_repeat[i] else ""), f"tile:{i}"),
                     meeples(i)] for i in range(len(t.tile_effect))]
    rewards = []
    for i, eff in enumerate(t.bonus_tiles):
        laid = sum(c[f"laid:{i}"] for c in total)
        bonus = sum(c[f"reward:bonus:{i}"] for c in total)
        florins = sum(c[f"reward:florins:{i}"] for c in total)
        share = bonus / (bonus + florins) if bonus + florins else 0.0
        rewards.append([f"bonus: {text.effect_text(eff)}", str(laid), str(bonus), str(florins),
                        _pct(share)])
    for i, eff in enumerate(t.vp_tiles):
        laid = sum(c[f"laid:{VP_TILE + i}"] for c in total)
        got = sum(c[f"reward:vp:{VP_TILE + i}"] for c in total)
        rewards.append([f"VP: {text.effect_text(eff)}", str(laid), str(got), "–", "–"])
    out["rewards"] = rewards
    return out


def unused(runs: Sequence[Run]) -> list[str]:
    """Components no game used: the report's first check."""
    t = runs[0].t if runs else tables()
    c: Counter[str] = Counter()
    for run in runs:
        for f in run.facts:
            c.update(f.counts)
    out = [f"Signoria action {t.signoria_name[i]}" for i in range(len(t.colours))
           if not c[f"signoria:{t.colours[i]}"]]
    out += [f"helper slot {h} ({t.colours[t.helper_column[h]]} {t.helper_order[h]})"
            for h in range(len(t.helper_cost)) if not c[f"hire:{h}"] or not c[f"helper:{h}"]]
    out += [f"assignment tile {t.tile_name[i]}" for i in range(len(t.tile_effect))
            if not c[f"tile:{i}"]]
    out += [f"reward tile {text.effect_text(e)}" for i, e in enumerate(t.bonus_tiles)
            if not c[f"reward:bonus:{i}"]]
    out += [f"reward tile {text.effect_text(e)}" for i, e in enumerate(t.vp_tiles)
            if not c[f"reward:vp:{VP_TILE + i}"]]
    return out


def strategy_rows(run: Run) -> list[list[str]]:
    """Players grouped by the die colour they took most: how often, how well they did."""
    t = run.t
    groups: dict[str, list[tuple[Facts, int]]] = defaultdict(list)
    for f in run.facts:
        for seat in range(f.players):
            groups[f.favourite[seat]].append((f, seat))
    rows = []
    for colour in (*t.colours, "none"):
        members = groups.get(colour)
        if not members:
            continue
        wins = sum(1 for f, s in members if f.winner == s)
        mean = sum(f.scores[s] for f, s in members) / len(members)
        share = len(members) / (len(run.facts) * run.players)
        rows.append([colour, _pct(share), _rate(wins, len(members)), f"{mean:.1f}"])
    return rows


def source_rows(runs: Sequence[Run]) -> list[list[str]]:
    out = []
    for run in runs:
        n = len(run.facts) * run.players
        means = {src: sum(f.points[s][src] for f in run.facts for s in range(run.players)) / n
                 for src in text.SOURCES}
        total = sum(sum(f.scores) for f in run.facts) / n
        out.append([f"{run.players}p {run.label}", *[f"{means[s]:.1f}" for s in text.SOURCES],
                    f"{total:.1f}"])
    return out


def bot_rows(runs: Sequence[Run]) -> list[list[str]]:
    """Each bot's results per set-up; the best score compares with records of human play."""
    out = []
    for run in runs:
        by: dict[str, list[tuple[Facts, int]]] = defaultdict(list)
        for f in run.facts:
            for s, spec in enumerate(f.specs):
                by[spec].append((f, s))
        for spec, seats in by.items():
            wins = sum(1 for f, s in seats if f.winner == s)
            par = sum(1 / f.players for f, _ in seats) / len(seats)
            mean = sum(f.scores[s] for f, s in seats) / len(seats)
            best = max(f.scores[s] for f, s in seats)
            out.append([f"{run.players}p {run.label}", spec, str(len(seats)),
                        _rate(wins, len(seats)), _pct(par), f"{mean:.1f}", str(best)])
    return out


def markdown(runs: Sequence[Run], command: str, workers: int) -> str:
    """The balance report."""
    lines = ["# Signorie: balance of the component data", "",
             "Bot self-play judges the provisional values of `tavola/games/signorie/data/"
             "components.json` (see `docs/signorie-components.md`). Re-run with:", "",
             "```sh", command, "```", ""]
    lines += ["| set-up | players | games | seconds | games/s |", "|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| {r.label} | {r.players} | {len(r.facts)} | {r.seconds:.0f} | "
                     f"{len(r.facts) / r.seconds:.2f} |")
    lines += ["", f"Played with {workers} worker process(es); seeds from 0 (heuristic games) "
              "and 100000 (games with the search bot), one game per seed.", ""]
    missing = unused(runs)
    lines += ["## Every component used?", ""]
    lines += ([f"**Unused:** {', '.join(missing)}.", ""] if missing else
              ["Yes: every Signoria action, helper slot (hired and activated), assignment tile "
               "and reward tile was used (tables below).", ""])
    lines += ["## Win rate per starting position and per board colour", "",
              f"Par is 1/players; the target is every seat within {PAR_TOLERANCE * 100:.0f} "
              "percentage points of par. Intervals are Wilson 95%. The starting position is "
              "the place in the first round's turn order (drawn at random, with 1, 2, 2, 3 "
              "extra florins); the board colour fixes the plan rows.", ""]
    for r in runs:
        for key, title in (("start", "starting position"), ("colour", "board colour")):
            rows, worst, outside = seat_rows(r, key)
            lines += [f"### {r.players} players, {r.label}: by {title} (largest gap "
                      f"{_pct(worst)} points, {verdict(worst, outside)})", ""]
            lines += _table(["seat", "games", "win % (95% CI)", "− par (points)", "mean score"],
                            rows)
    lines += ["## Bots", ""]
    lines += _table(["games", "bot", "seats", "win % (95% CI)", "par %", "mean score",
                     "best score"], bot_rows(runs))
    lines += ["## Wins by strategy (the die colour a player took most)", ""]
    for r in runs:
        lines += [f"### {r.players} players, {r.label}", ""]
        lines += _table(["most-taken die", "share of players", "win % (95% CI)", "mean score"],
                        strategy_rows(r))
    use = usage_rows(runs)
    cols = [f"{r.players}p {'heur.' if 'one' not in r.label else 'search'}" for r in runs]
    lines += ["## How often each component was used", "",
              "Per game (all seats together) in each set-up, and the total over all games.", "",
              "### Dice taken, by colour", ""]
    lines += _table(["colour", *cols, "total"], use["dice"])
    lines += ["### Signoria actions", ""]
    lines += _table(["action", *cols, "total"], use["signoria"])
    lines += ["### Helper slots: hired, then activated", ""]
    lines += _table(["helper", *[f"hired {c}" for c in cols], "hired total",
                     *[f"used {c}" for c in cols], "used total"], use["helpers"])
    lines += ["### Assignment tiles", ""]
    lines += _table(["tile", *cols, "total", "meeples per use"], use["tiles"])
    lines += ["### Reward tiles", "",
              "Laid out: games in which the tile was among the seven. Bonus tiles may be "
              "refused for 3 florins.", ""]
    lines += _table(["tile", "laid out", "taken", "3 florins instead", "taken %"],
                    use["rewards"])
    lines += ["## Mean points per player by source", ""]
    lines += _table(["games", *text.SOURCES, "total"], source_rows(runs))
    return "\n".join(lines)


def figures(runs: Sequence[Run]) -> dict[str, Any]:
    """The headline numbers, for a summary on the console."""
    out: dict[str, Any] = {"unused": unused(runs)}
    for row in bot_rows(runs):
        out[f"{row[0]}: {row[1]} mean / best score"] = f"{row[5]} / {row[6]}"
    for r in runs:
        start, colour = seat_rows(r, "start"), seat_rows(r, "colour")
        worst = max(start[1], colour[1])
        out[f"{r.players}p {r.label}: worst seat gap"] = (
            f"{worst * 100:.1f} points, {verdict(worst, start[2] or colour[2])}")
    return out


def wilson_gap(wins: int, n: int, par: float) -> float:
    """How far par lies outside the interval (0 when inside)."""
    lo, hi = wilson(wins, n)
    return max(0.0, lo - par, par - hi) if n else math.inf
