"""Where games live between server runs: creation parameters plus an append-only action log.

A game is fully determined by its deal (seed, scenario, seats) and the actions applied, so the
store keeps exactly that; the server rebuilds every state by replaying the log through the
engine. Everything goes through the small `GameStore` interface: `SqliteStore` here, the
embedded default, and `PgStore` (`pgstore.py`) for PostgreSQL, with what they share in
`gamestore.py` (named here too, as before). Both refuse a second action
with the same number the same way (`SeqConflict`), so a game's log never forks.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from . import outbox
from .gamestore import (
    ADDED_COLUMNS,
    INDEXES,
    INSERT_GAME,
    LOAD_ACTIONS,
    LOAD_GAME,
    LOAD_SEATS,
    SCHEMA,
    SPECTATOR_SEAT,
    GameExists,
    GameStore,
    Listing,
    SeqConflict,
    StoredGame,
    StoreError,
    active_games_sql,
    asked_column,
    game_row,
    listing,
    stored_game,
)
from .metrics import timed
from .outbox import NONE, Notices
from .sidedb import SideTables


@timed
class SqliteStore:
    """`GameStore` on SQLite in WAL mode: readers never block the writer, commits are cheap.

    One connection shared under a lock: the server writes from its event loop and, rarely,
    from worker threads; SQLite serialises writers anyway.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            # several server processes may share the file: a writer waits its turn
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                       timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            for name, kind in ADDED_COLUMNS.items():
                if name not in have:
                    self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
            self._db.executescript(INDEXES)
            self._db.executescript(outbox.OUTBOX)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite database {self.path}: {exc}") from None
        self._lock = threading.Lock()

    @property
    def journal_mode(self) -> str:
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    def create(self, game: StoredGame) -> None:
        """Store a new game; `GameExists` if its id is taken."""
        try:
            self._create(game)
        except sqlite3.IntegrityError:
            raise GameExists(f"a game {game.id} exists") from None

    def _create(self, game: StoredGame) -> None:
        with self._lock, self._tx():
            self._db.execute(INSERT_GAME, game_row(game))
            rows = [(game.id, seat, tok, int(seat in game.claimed))
                    for seat, tok in game.tokens.items()]
            rows.append((game.id, SPECTATOR_SEAT, game.spectator, 1))
            self._db.executemany("INSERT INTO seats (game_id, seat, token, claimed) "
                                 "VALUES (?,?,?,?)", rows)

    def append(self, game_id: str, seq: int, action: dict[str, Any], *,
               section: str | None = None, summary: dict[str, Any] | None = None,
               status: str | None = None, notices: Notices = NONE) -> None:
        """Add one action at position `seq` (a gap or a duplicate is refused, never lost), with
        the game's new lobby line, status and outbox rows in the same transaction."""
        with self._lock:
            try:
                with self._tx():
                    self._expect(game_id, seq, f"action {seq}")
                    now = time.time()
                    self._db.execute("INSERT INTO actions (game_id, seq, action, at) "
                                     "VALUES (?,?,?,?)", (game_id, seq, json.dumps(action), now))
                    if summary is not None:  # one statement: the lobby line and the time
                        self._db.execute("UPDATE games SET section=?, summary=?, asked=?, "
                                         "updated=? WHERE id=?",
                                         (section, json.dumps(summary), asked_column(summary),
                                          now, game_id))
                    else:
                        self._db.execute("UPDATE games SET updated=? WHERE id=?",
                                         (now, game_id))
                    if status is not None:
                        self._status(game_id, status)
                    outbox.write(self._db, game_id, notices, now)
            except sqlite3.IntegrityError:
                raise SeqConflict(game_id, f"action {seq}") from None
            except sqlite3.Error as exc:
                raise StoreError(f"cannot store action {seq} of game {game_id}: {exc}") from None

    def take_back(self, game_id: str, seq: int, *, section: str | None = None,
                  summary: dict[str, Any] | None = None, notices: Notices = NONE) -> None:
        """Remove the last action, number `seq` (an undo); anything else is refused."""
        with self._lock:
            try:
                with self._tx():
                    self._expect(game_id, seq + 1, f"taking back action {seq}")
                    self._db.execute("DELETE FROM actions WHERE game_id=? AND seq=?",
                                     (game_id, seq))
                    if summary is not None:
                        self._summary(game_id, section, summary)
                    outbox.write(self._db, game_id, notices)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot take back action {seq} of game {game_id}: "
                                 f"{exc}") from None

    def _expect(self, game_id: str, count: int, what: str) -> None:
        """The log must hold `count` actions: anything else is a move made on a stale game."""
        (stored,) = self._db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?",
                                     (game_id,)).fetchone()
        if stored != count:
            raise SeqConflict(game_id, what, stored)

    def _summary(self, game_id: str, section: str | None, summary: dict[str, Any]) -> None:
        self._db.execute("UPDATE games SET section=?, summary=?, asked=? WHERE id=?",
                         (section, json.dumps(summary), asked_column(summary), game_id))

    def _status(self, game_id: str, status: str) -> None:
        self._db.execute("UPDATE games SET status=?, finished=? WHERE id=?",
                         (status, time.time() if status == "over" else None, game_id))

    def set_summary(self, game_id: str, section: str | None, summary: dict[str, Any]) -> None:
        with self._lock, self._tx():
            self._summary(game_id, section, summary)

    def set_status(self, game_id: str, status: str) -> None:
        with self._lock, self._tx():
            self._status(game_id, status)

    def set_params(self, game_id: str, params: dict[str, Any], section: str | None,
                   summary: dict[str, Any]) -> None:
        """A game's parameters written over (a seat renamed), with its lobby line."""
        with self._lock, self._tx():
            self._db.execute("UPDATE games SET params=? WHERE id=?", (json.dumps(params), game_id))
            self._summary(game_id, section, summary)

    def claim(self, game_id: str, seat: int, *, section: str | None = None,
              summary: dict[str, Any] | None = None) -> bool:
        """Mark a seat as taken, with the game's new lobby line if given; False (and nothing
        written) if it already was."""
        with self._lock, self._tx():
            cur = self._db.execute("UPDATE seats SET claimed=1 WHERE game_id=? AND seat=? "
                                   "AND claimed=0", (game_id, seat))
            if cur.rowcount == 1 and summary is not None:
                self._summary(game_id, section, summary)
            return cur.rowcount == 1

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(LOAD_GAME, (game_id,)).fetchone()
            if row is None:
                return None
            return stored_game(row, self._db.execute(LOAD_SEATS, (game_id,)).fetchall(),
                               self._db.execute(LOAD_ACTIONS, (game_id,)).fetchall())

    def game_ids(self, status: str | None = None) -> list[str]:
        with self._lock:
            if status is None:
                rows = self._db.execute("SELECT id FROM games ORDER BY created")
            else:
                rows = self._db.execute("SELECT id FROM games WHERE status=? ORDER BY created",
                                        (status,))
            return [r[0] for r in rows]

    def lobby(self, section: str, offset: int, limit: int) -> Listing:
        """A page of a lobby list, newest first (`listing`)."""
        with self._lock:
            rows = self._db.execute("SELECT summary FROM games WHERE section=? "
                                    "ORDER BY created DESC LIMIT ? OFFSET ?",
                                    (section, limit + 1, offset)).fetchall()
        return listing(rows, limit)

    def active_games(self, since: float, *, address: str | None = None,
                     account: int | None = None) -> int:
        """Unfinished games with a move (or created) since `since`, of everyone or of one
        creator: the cap on games and its shares (`active_games_sql`)."""
        with self._lock:
            (count,) = self._db.execute(*active_games_sql(since, address, account)).fetchone()
            return int(count)

    def tables(self, part: str, schema: Any) -> Any:
        """A feature's tables in this file, on a connection of their own (in memory: on this
        very connection, the only one that sees the database)."""
        if self.path == ":memory:":
            return SideTables(self.path, schema, (self._db, self._lock))
        return SideTables(self.path, schema)

    def ping(self) -> None:
        """A read of the games table: the readiness probe's question (`ops`)."""
        with self._lock:
            self._db.execute("SELECT 1 FROM games LIMIT 1").fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def open_store(url: str) -> GameStore:
    """A store from a database URL: `sqlite:///relative.db`, `sqlite:////abs/path.db`,
    `sqlite://:memory:` or `postgresql://user@host:port/dbname` (libpq's URL form). Other
    schemes are refused with the list of supported ones."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgresql", "postgres"):
        from .pgstore import PgStore  # psycopg loads only for a PostgreSQL store

        return PgStore(url)
    if parsed.scheme != "sqlite":
        raise StoreError(f"unsupported database URL {url!r}: use sqlite:///PATH or "
                         "postgresql://USER@HOST:PORT/DBNAME")
    if parsed.netloc == ":memory:" or parsed.path in ("/:memory:", ""):
        return SqliteStore(":memory:")
    path = parsed.path[1:] if parsed.path.startswith("/") else parsed.path
    if not path:
        raise StoreError(f"database URL {url!r} names no file")
    return SqliteStore(path)


__all__ = [
    "ADDED_COLUMNS",
    "INDEXES",
    "INSERT_GAME",
    "LOAD_ACTIONS",
    "LOAD_GAME",
    "LOAD_SEATS",
    "SCHEMA",
    "SPECTATOR_SEAT",
    "GameExists",
    "GameStore",
    "Listing",
    "SeqConflict",
    "SqliteStore",
    "StoreError",
    "StoredGame",
    "active_games_sql",
    "asked_column",
    "game_row",
    "listing",
    "open_store",
    "stored_game",
]
