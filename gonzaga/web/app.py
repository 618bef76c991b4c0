"""The web server: lobby over HTTP, play over WebSockets, bots in worker processes.

The server holds the only true state of every game (`Room`); each connection receives only its
own seat's view, spectators the public view. An action is validated, written to the store, and
only then applied and broadcast, so a server killed at any moment resumes every game from its
log (see docs/web.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import BrokenExecutor
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..actions import action_to_json
from ..board import load_board
from ..bots import LEVELS, level_options
from ..engine import apply_in_place, new_game, view
from ..placement import placement_tables
from ..record import dumps_record, game_record
from ..state import VARIANTS
from .botpool import bot_executor, decide
from .room import BOT, ClientError, Room, parse_params
from .storage import GameStore, StoreError, open_store
from .wire import board_json, view_json

log = logging.getLogger("gonzaga.web")
MAX_MESSAGE = 16_384  # characters; every legal message is far smaller
DEFAULT_DB = "sqlite:///gonzaga.db"


def static_dir() -> Path:
    return Path(str(resources.files("gonzaga") / "web" / "static"))


class Connection:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.room: Room | None = None


class GameServer:
    """Every live game, its connections and its bots; transport-independent where it can be."""

    def __init__(self, store: GameStore, *, bot_delay: float = 0.35, bot_workers: int = 2,
                 bot_processes: bool = True) -> None:
        self.store = store
        self.board = load_board()  # the shipped board, which the bot workers load too
        placement_tables(self.board).fiefs  # noqa: B018 - built now, not during a first move
        self.rooms: dict[str, Room] = {}
        self.conns: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.executor = bot_executor(bot_workers, processes=bot_processes)
        self.bot_failures: dict[tuple[str, int, int], int] = {}
        self.pending_bots: set[tuple[str, int]] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.board_payload = json.dumps(board_json(self.board))

    # -- life cycle ------------------------------------------------------------------------

    def resume(self, finished: int = 20) -> int:
        """Rebuild every unfinished game from its log (and the last `finished` games over, for
        the lobby); returns how many unfinished games were resumed."""
        for game_id in self.store.game_ids("over")[-finished:]:
            self.room(game_id)
        count = 0
        for game_id in self.store.game_ids("playing"):
            stored = self.store.load(game_id)
            if stored is None:
                continue
            try:
                room = Room.restore(stored, self.board)
            except (ValueError, KeyError, TypeError) as exc:  # one bad game never stops the rest
                log.error("cannot resume game %s: %s", game_id, exc)
                self.store.set_status(game_id, "broken")
                continue
            self._add(room)
            count += 1
        return count

    def start_bots(self) -> None:
        for room in list(self.rooms.values()):
            self.kick_bots(room)

    async def shutdown(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        # wait for the workers to end (a bot mid-thought is abandoned: it is asked again
        # when the game resumes)
        await asyncio.to_thread(self.executor.shutdown, wait=True, cancel_futures=True)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.conns.setdefault(room.id, set())
        self.locks.setdefault(room.id, asyncio.Lock())

    def room(self, game_id: str) -> Room | None:
        """A live room, or a finished game loaded from the store on demand."""
        room = self.rooms.get(game_id)
        if room is None:
            stored = self.store.load(game_id)
            if stored is None:
                return None
            try:
                room = Room.restore(stored, self.board)
            except (ValueError, KeyError, TypeError):
                return None
            self._add(room)
        return room

    # -- lobby -----------------------------------------------------------------------------

    def create(self, data: Any) -> Room:
        params = parse_params(data)
        room = Room(secrets.token_urlsafe(8), params, board=self.board)
        self.store.create(room.stored())
        self._add(room)
        self.kick_bots(room)
        return room

    def claim(self, game_id: str) -> tuple[int, str]:
        room = self.room(game_id)
        if room is None:
            raise ClientError("not-found", "no such game")
        if not room.params.public:
            raise ClientError("full", "this game is played by invitation: ask for a seat's link")
        for seat, token in sorted(room.tokens.items()):
            if seat not in room.claimed and self.store.claim(game_id, seat):
                room.claimed.add(seat)
                return seat, token
        raise ClientError("full", "every seat of this game is taken")

    # -- play ------------------------------------------------------------------------------

    async def act(self, room: Room, seat: int | None, payload: Any) -> None:
        """Validate, store, apply, broadcast; a `ClientError` changes nothing."""
        async with self.locks[room.id]:
            action, new_state = room.prepare(seat, payload)
            try:
                self.store.append(room.id, room.seq, action_to_json(action))
                if new_state.is_over:
                    self.store.set_status(room.id, "over")
            except StoreError as exc:
                log.error("%s", exc)
                raise ClientError("storage", "the move could not be saved; try again") from None
            room.commit(action, new_state)
        await self.broadcast(room)
        self.kick_bots(room)

    async def broadcast(self, room: Room) -> None:
        conns = list(self.conns.get(room.id, ()))
        texts = {c.seat: room.message_text(c.seat) for c in conns}
        await asyncio.gather(*(self._send(c, texts[c.seat]) for c in conns))

    async def _send(self, conn: Connection, text: str) -> None:
        with contextlib.suppress(Exception):
            await conn.ws.send_text(text)

    def kick_bots(self, room: Room) -> None:
        for seat in room.bots_to_move():
            key = (room.id, seat)
            if key in self.pending_bots:
                continue
            self.pending_bots.add(key)
            task = asyncio.get_running_loop().create_task(self._bot_move(room, seat))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _bot_move(self, room: Room, seat: int) -> None:
        """A bot decides in a worker process on its own view, then acts like any client.

        A bot that fails three times at the same move is left alone (logged), so a broken bot
        stalls its own game, never the server."""
        key = (room.id, seat, room.seq)
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state = room.state
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(
                self.executor, decide, room.bots[seat], room.params.seed, state.setup,
                sorted(state.rules.variants), list(state.history), seat)
            try:
                await self.act(room, seat, action_to_json(action))
            except ClientError as exc:
                self.bot_failures[key] = self.bot_failures.get(key, 0) + 1
                log.warning("bot %s in %s: %s", seat, room.id, exc.message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.bot_failures[key] = self.bot_failures.get(key, 0) + 1
            log.exception("bot %s of game %s failed", seat, room.id)
            if isinstance(exc, BrokenExecutor):  # a worker died: start a new pool
                self.executor = bot_executor(self.bot_workers)
        finally:
            self.pending_bots.discard((room.id, seat))
        if self.bot_failures.get(key, 0) >= 3:
            log.error("bot %s of game %s gave up at move %s", seat, room.id, room.seq)
        elif seat in room.bots_to_move():
            self.kick_bots(room)

    # -- connections -----------------------------------------------------------------------

    async def handle(self, ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        conn = Connection(ws)
        room = self.room(game_id)
        if room is None:
            await ws.send_json({"type": "error", "code": "not-found", "message": "no such game"})
            await ws.close(code=4404)
            return
        conn.room = room
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    text = message.get("text")
                    if text is None:
                        raise ClientError("bad-message", "messages are JSON text, not binary")
                    await self._message(conn, room, text)
                except ClientError as exc:
                    await ws.send_text(json.dumps(exc.to_json()))
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except Exception:  # a bug must not cost the player the connection
                    log.exception("message in game %s", room.id)
                    await ws.send_json({"type": "error", "code": "server-error",
                                        "message": "the server failed on this message"})
        except WebSocketDisconnect:
            pass
        finally:
            if conn in self.conns.get(room.id, set()):
                self.conns[room.id].discard(conn)
                if conn.seat is not None:
                    room.connected[conn.seat] = room.connected.get(conn.seat, 1) - 1
                    await self.broadcast(room)

    async def _message(self, conn: Connection, room: Room, text: str) -> None:
        if len(text) > MAX_MESSAGE:
            raise ClientError("too-large", f"messages are limited to {MAX_MESSAGE} bytes")
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            raise ClientError("bad-json", "the message is not valid JSON") from None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ClientError("bad-message", "a message is a JSON object with a 'type'")
        kind = msg["type"]
        if kind == "hello":
            await self._hello(conn, room, msg.get("token"))
        elif kind == "ping":
            await conn.ws.send_json({"type": "pong"})
        elif conn not in self.conns[room.id]:
            raise ClientError("hello-first", "send {\"type\": \"hello\", \"token\": …} first")
        elif kind == "act":
            await self.act(room, conn.seat, msg.get("action"))
        elif kind == "check":
            try:
                reply = room.check(conn.seat, msg.get("action"))
            except ClientError as exc:
                reply = {**exc.to_json(), "type": "check", "ok": False,
                         "action": msg.get("action")}
            await conn.ws.send_json(reply)
        elif kind == "state":
            await conn.ws.send_text(room.message_text(conn.seat))
        else:
            raise ClientError("unknown-type", f"unknown message type {kind!r} (hello, act, "
                                              "check, state, ping)")

    async def _hello(self, conn: Connection, room: Room, token: Any) -> None:
        if token is not None and not isinstance(token, str):
            raise ClientError("bad-token", "the token must be text")
        seat = room.seat_of(token)
        if conn in self.conns[room.id] and conn.seat is not None:
            room.connected[conn.seat] -= 1
        conn.seat = seat
        self.conns[room.id].add(conn)
        if seat is not None:
            room.connected[seat] = room.connected.get(seat, 0) + 1
            if seat not in room.claimed and self.store.claim(room.id, seat):
                room.claimed.add(seat)
        await conn.ws.send_json({"type": "welcome", "game": room.id, "seat": seat,
                                 "name": None if seat is None
                                 else room.params.seats[seat].name})
        await self.broadcast(room)


def create_app(db: str | GameStore = DEFAULT_DB, *, bot_delay: float = 0.35,
               bot_processes: bool = True) -> FastAPI:
    """The ASGI app; `db` is a database URL or a ready `GameStore`."""
    store = open_store(db) if isinstance(db, str) else db
    server = GameServer(store, bot_delay=bot_delay, bot_processes=bot_processes)
    server.resume()
    # The board, its placement tables and every resumed game live as long as the server: keep
    # them out of the garbage collector's full passes, which otherwise stall the event loop
    # for tens of milliseconds under load; and collect young objects less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.start_bots()
        yield
        await server.shutdown()
        store.close()

    app = FastAPI(title="Gonzaga", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.server = server
    static = static_dir()
    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.exception_handler(ClientError)
    async def client_error(request: Request, exc: ClientError) -> JSONResponse:
        status = 404 if exc.code == "not-found" else 409 if exc.code in ("full", "not-over") \
            else 400
        return JSONResponse(exc.to_json(), status_code=status)

    @app.get("/")
    @app.get("/game/{game_id}")
    async def index(game_id: str | None = None) -> FileResponse:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/board")
    async def get_board() -> Response:
        return Response(server.board_payload, media_type="application/json")

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {"bots": list(LEVELS), "bot_levels": level_options(), "variants": VARIANTS,
                "regions": {r.id: r.name for r in server.board.regions.values()},
                "scenarios": [{"name": s.name, "players": s.players, "person": s.person,
                               "flourishing": list(s.flourishing)}
                              for s in server.board.scenarios.values()]}

    @app.post("/api/games")
    async def create_game(request: Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except (ValueError, RecursionError):
            raise ClientError("bad-json", "the request body is not valid JSON") from None
        room = server.create(data)
        return {"id": room.id, "spectator": f"/game/{room.id}#watch",
                "seats": [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot,
                           "link": f"/game/{room.id}#{room.tokens[i]}"
                           if i in room.tokens else None}
                          for i, s in enumerate(room.params.seats)]}

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        live = [r.summary() for r in server.rooms.values() if not r.state.is_over]
        done = [r.summary() for r in server.rooms.values() if r.state.is_over]
        live.sort(key=lambda g: -g["created"])
        done.sort(key=lambda g: -g["created"])
        return {"open": [g for g in live if any(s["open"] for s in g["seats"])],
                "playing": [g for g in live if not any(s["open"] for s in g["seats"])],
                "finished": done[:20]}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str) -> dict[str, Any]:
        seat, token = server.claim(game_id)
        return {"seat": seat, "link": f"/game/{game_id}#{token}"}

    def finished(game_id: str) -> Room:
        room = server.room(game_id)
        if room is None:
            raise ClientError("not-found", "no such game")
        if not room.state.is_over:
            raise ClientError("not-over", "the record and the replay open when the game is over")
        return room

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        room = finished(game_id)
        specs = [(s.bot or "greedy") if s.kind == BOT else "human" for s in room.params.seats]
        text = dumps_record(game_record(room.state, players=specs, seed=room.params.seed))
        return Response(text + "\n", media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="gonzaga-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay(game_id: str, step: int) -> dict[str, Any]:
        """The public view after `step` actions of a finished game."""
        room = finished(game_id)
        total = len(room.state.history)
        step = max(0, min(step, total))
        state = new_game(setup=room.state.setup, board=room.board,
                         variants=sorted(room.state.rules.variants))
        for action in room.state.history[:step]:
            apply_in_place(state, action)
        msg = view_json(view(state, None), game_id=room.id, seq=step, seats=room.seats_json())
        msg["replay"] = {"step": step, "total": total}
        return msg

    @app.websocket("/ws/{game_id}")
    async def websocket(ws: WebSocket, game_id: str) -> None:
        await server.handle(ws, game_id)

    return app
