"""A client of the account routes without a browser: a cookie jar, the CSRF header, and a seat
played to the end over a WebSocket that carries the session cookie."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from typing import Any

import websockets

from tavola.web.site import load_site


class Visitor:
    """One browser's worth of cookies; `call` sends the session's CSRF token unless told not
    to. An `address` is the client address the server sees (sent as X-Forwarded-For, which
    the server trusts from the loopback, as from a reverse proxy there)."""

    def __init__(self, base: str, address: str | None = None) -> None:
        self.base = base
        self.address = address
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def call(self, path: str, body: Any = None, *, csrf: bool = True,
             headers: dict[str, str] | None = None) -> tuple[int, Any, Any]:
        data = None if body is None else (body if isinstance(body, bytes)
                                          else json.dumps(body).encode())
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if self.address:
            hdrs.setdefault("X-Forwarded-For", self.address)
        token = self.cookie("tabletop_csrf")
        if csrf and token:
            hdrs["X-CSRF-Token"] = token
        req = urllib.request.Request(f"{self.base}{path}", data=data, headers=hdrs,
                                     method="GET" if data is None else "POST")
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, r.headers, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers, json.loads(exc.read())

    def ok(self, path: str, body: Any = None) -> Any:
        status, _, data = self.call(path, body)
        assert status == 200, (status, data)
        return data

    def sign_up(self, name: str, password: str = "correct horse battery") -> Any:
        return self.ok("/api/signup", {"name": name, "password": password})

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


async def play(ws_base: str, link: str, visitor: Visitor | None, game: str,
               seed: int = 1, *, one_turn: bool = False) -> dict[str, Any]:
    """Play the seat of `link` to the end with the load benchmark's simple moves, signed in as
    `visitor` (None: a guest); with `one_turn`, only until the game no longer asks the seat
    (its turn, or its plan, made). Returns the last view."""
    reply = load_site(game).bench_reply
    rng = random.Random(seed)
    game_id, token = link.removeprefix("/game/").split("#", 1)
    headers = {"Cookie": visitor.cookie_header()} if visitor else {}
    async with websockets.connect(f"{ws_base}/ws/{game_id}", max_size=1 << 24,
                                  additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent = -1
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "error" and msg["code"] != "stale":
                raise RuntimeError(msg)
            if msg["type"] != "state":
                continue
            if msg["phase"] == "over" or (one_turn and not msg["legal"] and sent >= 0):
                return msg
            if msg["legal"] and msg["seq"] > sent:
                sent = msg["seq"]
                await ws.send(json.dumps({"type": "act", "seq": sent,
                                          "action": reply(msg, rng)}))


async def hello(ws_base: str, link: str, visitor: Visitor | None,
                origin: str | None = None) -> dict[str, Any]:
    """The server's first answer to opening a seat: its welcome, or an error."""
    game_id, token = link.removeprefix("/game/").split("#", 1)
    headers = {"Cookie": visitor.cookie_header()} if visitor else {}
    async with websockets.connect(f"{ws_base}/ws/{game_id}", additional_headers=headers,
                                  origin=origin) as ws:  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": token}))
        return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))
