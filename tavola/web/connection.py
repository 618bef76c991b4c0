"""One WebSocket client: its own bounded outbox and its own sender, so nobody waits on it.

The game never awaits a client's network: it only puts messages in the client's outbox, which
a sender task drains. Every move's view is delivered, in order; the same view asked for again
and again (`state` requests) waits in the outbox once. A client that does not read is dropped:
when its outbox stays over `OUTBOX_LIMIT` messages for `OVERFLOW_SECONDS`, holds more than
`OUTBOX_CHARS` characters, or one send takes longer than `SEND_TIMEOUT`. A burst (a chat line
from every connection of a game in one turn of the loop) may pass the limit for a moment: a
reading client's sender is below it again within milliseconds.

A client that asked for changes (`changes` here, `tavola.web.changes`) is sent its full view
once, then only what changed; each view message it gets, full or a change, carries the next
number `n` of the connection, so a client that misses one (or cannot apply it) knows, asks
for the full view (`state`) and gets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from .. import i18n
from ..text import say

#: a connection's view message now, and the change from a view it was sent before to it
#: ("": none; None: no view before) (`Room.change_from`)
Changes = Callable[["Connection", "dict[str, Any] | None"], "tuple[dict[str, Any], str | None]"]

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 64  # messages waiting to be sent, beyond which the client must catch up ...
OVERFLOW_SECONDS = 5.0  # ... within this many seconds
OUTBOX_CHARS = 4 << 20  # characters waiting to be sent, whatever the time (memory)
SEND_TIMEOUT = 10.0  # seconds one send may take before the client counts as gone
RESTART_CLOSE = 1012  # the WebSocket close code "service restart": reconnect at once


class Connection:
    """A client's socket, seat and outbox; `view_text` gives the client's view as it is now."""

    def __init__(self, ws: WebSocket, view_text: Callable[[Connection], str], *,
                 limit: int = OUTBOX_LIMIT, timeout: float = SEND_TIMEOUT,
                 overflow_seconds: float = OVERFLOW_SECONDS, most_chars: int = OUTBOX_CHARS,
                 handler: asyncio.Task[Any] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 changes: Changes | None = None) -> None:
        """`handler` is the task reading this client (default: the current one), ended when
        the client is dropped; `changes` makes the changes of its views, for a client that
        asks for them (`wants_changes`)."""
        self.ws = ws
        client = getattr(ws, "client", None)
        self.address = client.host if client else ""
        self.seat: int | None = None
        self.account: int | None = None  # the signed-in player's account, if any (blocks)
        self.joined = False  # said hello: receives the game's messages
        self.lang = "en"  # the language its views are built in (tavola.i18n)
        self.dropped: str | None = None  # why the server let go of this client
        self.closing = False  # told to reconnect: the server is stopping (`GameServer.drain`)
        self._view_text = view_text
        self._changes = changes
        self.wants_changes = False  # said so in its hello: sent changes after a full view
        self.n = 0  # the number of the last view message queued (full or a change)
        self._base: dict[str, Any] | None = None  # the view that message gives the client
        self._limit = limit
        self._timeout = timeout
        self._overflow_seconds = overflow_seconds
        self._most_chars = most_chars
        self._clock = clock
        self._outbox: deque[str] = deque()
        self._chars = 0  # characters in the outbox and in the send under way
        self._over_since: float | None = None  # when the outbox went over `limit`
        self._queued_view: str | None = None  # the last view put in the outbox, until sent
        self._wake = asyncio.Event()
        self._empty = asyncio.Event()  # the outbox is sent
        self._handler = handler or asyncio.current_task()
        self._sender = asyncio.get_running_loop().create_task(self._run())

    def send(self, text: str) -> None:
        """Queue a message; never waits. Nothing follows a refusal or a restart notice (a
        hello under way when the server began to stop would else send its welcome after)."""
        if not self.closing:
            self._queue(text)

    def _queue(self, text: str) -> None:
        if self.dropped:
            return
        self._outbox.append(text)
        self._chars += len(text)
        self._wake.set()
        self._empty.clear()
        if self._chars > self._most_chars:
            self.drop(f"{self._chars} characters unread")
        elif len(self._outbox) > self._limit:
            now = self._clock()
            if self._over_since is None:
                self._over_since = now
            elif now - self._over_since > self._overflow_seconds:
                self.drop(f"over {self._limit} messages unread for "
                          f"{self._overflow_seconds:g} s")

    def send_view(self, full: bool = False) -> None:
        """Queue this client's view as it is now, unless that very view is already waiting:
        to a client that wants changes, the change from its last view (`full`: the view)."""
        if not self.wants_changes or self._changes is None:
            text = self._view_text(self)
            if text is not self._queued_view:
                self._queued_view = text
                self.send(text)
            return
        msg, change = self._changes(self, None if full else self._base)
        if change == "" or (change is None and self._queued_view is not None
                            and msg is self._base):
            return  # this view is sent or waiting already
        self.n += 1
        self._base = msg
        if change is None:
            text = self._view_text(self)
            self._queued_view = text = f'{text[:-1]}, "n": {self.n}}}'
        else:
            text = f'{{"type": "change", "n": {self.n}, {change[1:]}'
        self.send(text)

    async def _run(self) -> None:
        while not self.dropped:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox and not self.dropped:
                item = self._outbox.popleft()
                if len(self._outbox) <= self._limit:
                    self._over_since = None
                if item is self._queued_view:
                    self._queued_view = None
                try:
                    async with asyncio.timeout(self._timeout):
                        await self.ws.send_text(item)
                except TimeoutError:
                    self.drop(f"a send took over {self._timeout:g} s")
                except Exception:  # the socket is gone; the receive loop ends on its own
                    self.dropped = self.dropped or "closed"
                self._chars -= len(item)  # counted until sent: it is in memory until then
            self._empty.set()

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

    async def refuse(self, text: str, code: int) -> None:
        """Send `text` after what is queued, then close the socket with `code` (a client
        the server will not serve, such as a seat's connection over the cap)."""
        self._queue(text)
        self.closing = True
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self._timeout):
                await self._empty.wait()
        await self.close()
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def restarting(self) -> None:
        """Tell the client, after everything it was sent, to reconnect (in its language), as
        a server that stops does; once."""
        if self.closing:
            return
        self.closing = True
        with i18n.use(self.lang):
            text = json.dumps({"type": "restarting", "message": say("restarting")})
        await self.refuse(text, RESTART_CLOSE)

    async def close(self) -> None:
        """End the sender (the handler is ending)."""
        self.dropped = self.dropped or "closed"
        self._wake.set()
        self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._sender
