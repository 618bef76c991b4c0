"""The game's WebSockets: one task per client from its opening to its end, reading its
messages and handing each to the game server (`GameServer`); what a client is sent goes
through its own outbox (`Connection`), so nobody waits on a client's network.

This is the layer above the game server: it calls the server's public API (moves, undos,
chat, hints, leavers' choices, rematches) and the server never calls it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect

from .. import i18n
from ..text import say
from . import i18n_web, metrics
from .chat import MAX_CHARS
from .connection import RESTART_CLOSE, Connection
from .errors import ClientError, Refused
from .limits import RateLimiter, parse_json
from .logs import GAME_ID

if TYPE_CHECKING:
    from .app import GameServer
    from .room import Room

log = logging.getLogger("tavola.web")
#: Players arriving (a hello: a catch-up, a seat taken, a first view) handled at once. When
#: everyone reconnects at the same moment (a restart), the rest wait their turn rather than
#: fill the event loop ahead of the moves of games already playing.
ARRIVALS_AT_ONCE = 4
PLAYING = ("act", "undo", "rematch", "hint", "leave")  # the messages of a player at play


class Sockets:
    """Every game's WebSockets, and how many each client address holds open."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.open: Counter[str] = Counter()  # open WebSockets by client address
        self._arrivals: asyncio.Semaphore | None = None  # made on the server's loop

    async def handle(self, ws: WebSocket, game_id: str) -> None:
        """A game's WebSocket, from its opening to its end; over `connections_per_address`
        WebSockets from its client's address, it is told so and closed (4429)."""
        await ws.accept()
        # this connection's task speaks its player's language (errors); views are built for
        # each connection in its own language, whoever's move sent them
        lang = i18n.set_language(i18n_web.language_of(ws.headers, ws.cookies))
        address = ws.client.host if ws.client else ""
        most = self.server.limits.connections_per_address
        if most and self.open[address] >= most:
            await ws.send_json({"type": "error", "code": "too-many-connections",
                                "message": say("error.address-connections", most=most)})
            await ws.close(code=4429)
            return
        self.open[address] += 1
        metrics.CONNECTIONS.inc()
        GAME_ID.set(game_id[:64])
        try:
            await self._play(ws, game_id, lang)
        finally:
            metrics.CONNECTIONS.dec()
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]

    async def _play(self, ws: WebSocket, game_id: str, lang: str) -> None:
        server = self.server
        room = await server.room_waiting(game_id) if len(game_id) <= 64 else None
        if room is None:
            await ws.send_json({"type": "error", "code": "not-found",
                                "message": say("error.not-found")})
            await ws.close(code=4404)
            return
        conn = Connection(ws, lambda c: room.message_text(c.seat, c.lang),
                          changes=lambda c, base: room.change_from(c.seat, c.lang, base))
        conn.lang = lang
        server.connected(room, conn)  # from now on the room stays in memory
        bucket = RateLimiter(server.limits.messages_per_second, server.limits.message_burst)
        try:
            if server.stopping:  # it opened while the server stopped: told like the others
                await conn.restarting()
                return
            await self._receive(conn, room, bucket)
        except (WebSocketDisconnect, asyncio.CancelledError):
            if not conn.dropped:
                raise
        finally:
            await conn.close()
            server.disconnected(room, conn)

    async def _receive(self, conn: Connection, room: Room, bucket: RateLimiter) -> None:
        while not conn.dropped:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                bucket.check("", "messages")
                text = message.get("text")
                if text is None:
                    raise ClientError("bad-message", "messages are JSON text, not binary")
                await self.message(conn, room, text)
            except Refused as exc:
                metrics.count_client_error(exc.code)
                await conn.refuse(json.dumps(exc.to_json()), exc.close_code)
                return
            except ClientError as exc:
                metrics.count_client_error(exc.code)
                conn.send(json.dumps(exc.to_json()))
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception:  # a bug must not cost the player the connection
                metrics.count_server_error("message")
                log.exception("message in game %s", room.id)
                conn.send(json.dumps({"type": "error", "code": "server-error",
                                      "message": say("error.server-error")}))

    async def message(self, conn: Connection, room: Room, text: str) -> None:
        """One message of a client, handed to the game server; a `ClientError` is told to
        the client (a `Refused` closes it)."""
        msg = parse_json(text)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ClientError("bad-message", "a message is a JSON object with a 'type'")
        kind = msg["type"]
        server = self.server
        if kind in PLAYING and server.moderation is not None:
            server.moderation.may_play(conn.account)  # a suspended player plays no more
        if kind == "hello":
            await self._arrive(conn, room, msg)
        elif kind == "ping":
            conn.send('{"type": "pong"}')
        elif not conn.joined:
            raise ClientError("hello-first", "send {\"type\": \"hello\", \"token\": …} first")
        elif kind == "act":
            await server.act(room, conn.seat, msg.get("action"), msg.get("seq"))
        elif kind == "undo":
            await server.undo(room, conn.seat, msg.get("seq"))
        elif kind == "check":
            self._check(conn, room, msg.get("action"))
        elif kind == "state":
            conn.send_view(full=True)
        elif kind == "rematch":
            await server.rematch(room, conn.seat, conn.ws.client.host if conn.ws.client else "")
        elif kind == "chat":
            server.post_chat(conn, room, msg.get("text"))
        elif kind == "hint":
            server.hinting.ask(conn, room, msg.get("seq"))
        elif kind == "leave":
            await server.leavers.vote(room, conn.seat, msg.get("seat"), msg.get("choice"))
        else:
            raise ClientError("unknown-type", f"unknown message type {kind[:40]!r} (hello, act, "
                                              "undo, check, state, rematch, chat, hint, leave, "
                                              "ping)")

    async def _arrive(self, conn: Connection, room: Room, msg: dict[str, Any]) -> None:
        """A hello: handled a few at a time (`ARRIVALS_AT_ONCE`), on the game as stored."""
        server = self.server
        if server.stopping:  # the client is told to reconnect (`drain`), elsewhere
            raise Refused("restarting", say("restarting"), RESTART_CLOSE)
        if "lang" in msg:  # the page's language, when it differs from the handshake's
            conn.lang = i18n.set_language(msg.get("lang"))
        conn.wants_changes = msg.get("changes") is True  # then views come as changes
        if self._arrivals is None:
            self._arrivals = asyncio.Semaphore(ARRIVALS_AT_ONCE)
        async with self._arrivals:
            if server.cluster is not None:  # a player coming from a process that died may
                await server.catch_up(room)  # have moved there last, unheard of here
            await self.hello(conn, room, msg.get("token"))

    def _check(self, conn: Connection, room: Room, action: Any) -> None:
        """Would this action be legal, and what would it score? Told to this client only."""
        try:
            reply = room.check(conn.seat, action)
        except ClientError as exc:
            reply = {**exc.to_json(), "type": "check", "ok": False, "action": action}
        conn.send(json.dumps(reply))

    async def hello(self, conn: Connection, room: Room, token: Any) -> None:
        """Open a seat (or watch); only this connection gets the view, the others hear that
        a player came. The seat is claimed before the connection joins: from joining to its
        welcome nothing waits, so no view of another move can come before the welcome."""
        server = self.server
        seat = room.seat_of(token)
        self._check_seat_connections(conn, room, seat)
        if server.accounts is not None:
            server.accounts.opening(conn.ws, room, seat)  # the seat's account, rated rules
            user = server.accounts.ws_user(conn.ws)
            conn.account = None if user is None else user.id
        if seat is not None and seat not in room.claimed:
            await server.take_seat(room, seat)
        if conn.joined and conn.seat is not None:
            room.connected[conn.seat] -= 1
        conn.seat = seat
        conn.joined = True
        if seat is not None:
            room.connected[seat] = room.connected.get(seat, 0) + 1
        conn.send(json.dumps({"type": "welcome", "game": room.id, "seat": seat,
                              "name": None if seat is None else room.params.seats[seat].name,
                              "chat": {"max_chars": MAX_CHARS, "may_write": seat is not None},
                              "hints": room.params.hints}))
        conn.send_view(full=True)
        hidden = server.friends.hidden_seats(room, conn.account) if server.friends else set()
        chat = server.chat.history(room, hidden)
        if chat is not None:
            conn.send(chat)
        if seat is not None:
            server.presence(room, but=conn)

    def _check_seat_connections(self, conn: Connection, room: Room, seat: int | None) -> None:
        """Refuse a seat's connection over `Limits.connections_per_seat` (of this process):
        a seat's own tabs and devices are few, while each connection costs an outbox and
        receives every line of the game's chat."""
        most = self.server.limits.connections_per_seat
        if seat is None or not most or (conn.joined and conn.seat == seat):
            return
        if room.connected.get(seat, 0) >= most:
            raise Refused("too-many-connections", say("error.seat-connections", most=most))

