"""Tables of the platform's own features (turn clocks, chat) next to the game store.

Each feature keeps its own tables (`CREATE TABLE IF NOT EXISTS`) in the same database as the
games, through its own connection, so it needs nothing from the `GameStore` but where the
database is.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .storage import StoreError


def database_of(store: Any) -> str:
    """The SQLite file of a game store (an in-memory store: a database of our own)."""
    path = getattr(store, "path", None)
    return str(path) if path else ":memory:"


class SideTables:
    """One SQLite connection shared under a lock, with the schema a feature brings."""

    def __init__(self, path: str, schema: str) -> None:
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                                       timeout=10)
            if path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(schema)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite database {path}: {exc}") from None
        self._lock = threading.Lock()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT under the lock, rolled back on any error."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"the database is not writable: {exc}") from None
            try:
                yield self._db
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise StoreError(f"the database refused a write: {exc}") from None
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()
