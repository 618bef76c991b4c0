"""A deadline on receiving each HTTP request: its headers and body within `seconds`.

uvicorn closes a keep-alive connection that stays idle (`timeout_keep_alive`), but waits for
ever on a request that has begun and does not end: headers that never finish, or a body
shorter than its Content-Length. Each such connection holds a socket and memory, and a few
thousand of them use up the server's file descriptors (slowloris). `RequestDeadline` is
uvicorn's own HTTP protocol (httptools, which `uvicorn[standard]` brings) with one timer more:
from a connection's opening, or a request's first byte, to the request's last byte or its
WebSocket upgrade. When it fires the connection is closed. The headers received meanwhile
are bounded too (`MAX_HEAD`). Answering a request that has arrived is not limited (a review
may take a while), nor is an open WebSocket (its pings find a peer that went away).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

REQUEST_SECONDS = 10.0  # `Limits.request_seconds`
MAX_HEAD = 64 * 1024  # bytes of a request line and headers; browsers send 1-2 KiB


class RequestDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request takes over `seconds` to
    arrive. `seconds` is the process's (set by `tavola.web._app` from `Limits`), since
    uvicorn makes the protocol itself, in each worker process."""

    seconds: float = REQUEST_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._head = 0  # bytes received of the request whose headers are not complete
        self._in_head = True  # from a request's first byte (or the connection's) to its headers

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._in_head and not self.transport.is_closing():  # still no end of the headers
            self._head += len(data)
            if self._head > MAX_HEAD:
                self.send_400_response("Request headers are too large.")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head = 0
        self._in_head = True
        self._start()

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._stop()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._stop()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        super().connection_lost(exc)

    def _start(self) -> None:
        """A request is on its way (or may be: the connection is new)."""
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.seconds, self._expired)

    def _stop(self) -> None:
        """The request has arrived: the next one starts its own clock (and at its first byte,
        its own head: the rest of this request's body is no part of it)."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.logger.info("closing a connection whose request did not arrive within %g s",
                             self.seconds)
            self.transport.close()
