"""Signorie's own commands: check the component data file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli import console, report_problems

components_app = typer.Typer(no_args_is_help=True,
                             help="Check Signorie's component data (known and provisional "
                                  "values).")


def register(app: typer.Typer) -> None:
    """Add Signorie's commands to the `gonzaga` command."""
    app.add_typer(components_app, name="components")


@components_app.command("check")
def components_check(file: Annotated[Path | None, typer.Argument(
        help="Component file (default: the shipped reconstruction).")] = None) -> None:
    """Validate a Signorie component file; exit 1 naming each problem."""
    from .components import check_components, summary

    report_problems(check_components(file), str(file or "the shipped components"))
    console.print(f"[green]✓[/] {summary(file)}", highlight=False)
