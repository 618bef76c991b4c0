"""The PostgreSQL statements both PostgreSQL stores run: the threaded `pgstore.PgStore` and
its asyncio companion for the hot path (`pgasync.AsyncPgStore`), so both write the same rows.
It imports neither store.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from .gamestore import asked_column

POOL_WAIT = 10.0  # seconds a call waits for a free connection before failing


@functools.lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """A statement with SQLite's `?` placeholders in psycopg's form."""
    return sql.replace("%", "%%").replace("?", "%s")


# The statements of the hot path (a move, an undo, a catch-up, a seat taken), shared by the
# threaded store and its asyncio companion (`pgasync`).
GAME_EXISTS = "SELECT 1 FROM games WHERE id=?"
TAKE_BACK_ACTION = ("DELETE FROM actions WHERE game_id=? AND seq=? AND seq = "
                    "(SELECT MAX(seq) FROM actions WHERE game_id=?)")
COUNT_ACTIONS = "SELECT COUNT(*) FROM actions WHERE game_id=?"
SET_STATUS = "UPDATE games SET status=?, finished=? WHERE id=?"
SET_SUMMARY = "UPDATE games SET section=?, summary=?, asked=? WHERE id=?"
CLAIM_SEAT = "UPDATE seats SET claimed=1 WHERE game_id=? AND seat=? AND claimed=0"


def append_sql(game_id: str, seq: int, action: dict[str, Any], section: str | None,
               summary: dict[str, Any] | None, status: str | None
               ) -> tuple[str, tuple[Any, ...]]:
    """One statement for a move: it updates the game's row (the lock that queues the game's
    writers) only if `seq` is the next number, and stores the action with it; its row count
    is 1 when the move is stored, 0 when it is refused, with nothing written. Being one
    statement, it needs no transaction of its own: one round trip to PostgreSQL. Two
    writers of the same number at once: the second finds the key taken and fails whole."""
    now = time.time()
    sets, args = ["updated=?"], [now]
    if summary is not None:
        sets += ["section=?", "summary=?", "asked=?"]
        args += [section, json.dumps(summary), asked_column(summary)]
    if status is not None:
        sets += ["status=?", "finished=?"]
        args += [status, now if status == "over" else None]
    return (f"WITH locked AS (UPDATE games SET {', '.join(sets)} WHERE id=? AND "
            "(SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id=?) = ? RETURNING id) "
            "INSERT INTO actions (game_id, seq, action, at) SELECT id, ?, ?, ? FROM locked",
            (*args, game_id, game_id, seq, seq, json.dumps(action), now))


def lock_game_sql(game_id: str, section: str | None, summary: dict[str, Any] | None,
                  now: float | None) -> tuple[str, tuple[Any, ...]]:
    """The statement that locks a game's row (an UPDATE of its lobby line and time of the
    last move, or a SELECT ... FOR UPDATE when neither changes)."""
    sets, args = [], []
    if summary is not None:
        sets += ["section=?", "summary=?", "asked=?"]
        args += [section, json.dumps(summary), asked_column(summary)]
    if now is not None:
        sets.append("updated=?")
        args.append(now)
    if not sets:
        return "SELECT id FROM games WHERE id=? FOR UPDATE", (game_id,)
    return f"UPDATE games SET {', '.join(sets)} WHERE id=?", (*args, game_id)


def claim_sql(game_id: str, seat: int, section: str | None, summary: dict[str, Any] | None
              ) -> tuple[str, tuple[Any, ...]]:
    """One statement that takes a seat and, only if it was free, writes the lobby line."""
    if summary is None:
        return CLAIM_SEAT, (game_id, seat)
    return (f"WITH taken AS ({CLAIM_SEAT} RETURNING game_id) UPDATE games SET section=?, "
            "summary=?, asked=? WHERE id IN (SELECT game_id FROM taken)",
            (game_id, seat, section, json.dumps(summary), asked_column(summary)))


def summary_args(game_id: str, section: str | None, summary: dict[str, Any]
                 ) -> tuple[Any, ...]:
    """The values of `SET_SUMMARY`."""
    return section, json.dumps(summary), asked_column(summary), game_id


def status_args(game_id: str, status: str) -> tuple[Any, ...]:
    return status, time.time() if status == "over" else None, game_id
