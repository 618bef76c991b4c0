"""Fixtures for the web tests: a real server (uvicorn in a subprocess) on a free loopback port."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gonzaga.web.loadbench import free_port, start_server


@dataclass
class Server:
    base: str
    ws: str
    db: Path
    proc: subprocess.Popen[bytes]

    def stop(self, *, kill: bool = False) -> None:
        if self.proc.poll() is None:
            (self.proc.kill if kill else self.proc.terminate)()
            self.proc.wait(10)


def launch(db: Path, port: int | None = None) -> Server:
    port = port or free_port()
    proc = start_server(port, db, bot_delay=0.0)
    return Server(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", db, proc)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("web") / "games.db")
    yield srv
    srv.stop()


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
