"""The server's boundary: what a client may send, how much and how often.

Every byte from a client is hostile until checked here: request bodies and WebSocket messages
have a size limit, JSON text must be valid UTF-8 all through (a lone surrogate such as
"\\ud800" is valid JSON but cannot be stored or sent back), and each client address has a rate
limit on the calls that cost the server work. A refused input changes nothing.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ClientError

MAX_BODY = 16 * 1024  # bytes of an HTTP request body; a new game is well under 1 KiB
MAX_MESSAGE = 16 * 1024  # characters of a WebSocket message; every legal one is far smaller
MAX_DEPTH = 12  # nesting of JSON values; a legal message nests 4 deep


def parse_json(text: str | bytes, *, what: str = "message", limit: int | None = None,
               depth: int = MAX_DEPTH) -> Any:
    """JSON from a client, or a `ClientError` naming what is wrong with it; `limit` and
    `depth` for the few requests allowed more than a move (an edition's data)."""
    if limit is None:
        limit = MAX_BODY if isinstance(text, bytes) else MAX_MESSAGE
    if len(text) > limit:
        raise ClientError("too-large", f"the {what} is larger than {limit} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ClientError("bad-text", f"the {what} is not UTF-8 text") from None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep for the parser
        raise ClientError("bad-json", f"the {what} is not valid JSON") from None
    check_text(value, what=what, most=depth)
    return value


def check_text(value: Any, *, what: str = "message", depth: int = 0,
               most: int = MAX_DEPTH) -> None:
    """Refuse strings that are not valid Unicode text (lone surrogates) and nesting deeper
    than `most`."""
    if depth > most:
        raise ClientError("bad-json", f"the {what} is nested too deeply (at most {most} levels)")
    if isinstance(value, str):
        _check_str(value, what)
    elif isinstance(value, list):
        for item in value:
            check_text(item, what=what, depth=depth + 1, most=most)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_str(key, what)
            check_text(item, what=what, depth=depth + 1, most=most)


def _check_str(text: str, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ClientError("bad-text", f"the {what} holds text that is not valid Unicode "
                                      "(a lone surrogate)") from None


def address_key(host: str) -> str:
    """A client address as the key of a per-address limit: an IPv6 address's /64 network (a
    home or a rented server gets a whole /64, so one client has all its addresses), else the
    address itself."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per key (a client address): `burst` calls at once, then `rate` a second.

    The table of keys is bounded; the least recently seen key is forgotten first, so a flood of
    addresses costs memory only up to `max_keys` entries. A rate of 0 means no limit.
    """

    def __init__(self, rate: float, burst: int, *, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def allow(self, key: str, now: float | None = None, *, count: bool = True) -> float:
        """0 if the call may go ahead (and is counted, unless `count` is False: a call that
        may still be refused for another reason), else the seconds to wait."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        bucket = self._buckets.pop(key, None) or Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        self._buckets[key] = bucket
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        if bucket.tokens >= 1:
            bucket.tokens -= count
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def refund(self, key: str) -> None:
        """Give back a call `allow` counted that turned out not to count (a right password)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.tokens = min(float(self.burst), bucket.tokens + 1)

    def check(self, key: str, what: str) -> None:
        """`allow`, raising a `RateLimited` error when the call must wait."""
        wait = self.allow(key)
        if wait:
            raise RateLimited(wait, what)


class RateLimited(ClientError):
    def __init__(self, wait: float, what: str) -> None:
        super().__init__("rate-limited", f"too many {what}; try again in {wait:.0f} s"
                         if wait >= 1 else f"too many {what}; slow down")
        self.retry_after = max(1, round(wait + 0.5))


#: On every HTTP answer: no other site may show a page in a frame (a page of ours under a
#: stranger's buttons could be clicked unawares), and no browser may take a file for another
#: type than the one it is sent as.
SECURITY_HEADERS = [(b"content-security-policy", b"frame-ancestors 'none'"),
                    (b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff")]


class SecurityHeaders:
    """ASGI middleware: `SECURITY_HEADERS` on every HTTP response, whatever made it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message,
                           "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """ASGI middleware: a request body over `limit` bytes gets 413 before the app reads it;
    paths starting with a key of `larger` have that limit instead (an edition's data).

    The declared Content-Length is checked first; a chunked body is counted as it arrives and
    cut off at the limit, so a large body never reaches memory.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY,
                 larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})

    def limit_of(self, path: str) -> int:
        return next((most for start, most in self.larger.items() if path.startswith(start)),
                    self.limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_of(scope.get("path", ""))
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit)
            return
        seen = 0
        refused = False
        started = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    raise _TooLarge
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except _TooLarge:
            if not started:
                await self._refuse(send, limit)
        except Exception:
            if not refused:
                raise
            if not started:
                await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps({"type": "error", "code": "too-large",
                           "message": f"request bodies are limited to {limit} bytes"})
        data = body.encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": data})


class _TooLarge(Exception):
    """Raised inside the app's receive when a body passes the limit."""
