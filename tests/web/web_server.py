"""A real server (uvicorn in its own process) on a free loopback port, for the web tests."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tavola.web.loadbench import free_port, start_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@dataclass
class Server:
    base: str
    ws: str
    db: Path | str  # an SQLite file or a database URL
    proc: subprocess.Popen[bytes]

    def stop(self, *, kill: bool = False) -> None:
        if self.proc.poll() is None:
            (self.proc.kill if kill else self.proc.terminate)()
            self.proc.wait(10)


def launch(db: Path | str, port: int | None = None,
           limits: dict[str, float] | None = None, proxies: Sequence[str] = (),
           extra: Sequence[str] = (), log: IO[bytes] | None = None) -> Server:
    """A server; `limits` as `python -m gonzaga.web --limit` takes them (default: the relaxed
    limits of one local program driving the server); `proxies` as `--proxy` takes them;
    `log`: a file the server's log goes to."""
    port = port or free_port()
    proc = start_server(port, db, bot_delay=0.0, limits=limits, proxies=proxies, extra=extra,
                        log=log)
    return Server(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", db, proc)
