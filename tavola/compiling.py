"""A game's hot modules compiled from their own source, or run as they are.

A kit may name modules of its package that mypyc (part of mypy: it compiles type-annotated
Python to C extensions) can compile (`GameKit.compiled`). `tavola compile` builds them next to
their source; Python then imports the extension instead of the `.py` file, and without it the
same file runs as plain Python. So there is one source of the rules, and a machine with no C
compiler plays exactly as one with it: the tests play the same seeded games both ways
(`tests/platform/test_compiled.py`).

An extension built from an older source would play the old rules: each build records the hash
of the source it was made from, and a module whose source changed since is loaded from its
source until it is built again (`prefer_source`, with a warning).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from .kit import GameKit

#: Where a package keeps the hashes of the sources its extensions were built from.
STAMP = "compiled.json"
#: The module, in the game's package, of the code its compiled modules share.
SHARED = "compiled"
#: The build, as mypyc's own command writes it, with the shared code kept in the game's package
#: (by default it is a top-level module named by a hash). The modules a compiled one imports
#: are read for their types only (`--follow-imports=silent`): their own errors are for the
#: project's type check, and a game's bots import the platform, whose web modules use libraries
#: without type information.
SETUP = """from setuptools import setup
from mypyc.build import mypycify

setup(name="compiled", ext_modules=mypycify(["--follow-imports=silent", *{files!r}],
                                            opt_level="3", group_name={group!r}))
"""


log = logging.getLogger(__name__)


class Built(NamedTuple):
    """What `build` compiled, and in how many seconds (mypyc's type check and the C
    compiler's work together)."""

    game: str
    modules: list[str]
    seconds: float


class CompileError(RuntimeError):
    """The compiler is missing or refused a module: the message says which and why."""


def declared(kit: GameKit) -> list[str]:
    """The full names of the modules the game lets be compiled."""
    return [f"{kit.package}.{name}" for name in kit.compiled]


def source_of(module: str) -> Path:
    """The `.py` file of a module, found without importing it."""
    spec = importlib.util.find_spec(module.rpartition(".")[0])
    if spec is None or not spec.submodule_search_locations:
        raise CompileError(f"no package for {module}")
    path = Path(next(iter(spec.submodule_search_locations))) / \
        (module.rpartition(".")[2] + ".py")
    if not path.is_file():
        raise CompileError(f"no source file for {module} at {path.name}")
    return path


def extensions_of(module: str) -> list[Path]:
    """The compiled files of a module beside its source (none when it runs as Python)."""
    source = source_of(module)
    return [source.with_name(source.stem + suffix)
            for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if source.with_name(source.stem + suffix).is_file()]


def is_compiled(module: str) -> bool:
    """Whether importing the module loads its compiled extension."""
    spec = importlib.util.find_spec(module)
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def path_used(kit: GameKit) -> str:
    """In words, how the game's engine runs: which modules are compiled, if any."""
    compiled = [m.rpartition(".")[2] for m in declared(kit) if is_compiled(m)]
    old = stale(kit)
    if old:
        return (f"{', '.join(m.rpartition('.')[2] for m in old)} compiled from an older "
                "source: every compiled module runs as Python (`tavola compile` builds them "
                "again)" + (f"; compiled with mypyc: {', '.join(compiled)}" if compiled else ""))
    if compiled:
        return f"compiled with mypyc ({', '.join(compiled)}), the rest Python"
    return "Python, no compiled modules" + (" (`tavola compile` builds them)"
                                            if kit.compiled else "")


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stamps(package_dir: Path) -> dict[str, str]:
    try:
        found = json.loads((package_dir / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def stale(kit: GameKit) -> list[str]:
    """Compiled modules of the game whose source changed since they were built (or whose
    source hash was never recorded)."""
    return stale_under(kit.package, package_folder(kit.package))


def stale_under(package: str, root: Path) -> list[str]:
    """`stale_in` over a package folder and the folders below it, by full module name."""
    return sorted(_dotted(package, root, folder, name)
                  for folder in _folders(root) for name in stale_in(folder))


def compiled_under(package: str, root: Path) -> list[str]:
    """Every module under a package folder with a compiled extension beside its source."""
    return sorted(_dotted(package, root, folder, name) for folder in _folders(root)
                  for path in folder.iterdir()
                  if (name := _extension_stem(path.name)) is not None
                  and (folder / f"{name}.py").is_file())


def _folders(root: Path) -> list[Path]:
    return [root, *(p for p in sorted(root.rglob("*")) if p.is_dir()
                    and (p / "__init__.py").is_file())]


def _dotted(package: str, root: Path, folder: Path, name: str) -> str:
    return ".".join([package, *folder.relative_to(root).parts, name])


def stale_in(folder: Path) -> list[str]:
    """The modules of a package folder whose compiled extension was not built from the
    source beside it: none where nothing is compiled (a folder listing, nothing hashed)."""
    out = []
    stamps: dict[str, str] | None = None
    for path in folder.iterdir():
        name = _extension_stem(path.name)
        if name is None or not (folder / f"{name}.py").is_file():
            continue
        if stamps is None:
            stamps = _stamps(folder)
        if stamps.get(f"{name}.py") != _hash(folder / f"{name}.py"):
            out.append(name)
    return sorted(out)


def prefer_source(package: str, folder: str | Path) -> list[str]:
    """Called by a game package as it is imported, before any of its modules: when a module
    of the game's compiled group was built from another source, every module of the group
    is loaded from its source instead (an old extension would play the old rules, and the
    group's modules call one another directly, not through imports), with a warning to
    build again; the modules found stale."""
    root = _group_root(package, Path(folder))
    if root is None:
        return []
    group, where = root
    old = stale_under(group, where)
    if old and group not in _PASSED_OVER:
        every = set(compiled_under(group, where))
        _PASSED_OVER[group] = every
        sys.meta_path.insert(0, _SourceFirst(group, where, every))
        log.warning("compiled %s of %s was built from an older source: every compiled "
                    "module of the game runs its source instead; `tavola compile` builds "
                    "them again", ", ".join(old), group)
    return old


def _group_root(package: str, folder: Path) -> tuple[str, Path] | None:
    """The package, at `folder` or above it, that holds a game's shared compiled module
    (`SHARED`): the folder its compiled group was built in. None: nothing compiled."""
    while "." in package:
        if any(_extension_stem(p.name) == f"{SHARED}__mypyc"
               for p in folder.glob(f"{SHARED}__mypyc.*")):
            return package, folder
        package, folder = package.rpartition(".")[0], folder.parent
    return None


_PASSED_OVER: dict[str, set[str]] = {}  # a game's package -> its modules loaded from source


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules (full names) under one package in their `.py` files."""

    def __init__(self, package: str, folder: Path, names: set[str]) -> None:
        self.package, self.folder, self.names = package, folder, names

    def find_spec(self, fullname: str, path: Any = None, target: Any = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        parts = fullname[len(self.package) + 1:].split(".")
        return importlib.util.spec_from_file_location(
            fullname, self.folder.joinpath(*parts[:-1], f"{parts[-1]}.py"))


def _extension_stem(filename: str) -> str | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if filename.endswith(suffix):
            return filename[: -len(suffix)]
    return None


def clean(kit: GameKit) -> list[Path]:
    """Remove every compiled module of the game's package, declared or not, and their
    stamps; the files removed. A module the kit no longer declares keeps no extension:
    built against an older shared module, it would fail to import."""
    removed: list[Path] = []
    package = package_folder(kit.package)
    for path in sorted(package.rglob("*")):
        stem = _extension_stem(path.name)
        if stem is not None and (stem == f"{SHARED}__mypyc"
                                 or path.with_name(f"{stem}.py").is_file()):
            path.unlink()
            removed.append(path)
    for stamps in package.rglob(STAMP):
        stamps.unlink()
    return removed


def package_folder(package: str) -> Path:
    """The folder of a package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise CompileError(f"no package {package}")
    return Path(next(iter(spec.submodule_search_locations)))


def _write_stamps(package_dir: Path, stamps: dict[str, str]) -> None:
    path = package_dir / STAMP
    if stamps:
        path.write_text(json.dumps(stamps, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    elif path.exists():
        path.unlink()


def build(kit: GameKit) -> Built:
    """Compile the game's declared modules beside their source; what was built and how long
    it took. A module mypyc refuses raises `CompileError` with mypyc's own words."""
    modules = declared(kit)
    if not modules:
        return Built(kit.name, [], 0.0)
    if shutil.which(os.environ.get("CC", "cc")) is None:
        raise CompileError("no C compiler (cc) on this machine: the game runs as Python")
    if importlib.util.find_spec("mypyc") is None:
        raise CompileError("mypyc is not installed: pip install -e '.[compile]' (it comes "
                           "with mypy)")
    sources = [source_of(m) for m in modules]
    clean(kit)
    root = _root_of(sources[0], modules[0])
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tavola-compile-") as work:
        # mypyc builds in the folder it runs in and copies each extension to the same path
        # there: a folder holding only a link to the package tree puts them beside the source
        # (and keeps a project's own configuration files out of the build)
        top = modules[0].partition(".")[0]
        (Path(work) / top).symlink_to(root / top, target_is_directory=True)
        (Path(work) / "setup.py").write_text(SETUP.format(
            files=[str(src.relative_to(root)) for src in sources],
            group=f"{kit.package}.{SHARED}"), encoding="utf-8")
        done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                              cwd=work, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        clean(kit)
        lines = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line]
        raise CompileError("mypyc refused: " + "; ".join(lines[:5] or [done.stderr[-500:]]))
    for source in sources:
        stamps = _stamps(source.parent)
        stamps[source.name] = _hash(source)
        _write_stamps(source.parent, stamps)
    return Built(kit.name, modules, round(time.perf_counter() - started, 1))


def _root_of(source: Path, module: str) -> Path:
    """The folder the module's top package is in."""
    root = source.parent
    for _ in range(module.count(".")):
        root = root.parent
    return root
