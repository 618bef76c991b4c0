"""Accounts, sessions, the seats players hold and their ratings, in the games' own database.

The tables live next to the game store's (`storage.py`) in the same database, SQLite or
PostgreSQL (`sidedb.open_tables`), and are created on open, version by version (`STEPS`), so an
older database gains them.
A session cookie is never stored: only its SHA-256, so a copy of the database opens no
session. "My games" reads the game store's `games` and `seats` tables (its lobby line and a
seat's link) by join.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .sidedb import SideTables, Tables, open_tables
from .user_names import LOOK_FORM, look_keys

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,              -- as chosen (NFC)
    name_key TEXT NOT NULL UNIQUE,   -- casefolded: names are unique whatever their case
    password TEXT NOT NULL,          -- argon2id hash, parameters included
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,     -- SHA-256 of the cookie's token
    user_id INTEGER NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL,              -- sent back in a header with every state-changing request
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS game_players (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS game_players_user ON game_players (user_id);
CREATE TABLE IF NOT EXISTS rated_games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    rated REAL                        -- when its result changed the ratings; NULL until then
);
CREATE TABLE IF NOT EXISTS ratings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (user_id, game, players)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, players);
CREATE TABLE IF NOT EXISTS rating_changes (
    game_id TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    before REAL NOT NULL,             -- ordinal (mu - 3 sigma) before the game
    after REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
"""
DEVICES = """
CREATE TABLE IF NOT EXISTS devices (
    token_hash TEXT NOT NULL,        -- SHA-256 of the browser's device cookie
    user_id INTEGER NOT NULL REFERENCES users(id),
    expires REAL NOT NULL,
    PRIMARY KEY (token_hash, user_id) -- one browser may be known to several accounts
);
"""
LOOKS = """
CREATE TABLE IF NOT EXISTS name_looks (
    look TEXT PRIMARY KEY,           -- a form no two accounts' names share (user_names.look_keys)
    user_id INTEGER NOT NULL REFERENCES users(id),
    form TEXT NOT NULL               -- the rules and tables it was made with (LOOK_FORM)
);
CREATE INDEX IF NOT EXISTS name_looks_user ON name_looks (user_id);
"""
#: the schema's versions, in order (a new one is appended, never edited: `sidedb.Schema`)
STEPS = (SCHEMA, DEVICES, LOOKS)
SESSION_SECONDS = 30 * 86_400  # a session lasts a month from sign-in
DEVICE_SECONDS = 365 * 86_400  # a browser stays known to an account a year from its last sign-in


@dataclass(frozen=True)
class User:
    id: int
    name: str


@dataclass(frozen=True)
class Session:
    user: User
    csrf: str
    expires: float


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating people are ranked by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Seated:
    """A seat an account holds in a rated game when it ends."""

    user_id: int
    seat: int


class _LooksTaken(Exception):
    """An account's name looks like the new one: the new account is rolled back."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class AccountStore:
    """The account tables, on SQLite or PostgreSQL (`sidedb.Tables`)."""

    def __init__(self, where: str | Tables) -> None:
        """The tables in the SQLite file `where`, or on tables a game store gave."""
        if isinstance(where, str):
            if where != ":memory:":
                Path(where).parent.mkdir(parents=True, exist_ok=True)
            where = SideTables(where, STEPS)
        self.db = where
        self._fill_looks()

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self.db.tx() as db:
            yield db

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        return self.db.rows(sql, args)

    # -- users and sessions ----------------------------------------------------------------

    def add_user(self, name: str, key: str, password_hash: str) -> User | None:
        """A new account; None, and nothing added, when the name (casefolded) is taken or
        an account's name looks like it (one of its `look_keys` is taken)."""
        try:
            with self._tx() as db:
                row = db.execute("INSERT INTO users (name, name_key, password, created) "
                                 "VALUES (?,?,?,?) ON CONFLICT (name_key) DO NOTHING "
                                 "RETURNING id", (name, key, password_hash, time.time())
                                 ).fetchone()
                if row is None:
                    return None
                if not all(self._add_look(db, look, row[0]) for look in look_keys(name)):
                    raise _LooksTaken
        except _LooksTaken:
            return None
        return User(int(row[0]), name)

    @staticmethod
    def _add_look(db: Any, look: str, user_id: int) -> bool:
        return db.execute("INSERT INTO name_looks (look, user_id, form) VALUES (?,?,?) "
                          "ON CONFLICT (look) DO NOTHING RETURNING look",
                          (look, user_id, LOOK_FORM)).fetchone() is not None

    def look_alike(self, name: str) -> str | None:
        """The name of the (first) account whose name looks like `name`, if any."""
        looks = sorted(look_keys(name))
        rows = self._read("SELECT u.name FROM name_looks l JOIN users u ON u.id = l.user_id "
                          f"WHERE l.look IN ({','.join('?' * len(looks))}) ORDER BY u.id "
                          "LIMIT 1", tuple(looks))
        return str(rows[0][0]) if rows else None

    def _fill_looks(self) -> None:
        """The look-alike forms of accounts that have none of today's form (made before the
        table, or with other rules): in the order the accounts were made, so where two old
        names look alike the older holds the form."""
        with self._tx() as db:
            db.execute("DELETE FROM name_looks WHERE form <> ?", (LOOK_FORM,))
            rows = db.execute("SELECT id, name FROM users WHERE id NOT IN "
                              "(SELECT user_id FROM name_looks) ORDER BY id").fetchall()
            for user_id, name in rows:
                for look in look_keys(name):
                    self._add_look(db, look, user_id)

    def user_by_key(self, key: str) -> tuple[User, str] | None:
        """An account and its password hash, by casefolded name."""
        rows = self._read("SELECT id, name, password FROM users WHERE name_key=?", (key,))
        return (User(rows[0][0], rows[0][1]), rows[0][2]) if rows else None

    def user_by_id(self, user_id: int) -> User | None:
        rows = self._read("SELECT id, name FROM users WHERE id=?", (user_id,))
        return User(rows[0][0], rows[0][1]) if rows else None

    def set_password(self, user_id: int, password_hash: str) -> None:
        """A hash made with today's parameters replaces an older one."""
        with self._tx() as db:
            db.execute("UPDATE users SET password=? WHERE id=?", (password_hash, user_id))

    def add_session(self, token: str, user_id: int, csrf: str) -> float:
        now = time.time()
        with self._tx() as db:
            db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
            db.execute("INSERT INTO sessions (token_hash, user_id, csrf, created, expires) "
                       "VALUES (?,?,?,?,?)", (token_hash(token), user_id, csrf, now,
                                              now + SESSION_SECONDS))
        return now + SESSION_SECONDS

    def session(self, token: str) -> Session | None:
        rows = self._read("SELECT u.id, u.name, s.csrf, s.expires FROM sessions s JOIN users u "
                          "ON u.id = s.user_id WHERE s.token_hash=?", (token_hash(token),))
        if not rows or rows[0][3] < time.time():
            return None
        uid, name, csrf, expires = rows[0]
        return Session(User(uid, name), csrf, expires)

    def end_sessions(self, user_id: int) -> None:
        """Sign the account out everywhere (a password reset)."""
        with self._tx() as db:
            db.execute("DELETE FROM sessions WHERE user_id=?", (user_id,))

    def end_session(self, token: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM sessions WHERE token_hash=?", (token_hash(token),))

    def add_device(self, token: str, user_id: int) -> None:
        """The browser holding `token` signed in to the account: it is known for a year."""
        now = time.time()
        with self._tx() as db:
            db.execute("DELETE FROM devices WHERE expires < ?", (now,))
            db.execute("INSERT INTO devices (token_hash, user_id, expires) VALUES (?,?,?) "
                       "ON CONFLICT (token_hash, user_id) DO UPDATE SET expires=excluded.expires",
                       (token_hash(token), user_id, now + DEVICE_SECONDS))

    def known_device(self, token: str, user_id: int | None = None) -> bool:
        """Whether the browser holding `token` signed in to the account `user_id` (None: to
        any account, i.e. this server issued the token) within the last year."""
        sql = "SELECT 1 FROM devices WHERE token_hash=? AND expires >= ?"
        args: tuple[Any, ...] = (token_hash(token), time.time())
        if user_id is not None:
            sql, args = sql + " AND user_id=?", (*args, user_id)
        return bool(self._read(sql + " LIMIT 1", args))

    # -- seats -----------------------------------------------------------------------------

    def seat_holder(self, game_id: str, seat: int) -> int | None:
        rows = self._read("SELECT user_id FROM game_players WHERE game_id=? AND seat=?",
                          (game_id, seat))
        return rows[0][0] if rows else None

    def holders(self, game_id: str) -> dict[int, int]:
        """seat -> account, for the seats accounts hold in a game."""
        return dict(self._read("SELECT seat, user_id FROM game_players WHERE game_id=?",
                               (game_id,)))

    def hold(self, game_id: str, seat: int, user_id: int) -> bool:
        """Tie a seat to an account; False when another account holds it already."""
        with self._tx() as db:
            db.execute("INSERT INTO game_players (game_id, seat, user_id) VALUES (?,?,?) "
                       "ON CONFLICT DO NOTHING", (game_id, seat, user_id))
            (holder,) = db.execute("SELECT user_id FROM game_players WHERE game_id=? AND "
                                   "seat=?", (game_id, seat)).fetchone()
        return bool(holder == user_id)

    def games_of(self, user_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The account's games, last moved first: its seat, the seat's link and the game's
        lobby line (read from the game store's tables)."""
        rows = self._read(
            "SELECT p.game_id, p.seat, s.token, g.status, g.summary, g.updated, r.game_id "
            "FROM game_players p JOIN games g ON g.id = p.game_id "
            "LEFT JOIN seats s ON s.game_id = p.game_id AND s.seat = p.seat "
            "LEFT JOIN rated_games r ON r.game_id = p.game_id "
            "WHERE p.user_id=? ORDER BY g.updated DESC LIMIT ?", (user_id, limit))
        return [{"id": game_id, "seat": seat, "token": token, "status": status,
                 "summary": _summary(summary), "updated": updated, "rated": rated is not None}
                for game_id, seat, token, status, summary, updated, rated in rows]

    # -- games waiting for their player ----------------------------------------------------

    def waiting_count(self, user_id: int) -> int:
        """How many unfinished games ask a seat the account holds (`WAITING`)."""
        (count,) = self._read(f"SELECT COUNT(*) {WAITING}", (user_id,))[0]
        return int(count)

    def waiting(self, user_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The games that ask a seat the account holds, the one whose time runs out first
        first; games without a clock after those with one, the longest unmoved first. Each
        with its seat, the seat's link, lobby line and clock (`deadline`, None: no limit)."""
        rows = self._read(
            "SELECT p.game_id, p.seat, s.token, g.summary, g.updated, c.deadline "
            f"{WAITING} ORDER BY c.deadline IS NULL, c.deadline, g.updated, p.game_id LIMIT ?",
            (user_id, limit))
        return [{"id": game_id, "seat": seat, "token": token, "status": "playing",
                 "summary": _summary(summary), "updated": updated, "rated": False,
                 "deadline": deadline}
                for game_id, seat, token, summary, updated, deadline in rows]

    # -- ratings ---------------------------------------------------------------------------

    def add_rated(self, game_id: str, game: str, players: int) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO rated_games (game_id, game, players) VALUES (?,?,?) "
                       "ON CONFLICT DO NOTHING", (game_id, game, players))

    def rated_game(self, game_id: str) -> tuple[str, int, bool] | None:
        """(game, players, already rated) of a rated game; None for an unrated one."""
        rows = self._read("SELECT game, players, rated FROM rated_games WHERE game_id=?",
                          (game_id,))
        return (rows[0][0], rows[0][1], rows[0][2] is not None) if rows else None

    def unrated_ended(self) -> list[str]:
        """Rated games that ended but whose result is not counted yet (a stop in between)."""
        return [r[0] for r in self._read(
            "SELECT r.game_id FROM rated_games r JOIN games g ON g.id = r.game_id "
            "WHERE r.rated IS NULL AND g.status = 'over'")]

    def rating(self, user_id: int, game: str, players: int) -> Rating | None:
        rows = self._read("SELECT mu, sigma, games FROM ratings WHERE user_id=? AND game=? "
                          "AND players=?", (user_id, game, players))
        return Rating(*rows[0]) if rows else None

    def apply_result(self, game_id: str, new: dict[int, tuple[Rating, Rating]]) -> bool:
        """Store the new ratings of a rated game's accounts (user -> (before, after)), once:
        False, and nothing changes, when the game was counted already."""
        with self._tx() as db:
            cur = db.execute("UPDATE rated_games SET rated=? WHERE game_id=? AND rated IS NULL",
                             (time.time(), game_id))
            if cur.rowcount != 1:
                return False
            game, players = db.execute("SELECT game, players FROM rated_games WHERE "
                                       "game_id=?", (game_id,)).fetchone()
            for user_id, (before, after) in new.items():
                db.execute("INSERT INTO ratings (user_id, game, players, mu, sigma, games) "
                           "VALUES (?,?,?,?,?,1) ON CONFLICT (user_id, game, players) DO "
                           "UPDATE SET mu=excluded.mu, sigma=excluded.sigma, games=ratings.games+1",
                           (user_id, game, players, after.mu, after.sigma))
                db.execute("INSERT INTO rating_changes (game_id, user_id, before, after) "
                           "VALUES (?,?,?,?)", (game_id, user_id, before.ordinal,
                                                after.ordinal))
        return True

    def leaderboard(self, game: str, players: int, limit: int = 100) -> list[dict[str, Any]]:
        """Accounts by conservative rating (mu - 3 sigma), best first."""
        rows = self._read("SELECT u.name, r.mu, r.sigma, r.games FROM ratings r JOIN users u "
                          "ON u.id = r.user_id WHERE r.game=? AND r.players=? "
                          "ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, u.name_key "
                          "LIMIT ?", (game, players, limit))
        return [{"name": n, "mu": mu, "sigma": s, "rating": mu - 3 * s, "games": g}
                for n, mu, s, g in rows]

    def ratings_of(self, user_id: int) -> list[dict[str, Any]]:
        rows = self._read("SELECT game, players, mu, sigma, games FROM ratings WHERE user_id=? "
                          "ORDER BY game, players", (user_id,))
        return [{"game": g, "players": p, "mu": mu, "sigma": s, "rating": mu - 3 * s,
                 "games": n} for g, p, mu, s, n in rows]

    def changes_of(self, user_id: int) -> dict[str, tuple[float, float]]:
        return {g: (b, a) for g, b, a in self._read(
            "SELECT game_id, before, after FROM rating_changes WHERE user_id=?", (user_id,))}

    def close(self) -> None:
        self.db.close()


# A player's games that ask one of their seats: from the account's seats (an index), each
# game's row by its key, its `asked` column (`storage.asked_column`), the seat's link and
# clock (`timing.TurnClocks`, in the same database).
WAITING = ("FROM game_players p JOIN games g ON g.id = p.game_id "
           "LEFT JOIN seats s ON s.game_id = p.game_id AND s.seat = p.seat "
           "LEFT JOIN turn_clocks c ON c.game_id = p.game_id AND c.seat = p.seat "
           "WHERE p.user_id=? AND g.status = 'playing' AND g.asked LIKE '%,' || p.seat || ',%'")


def _summary(text: str | None) -> dict[str, Any]:
    """A stored lobby line; an empty one where it cannot be read."""
    try:
        line = json.loads(text) if text else {}
    except ValueError:
        line = {}
    return line if isinstance(line, dict) else {}


def open_account_store(store: Any) -> AccountStore:
    """The account tables in the game store's own database (an in-memory SQLite store: on its
    very connection, since another connection would open another, empty, database)."""
    return AccountStore(open_tables(store, "accounts", STEPS))
