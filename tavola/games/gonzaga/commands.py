"""Gonzaga's own commands: check and draw boards, list scenarios, train the search's learned
value (its terminal game is
`tavola/games/gonzaga/terminal`, which the platform's `tavola play` starts).

The platform registers them at every start of `tavola`, so each imports the board and its
checks or drawing when it runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tavola.cli import console, err, fail, report_problems, split

board_app = typer.Typer(no_args_is_help=True, help="Check and draw Gonzaga board files.")


def register(app: typer.Typer) -> None:
    """Add Gonzaga's commands to the `gonzaga` command."""
    app.add_typer(board_app, name="board")
    app.command()(scenarios)
    app.command("train-value")(train_value)


def _load_board(path: Path | None):  # type: ignore[no-untyped-def]
    from .board import BoardError, load_board

    try:
        return load_board(path)
    except BoardError as exc:
        raise fail(str(exc)) from None



@board_app.command("check")
def board_check(file: Annotated[Path | None, typer.Argument(help="Board file (default: the "
                                                                 "shipped board).")] = None
                ) -> None:
    """Validate a board file against every invariant; exit 1 naming each violation."""
    from .board import BoardError, load_board
    from .boardcheck import check_board

    try:
        board = load_board(file)
    except BoardError as exc:
        for problem in exc.problems:
            err.print(f"[red]✗[/] {problem}", highlight=False)
        raise typer.Exit(1) from None
    report_problems([str(p) for p in check_board(board)], board.name)
    console.print(f"[green]✓[/] {board.name}: {board.hex_count} hexes, "
                  f"{len(board.cities)} cities, {len(board.harbors)} harbors, "
                  f"{len(board.fiefs)} fiefs, {len(board.scenarios)} scenarios, "
                  f"{len(board.objectives)} objectives; hash {board.content_hash[:12]}")


@board_app.command("show")
def board_show(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output file, .svg or .png.")],
    file: Annotated[Path | None, typer.Option("--board", help="Board file.")] = None,
) -> None:
    """Draw the board: regions, seas, cities, harbors, sea routes, barriers, seals, church."""
    from .render import draw_board

    board = _load_board(file)
    if out.suffix.lower() not in (".svg", ".png"):
        raise fail(f"--out must end in .svg or .png, not {out.suffix or 'nothing'!r}")
    try:
        draw_board(board, out)
    except (OSError, ValueError) as exc:
        raise fail(f"cannot write {out}: {exc}") from None
    console.print(f"wrote {out}")


def scenarios(players: Annotated[int | None, typer.Option(help="Only for this many players.")]
              = None) -> None:
    """List the scenario tiles."""
    from rich.table import Table

    board = _load_board(None)
    table = Table("name", "players", "flourishing", "inactive", "person")
    for s in board.scenarios.values():
        if players is None or s.players == players:
            table.add_row(s.name, str(s.players),
                          ", ".join(board.regions[r].name for r in s.flourishing),
                          ", ".join(board.regions[r].name for r in board.inactive_regions(s)),
                          s.person)
    console.print(table)


def train_value(
    games: Annotated[int, typer.Option(min=20, help="Self-play games per number of players.")
                     ] = 400,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 30000,
    players: Annotated[str | None, typer.Option(
        help="Numbers of players, comma-separated (default 2,4; 2 with --map).")] = None,
    out: Annotated[Path | None, typer.Option(
        help="The value file to write (default value.json, map-value.json with --map).")
                   ] = None,
    bots: Annotated[str, typer.Option(help="Bots of the training games, comma-separated, "
                                           "seated in turn (the first one's seat rotates).")
                    ] = "planner",
    map_: Annotated[bool, typer.Option(
        "--map", help="Fit the value over the map (every hex's worth, 2 players).")] = False,
) -> None:
    """Gonzaga: fit the search's learned value to self-play games (planners by default)."""
    from tavola.bots import make_bot

    from .bots.value import load_value, train, write_value
    from .game import GAME

    specs = split(bots)
    try:
        for spec in specs or ["(none)"]:
            make_bot(GAME, spec)
    except ValueError as exc:
        raise fail(f"--bots: {exc}") from None
    players = players or ("2" if map_ else "2,4")
    try:
        counts = sorted({int(p) for p in split(players)})
    except ValueError:
        raise fail(f"--players: numbers between 2 and 4, not {players!r}") from None
    if not counts or not all(2 <= n <= 4 for n in counts):
        raise fail(f"--players: numbers between 2 and 4, not {players!r}")
    if map_:
        if counts != [2]:
            raise fail(f"--players: the value over the map is for 2 players, not {players!r}")
        return _train_map(games, seed, out or Path("map-value.json"), specs)
    out = out or Path("value.json")
    try:  # replacing a value file raises its version
        version = load_value(out).version + 1
    except (OSError, ValueError):
        version = 1
    command = (f"tavola train-value --games {games} --seed {seed} "
               f"--players {','.join(map(str, counts))} --bots {','.join(specs)} "
               f"--out {out.name}")
    with console.status(f"{games} games for each of {', '.join(map(str, counts))} players"):
        model = train(GAME, games, seed, counts, command, version, specs)
    write_value(model, out)
    for n, rows in model.by_players.items():
        for row in rows:
            console.print(f"{n} players, from {row.from_rounds_left} rounds left: "
                          + " ".join(f"{p} {c:.2f}" for p, c in zip(model.parts,
                                                                    row.coefficients,
                                                                    strict=True))
                          + f" (correlation {row.correlation_before:.3f} → "
                            f"{row.correlation_after:.3f}, {row.pairs} pairs)",
                          highlight=False)
    console.print(f"[green]✓[/] wrote {out}")


def _train_map(games: int, seed: int, out: Path, specs: list[str]) -> None:
    from .bots.map_value import load_map_value, train_map, write_map_value
    from .game import GAME

    try:  # replacing a value file raises its version
        version = load_map_value(out).version + 1
    except (OSError, ValueError):
        version = 1
    command = (f"tavola train-value --map --games {games} --seed {seed} "
               f"--bots {','.join(specs)} --out {out.name}")
    with console.status(f"{games} games of 2 players"):
        model = train_map(GAME, games, seed, command, version, specs)
    write_map_value(model, out)
    for row in model.rows:
        console.print(f"from {row.from_rounds_left} rounds left: "
                      + " ".join(f"{p} {c:.2f}" for p, c in zip(model.parts, row.coefficients,
                                                                strict=True))
                      + f", ridge {row.ridge:g} (held-out correlation "
                        f"{row.correlation_before:.3f} → {row.correlation_after:.3f}, "
                        f"{row.pairs} positions)", highlight=False)
    console.print(f"[green]✓[/] wrote {out}")
