"""One WebSocket client: its own bounded outbox and its own sender, so nobody waits on it.

The game never awaits a client's network: it only puts messages in the client's outbox, which
a sender task drains. Every move's view is delivered, in order; the same view asked for again
and again (`state` requests) waits in the outbox once. A client that does not read is dropped:
when its outbox overflows, or when one send takes longer than `SEND_TIMEOUT`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

log = logging.getLogger("games.gonzaga.web")

OUTBOX_LIMIT = 64  # messages waiting to be sent
SEND_TIMEOUT = 10.0  # seconds one send may take before the client counts as gone


class Connection:
    """A client's socket, seat and outbox; `view_text` gives the client's view as it is now."""

    def __init__(self, ws: WebSocket, view_text: Callable[[Connection], str], *,
                 limit: int = OUTBOX_LIMIT, timeout: float = SEND_TIMEOUT,
                 handler: asyncio.Task[Any] | None = None) -> None:
        """`handler` is the task reading this client (default: the current one), ended when
        the client is dropped."""
        self.ws = ws
        self.seat: int | None = None
        self.joined = False  # said hello: receives the game's messages
        self.lang = "en"  # the language its views are built in (tabletop.i18n)
        self.dropped: str | None = None  # why the server let go of this client
        self._view_text = view_text
        self._limit = limit
        self._timeout = timeout
        self._outbox: deque[str] = deque()
        self._queued_view: str | None = None  # the last view put in the outbox, until sent
        self._wake = asyncio.Event()
        self._handler = handler or asyncio.current_task()
        self._sender = asyncio.get_running_loop().create_task(self._run())

    def send(self, text: str) -> None:
        """Queue a message; never waits."""
        if self.dropped:
            return
        if len(self._outbox) >= self._limit:
            self.drop(f"{self._limit} messages unread")
            return
        self._outbox.append(text)
        self._wake.set()

    def send_view(self) -> None:
        """Queue this client's view as it is now, unless that very view is already waiting."""
        text = self._view_text(self)
        if text is not self._queued_view:
            self._queued_view = text
            self.send(text)

    async def _run(self) -> None:
        while not self.dropped:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox and not self.dropped:
                item = self._outbox.popleft()
                if item is self._queued_view:
                    self._queued_view = None
                try:
                    async with asyncio.timeout(self._timeout):
                        await self.ws.send_text(item)
                except TimeoutError:
                    self.drop(f"a send took over {self._timeout:g} s")
                except Exception:  # the socket is gone; the receive loop ends on its own
                    self.dropped = self.dropped or "closed"

    def drop(self, reason: str) -> None:
        """Let go of a client that does not read: stop its sender and end its handler."""
        if self.dropped:
            return
        self.dropped = reason
        log.warning("dropping a slow client: %s", reason)
        self._outbox.clear()
        self._wake.set()
        if self._handler is not None and self._handler is not asyncio.current_task():
            self._handler.cancel()

    async def close(self) -> None:
        """End the sender (the handler is ending)."""
        self.dropped = self.dropped or "closed"
        self._wake.set()
        self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._sender
