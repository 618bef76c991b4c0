"""The PostgreSQL store's hot path on the event loop: a move, an undo, a catch-up, a seat
taken when its player arrives.

A busy server's event loop builds views and sends frames most of the time. A write made in a
thread then waits twice: for PostgreSQL, and for the interpreter's lock to come back from a
loop that is rarely idle. Waiting on the loop itself (psycopg's asyncio connections) leaves
only the first wait. The rest of `PgStore` (creating games, the lobby, side tables) is rare and
stays in threads. The statements are `pgsql`'s, shared with `pgstore`, so both paths write the
same rows.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from . import outbox
from .gamestore import (
    LOAD_ACTIONS,
    LOAD_GAME,
    LOAD_SEATS,
    SeqConflict,
    StoredGame,
    StoreError,
    stored_game,
)
from .metrics import timed
from .outbox import NONE, Notices
from .pgsql import (
    COUNT_ACTIONS,
    GAME_EXISTS,
    POOL_WAIT,
    TAKE_BACK_ACTION,
    append_sql,
    claim_sql,
    lock_game_sql,
    pg_sql,
)


@timed
class AsyncPgStore:
    """`append`, `take_back`, `load` and `claim` of `PgStore`, as coroutines
    on their own pool.

    The pool is opened by the server as it starts, or by the first call on a loop, for that
    loop (a pool and its connections belong to one loop), and closed by `close`."""

    def __init__(self, url: str, pool_size: int) -> None:
        self.url = url
        self.pool_size = pool_size
        self._pool: AsyncConnectionPool | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._opening: asyncio.Lock | None = None

    async def open(self) -> AsyncConnectionPool:
        """This loop's pool, with all its connections made: a burst of players arriving
        must not wait for PostgreSQL to start new backends."""
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._pool is not None:
            return self._pool
        if self._loop is not loop:  # a new server on a new loop: a pool of its own
            self._loop, self._pool, self._opening = loop, None, asyncio.Lock()
        assert self._opening is not None
        async with self._opening:
            if self._pool is None:
                pool = AsyncConnectionPool(self.url, min_size=self.pool_size,
                                           max_size=self.pool_size,
                                           timeout=POOL_WAIT, open=False,
                                           kwargs={"autocommit": True})
                try:
                    await pool.open(wait=True, timeout=POOL_WAIT)
                except PoolTimeout as exc:
                    await pool.close()
                    raise StoreError(f"cannot connect to PostgreSQL: {exc}") from None
                self._pool = pool
            return self._pool

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection in autocommit mode: a move or a claim is one statement, which
        commits by itself in the same round trip; a call of several statements opens its
        own transaction. A database error is a `StoreError`."""
        try:
            pool = await self.open()
            async with pool.connection() as conn:
                yield conn
        except psycopg.errors.UniqueViolation as exc:
            raise _Duplicate(str(exc)) from None
        except PoolTimeout as exc:
            raise StoreError(f"no PostgreSQL connection free: {exc}") from None
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL refused: {exc}") from None

    async def append(self, game_id: str, seq: int, action: dict[str, Any], *,
                     section: str | None = None, summary: dict[str, Any] | None = None,
                     status: str | None = None, notices: Notices = NONE) -> None:
        """`PgStore.append`: one statement, in one round trip (it commits by itself); with
        outbox rows, in a transaction with them."""
        sql, args = append_sql(game_id, seq, action, section, summary, status)
        try:
            async with self.connection() as conn:
                if not notices:
                    if (await conn.execute(pg_sql(sql), args)).rowcount != 1:
                        await _refused(conn, game_id, seq)
                    return
                async with conn.transaction():
                    if (await conn.execute(pg_sql(sql), args)).rowcount != 1:
                        await _refused(conn, game_id, seq)
                    await _write_notices(conn, game_id, notices)
        except _Duplicate:
            raise SeqConflict(game_id, f"action {seq}") from None

    async def take_back(self, game_id: str, seq: int, *, section: str | None = None,
                        summary: dict[str, Any] | None = None,
                        notices: Notices = NONE) -> None:
        """`PgStore.take_back`: remove the last action, number `seq`, or refuse."""
        lock_sql, lock_args = lock_game_sql(game_id, section, summary, None)
        async with self.connection() as conn, conn.transaction():
            locked = await conn.execute(pg_sql(lock_sql), lock_args)
            if locked.rowcount != 1:
                raise StoreError(f"no game {game_id}")
            cur = await conn.execute(pg_sql(TAKE_BACK_ACTION), (game_id, seq, game_id))
            if cur.rowcount != 1:
                raise SeqConflict(game_id, f"taking back action {seq}",
                                  await _count(conn, game_id))
            await _write_notices(conn, game_id, notices)

    async def load(self, game_id: str) -> StoredGame | None:
        async with self.connection() as conn, conn.transaction():
            row = await (await conn.execute(pg_sql(LOAD_GAME), (game_id,))).fetchone()
            if row is None:
                return None
            seats = await (await conn.execute(pg_sql(LOAD_SEATS), (game_id,))).fetchall()
            actions = await (await conn.execute(pg_sql(LOAD_ACTIONS), (game_id,))).fetchall()
            return stored_game(row, seats, actions)

    async def claim(self, game_id: str, seat: int, *, section: str | None = None,
                    summary: dict[str, Any] | None = None) -> bool:
        """`PgStore.claim`: take a seat (and write the lobby line) in one statement."""
        sql, args = claim_sql(game_id, seat, section, summary)
        async with self.connection() as conn:
            return (await conn.execute(pg_sql(sql), args)).rowcount == 1

    async def close(self) -> None:
        if self._pool is not None and self._loop is asyncio.get_running_loop():
            await self._pool.close()
        self._pool = self._loop = self._opening = None


class _Duplicate(StoreError):
    """A row whose key is taken (another writer was first)."""


async def _refused(conn: psycopg.AsyncConnection[Any], game_id: str, seq: int) -> None:
    """`PgStore._refused`: no such game, or `seq` is not the next."""
    if await (await conn.execute(pg_sql(GAME_EXISTS), (game_id,))).fetchone() is None:
        raise StoreError(f"no game {game_id}")
    raise SeqConflict(game_id, f"action {seq}", await _count(conn, game_id))


async def _count(conn: psycopg.AsyncConnection[Any], game_id: str) -> int:
    row = await (await conn.execute(pg_sql(COUNT_ACTIONS), (game_id,))).fetchone()
    return int(row[0]) if row else 0


async def _write_notices(conn: psycopg.AsyncConnection[Any], game_id: str,
                         notices: Notices) -> None:
    """`outbox.write` on an asyncio connection, inside the caller's transaction."""
    for seat in notices.settled:
        await conn.execute(pg_sql(outbox.SETTLE_SEAT), (game_id, seat))
    if notices.new:
        async with conn.cursor() as cur:
            await cur.executemany(pg_sql(outbox.INSERT_NOTICE), [n.row() for n in notices.new])
