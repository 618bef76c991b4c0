"""`tavola i18n extract` and `tavola i18n check`: a missing translation is found by a
command, not by a player."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from . import i18n_tools
from .i18n import DOMAINS, Domain

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="The message catalogs of every language: extract and check them.")
console = Console()
err = Console(stderr=True)

DomainOption = Annotated[list[str] | None, typer.Option(
    "--domain", help="A message domain (" + ", ".join(DOMAINS) + "; repeatable; default all).")]


def _domains(names: list[str] | None) -> list[Domain]:
    try:
        return i18n_tools.domains(names)
    except ValueError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from None


@app.command()
def extract(domain: DomainOption = None) -> None:
    """Collect every message of the sources into a .pot per domain and merge it into each
    language's .po (new messages empty, changed ones fuzzy)."""
    for d in _domains(domain):
        missing = i18n_tools.update(d)
        told = ", ".join(f"{lang}: {n} to translate" for lang, n in missing.items())
        console.print(f"{d.name}: {len(i18n_tools.extract(d))} messages ({told})",
                      highlight=False)


@app.command()
def check(domain: DomainOption = None) -> None:
    """Exit 1 listing every message missing, untranslated or fuzzy in any catalog, and every
    translation whose {placeholders} differ from the English."""
    problems = [p for d in _domains(domain) for p in i18n_tools.check(d)]
    for problem in problems:
        err.print(f"✗ {problem}", style="red", highlight=False, markup=False)
    if problems:
        err.print(f"{len(problems)} problem(s) in the message catalogs")
        raise typer.Exit(1)
    console.print("every message is translated in every language")
