"""The platform never names a game in its code: it asks the registry and the game's kit.

Every string and identifier of `tavola/` outside the games' own packages and the catalogs is
read with `ast` (docstrings and comments may name a game as an example); a game's name in
them is a default, a branch or a list that a third game would have to edit.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavola import registry

PLATFORM = Path(__file__).resolve().parents[2] / "tavola"
OUTSIDE = ("games", "locale")  # the games' own packages; the catalogs

#: Files still naming a game, each until its own change makes it ask the kit instead.
NOT_YET: dict[str, str] = {}


def names_in(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of every string constant and identifier, docstrings left out."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for text in modules + [alias.name for alias in node.names]:
                yield node.lineno, text


def games_named(source: str) -> list[str]:
    """Where `source` names a game the registry knows: `line: text` for each."""
    games = [name.lower() for name in registry.available()]
    return [f"{line}: {text!r}" for line, text in names_in(ast.parse(source))
            if any(game in text.lower() for game in games)]


def platform_files() -> list[Path]:
    return sorted(path for path in PLATFORM.rglob("*.py")
                  if path.relative_to(PLATFORM).parts[0] not in OUTSIDE)


@pytest.mark.parametrize("path", platform_files(),
                         ids=lambda path: path.relative_to(PLATFORM).as_posix())
def test_the_platform_names_no_game(path: Path) -> None:
    where = path.relative_to(PLATFORM).as_posix()
    if where in NOT_YET:
        pytest.skip(f"not yet: {NOT_YET[where]}")
    assert games_named(path.read_text(encoding="utf-8")) == [], \
        f"tavola/{where} names a game: ask the registry or the game's kit instead"


@pytest.mark.parametrize("where", NOT_YET)
def test_a_file_that_no_longer_names_a_game_comes_off_the_list(where: str) -> None:
    assert games_named((PLATFORM / where).read_text(encoding="utf-8")), \
        f"tavola/{where} names no game any more: take it off NOT_YET"


def test_the_check_sees_strings_and_names_but_not_docstrings() -> None:
    game = registry.available()[0]
    assert games_named(f'"""Played like {game}."""\nx = 1  # {game}\n') == []
    assert games_named(f'def f(game="{game}"):\n    """{game}."""\n') == [f"1: {game!r}"]
    assert games_named(f"from tavola.games.{game} import kit\n")
    assert games_named(f"print(f'--game {game.title()}')\n")
    assert games_named(f"{game}_board = 1\n")
