"""The tests are laid out like the code: the platform's in `platform/`, each game's in
`games/<game>/`, the web server's in `web/`, each folder with its own conftest.py and helpers.

pytest puts every such folder on `sys.path` and imports every conftest.py under the one name
`conftest`, so a test that imported from its conftest got whichever folder's was loaded last.
Helpers are therefore plain modules with names of their own, and one pytest run may take test
files from any folders in any order."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
#: a game of another package, with its own import path (`test_conformance.py` gives it)
FIXTURE_GAME = TESTS / "fixture_game"


def sources() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if FIXTURE_GAME not in p.parents)


def imported(path: Path) -> set[str]:
    """The top-level names a file imports, wherever the import stands."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def leaning_on_helpers() -> dict[Path, list[Path]]:
    """For each folder of tests, its test files that import a module of their own folder."""
    found: dict[Path, list[Path]] = {}
    for path in sources():
        siblings = {p.stem for p in path.parent.glob("*.py")} - {path.stem}
        if path.name.startswith("test_") and imported(path) & siblings:
            found.setdefault(path.parent, []).append(path)
    return found


def test_no_test_imports_from_a_conftest() -> None:
    leaning = [p.relative_to(TESTS).as_posix() for p in sources()
               if "conftest" in imported(p)]
    assert leaning == [], "fixtures come from conftest.py, helpers from a module of their own"


def test_every_module_of_the_tests_has_a_name_of_its_own() -> None:
    """Every folder is on `sys.path`: two `helpers.py` would shadow each other."""
    names = Counter(p.name for p in sources() if p.name != "conftest.py")
    assert [name for name, count in names.items() if count > 1] == []


@pytest.mark.parametrize("order", ["web first", "web last"])
def test_one_run_collects_files_of_every_folder_in_any_order(order: str) -> None:
    folders = leaning_on_helpers()
    assert {f.relative_to(TESTS).as_posix() for f in folders} >= {
        "web", "platform", "games/gonzaga", "games/signorie"}
    ordered = sorted(folders, key=lambda f: f.name == "web", reverse=order == "web first")
    files = [p.relative_to(ROOT).as_posix() for folder in ordered for p in folders[folder]]
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:cacheprovider", *files],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    listed = {line.split(":")[0] for line in run.stdout.splitlines()}
    assert listed >= set(files)
