"""Types as a gate: every module passes mypy's strict check but those on the not-yet-typed list
in pyproject.toml, and that list only shrinks.

`make test` runs mypy with the list (its errors pass over the listed modules); here mypy runs
once without it, so a listed module that already passes is caught and must come off the list.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from tavola import registry
from tavola.game import Game
from tavola.web.site import WebGame

ROOT = Path(__file__).resolve().parents[2]
ERROR = re.compile(r"^(tavola/\S+)\.py:\d+: error:", re.M)


def mypy_config() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        config: dict[str, Any] = tomllib.load(f)["tool"]["mypy"]
    return config


def not_yet_typed(config: dict[str, Any]) -> list[str]:
    """The modules of the override that passes over errors."""
    return [m for o in config.get("overrides", []) if o.get("ignore_errors")
            for m in o["module"]]


def toml_without_list(config: dict[str, Any]) -> str:
    """The mypy section as TOML, the not-yet-typed override left out (JSON writes the
    strings, lists and booleans it holds as TOML does)."""
    def table(values: dict[str, Any]) -> list[str]:
        return [f"{k} = {json.dumps(v)}" for k, v in values.items() if k != "overrides"]

    lines = ["[tool.mypy]", *table(config)]
    for override in config.get("overrides", []):
        if not override.get("ignore_errors"):
            lines += ["", "[[tool.mypy.overrides]]", *table(override)]
    return "\n".join(lines) + "\n"


def module_of(path: str) -> str:
    return path.removesuffix("/__init__").replace("/", ".")


def strict_errors(tmp_path: Path) -> set[str]:
    """The modules with errors under the strict check of every module (mypy's cache kept
    apart from `make test`'s, whose options differ)."""
    config = tmp_path / "pyproject.toml"
    config.write_text(toml_without_list(mypy_config()))
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config),
         "--cache-dir", str(ROOT / ".mypy_cache" / "unlisted"), "tavola"],
        cwd=ROOT, capture_output=True, text=True, timeout=500)
    assert run.returncode in (0, 1), run.stdout + run.stderr  # 2: mypy itself failed
    return {module_of(path) for path in ERROR.findall(run.stdout)}


def test_the_not_yet_typed_list_only_shrinks(tmp_path: Path) -> None:
    listed = not_yet_typed(mypy_config())
    assert len(listed) == len(set(listed)) and listed == sorted(listed), \
        "keep the not-yet-typed list sorted, each module once"
    failing = strict_errors(tmp_path)
    typed = sorted(set(listed) - failing)
    assert not typed, ("these modules pass mypy's strict check now: take them off the "
                       f"not-yet-typed list in pyproject.toml: {', '.join(typed)}")
    unlisted = sorted(failing - set(listed))
    assert not unlisted, ("these modules fail mypy's strict check (run mypy); a module never "
                          f"goes on the not-yet-typed list: {', '.join(unlisted)}")


def test_the_seam_is_strict() -> None:
    """The declaration, the rules interface, the web protocol and the bot API, and each
    game's side of them, are checked strictly."""
    listed = set(not_yet_typed(mypy_config()))
    seam = {"tavola.kit", "tavola.game", "tavola.registry", "tavola.records", "tavola.bots",
            "tavola.web.site"}
    seam |= {f"{kit.package}.{part}" for kit in registry.kits().values()
             if kit.package.startswith("tavola.games.")
             for part in ("kit", "game", "bots", "web.site")}
    assert not seam & listed


def test_the_protocols_declare_what_the_platform_calls() -> None:
    """The web protocol once lost its second half to a function defined inside it; the server
    calls all of these."""
    for name in ("deal", "view_json", "log_json", "log_length", "summary", "decision_start",
                 "undoable", "last_player", "not_your_turn", "preview", "record_name",
                 "bench_reply", "params_extra", "upgrade_params", "check_stored"):
        assert callable(getattr(WebGame, name, None)), name
    for name in ("info", "bots", "search", "new_game", "legal_actions", "apply"):
        assert hasattr(Game, name), name


def test_the_package_ships_its_types() -> None:
    """`py.typed` tells users' type checkers to read the package's hints (PEP 561)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]["*"]
    assert "py.typed" in data
    assert (ROOT / "tavola" / "py.typed").is_file()
