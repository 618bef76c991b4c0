"""Where editions live: their tables next to the games' (`sidedb.open_tables`), on SQLite and
PostgreSQL alike.

An edition (`editions`) is a name, an author, a visibility and a share key; its data is kept in
versions (`edition_versions`), each written once and never changed. A version a game was
created on is marked `used` and never deleted, so the game replays whatever becomes of its
edition; deleting an edition hides it from every list and drops its unused versions, and
deleting an account (`privacy`) deletes its editions but for the versions games use.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .sidedb import open_tables

SCHEMA = """
CREATE TABLE IF NOT EXISTS editions (
    id TEXT PRIMARY KEY,              -- random (secrets), unguessable
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    author INTEGER NOT NULL,          -- the account (users.id)
    visibility TEXT NOT NULL,         -- private | link | public
    share_key TEXT NOT NULL,          -- random: whoever has it reads a link edition
    latest INTEGER NOT NULL,          -- its newest version
    playable INTEGER,                 -- its newest version without findings; NULL: none
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    deleted DOUBLE PRECISION          -- hidden from lists; NULL while it is not
);
CREATE INDEX IF NOT EXISTS editions_author ON editions (author, game);
CREATE INDEX IF NOT EXISTS editions_listed ON editions (game, visibility);
CREATE TABLE IF NOT EXISTS edition_versions (
    edition_id TEXT NOT NULL REFERENCES editions(id),
    version INTEGER NOT NULL,
    hash TEXT NOT NULL,               -- tavola.editions.content_hash of the data
    data TEXT NOT NULL,               -- the data as JSON text
    playable INTEGER NOT NULL,        -- 1: the game's checks found nothing
    describe TEXT NOT NULL,           -- the game's one line on it
    used INTEGER NOT NULL DEFAULT 0,  -- 1: a game was created on it (kept for ever)
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (edition_id, version)
);
"""
STEPS = (SCHEMA,)
FORMER = 0  # the author of editions kept after their account was deleted (games play on them)
FORGET_ACCOUNT = (  # a deleted account (`privacy`): only the versions games use stay, nobody's
    "DELETE FROM edition_versions WHERE used=0 AND edition_id IN "
    "(SELECT id FROM editions WHERE author=?)",
    "DELETE FROM editions WHERE author=? AND NOT EXISTS "
    "(SELECT 1 FROM edition_versions v WHERE v.edition_id = editions.id)",
    f"UPDATE editions SET author={FORMER}, deleted=COALESCE(deleted, updated) WHERE author=?",
)
_EDITION = ("SELECT e.id, e.game, e.name, e.author, COALESCE(u.name, ''), e.visibility, "
            "e.share_key, e.latest, e.playable, e.created, e.updated, e.deleted, v.hash, "
            "v.playable, v.describe FROM editions e LEFT JOIN users u ON u.id = e.author "
            "JOIN edition_versions v ON v.edition_id = e.id AND v.version = e.latest ")


@dataclass(frozen=True)
class Edition:
    """An edition with its newest version's facts (`latest`) and its newest playable one's
    number (`playable`, None when every version has findings)."""

    id: str
    game: str
    name: str
    author: int
    author_name: str
    visibility: str
    share_key: str
    latest: int
    playable: int | None
    created: float
    updated: float
    deleted: bool
    hash: str  # the newest version's
    latest_playable: bool
    describe: str


@dataclass(frozen=True)
class Version:
    edition_id: str
    version: int
    hash: str
    data: str
    playable: bool
    describe: str


@dataclass(frozen=True)
class NewVersion:
    """A version to write: its data as JSON text and what the checks said of it."""

    hash: str
    data: str
    playable: bool
    describe: str


def _edition(row: tuple[Any, ...]) -> Edition:
    (id_, game, name, author, author_name, visibility, key, latest, playable, created,
     updated, deleted, hash_, latest_playable, describe) = row
    return Edition(id_, game, name, int(author), author_name, visibility, key, int(latest),
                   None if playable is None else int(playable), float(created),
                   float(updated), deleted is not None, hash_, bool(latest_playable),
                   describe)


class EditionStore:
    """The editions tables, on SQLite or PostgreSQL (`sidedb.Tables`)."""

    def __init__(self, where: Any) -> None:
        self.db = open_tables(where, "editions", STEPS)

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self.db.tx() as db:
            yield db

    def close(self) -> None:
        self.db.close()

    def create(self, edition_id: str, game: str, name: str, author: int, visibility: str,
               share_key: str, first: NewVersion) -> None:
        now = time.time()
        with self._tx() as db:
            db.execute("INSERT INTO editions (id, game, name, author, visibility, share_key, "
                       "latest, playable, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?)",
                       (edition_id, game, name, author, visibility, share_key, 1,
                        1 if first.playable else None, now, now))
            self._write_version(db, edition_id, 1, first, now)

    def add_version(self, edition_id: str, name: str, visibility: str,
                    new: NewVersion) -> int:
        """A new version (and the edition's name and visibility); the versions no game uses
        but the newest playable one are dropped. Returns its number."""
        now = time.time()
        with self._tx() as db:
            (latest, playable) = db.execute("SELECT latest, playable FROM editions WHERE id=?",
                                            (edition_id,)).fetchone()
            number = int(latest) + 1
            self._write_version(db, edition_id, number, new, now)
            playable = number if new.playable else playable
            db.execute("UPDATE editions SET name=?, visibility=?, latest=?, playable=?, "
                       "updated=? WHERE id=?",
                       (name, visibility, number, playable, now, edition_id))
            db.execute("DELETE FROM edition_versions WHERE edition_id=? AND used=0 "
                       "AND version<>? AND version<>?",
                       (edition_id, number, playable if playable is not None else number))
        return number

    @staticmethod
    def _write_version(db: Any, edition_id: str, number: int, new: NewVersion,
                       now: float) -> None:
        db.execute("INSERT INTO edition_versions (edition_id, version, hash, data, playable, "
                   "describe, created) VALUES (?,?,?,?,?,?,?)",
                   (edition_id, number, new.hash, new.data, int(new.playable), new.describe,
                    now))

    def edition(self, edition_id: str) -> Edition | None:
        rows = self.db.rows(_EDITION + "WHERE e.id=?", (edition_id,))
        return _edition(rows[0]) if rows else None

    def version(self, edition_id: str, number: int) -> Version | None:
        rows = self.db.rows("SELECT edition_id, version, hash, data, playable, describe "
                            "FROM edition_versions WHERE edition_id=? AND version=?",
                            (edition_id, number))
        if not rows:
            return None
        e, v, h, data, playable, describe = rows[0]
        return Version(e, int(v), h, data, bool(playable), describe)

    def of_author(self, author: int, game: str) -> list[Edition]:
        return [_edition(r) for r in self.db.rows(
            _EDITION + "WHERE e.author=? AND e.game=? AND e.deleted IS NULL "
            "ORDER BY e.updated DESC", (author, game))]

    def listed(self, game: str, limit: int) -> list[Edition]:
        """The public editions of `game` with a playable version, newest first."""
        return [_edition(r) for r in self.db.rows(
            _EDITION + "WHERE e.game=? AND e.visibility='public' AND e.deleted IS NULL "
            "AND e.playable IS NOT NULL ORDER BY e.updated DESC LIMIT ?", (game, limit))]

    def exported(self, author: int) -> list[dict[str, Any]]:
        """The account's editions, each with its newest version's data (its data export)."""
        return [{"id": i, "game": g, "name": n, "visibility": vis, "version": v, "hash": h,
                 "playable": bool(p), "created": c, "updated": u, "data": json.loads(d)}
                for i, g, n, vis, v, h, p, c, u, d in self.db.rows(
                    "SELECT e.id, e.game, e.name, e.visibility, v.version, v.hash, v.playable, "
                    "e.created, e.updated, v.data FROM editions e JOIN edition_versions v ON "
                    "v.edition_id = e.id AND v.version = e.latest WHERE e.author=? AND "
                    "e.deleted IS NULL ORDER BY e.created", (author,))]

    def holding(self, author: int, game: str, hash_: str) -> tuple[str, int] | None:
        """The name and version number of the author's edition of `game` whose version holds
        data of this content hash (the newest such), if any."""
        rows = self.db.rows(
            "SELECT e.name, v.version FROM editions e JOIN edition_versions v ON "
            "v.edition_id = e.id WHERE e.author=? AND e.game=? AND e.deleted IS NULL AND "
            "v.hash=? ORDER BY e.updated DESC, v.version DESC LIMIT 1", (author, game, hash_))
        return (str(rows[0][0]), int(rows[0][1])) if rows else None

    def count(self, author: int) -> int:
        (n,) = self.db.rows("SELECT COUNT(*) FROM editions WHERE author=? AND deleted IS NULL",
                            (author,))[0]
        return int(n)

    def use(self, edition_id: str, number: int) -> None:
        """A game is created on this version: it is kept for ever."""
        with self._tx() as db:
            db.execute("UPDATE edition_versions SET used=1 WHERE edition_id=? AND version=?",
                       (edition_id, number))

    def delete(self, edition_id: str) -> None:
        """Hidden from every list; the versions games use stay."""
        with self._tx() as db:
            db.execute("UPDATE editions SET deleted=? WHERE id=?", (time.time(), edition_id))
            db.execute("DELETE FROM edition_versions WHERE edition_id=? AND used=0 "
                       "AND version NOT IN (SELECT latest FROM editions WHERE id=?)",
                       (edition_id, edition_id))
