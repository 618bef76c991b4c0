"""`tavola bench --backup`: the size and time of a backup and of its restore, for a database
holding a number of finished games (played here, every seat a person making random legal
moves, every game the server hosts in turn)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from .backup import backup, restore


def run_backup_bench(games: int = 200, db: str | None = None) -> dict[str, Any]:
    """Fill `db` (default: a fresh SQLite file) with `games` finished games, back it up into a
    folder and restore it into a new database; the figures of both."""
    with tempfile.TemporaryDirectory() as tmp:
        source = db or f"sqlite:///{Path(tmp) / 'site.db'}"
        t0 = time.perf_counter()
        asyncio.run(_fill(source, games))
        filled = time.perf_counter() - t0
        made = backup(source, Path(tmp))
        with _new_database(source, Path(tmp)) as target:
            done = restore(target, made.path)
            finished = _finished(target)
        figures = {"database": source.split("://", 1)[0], "games": done.games,
                   "finished games (restored)": finished,
                   "filling (s)": round(filled, 1), "backup size (kB)": round(made.size / 1024),
                   "backup time (s)": round(made.seconds, 2),
                   "restore time (s)": round(done.seconds, 2)}
        if source.startswith("sqlite"):
            files = (Path(tmp, name) for name in ("site.db", "site.db-wal"))
            figures["database and WAL size (kB)"] = round(
                sum(f.stat().st_size for f in files if f.exists()) / 1024)
    return figures


def _finished(url: str) -> int:
    from .storage import open_store

    store = open_store(url)
    try:
        return len(store.game_ids("over"))
    finally:
        store.close()


async def _fill(url: str, games: int) -> None:
    from .app import GameServer, Limits
    from .loadbench import LOCAL_LIMITS
    from .site import load_sites
    from .storage import open_store

    sites = load_sites()
    server = GameServer(open_store(url), sites, bot_processes=False,
                        limits=Limits(**LOCAL_LIMITS))
    rng = random.Random(0)
    names = list(sites)
    for g in range(games):
        room = server.create({"game": names[g % len(names)],
                              "seats": [{"kind": "person"}] * 2})
        while not room.state.is_over:
            await _step(server, room, rng)
    server.store.close()


async def _step(server: Any, room: Any, rng: random.Random) -> None:
    """The first asked seat makes one random legal move (one the platform refuses is
    passed over: another is tried next time)."""
    from .errors import ClientError

    seat = room.asked()[0]
    options = list(room.game.legal_actions(room.state, seat))
    action = room.game.action_to_json(rng.choice(options))
    with contextlib.suppress(ClientError):
        await server.act(room, seat, action, room.seq)


class _new_database:
    """A new database of the source's kind for the restore: an SQLite file in `folder`, or a
    PostgreSQL database next to the source's, dropped afterwards."""

    def __init__(self, source: str, folder: Path) -> None:
        self.source, self.folder, self.name = source, folder, ""

    def __enter__(self) -> str:
        if self.source.startswith("sqlite"):
            return f"sqlite:///{self.folder / 'restored.db'}"
        parsed = urlparse(self.source)
        self.name = f"{parsed.path.lstrip('/')}_restored"
        self._admin(f'CREATE DATABASE "{self.name}"')
        return parsed._replace(path=f"/{self.name}").geturl()

    def __exit__(self, *exc: object) -> None:
        if self.name:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}"')

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.source, autocommit=True) as conn:
            conn.execute(sql)
