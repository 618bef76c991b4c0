"""The component editor's balance check on a real server: its worker processes end when the
server stops, even with a check's games still waiting."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import time
from pathlib import Path

from accounts_client import Visitor
from test_accounts import RELAXED
from web_server import launch

from tavola.games.signorie.tables import default_data
from tavola.games.signorie.web.editor import BALANCE_MAX_GAMES


def children(pid: int) -> set[int]:
    """The running processes whose parent is `pid` (read from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_the_balance_checks_workers_end_with_the_server(tmp_path: Path) -> None:
    srv = launch(tmp_path / "games.db", limits=RELAXED, proxies=["127.0.0.1"])
    workers: set[int] = set()
    try:
        before = children(srv.proc.pid)
        body = gzip.compress(json.dumps({"data": default_data(), "players": 4,
                                         "games": BALANCE_MAX_GAMES}).encode())
        ann = Visitor(srv.base, "10.9.2.1")
        status, _, check = ann.call("/api/signorie/balance", body,
                                    headers={"Content-Encoding": "gzip"})
        assert status == 200, check
        deadline = time.monotonic() + 120  # a worker process starts and imports the game
        while not workers and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = children(srv.proc.pid) - before
        assert workers, "no worker process started"
        srv.proc.terminate()
        try:
            srv.proc.wait(60)  # its lifespan ends: the games still waiting are not played
        except subprocess.TimeoutExpired:
            raise AssertionError("the server did not stop: its worker still plays the "
                                 "check's games") from None
        assert [pid for pid in workers if running(pid)] == []
    finally:
        srv.stop(kill=True)
        for pid in workers:  # the check's workers, when the server left them behind
            if running(pid):
                os.kill(pid, signal.SIGKILL)
