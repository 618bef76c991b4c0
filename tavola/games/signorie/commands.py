"""Signorie's own commands: `tavola components check` (the component file) and `gonzaga
balance` (the balance report of the component data).

The platform registers them at every start of `tavola`, so each imports what it runs when it
runs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from tavola.cli import console, fail, report_problems, split

NOTES = "<!-- findings -->"

components_app = typer.Typer(no_args_is_help=True,
                             help="Check Signorie's component data (known and provisional "
                                  "values).")


@components_app.command("check")
def components_check(file: Annotated[Path | None, typer.Argument(
        help="Component file (default: the shipped reconstruction).")] = None) -> None:
    """Validate a Signorie component file; exit 1 naming each problem."""
    from .components import check_components, summary

    report_problems(check_components(file), str(file or "the shipped components"))
    console.print(f"[green]✓[/] {summary(file)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add Signorie's commands to the `gonzaga` command."""
    app.command()(balance)
    app.add_typer(components_app, name="components")


def balance(
    games: Annotated[int, typer.Option(help="Games per player count between heuristic bots.")
                     ] = 1000,
    search: Annotated[str, typer.Option(help="The search bot that takes one seat in the "
                                             "further games ('' for none).")] = "mcts:easy",
    search_games: Annotated[int, typer.Option(help="Games per player count with the search "
                                                   "bot.")] = 100,
    players: Annotated[str, typer.Option(help="Player counts, comma-separated.")] = "2,3,4",
    bots: Annotated[str, typer.Option(help="Heuristic bots, alternating round the table.")
                    ] = "greedy,planner",
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 2,
    out: Annotated[Path, typer.Option(help="Where to write the report.")
                   ] = Path("docs/signorie-balance.md"),
) -> None:
    """Signorie: play bot games and write the balance report of the component data."""
    from tavola.games.signorie.balance import figures, markdown, run_balance

    try:
        counts = [int(p) for p in split(players)]
    except ValueError:
        raise fail(f"--players takes numbers separated by commas, not {players!r}") from None
    if any(not 2 <= p <= 4 for p in counts) or games < 1 or search_games < 0 or workers < 1:
        raise fail("players must be 2 to 4, games and workers at least 1")

    def progress(run) -> None:  # type: ignore[no-untyped-def]
        console.print(f"{run.players} players, {run.label}: {len(run.facts)} games in "
                      f"{run.seconds:.0f} s", highlight=False)

    runs = run_balance(counts, games, search or None, search_games, seed, workers,
                       split(bots), progress)
    command = "gonzaga " + shlex.join(["balance", *sys.argv[2:]])
    report = markdown(runs, command, workers)
    old = out.read_text(encoding="utf-8") if out.exists() else ""
    if NOTES in old:  # the findings written by hand below the tables are kept
        report += "\n" + old[old.index(NOTES):]
    out.write_text(report, encoding="utf-8")
    for key, value in figures(runs).items():
        console.print(f"{key}: {value}", highlight=False)
    console.print(f"wrote {out}", style="dim")
