"""One name, Tavola: the package, the command and its old name, and a wheel that carries every
game's data by the one package-data rule."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tavola import cli

ROOT = Path(__file__).resolve().parents[2]
# where the old name stays, for a site running through an upgrade (a reason beside each): the
# cookies' names (`accounts.py`), so nobody is signed out, and Redis' channels (`cluster.py`)
COOKIES = re.compile(r"tabletop_(session|csrf|device)")
KEPT = {"tavola/web/cluster.py": 1}
#: The games of our distribution: the folders under tavola/games with a kit
OURS = sorted(p.parent.name for p in (ROOT / "tavola" / "games").glob("*/kit.py"))


def test_the_old_name_is_gone_but_where_a_running_site_needs_it():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    found = {}
    for name in tracked:
        path = ROOT / name
        if path.suffix in {".png", ".svg", ".ico"} or not path.is_file():
            continue
        text = COOKIES.sub("", path.read_text(encoding="utf-8", errors="replace"))
        count = text.lower().count("tabletop")
        if count and path.resolve() != Path(__file__).resolve():  # this test names it
            found[name] = count
    assert found == KEPT


def test_the_old_command_says_it_was_renamed_and_does_the_same(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["gonzaga", "games"])
    with pytest.raises(SystemExit) as done:
        cli.renamed()
    assert done.value.code == 0
    out = capsys.readouterr()
    assert "`gonzaga` is now called `tavola`" in out.err and "tavola games" in out.err
    assert "gonzaga" in out.out and "signorie" in out.out  # what `tavola games` prints


@pytest.mark.timeout(600)
def test_a_built_wheel_carries_every_games_data_pages_rules_and_catalogs(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                            "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("tavola-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in OURS:  # every game of our distribution
        folder = f"tavola/games/{game}"
        for part in ("data/", "web/static/", "rules/", f"locale/{game}.pot",
                     f"locale/it/LC_MESSAGES/{game}.po"):
            assert any(n.startswith(f"{folder}/{part}") for n in names), (game, part)
    assert {"tavola/web/static/lobby.html", "tavola/locale/de/LC_MESSAGES/tavola.po",
            "tavola/registry.py"} <= names
    assert not any(n.startswith(("games/", "tabletop/")) for n in names)
