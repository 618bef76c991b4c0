"""How the server calls its game store without holding up other games: on the event loop
where the store has coroutines (PostgreSQL's `aio`), in threads of its own where a call waits
on a database server, inline where it is shorter than a hop to a thread (SQLite)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from .storage import GameStore


class StoreCalls:
    """The store's calls on the hot path (a move, an undo, a catch-up, a seat taken)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._threads: ThreadPoolExecutor | None = None

    async def ready(self) -> None:
        """Connect the store's coroutines (PostgreSQL's `aio`) before players arrive."""
        aio = getattr(self.store, "aio", None)
        if aio is not None:
            await aio.open()

    async def hot(self, call: str, *args: Any, **kwargs: Any) -> Any:
        """The store's `call`: on the loop where the store has coroutines for it, else as
        `off_loop`."""
        aio = getattr(self.store, "aio", None)
        if aio is not None:
            return await getattr(aio, call)(*args, **kwargs)
        return await self.off_loop(partial(getattr(self.store, call), *args, **kwargs))

    async def off_loop(self, call: Callable[[], Any]) -> Any:
        """Run a store call; one that waits on a database server (`wait_in_thread`:
        PostgreSQL) runs in a thread, so other games go on meanwhile. SQLite's calls are
        shorter than a hop to a thread and back."""
        if getattr(self.store, "wait_in_thread", False):
            if self._threads is None:
                # threads of the store's own: bots and password hashing, which also wait in
                # threads, never hold up a move's write
                self._threads = ThreadPoolExecutor(
                    getattr(self.store, "pool_size", 8), thread_name_prefix="store")
            return await asyncio.get_running_loop().run_in_executor(self._threads, call)
        return call()

    async def close(self) -> None:
        """Close the store's coroutines and let its threads end."""
        aio = getattr(self.store, "aio", None)
        if aio is not None:
            await aio.close()
        if self._threads is not None:
            self._threads.shutdown(wait=True)
