"""What every game store shares: the schema, the stored game and its errors, the `GameStore`
interface and the statements both stores run (`storage.SqliteStore`, `pgstore.PgStore`).

It imports neither store, so both import it (and `sidedb`, for `StoreError`), and the store
module picks one of them (`storage.open_store`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .outbox import NONE, Notices

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    params TEXT NOT NULL,          -- JSON: seats, scenario, seed, variants, board hash
    status TEXT NOT NULL,          -- 'playing' | 'over' | 'broken'
    finished REAL,
    updated REAL,                  -- the last move (or the creation)
    section TEXT,                  -- lobby list: 'open' | 'playing' | 'finished'; NULL: unlisted
    summary TEXT                   -- JSON: the public lobby line of the game
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,          -- 0, 1, 2 ... in the order the engine applied them
    action TEXT NOT NULL,          -- JSON, gonzaga.actions.action_to_json
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
# Columns added since the first schema; an older database gets them on open. No index holds
# `updated`, which changes with every move. `creator_address` and `creator_account` say who
# created a game (NULL: the server, or a guest), for the shares of the cap on games. `asked`:
# the seats the game asks now (`asked_column`), written with every lobby line.
ADDED_COLUMNS = {"updated": "REAL", "section": "TEXT", "summary": "TEXT",
                 "creator_address": "TEXT", "creator_account": "INTEGER", "asked": "TEXT"}
INDEXES = """
CREATE INDEX IF NOT EXISTS games_lobby ON games (section, created);
CREATE INDEX IF NOT EXISTS games_status ON games (status);
"""


class StoreError(RuntimeError):
    """A storage failure or a request the store cannot honour (the message says which)."""


class GameExists(StoreError):
    """A game with this id is stored already (another process created it first)."""


class SeqConflict(StoreError):
    """An action numbered other than the next of its game's log: another writer stored that
    number first (or the writer's copy of the game is stale). Nothing was written."""

    def __init__(self, game_id: str, what: str, stored: int | None = None) -> None:
        held = "" if stored is None else f" ({stored} stored)"
        super().__init__(f"game {game_id}: {what} out of sequence{held}")
        self.game_id = game_id
        self.stored = stored


@dataclass
class StoredGame:
    """One game as stored: enough to rebuild it exactly."""

    id: str
    created: float
    params: dict[str, Any]
    status: str
    tokens: dict[int, str] = field(default_factory=dict)  # seat -> token (person seats)
    claimed: set[int] = field(default_factory=set)
    spectator: str = ""
    actions: list[dict[str, Any]] = field(default_factory=list)
    section: str | None = None  # lobby list the game shows in; None: unlisted
    summary: dict[str, Any] | None = None  # its public lobby line
    creator_address: str | None = None  # the address that created it (`limits.address_key`)
    creator_account: int | None = None  # the creator's account; None: a guest


@dataclass
class Listing:
    """A page of one lobby list."""

    games: list[dict[str, Any]]
    more: bool


class GameStore(Protocol):
    """The storage interface the server uses; one implementation per database."""

    def create(self, game: StoredGame) -> None: ...
    def append(self, game_id: str, seq: int, action: dict[str, Any], *,
               section: str | None = None, summary: dict[str, Any] | None = None,
               status: str | None = None, notices: Notices = NONE) -> None: ...
    def take_back(self, game_id: str, seq: int, *, section: str | None = None,
                  summary: dict[str, Any] | None = None, notices: Notices = NONE) -> None: ...
    def set_status(self, game_id: str, status: str) -> None: ...
    def set_params(self, game_id: str, params: dict[str, Any], section: str | None,
                   summary: dict[str, Any]) -> None: ...
    def set_summary(self, game_id: str, section: str | None,
                    summary: dict[str, Any]) -> None: ...
    def claim(self, game_id: str, seat: int, *, section: str | None = None,
              summary: dict[str, Any] | None = None) -> bool: ...
    def load(self, game_id: str) -> StoredGame | None: ...
    def game_ids(self, status: str | None = None) -> list[str]: ...
    def lobby(self, section: str, offset: int, limit: int) -> Listing: ...
    def active_games(self, since: float, *, address: str | None = None,
                     account: int | None = None) -> int: ...
    def tables(self, part: str, schema: Any) -> Any:
        """The tables of a platform feature in the same database (`sidedb.Tables`; `schema`
        is a `sidedb.Schema`)."""
        ...
    def ping(self) -> None: ...  # raises when the database does not answer (`ops`)
    def close(self) -> None: ...


SPECTATOR_SEAT = -1


# Writing a new game and reading it back, the same statements on both databases
INSERT_GAME = ("INSERT INTO games (id, created, params, status, updated, section, summary, "
               "creator_address, creator_account, asked) VALUES (?,?,?,?,?,?,?,?,?,?)")
LOAD_GAME = "SELECT id, created, params, status, section FROM games WHERE id=?"
LOAD_SEATS = "SELECT seat, token, claimed FROM seats WHERE game_id=?"
LOAD_ACTIONS = "SELECT action FROM actions WHERE game_id=? ORDER BY seq"


def game_row(game: StoredGame) -> tuple[Any, ...]:
    """The values of `INSERT_GAME` for a new game (its last move: its creation)."""
    return (game.id, game.created, json.dumps(game.params), game.status, game.created,
            game.section, _json_or_null(game.summary),
            game.creator_address, game.creator_account, asked_column(game.summary))


def asked_column(summary: dict[str, Any] | None) -> str | None:
    """The `asked` column of a game whose lobby line is `summary`: its `asked` seats (the
    person seats the game waits for, `Room.asked`) as ",0,2,", so one seat is found with
    LIKE '%,0,%' on both databases; NULL when it asks nobody. Written in the same statement
    as the lobby line, hence with the move that changed it."""
    seats = summary.get("asked") if isinstance(summary, dict) else None
    if not isinstance(seats, list) or not seats:
        return None
    return "," + ",".join(str(int(s)) for s in seats) + ","


def active_games_sql(since: float, address: str | None,
                     account: int | None) -> tuple[str, tuple[Any, ...]]:
    """The count of unfinished games with a move (or created) since `since`, of all games or
    of those one address or account created: the cap on games and its shares."""
    sql = "SELECT COUNT(*) FROM games WHERE status='playing' AND updated >= ?"
    args: tuple[Any, ...] = (since,)
    if address is not None:
        sql, args = sql + " AND creator_address=?", (*args, address)
    if account is not None:
        sql, args = sql + " AND creator_account=?", (*args, account)
    return sql, args


def stored_game(row: Sequence[Any], seats: Sequence[Sequence[Any]],
                actions: Sequence[Sequence[Any]]) -> StoredGame:
    """A game as stored, from its row, its seats' rows and its actions' rows."""
    game = StoredGame(row[0], row[1], json.loads(row[2]), row[3], section=row[4])
    for seat, token, claimed in seats:
        if seat == SPECTATOR_SEAT:
            game.spectator = token
        else:
            game.tokens[seat] = token
            if claimed:
                game.claimed.add(seat)
    game.actions = [json.loads(a) for (a,) in actions]
    return game


def listing(rows: list[Any], limit: int) -> Listing:
    """A lobby page from the summaries of up to `limit` + 1 games (the extra one says that
    there are more); a line that cannot be read is left out, so one bad game never breaks the
    list for everyone."""
    games = []
    for (text,) in rows[:limit]:
        with contextlib.suppress(ValueError, TypeError):
            line = json.loads(text)
            if isinstance(line, dict):
                games.append(line)
    return Listing(games, len(rows) > limit)


def _json_or_null(value: Any) -> str | None:
    return None if value is None else json.dumps(value)
