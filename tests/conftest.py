"""What every folder of tests shares: the databases (`db_url` on SQLite and on a throwaway
PostgreSQL) and the summary of skipped browser tests. The platform's tests are in `platform/`,
each game's in `games/<game>/`, the web server's in `web/`, each folder with its own fixtures."""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The helpers every folder shares (`pgcluster`) are plain modules here; each folder's own helpers
# are modules with names of their own in that folder (`gonzaga_helpers`, `signorie_helpers`...),
# never imported from a conftest: pytest loads every folder's conftest.py under the one name.
sys.path.insert(0, str(Path(__file__).parent))

from pgcluster import Cluster, pg_bindir, start_cluster

pytest_plugins = ["pytester"]  # to run pytest on small test files (the summary below)


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
