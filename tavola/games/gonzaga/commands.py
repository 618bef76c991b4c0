"""Gonzaga's own commands: check and draw boards, list scenarios (its terminal game is
`tavola/games/gonzaga/terminal`, which the platform's `tavola play` starts).

The platform registers them at every start of `tavola`, so each imports the board and its
checks or drawing when it runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tavola.cli import console, err, fail, report_problems

board_app = typer.Typer(no_args_is_help=True, help="Check and draw Gonzaga board files.")


def register(app: typer.Typer) -> None:
    """Add Gonzaga's commands to the `gonzaga` command."""
    app.add_typer(board_app, name="board")
    app.command()(scenarios)


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
