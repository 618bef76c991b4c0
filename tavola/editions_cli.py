"""`tavola editions`: a game's edition files on the command line, for any game that has
editions (`GameKit.editions`): the same checks the web server runs on every save, the shipped
reconstruction as a file to start from, and the file's JSON Schema (docs/editions.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from . import registry
from .editions import EditionKind, canonical, content_hash

app = typer.Typer(no_args_is_help=True, help="A game's editions: its component data as files "
                                             "(docs/editions.md).")
console = Console()
err = Console(stderr=True)
GameName = Annotated[str, typer.Option("--game", help="The game (one that has editions).")]


def _kind(game: str) -> EditionKind:
    try:
        part = registry.kit(game).editions
    except ValueError as exc:
        err.print(escape(str(exc)), highlight=False)
        raise typer.Exit(2) from None
    if part is None:
        err.print(f"{escape(game)} has no editions", highlight=False)
        raise typer.Exit(2)
    kind: EditionKind = part.load()
    return kind


@app.command("check")
def check(file: Annotated[Path, typer.Argument(help="An edition's JSON file.")],
          game: GameName = registry.DEFAULT) -> None:
    """Every check the game applies to an edition (as the web server does on each save);
    exits with 1 when it finds a problem, 2 when the file cannot be read."""
    kind = _kind(game)
    try:
        size = file.stat().st_size
        if size > kind.max_bytes:
            raise ValueError(f"the file is {size} bytes; an edition has at most "
                             f"{kind.max_bytes}")
        data = json.loads(file.read_text(encoding="utf-8"))
        canonical(data)  # NaN and Infinity are not JSON
    except (OSError, ValueError, RecursionError) as exc:
        err.print(f"{escape(str(file))}: {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    findings = kind.check(data)
    for f in findings:
        console.print(f"{escape(f.where or '/')}: {escape(f.message)}", highlight=False)
    if findings:
        raise typer.Exit(1)
    console.print(f"playable: {escape(kind.describe(data))} (hash {content_hash(data)})",
                  highlight=False)


@app.command("default")
def default(game: GameName = registry.DEFAULT) -> None:
    """The shipped reconstruction as an edition file, to start a transcription from."""
    print(json.dumps(_kind(game).default(), ensure_ascii=False, indent=1))


@app.command("schema")
def schema(game: GameName = registry.DEFAULT) -> None:
    """The JSON Schema of the game's edition files."""
    print(json.dumps(_kind(game).schema(), ensure_ascii=False, indent=1))
