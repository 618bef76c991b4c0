"""A game is one folder: Pesca (`tests/fixture_game/`, a card game of one hidden card each)
is built into its own wheel and installed beside the platform, and nothing else changes: it
passes the conformance suite, `tavola games` lists it, the lobby offers it and its page is
served. Nothing outside its folder names it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tavola.web.loadbench import free_port, start_server

ROOT = Path(__file__).resolve().parents[2]
FOLDER = Path(__file__).parents[1] / "fixture_game"


def run(args: list[str], env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pesca's wheel, built from a copy of its folder (the build leaves files beside it)."""
    tmp = tmp_path_factory.mktemp("pesca")
    source = shutil.copytree(FOLDER, tmp / "source")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp / "wheels"), str(source)], dict(os.environ))
    return next((tmp / "wheels").glob("tavola_pesca-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path) -> dict[str, str]:
    """The environment of a process that has Pesca installed beside the platform."""
    target = wheel.parent.parent / "site"
    run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)], dict(os.environ))
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(ROOT)])}


def test_the_wheel_holds_the_whole_game(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"pesca/kit.py", "pesca/game.py", "pesca/site.py", "pesca/web/static/index.html",
            "pesca/web/static/picture.svg", "pesca/locale/de/LC_MESSAGES/pesca.po",
            "pesca/locale/it/LC_MESSAGES/pesca.po"} <= names
    entry_points = zipfile.ZipFile(wheel).read("tavola_pesca-0.1.dist-info/entry_points.txt")
    assert b"[tavola.games]\npesca = pesca.kit:KIT" in entry_points


def test_the_installed_game_passes_the_conformance_suite(installed: dict[str, str]) -> None:
    out = run([sys.executable, "-m", "tavola.testing", "pesca"], installed)
    assert out.splitlines()[0] == "pesca: ok", out


def test_the_installed_game_is_listed_by_the_command(installed: dict[str, str]) -> None:
    code = "import sys; from tavola.cli import main; sys.argv = ['tavola', 'games']; main()"
    out = run([sys.executable, "-c", code], installed)
    assert "pesca: Pesca, 2-4 players" in out and "signorie: Signorie" in out


def test_the_lobby_offers_the_installed_game_and_serves_its_page(
        installed: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", installed["PYTHONPATH"])  # the server's process
    port = free_port()
    server = start_server(port, tmp_path / "g.db")
    base = f"http://127.0.0.1:{port}"
    try:
        offer = get(f"{base}/api/lobby")
        assert [game["name"] for game in json.loads(offer)["games"]] == [
            "gonzaga", "pesca", "signorie"]
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
        made = json.loads(post(f"{base}/api/games", {"game": "pesca", "seats": seats}))
        assert made["game"] == "pesca"
        page = get(f"{base}/game/{made['id']}")
        assert '<script type="module" src="/static/pesca/app.js"></script>' in page
        assert "<title>Pesca" in page and 'id="card"' in page
        assert "Table.start" in get(f"{base}/static/pesca/app.js")
    finally:
        server.terminate()
        server.wait(30)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def post(url: str, body: dict[str, object]) -> str:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read().decode()


def test_nothing_outside_its_folder_names_the_game() -> None:
    """No code, page or configuration of the platform names Pesca; of the tests, only this
    proof, the conformance suite's own tests, which break it one way each, and the editions'
    tests, which prove them on a game the platform does not know (the word is Italian: the
    Italian rules may say it)."""
    here = Path(__file__).resolve()
    web = here.parents[1] / "web"
    allowed = [p.relative_to(ROOT).as_posix()
               for p in (FOLDER.resolve(), here, here.with_name("test_conformance.py"),
                         *web.glob("test_editions*.py"))]
    listed = subprocess.run(["git", "grep", "-l", "-i", "-w", "pesca", "--", "*.py", "*.toml",
                             "*.js", "*.html", "*.json", "*.cfg", "*.ini", "*.txt", "*.in",
                             *(f":!{path}" for path in allowed)],
                            cwd=ROOT, capture_output=True, text=True)
    assert listed.returncode in (0, 1), listed.stderr
    assert listed.stdout.split() == []
