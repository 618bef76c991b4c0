"""Compiled modules (`tavola compile`, `tavola.compiling`) play exactly as their source: a copy
of the package is compiled, and seeded play, the games' own tests and the commands are run in
processes that import the copy. CI must test both ways: there a missing C compiler fails."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

import tavola
from tavola.testing import every_game
from tavola.testing.compiled import compiled_copy, fingerprint

ROOT = Path(__file__).resolve().parents[2]
COMPILED = [kit.name for kit in every_game() if kit.compiled]


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cc") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no C compiler: CI must play the compiled modules too")
        pytest.skip("no C compiler on this machine: the games run as Python")
    folder = compiled_copy(Path(tavola.__file__).parent, tmp_path_factory.mktemp("compiled"),
                           COMPILED)
    # beside the package, as in the project: the exported schemas the games' tests compare
    (folder / "docs").symlink_to(ROOT / "docs", target_is_directory=True)
    return folder


def run_in(folder: Path, *args: str, cwd: Path | None = None) -> str:
    """A Python process importing `tavola` from `folder`; its output (it must succeed)."""
    done = subprocess.run([sys.executable, *args], cwd=cwd or folder, capture_output=True,
                          text=True, timeout=1200, check=False,
                          env={**os.environ, "PYTHONPATH": str(folder)})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


def test_some_game_declares_modules_to_compile() -> None:
    assert COMPILED, "no game declares modules to compile: the compiled path is untested"


@pytest.mark.parametrize("game", COMPILED)
def test_every_declared_module_is_compiled_and_imported_compiled(copy: Path, game: str) -> None:
    out = run_in(copy, "-c", "import tavola; from tavola import compiling, registry; "
                 f"kit = registry.kit({game!r}); print(tavola.__file__); "
                 "print([compiling.is_compiled(m) for m in compiling.declared(kit)]); "
                 "print(compiling.path_used(kit))")
    where, flags, words = out.splitlines()[:3]
    assert Path(where).is_relative_to(copy)
    assert "False" not in flags and "True" in flags
    assert words.startswith("compiled with mypyc")


@pytest.mark.parametrize("game", COMPILED)
def test_compiled_modules_play_exactly_as_their_source(copy: Path, game: str) -> None:
    """Random games at every player count, bot games and a search decision, hashed."""
    compiled = run_in(copy, "-m", "tavola.testing.compiled", game).split()[-1]
    assert compiled == fingerprint(game)


@pytest.mark.parametrize("game", COMPILED)
def test_the_conformance_suite_passes_on_the_compiled_modules(copy: Path, game: str) -> None:
    """Secrecy, purity, clones, resampling, records, words: `tavola.testing`'s checks."""
    assert f"{game}: ok" in run_in(copy, "-m", "tavola.testing", game)


@pytest.mark.parametrize("game", COMPILED)
def test_its_web_views_are_built_from_the_compiled_modules(copy: Path, game: str) -> None:
    """The web side reads the compiled objects too (a view copied by its `__dict__` once
    broke there): every seat's view messages and their changes over a random game."""
    out = run_in(copy, "-c", "from tavola import registry; from tavola.bench import "
                 f"measure_views; print(measure_views(registry.get({game!r}), 0, games=1))")
    assert "view messages" in out


@pytest.mark.parametrize("game", COMPILED)
def test_the_games_own_tests_pass_on_its_compiled_modules(copy: Path, game: str,
                                                           tmp_path: Path) -> None:
    folder = ROOT / "tests" / "games" / game
    if not folder.is_dir():
        pytest.skip(f"{game} has no tests of its own here")
    report = tmp_path / "report.xml"
    # run in the copy: `python -m` and `-c` put the working folder first on the path, and
    # from the project's own folder the tests would import its source (as they once did);
    # after the tests, the process says where the modules they used came from
    out = run_in(copy, "-c", "import sys, pytest; code = pytest.main(sys.argv[1:]); "
                 "from tavola import compiling, registry; "
                 f"kit = registry.kit({game!r}); "
                 "print('USED', [sys.modules[m].__file__ for m in compiling.declared(kit)]); "
                 "sys.exit(code)", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                 f"--rootdir={ROOT}", str(folder))
    used = ast.literal_eval(out.split("USED ", 1)[1].splitlines()[0])
    assert used and all(Path(f).is_relative_to(copy) and not f.endswith(".py") for f in used)
    suite = ElementTree.parse(report).getroot().find("testsuite")
    assert suite is not None
    counts = {k: int(suite.get(k, "0")) for k in ("tests", "failures", "errors", "skipped")}
    assert counts["tests"] - counts["skipped"] >= 50 and not counts["failures"] \
        and not counts["errors"], counts


@pytest.mark.parametrize("game", COMPILED)
def test_a_module_whose_source_changed_runs_its_source_until_built_again(
        copy: Path, tmp_path: Path, game: str) -> None:
    """An extension built from another source would play other rules: the game's compiled
    modules, one group calling one another directly, are all passed over (with a warning)
    until built again, and `--clean` removes every compiled file."""
    changed = tmp_path / "changed"
    shutil.copytree(copy / "tavola", changed / "tavola")
    kit = next(k for k in every_game() if k.name == game)
    source = (changed / Path(*kit.package.split(".")) / Path(*kit.compiled[-1].split("."))
              ).with_suffix(".py")
    source.write_text(source.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    probe = ("from tavola import compiling, registry; "
             f"kit = registry.kit({game!r}); registry.get({game!r}); "
             "print([compiling.is_compiled(m) for m in compiling.declared(kit)])")
    out = run_in(changed, "-c", probe)
    assert "built from an older source" in out
    flags = next(line for line in out.splitlines() if line.startswith("["))
    assert flags == str([False] * len(kit.compiled))  # the changed one and the rest of them
    run_in(changed, "-m", "tavola", "compile", "--game", game, "--clean")
    package = changed / Path(*kit.package.split("."))
    assert not list(package.rglob("*.so")) and not list(package.rglob("compiled.json"))
    assert "older source" not in run_in(changed, "-c", probe)


def test_a_module_is_stale_unless_its_extension_was_built_from_its_source(tmp_path: Path) -> None:
    """Without a compiler: the stamps alone say which extensions match their source."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from tavola import compiling

    (tmp_path / "rules.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "plain.py").write_text("Y = 2\n", encoding="utf-8")
    assert compiling.stale_in(tmp_path) == []  # nothing compiled: nothing hashed
    (tmp_path / f"rules{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert compiling.stale_in(tmp_path) == ["rules"]  # no stamp: never trusted
    digest = hashlib.sha256(b"X = 1\n").hexdigest()
    (tmp_path / compiling.STAMP).write_text(json.dumps({"rules.py": digest}), encoding="utf-8")
    assert compiling.stale_in(tmp_path) == []
    (tmp_path / "rules.py").write_text("X = 2\n", encoding="utf-8")
    assert compiling.stale_in(tmp_path) == ["rules"]


@pytest.mark.parametrize("game", COMPILED)
def test_no_module_to_compile_relies_on_a_cached_property(game: str) -> None:
    """mypyc compiles `functools.cached_property` as a plain property: its body runs at every
    read, silently (a table meant to be built once per board was built at every move). A
    module a game lets be compiled works such values out once, by hand."""
    from tavola import compiling, registry

    def cached(module: str) -> list[str]:
        tree = ast.parse(compiling.source_of(module).read_text(encoding="utf-8"))
        return [f"{module}.{node.name}" for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef) and any(
                    getattr(d, "id", getattr(d, "attr", None)) == "cached_property"
                    for d in node.decorator_list)]

    assert [name for m in compiling.declared(registry.kit(game)) for name in cached(m)] == []


def test_clean_removes_the_extensions_of_modules_no_longer_declared(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kit that stops declaring a module must not leave its extension behind: built
    against the old shared module, it would shadow its source and fail to import."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from tavola import compiling
    from tavola.kit import GameKit, Part

    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "oldgame"
    (package / "bots").mkdir(parents=True)
    for name in ("__init__.py", "rules.py", "placement.py", "bots/__init__.py",
                 "bots/values.py", "plain.py"):
        (package / name).write_text("X = 1\n", encoding="utf-8")
    built = [package / f"rules{suffix}", package / f"placement{suffix}",
             package / f"bots/values{suffix}", package / f"compiled__mypyc{suffix}"]
    for path in built:
        path.write_bytes(b"")
    kept = package / f"vendored{suffix}"  # an extension with no source beside it: not ours
    kept.write_bytes(b"")
    for folder in (package, package / "bots"):
        (folder / compiling.STAMP).write_text("{}", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    kit = GameKit(name="oldgame", package="oldgame", game=Part("oldgame.rules:X"),
                  record_format="oldgame-record", levels=("greedy",), compiled=("rules",))
    removed = compiling.clean(kit)
    assert sorted(removed) == sorted(built)
    assert kept.is_file() and not list(package.rglob(compiling.STAMP))
    assert (package / "placement.py").is_file() and (package / "plain.py").is_file()


def test_compile_names_a_game_without_modules_to_compile_and_builds_nothing() -> None:
    from tavola import compiling, registry

    plain = [k for k in registry.kits().values() if not k.compiled] or [
        dataclasses.replace(k, compiled=()) for k in registry.kits().values()]
    built = compiling.build(plain[0])
    assert built.modules == [] and "no compiled modules" in compiling.path_used(plain[0])
