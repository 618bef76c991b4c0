"""The server's own tasks (its loops, bot moves, catch-ups, hints): started by whoever needs
one, all ended together when the server stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger("tavola.web")


class Background:
    """Tasks started on the server's loop and kept until they end, so a stop can end them."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run `coro` on the running loop, apart from whoever asks."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def stop(self, seconds: float) -> None:
        """Cancel every task and wait for them at most `seconds`: a library that swallowed
        its cancel must not hold the exit."""
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            _, late = await asyncio.wait(list(self.tasks), timeout=seconds)
            for task in late:
                log.warning("a task did not end at shutdown: %r", task)
