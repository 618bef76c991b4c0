"""Tables of the platform's own features (accounts, turn clocks, chat) next to the game store.

Each feature keeps its own tables in the same database as the games and asks the game store
for them (`open_tables`): on SQLite a connection of their own to the same file, on PostgreSQL
the store's connection pool. A feature writes its SQL once, in the dialect both databases
share (`?` placeholders, `ON CONFLICT`, `RETURNING`); `Tables` is all it sees.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

from .gamestore import StoreError


class Tables(Protocol):
    """A feature's view of the database: transactions and reads, nothing more."""

    def tx(self) -> AbstractContextManager[Any]:
        """A transaction; yields something with `execute` and `executemany` (cursors with
        `fetchone`, `fetchall`, `rowcount`). A database error becomes a `StoreError`."""
        ...

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...
    def close(self) -> None: ...


Schema = str | Sequence[str]
"""A feature's schema: one script, or its versions in order (a new version is appended, never
edited). Every version is written to be applied again harmlessly (`CREATE ... IF NOT EXISTS`):
PostgreSQL records the versions it applied and applies the missing ones; SQLite runs them all
at every open."""


def steps(schema: Schema) -> tuple[str, ...]:
    return (schema,) if isinstance(schema, str) else tuple(schema)


def open_tables(where: Any, part: str, schema: Schema) -> Tables:
    """The tables of feature `part` (its `schema`, created or migrated here): in the SQLite
    file `where` names, or in the database of the game store `where`."""
    if isinstance(where, str):
        return SideTables(where, schema)
    tables = getattr(where, "tables", None)
    if tables is None:
        raise StoreError(f"the game store {type(where).__name__} keeps no side tables")
    return tables(part, schema)  # type: ignore[no-any-return]


class SideTables:
    """One SQLite connection shared under a lock, with the schema a feature brings; or a
    connection and lock it shares (an in-memory database exists once per connection)."""

    def __init__(self, path: str, schema: Schema,
                 shared: tuple[sqlite3.Connection, threading.Lock] | None = None) -> None:
        self._owned = shared is None
        try:
            if shared is None:
                self._db = sqlite3.connect(path, check_same_thread=False,
                                           isolation_level=None, timeout=10)
                if path != ":memory:":
                    self._db.execute("PRAGMA journal_mode=WAL")
                self._lock = threading.Lock()
            else:
                self._db, self._lock = shared
            with self._lock:
                for step in steps(schema):
                    self._db.executescript(step)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite database {path}: {exc}") from None

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
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"the database refused a read: {exc}") from None

    def close(self) -> None:
        if self._owned:
            with self._lock:
                self._db.close()
