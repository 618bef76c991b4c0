from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from boards import tiny_board
from pgcluster import Cluster, pg_bindir, start_cluster

from tavola.games.gonzaga.actions import Plan
from tavola.games.gonzaga.engine import apply, new_game
from tavola.games.gonzaga.state import COLOURS, GameState, Piece, Setup

pytest_plugins = ["pytester"]  # to run pytest on small test files (the summary below)

FIEFS = list(range(10, 130, 10))


@pytest.fixture(scope="session")
def board():
    return tiny_board()


def make_setup(n: int, tops: Sequence[Sequence[int]] = (), scenario: str | None = None,
               objectives: Sequence[int] | None = None, oldest: int = 0) -> Setup:
    """A deal with chosen top fief cards per player; the rest of each deck in number order."""
    decks = []
    for i in range(n):
        top = list(tops[i]) if i < len(tops) else []
        decks.append(tuple(top + [f for f in FIEFS if f not in top]))
    scenario = scenario or {2: "Duo", 3: "Trio", 4: "Colombo"}[n]
    return Setup(scenario, tuple(c.title() for c in COLOURS[:n]), COLOURS[:n], tuple(decks),
                 tuple(objectives or range(1, n + 1)), oldest)


def game(board, n: int = 2, tops: Sequence[Sequence[int]] = (), **kw) -> GameState:
    variants = kw.pop("variants", ())
    return new_game(n, board=board, setup=make_setup(n, tops, **kw), variants=variants)


def plan_all(state: GameState, plans: dict[int, tuple]) -> GameState:
    """Everyone plans; players not named plan Hispania + Cities (or whatever is free)."""
    for seat in range(state.num_players):
        if seat in plans:
            region, action, *kp = plans[seat]
            state = apply(state, Plan(seat, region, action, bool(kp and kp[0])))
        else:
            p = state.players[seat]
            region = next(r for r in state.rules.region_cards if r not in p.resting)
            action = next(a for a in ("cities", "harbors", "alliance") if a not in p.resting)
            state = apply(state, Plan(seat, region, action))
    return state


def put(state: GameState, player: int, hexes: Sequence[tuple[int, int]], kind: str = "fief",
        fief: int | None = 10) -> None:
    """Lay a piece straight on the board (a position set up for a test, no scoring)."""
    idx = tuple(state.board.index_of[h] for h in hexes)
    for h in idx:
        if kind == "fief":
            state.fief_owner[h] = player
        else:
            state.ring_owner[h] = player
    state.pieces.append(Piece(player, kind, idx, fief if kind == "fief" else None, state.round))


# -- the databases: every storage test runs on SQLite and on a throwaway PostgreSQL -----------

PG_HELP = ("install PostgreSQL's server (Debian or Ubuntu: sudo apt-get install postgresql; "
           ".ci/run does it)")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One PostgreSQL cluster for the whole run; skipped locally without PostgreSQL, failing in
    CI (CI=true), where .ci/run installs it."""
    bindir = pg_bindir()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL (initdb, pg_ctl) is missing: {PG_HELP}")
        pytest.skip(f"PostgreSQL is not installed: {PG_HELP}")
    cluster = start_cluster(bindir)
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A fresh, empty PostgreSQL database."""
    return pg_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL, once SQLite and once PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return str(request.getfixturevalue("pg_url"))


# -- the summary says when browser tests did not run ---------------------------------------------

BROWSER_HELP = ("to run them, install Chromium (Debian or Ubuntu: sudo apt-get install chromium; "
                ".ci/run does it) and the dev extra for Playwright (pip install -e '.[dev]')")


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def _is_browser(report: pytest.TestReport | pytest.CollectReport, reason: str) -> bool:
    """Browser tests live in files named after the browser, or skip for want of one."""
    name = report.nodeid.split("::")[0].rsplit("/", 1)[-1]
    return "browser" in name or any(w in reason.lower() for w in ("chromium", "playwright"))


def _tests_in(path: Path) -> int:
    """Test functions in a file skipped as a whole (they were never collected one by one)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return 1
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    found = [n for n in tree.body if isinstance(n, functions) and n.name.startswith("test")]
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name.startswith("Test"):
            found += [n for n in cls.body if isinstance(n, functions) and n.name.startswith("test")]
    return max(len(found), 1)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say plainly how many browser tests were skipped and why: a green run without them has
    not played a game in a real browser."""
    count = 0
    reasons: set[str] = set()
    for report in terminalreporter.stats.get("skipped", []):
        reason = _skip_reason(report)
        if not _is_browser(report, reason):
            continue
        reasons.add(reason)
        if isinstance(report, pytest.CollectReport):
            count += _tests_in(terminalreporter.config.rootpath / report.nodeid.split("::")[0])
        else:
            count += 1
    if not count:
        return
    terminalreporter.write_sep("=", f"{count} browser test{'s' if count != 1 else ''} skipped",
                               yellow=True, bold=True)
    for reason in sorted(reasons):
        terminalreporter.write_line(f"why: {reason}", yellow=True)
    terminalreporter.write_line(BROWSER_HELP, yellow=True)
