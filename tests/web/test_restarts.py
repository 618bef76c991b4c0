"""A server told to stop (SIGTERM) stops as a restart: the move being written is stored and
answered, a move that comes after is refused so that its client sends it again, and every
client is told to reconnect and closed with 1012 after its last messages. Two processes on
PostgreSQL and Redis restarted in turn while games go on lose no acknowledged move."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from tavola.web.app import GameServer
from tavola.web.connection import RESTART_CLOSE, Connection
from tavola.web.errors import ClientError
from tavola.web.site import load_site, load_sites
from tavola.web.storage import SqliteStore

PEOPLE = {"game": "gonzaga", "seats": [{"kind": "person"}, {"kind": "person"}]}


class Socket:
    """A client's socket: what it was sent, and how it was closed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0.001)
        self.sent.append(json.loads(text))

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def _plan(room: Any, seat: int) -> dict[str, Any]:
    view = json.loads(room.message_text(seat))
    return load_site("gonzaga").bench_reply(view, random.Random(seat))


def test_nothing_is_sent_after_the_restart_notice() -> None:
    """A hello under way when the server began to stop (its catch-up or seat waited on the
    store) sends no welcome or view after the notice: the client, told to reconnect, would
    else take that view for its reconnection."""
    async def run() -> list[dict[str, Any]]:
        sock = Socket()
        conn = Connection(sock, lambda c: '{"type": "state"}')  # type: ignore[arg-type]
        told = asyncio.create_task(conn.restarting())
        await asyncio.sleep(0)  # the notice is queued
        conn.send('{"type": "welcome"}')
        conn.send_view(full=True)
        await told
        return sock.sent

    sent = asyncio.run(run())
    assert [m["type"] for m in sent] == ["restarting"]


def test_a_stopping_server_answers_the_move_being_written_then_tells_everyone(
        tmp_path: Path) -> None:
    async def run() -> tuple[list[Socket], int, ClientError | None, int]:
        server = GameServer(SqliteStore(tmp_path / "g.db"), load_sites(["gonzaga"]),
                            bot_delay=0, bot_processes=False)
        room = server.create(PEOPLE)
        sockets = [Socket(), Socket()]
        for seat, sock in enumerate(sockets):
            conn = Connection(sock, lambda c: room.message_text(c.seat, c.lang))  # type: ignore[arg-type]
            conn.seat, conn.joined = seat, True
            server.conns[room.id].add(conn)
        writing, gate, append = asyncio.Event(), asyncio.Event(), \
            server.store_calls.hot

        async def slow(call: str, *args: Any, **kwargs: Any) -> Any:
            if call == "append":
                writing.set()
                await gate.wait()  # the database is slow to store Ann's move
            return await append(call, *args, **kwargs)

        server.store_calls.hot = slow  # type: ignore[method-assign]
        move = asyncio.create_task(server.act(room, 0, _plan(room, 0), 0))
        await writing.wait()
        drain = asyncio.create_task(server.drain(seconds=30))
        await asyncio.sleep(0)  # the stop has begun
        assert server.stopping and not drain.done()
        refused = None
        try:
            await server.act(room, 1, _plan(room, 1), 0)  # Bea's move comes during the stop
        except ClientError as exc:
            refused = exc
        gate.set()
        await move
        told = await drain
        return sockets, told, refused, len(server.store.load(room.id).actions)  # type: ignore[union-attr]

    sockets, told, refused, stored = asyncio.run(run())
    assert told == 2
    assert refused is not None and refused.code == "restarting" and refused.message
    assert stored == 1  # Ann's move, and not Bea's
    for sock in sockets:
        kinds = [m["type"] for m in sock.sent]
        assert kinds[-2:] == ["state", "restarting"], kinds  # the move's view, then the notice
        assert sock.sent[-2]["seq"] == 1 and sock.sent[-1]["message"]
        assert sock.closed == RESTART_CLOSE == 1012


def test_a_stopping_server_starts_no_bot_and_refuses_a_new_player(tmp_path: Path) -> None:
    async def run() -> tuple[set[Any], list[dict[str, Any]], int | None]:
        server = GameServer(SqliteStore(tmp_path / "g.db"), load_sites(["gonzaga"]),
                            bot_delay=0, bot_processes=False)
        room = server.create({"game": "gonzaga", "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
        server.pending_bots.clear()
        for task in list(server.tasks):
            task.cancel()
        await server.drain(seconds=5)
        server.kick_bots(room)
        sock = Socket()
        conn = Connection(sock, lambda c: room.message_text(c.seat, c.lang))  # type: ignore[arg-type]
        server.conns[room.id].add(conn)
        handler = asyncio.create_task(server.sockets.message(conn, room, json.dumps(
            {"type": "hello", "token": room.tokens[0]})))
        with pytest.raises(ClientError) as refused:
            await handler
        return server.pending_bots, sock.sent, getattr(refused.value, "close_code", None)

    pending, sent, close_code = asyncio.run(run())
    assert pending == set()  # the game's bots move on the process that takes it over
    assert sent == [] and close_code == 1012  # told to reconnect, elsewhere


class OpeningSocket(Socket):
    """A WebSocket as the app sees it from its handshake: a client that says nothing yet."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: dict[str, str] = {}
        self.cookies: dict[str, str] = {}
        self.client = None

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        await asyncio.sleep(30)
        return {"type": "websocket.disconnect"}


def test_a_connection_that_opens_during_the_stop_is_told_too(tmp_path: Path) -> None:
    """One whose handshake was under way when the stop began (the drain did not see it)."""
    async def run() -> OpeningSocket:
        server = GameServer(SqliteStore(tmp_path / "g.db"), load_sites(["gonzaga"]),
                            bot_delay=0, bot_processes=False)
        room = server.create(PEOPLE)
        await server.drain(seconds=5)
        sock = OpeningSocket()
        await asyncio.wait_for(server.handle(sock, room.id), 10)  # type: ignore[arg-type]
        assert not server.conns[room.id]
        return sock

    sock = asyncio.run(run())
    assert [m["type"] for m in sock.sent] == ["restarting"]
    assert sock.closed == 1012


# -- two processes on PostgreSQL and Redis, restarted in turn ----------------------------------


def test_rolling_restarts_lose_no_acknowledged_move_and_every_client_reconnects(
        tmp_path: Path, pg_url: str) -> None:
    """50 games on two processes, each restarted (SIGTERM, exit, start) three times while
    they play, as `tavola bench --rolling-restart` runs it."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed; .ci/run installs it", pytrace=False)
        pytest.skip("redis-server is not installed")
    from tavola.web.restartbench import run_restart_bench

    figures = run_restart_bench(games=50, rounds=3, db=pg_url, think=0.2)
    print(figures)
    assert figures["restarts (SIGTERM, exit, start again)"] == 6
    assert all(figures["seats still playing at each SIGTERM"])
    assert figures["moves acknowledged"] > 50 * 24
    assert figures["acknowledged moves lost"] == 0
    assert figures["games broken"] == 0
    closed = figures["connections closed by a restart"]
    assert closed >= 6
    assert figures["reconnected (view resynced)"] == closed
    assert figures["closes without a word from the server"] == 0  # each was announced ...
    assert figures["moves left in doubt"] == 0  # ... after every move was answered


def test_bench_rolling_restart_runs_the_scenario_and_prints_its_figures(monkeypatch) -> None:
    from typer.testing import CliRunner

    from tavola import cli, registry
    from tavola.web import restartbench

    asked: dict[str, Any] = {}

    def fake(**kwargs: Any) -> dict[str, Any]:
        asked.update(kwargs)
        return {"acknowledged moves lost": 0, "reconnection p50 (ms)": 12.5}

    monkeypatch.setattr(restartbench, "run_restart_bench", fake)
    result = CliRunner().invoke(cli.app, ["bench", "--rolling-restart", "--server-games", "7",
                                          "--restarts", "2", "--db", "postgresql://x/y"])
    assert result.exit_code == 0, result.output
    assert asked == {"games": 7, "rounds": 2, "db": "postgresql://x/y", "think": 0.5,
                     "game": registry.DEFAULT}
    assert "acknowledged moves lost: 0" in result.output
    assert "reconnection p50 (ms): 12.5" in result.output
