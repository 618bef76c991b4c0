"""Backups of the site's database and their restoring (`tavola backup`, `tavola restore`).

Every table of the site (games, accounts, chat, notices...) lives in the one database the
server is given, so one backup holds the whole site. SQLite is copied through its online
backup API, consistent while the server writes (WAL: the server's writes are not held up);
PostgreSQL through `pg_dump`, whose one snapshot is consistent too. A backup is written to a
temporary file and renamed, so a backup file is never half written; `docs/web.md` ("Backups")
gives the programs' flags and why.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlparse, urlunparse

from .storage import open_store

SQLITE_EXT = "sqlite3"
PG_EXT = "dump"
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"  # the first bytes of pg_dump's custom format
STAMP = "%Y%m%d-%H%M%S"
PG_BINDIRS = "/usr/lib/postgresql/*/bin"  # Debian's versioned folders, when not on PATH
#: pg_dump: one file pg_restore reads selectively; no owners or grants, which name roles
#: of the origin's cluster that the restoring cluster may not have.
PG_DUMP_FLAGS = ("--format=custom", "--no-owner", "--no-privileges")
#: pg_restore: all or nothing, the objects owned by whoever restores, no grants.
PG_RESTORE_FLAGS = ("--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error")
#: ... and, forced (or into a database holding the site's empty tables), its objects dropped
#: first, with no error for those it does not hold.
PG_REPLACE_FLAGS = ("--clean", "--if-exists")


class BackupError(RuntimeError):
    """A backup or restore that cannot be made; the message names the problem. Nothing was
    changed."""


@dataclass
class Backup:
    """A backup written: its file, its size in bytes, the seconds it took, and the older
    backups `--keep` removed."""

    path: Path
    size: int
    seconds: float
    pruned: list[Path] = field(default_factory=list)


@dataclass
class Restored:
    """A restore made: the games the database holds now and the seconds it took."""

    games: int
    seconds: float


@dataclass(frozen=True)
class Database:
    """A database URL read for backups: its kind ('sqlite' or 'postgresql'), its name (an
    SQLite file's stem) and the SQLite file, if it is one."""

    url: str
    kind: str
    name: str
    file: Path | None = None

    @property
    def ext(self) -> str:
        return SQLITE_EXT if self.kind == "sqlite" else PG_EXT


def database(url: str) -> Database:
    """The database `url` names, as `open_store` reads it; an in-memory one has nothing to
    back up."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgresql", "postgres"):
        name = unquote(parsed.path.lstrip("/")) or parsed.username or "postgres"
        return Database(url, "postgresql", name)
    if parsed.scheme != "sqlite":
        raise BackupError(f"unsupported database URL {url!r}: use sqlite:///PATH or "
                          "postgresql://USER@HOST:PORT/DBNAME")
    path = parsed.path[1:] if parsed.path.startswith("/") else parsed.path
    if parsed.netloc == ":memory:" or path in ("", ":memory:"):
        raise BackupError(f"database URL {url!r} names no file (an in-memory database is not "
                          "kept anywhere)")
    return Database(url, "sqlite", Path(path).stem, Path(path))


# -- backup ----------------------------------------------------------------------------------

def backup(url: str, path: Path, *, keep: int | None = None,
           now: datetime | None = None) -> Backup:
    """Back up the database `url` into the file `path`, or into a new file named
    `<dbname>-YYYYmmdd-HHMMSS.<ext>` (UTC) when `path` is a directory; there, with `keep`,
    only the `keep` newest backups of this database stay."""
    db = database(url)
    if keep is not None and (keep < 1 or not path.is_dir()):
        raise BackupError("--keep N needs N of at least 1 and PATH an existing directory "
                          "(the backups it keeps are those named after the database there)")
    target = path
    if path.is_dir():
        stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(STAMP)
        target = path / f"{db.name}-{stamp}.{db.ext}"
    elif not path.parent.is_dir():
        raise BackupError(f"no directory {path.parent} to write {path.name} into")
    started = time.monotonic()
    with _partial(target) as partial:
        (_sqlite_backup if db.kind == "sqlite" else _pg_dump)(db, partial)
    seconds = time.monotonic() - started
    pruned = _prune(path, db, keep) if keep is not None else []
    return Backup(target, target.stat().st_size, seconds, pruned)


@contextlib.contextmanager
def _partial(target: Path) -> Iterator[Path]:
    """A temporary file next to `target`, renamed to it once written (removed on failure),
    so `target` is never a half-written backup."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    partial = Path(name)
    try:
        yield partial
        with open(partial, "rb") as f:
            os.fsync(f.fileno())
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)


def _sqlite_backup(db: Database, out: Path) -> None:
    """The online backup API copies the file page by page inside one read transaction: a
    consistent copy while the server writes. The copy is left in rollback-journal mode, one
    self-contained file."""
    assert db.file is not None
    if not db.file.is_file():
        raise BackupError(f"no SQLite database {db.file}")
    try:
        with contextlib.closing(_read_only(db.file)) as src, \
                contextlib.closing(sqlite3.connect(out)) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as exc:
        raise BackupError(f"cannot back up the SQLite database {db.file}: {exc}") from None


def _read_only(file: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{file.resolve()}?mode=ro", uri=True)


def _pg_dump(db: Database, out: Path) -> None:
    url, env = _libpq(db.url)
    _run([pg_program("pg_dump"), *PG_DUMP_FLAGS, f"--file={out}", f"--dbname={url}"], env,
         f"pg_dump of {db.name}")


def _prune(folder: Path, db: Database, keep: int) -> list[Path]:
    """Remove all but the `keep` newest backups of `db` in `folder` (by the time in their
    names); other files are left alone."""
    named = re.compile(rf"{re.escape(db.name)}-\d{{8}}-\d{{6}}\.{db.ext}")
    backups = sorted(p for p in folder.iterdir() if named.fullmatch(p.name))
    old = backups[:-keep]
    for p in old:
        p.unlink()
    return old


# -- restore ---------------------------------------------------------------------------------

def restore(url: str, path: Path, *, force: bool = False) -> Restored:
    """Restore the backup `path` into the database `url`, which must hold no data unless
    `force` (then it is replaced); the store then opens as usual (its migrations run)."""
    db = database(url)
    if not path.is_file():
        raise BackupError(f"no backup file {path}")
    check_kind(path, db)
    started = time.monotonic()
    if db.kind == "sqlite":
        _sqlite_restore(db, path, force)
    else:
        _pg_restore(db, path, force)
    store = open_store(url)
    try:
        games = len(store.game_ids())
    finally:
        store.close()
    return Restored(games, time.monotonic() - started)


def kind_of(path: Path) -> str | None:
    """'sqlite' or 'postgresql' for a file that is an SQLite database or a pg_dump custom
    archive, None for anything else."""
    with open(path, "rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "postgresql"
    return None


def check_kind(path: Path, db: Database) -> None:
    """The file must be a backup of the database's kind, and of this site (a games table)."""
    kind = kind_of(path)
    if kind is None:
        raise BackupError(f"{path} is not a backup: neither an SQLite database nor a "
                          "PostgreSQL custom-format dump")
    if kind != db.kind:
        what = "an SQLite backup" if kind == "sqlite" else "a PostgreSQL dump"
        raise BackupError(f"{path} is {what}: it restores into a {kind} database, not into "
                          f"{db.kind} ({safe_url(db.url)})")
    if not _has_games_table(path, kind):
        raise BackupError(f"{path} is a {kind} backup of another application: it holds no "
                          "games table")


def _has_games_table(path: Path, kind: str) -> bool:
    if kind == "sqlite":
        try:
            with contextlib.closing(_read_only(path)) as con:
                return bool(con.execute("SELECT 1 FROM sqlite_master WHERE type='table' "
                                        "AND name='games'").fetchone())
        except sqlite3.Error as exc:
            raise BackupError(f"{path} is a damaged SQLite file: {exc}") from None
    listing = _run([pg_program("pg_restore"), "--list", str(path)], None,
                   f"reading the dump {path}")
    return re.search(r"\bTABLE \S+ games\b", listing) is not None


def held_data(db: Database) -> dict[str, int]:
    """The site's tables in the database that hold rows, with their counts (empty: nothing
    would be lost by restoring over it); `games` first when it holds any."""
    counts = _sqlite_counts(db) if db.kind == "sqlite" else _pg_counts(db)
    counts.pop("schema_migrations", None)
    full = {t: n for t, n in counts.items() if n}
    return dict(sorted(full.items(), key=lambda tn: (tn[0] != "games", tn[0])))


def _refuse_unless_empty(db: Database, force: bool) -> None:
    held = {} if force else held_data(db)
    if held:
        games = held.get("games", 0)
        what = (f"{games} game{'s' * (games != 1)}" if games else
                "data (" + ", ".join(f"{t}: {n} rows" for t, n in held.items()) + ")")
        raise BackupError(f"the database {safe_url(db.url)} already holds {what}: restore into "
                          "an empty database, or add --force to replace everything in it")


def _sqlite_counts(db: Database) -> dict[str, int]:
    assert db.file is not None
    if not db.file.exists():
        return {}
    try:
        with contextlib.closing(_read_only(db.file)) as con:
            names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE "
                                               "type='table' AND name NOT LIKE 'sqlite_%'")]
            return {n: con.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
    except sqlite3.Error as exc:
        raise BackupError(f"cannot read the SQLite database {db.file}: {exc}") from None


def _pg_counts(db: Database) -> dict[str, int]:
    import psycopg

    try:
        with psycopg.connect(db.url, connect_timeout=10) as con:
            names = [r[0] for r in con.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
            return {n: con.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0]  # type: ignore[index]
                    for n in names}
    except psycopg.Error as exc:
        raise BackupError(f"cannot read the database {safe_url(db.url)} (it must exist: "
                          f"createdb it first): {str(exc).strip()}") from None


def _sqlite_restore(db: Database, path: Path, force: bool) -> None:
    """The backup API again, from the backup file into the target's own connection, so a
    target in WAL mode (even one a server has open) takes the pages through its WAL."""
    assert db.file is not None
    _refuse_unless_empty(db, force)
    db.file.parent.mkdir(parents=True, exist_ok=True)
    try:
        with contextlib.closing(_read_only(path)) as src, \
                contextlib.closing(sqlite3.connect(db.file, timeout=10)) as dst:
            src.backup(dst)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot restore into the SQLite database {db.file}: {exc}") from None


def _pg_restore(db: Database, path: Path, force: bool) -> None:
    """pg_restore in one transaction; over the site's tables (forced, or empty ones a server
    created) they are dropped first."""
    _refuse_unless_empty(db, force)
    tables = _pg_counts(db)
    flags = PG_RESTORE_FLAGS + (PG_REPLACE_FLAGS if force or tables else ())
    url, env = _libpq(db.url)
    _run([pg_program("pg_restore"), *flags, f"--dbname={url}", str(path)], env,
         f"pg_restore into {db.name}")


# -- the PostgreSQL programs -----------------------------------------------------------------

def pg_program(name: str) -> str:
    """pg_dump or pg_restore: on PATH, else in Debian's versioned folders (newest first)."""
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(glob.glob(PG_BINDIRS), reverse=True, key=_version):
        candidate = Path(folder, name)
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise BackupError(f"{name} is not installed (not on PATH nor in {PG_BINDIRS}): install "
                      "PostgreSQL's client programs (Debian or Ubuntu: postgresql-client), "
                      "of the server's version or newer")


def _version(folder: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", Path(folder).parent.name))


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and an environment giving the password to libpq
    (PGPASSWORD), so no password shows in the process list."""
    parsed = urlparse(url)
    env = dict(os.environ)
    if parsed.password is None:
        return url, env
    env["PGPASSWORD"] = unquote(parsed.password)
    netloc = parsed.netloc.rsplit("@", 1)[1]
    user = parsed.netloc.rsplit("@", 1)[0].split(":", 1)[0]
    return urlunparse(parsed._replace(netloc=f"{user}@{netloc}")), env


def _run(argv: list[str], env: dict[str, str] | None, what: str) -> str:
    """Run a PostgreSQL program; its standard output, or a `BackupError` with its message."""
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise BackupError(f"{what}: cannot run {argv[0]}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {done.stderr.strip() or done.returncode}")
    return done.stdout


def safe_url(url: str) -> str:
    """A database URL without its password, for messages."""
    return re.sub(r"://([^:@/]*):[^@/]*@", r"://\1:***@", url)
