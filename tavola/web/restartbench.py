"""Rolling restarts under play (`tavola bench --rolling-restart`): two server processes on
one database and one Redis, each on its own port, as behind a proxy that sends a connection to
whichever answers; games played by scripted clients over WebSockets while each process in turn
is stopped with SIGTERM, waited for and started again.

Each seat's client knows both addresses; when its connection closes it reconnects to one that
answers (the other first), says hello with its seat's token and goes on from the view it is
sent. It keeps every move the server acknowledged (a view that shows it played) and, at the
end, every one must be in the stored log, every game must load and its record verify. It also
counts the moves left in doubt (a connection closed with a move unanswered and no word from
the server; a restart that drains leaves none) and times each reconnection, from the close
(or the server's "restarting" notice) to the first view on the new connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import tempfile
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import websockets

from .. import registry
from .loadbench import LOCAL_LIMITS, db_url, free_port, http_json, start_redis, start_server
from .site import WebGame, load_site

HOLD_AT = 24  # moves of a game (a two-player game of the default game has about 40)


def new_game(game: str, g: int) -> dict[str, Any]:
    """The lobby's request for the `g`th game: two people, or one against the game's cover bot
    every fourth game."""
    other = {"kind": "person"} if g % 4 else {"kind": "bot", "bot": registry.kit(game).cover_bot}
    return {"game": game, "seats": [{"kind": "person"}, other]}


@dataclass
class Tally:
    """What the clients saw, all together."""

    acks: list[tuple[str, int, list[dict[str, Any]]]] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)  # seconds, close to resynced view
    closes: int = 0  # connections that closed under a seat before its game ended
    notices: int = 0  # "restarting" notices received
    refused: int = 0  # moves the server did not play because it was stopping (sent again)
    unannounced: int = 0  # of those closes, the ones the server did not say were a restart
    in_doubt: int = 0  # moves unanswered at a close the server did not announce
    # set once every restart is done: until then a game holds at `HOLD_AT` moves, so that
    # games are still playing at the last restart however slowly the servers start
    restarted: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class _Seat:
    """One seat's client across its connections."""

    game_id: str
    seat: int
    token: str
    at: int  # the process it connects to now
    sent: tuple[int, dict[str, Any]] | None = None  # the move in flight: (seq, action)
    resend: tuple[int, dict[str, Any]] | None = None  # not played: sent again on its view
    unanswered: list[dict[str, Any]] = field(default_factory=list)  # in doubt
    taken: Any = None  # the ack of the last move, until an error takes it back
    closed_at: float | None = None  # when the last connection closed (or was told it would)
    told: bool = False  # this connection was told the server restarts
    fresh: bool = True  # this connection has had no view yet


async def play_seat(ports: Sequence[int], game: dict[str, Any], seat: dict[str, Any],
                    tally: Tally, rng: random.Random, think: float, site: WebGame) -> None:
    """Play a seat to the end across restarts (module docstring)."""
    reply = site.bench_reply
    me = _Seat(game["id"], seat["seat"], seat["link"].split("#", 1)[1],
               (seat["seat"] + zlib.crc32(game["id"].encode())) % len(ports))
    while True:
        me.told = opened = False
        me.fresh = True
        try:
            async with websockets.connect(f"ws://127.0.0.1:{ports[me.at]}/ws/{me.game_id}",
                                          max_size=1 << 24, open_timeout=10) as ws:
                opened = True
                await ws.send(json.dumps({"type": "hello", "token": me.token}))
                if await _seat_loop(ws, me, tally, rng, reply, think):
                    return
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake,
                TimeoutError):
            pass
        if opened:
            tally.closes += 1
            tally.unannounced += not me.told
            if me.closed_at is None:
                me.closed_at = time.perf_counter()
        if me.sent is not None:  # no answer: played or not, only the store knows
            tally.in_doubt += 1
            me.unanswered.append(me.sent[1])
            me.sent = None
        me.at = (me.at + 1) % len(ports)  # the other process: this one is going down
        await asyncio.sleep(rng.uniform(0.05, 0.5))


async def _seat_loop(ws: Any, me: _Seat, tally: Tally, rng: random.Random, reply: Any,
                     think: float) -> bool:
    """One connection of a seat; True when its game is over."""
    while True:
        msg = orjson.loads(await ws.recv())
        kind = msg["type"]
        if kind == "restarting" or (kind == "error" and msg["code"] == "restarting"):
            _told(me, tally, kind == "restarting")
        elif kind == "error":
            if msg["code"] not in ("stale", "not-your-turn"):
                raise RuntimeError(f"server error: {msg}")
            if me.taken is not None:  # that view was a move in doubt stored, not this one
                tally.acks.remove(me.taken)
                me.unanswered = me.taken[2][1:]
            me.sent = me.taken = None
            await ws.send('{"type": "state"}')
        elif kind == "state" and await _view(ws, me, tally, msg, rng, reply, think):
            return True


def _told(me: _Seat, tally: Tally, notice: bool) -> None:
    """The server restarts (its notice, or its refusal of a move or a hello): a move still
    unanswered was not played (it answers every move it plays before it says so); it is
    sent again on the next connection."""
    tally.notices += notice
    me.told = True
    if notice and me.closed_at is None:
        me.closed_at = time.perf_counter()
    if me.sent is not None:
        tally.refused += 1
        me.resend, me.sent = me.sent, None


async def _view(ws: Any, me: _Seat, tally: Tally, msg: dict[str, Any], rng: random.Random,
                reply: Any, think: float) -> bool:
    if me.fresh and me.closed_at is not None:  # the view resynced after a close
        tally.reconnects.append(time.perf_counter() - me.closed_at)
    if me.fresh:
        me.fresh, me.closed_at = False, None
    if me.sent is not None and msg["seq"] > me.sent[0] and msg["last_player"] == me.seat:
        # this move, or one sent on a connection that closed before its answer came
        me.taken = (me.game_id, msg["seq"] - 1, [me.sent[1], *me.unanswered])
        tally.acks.append(me.taken)
        me.sent = None
        me.unanswered = []
    if msg["phase"] == "over":
        return True
    if not msg["legal"] or me.sent is not None:
        return False
    me.taken = None
    if msg["seq"] >= HOLD_AT:
        await tally.restarted.wait()
    resend, me.resend = me.resend, None
    if resend is not None and resend[0] == msg["seq"]:
        action = resend[1]
    else:
        await asyncio.sleep(rng.uniform(0, 2 * think))
        action = reply(msg, rng)
    try:
        await ws.send(json.dumps({"type": "act", "seq": msg["seq"], "action": action}))
    except websockets.ConnectionClosed:  # closed while it thought: the move never left
        me.resend = (msg["seq"], action)
        await _read_to_close(ws, me, tally)
        raise
    me.sent = (msg["seq"], action)
    return False


async def _read_to_close(ws: Any, me: _Seat, tally: Tally) -> None:
    """What the server sent before the close, unread (a restart notice)."""
    with contextlib.suppress(websockets.ConnectionClosed):
        while True:
            if orjson.loads(await ws.recv()).get("type") == "restarting":
                _told(me, tally, True)


@dataclass
class _Process:
    port: int
    proc: subprocess.Popen[bytes]


async def _restart_each(procs: list[_Process], start: Any, rounds: int, tally: Tally,
                        players: list[asyncio.Task[None]]) -> dict[str, list[float]]:
    """SIGTERM each process in turn, wait for its exit, start it again; `rounds` times."""
    times: dict[str, list[float]] = {"stop": [], "start": [], "seats left": []}
    for _ in range(rounds):
        for p in procs:
            before, began = len(tally.acks), time.perf_counter()
            while len(tally.acks) < before + 20 and time.perf_counter() < began + 3:
                await asyncio.sleep(0.05)  # the games move on between two restarts
            times["seats left"].append(sum(not t.done() for t in players))
            began = time.perf_counter()
            p.proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(p.proc.wait, 60)
            if code not in (0, -signal.SIGTERM):  # uvicorn raises the signal again at its end
                raise RuntimeError(f"a server stopped by SIGTERM exited with {code}")
            times["stop"].append(time.perf_counter() - began)
            began = time.perf_counter()
            p.proc = await asyncio.to_thread(start, p.port)
            times["start"].append(time.perf_counter() - began)
    return times


def check_stored(db: str, games: list[dict[str, Any]], tally: Tally, site: WebGame
                 ) -> dict[str, int]:
    """Acknowledged moves missing from the store, and games that do not load or verify."""
    from ..records import dumps_record
    from .room import Room
    from .storage import open_store

    store = open_store(db)
    lost = broken = 0
    try:
        logs: dict[str, list[dict[str, Any]]] = {}
        for game in games:
            stored = store.load(game["id"])
            try:
                assert stored is not None and stored.status == "over"
                room = Room.restore(stored, site)
                specs = ["human" if s.kind == "person" else s.bot or "greedy"
                         for s in room.params.seats]
                room.game.verify_record(orjson.loads(dumps_record(room.game.record(
                    room.state, players=specs, seed=room.params.seed))))
                logs[game["id"]] = stored.actions
            except Exception:
                broken += 1
        for game_id, seq, actions in tally.acks:
            log = logs.get(game_id, [])
            found = log[seq] if seq < len(log) else None
            if found is None or not any({k: found.get(k) for k in a} == a for a in actions):
                lost += 1
    finally:
        store.close()
    return {"lost": lost, "broken": broken}


def run_restart_bench(games: int = 50, rounds: int = 3, db: str | None = None,
                      think: float = 0.3, seed: int = 0, game: str = registry.DEFAULT
                      ) -> dict[str, Any]:
    """Play `games` games of `game` on two processes while each is restarted `rounds` times;
    returns the figures, `lost` and `broken` among them (both 0 when restarts keep every
    move)."""
    site = load_site(game)
    with tempfile.TemporaryDirectory() as tmp:
        redis, url = start_redis(tmp)
        database = db_url(db or Path(tmp) / "bench.db")
        limits: dict[str, float] = {**LOCAL_LIMITS, "messages_per_second": 0, "lease_seconds": 2}

        def start(port: int) -> subprocess.Popen[bytes]:
            return start_server(port, database, redis=url, limits=limits)

        procs: list[_Process] = []
        try:
            procs = [_Process(port, start(port)) for port in (free_port(), free_port())]
            base = f"http://127.0.0.1:{procs[0].port}"
            created = [http_json(f"{base}/api/games", new_game(game, g))
                       for g in range(games)]
            tally = Tally()
            began = time.perf_counter()
            times = asyncio.run(_play(procs, start, created, rounds, tally, think, seed, site))
            elapsed = time.perf_counter() - began
            checked = check_stored(database, created, tally, site)
        finally:
            for p in [*(p.proc for p in procs), redis]:
                if p.poll() is None:
                    p.terminate()
                    p.wait(15)
    return _figures(games, rounds, tally, times, checked, elapsed, database)


async def _play(procs: list[_Process], start: Any, created: list[dict[str, Any]],
                rounds: int, tally: Tally, think: float, seed: int, site: WebGame
                ) -> dict[str, list[float]]:
    ports = [p.port for p in procs]
    players = [asyncio.create_task(play_seat(ports, game, seat, tally,
                                             random.Random(seed * 1000 + g * 10 + seat["seat"]),
                                             think, site))
               for g, game in enumerate(created) for seat in game["seats"] if seat["link"]]
    try:
        times = await _restart_each(procs, start, rounds, tally, players)
    finally:
        tally.restarted.set()
    await asyncio.wait_for(asyncio.gather(*players), 600)
    return times


def _figures(games: int, rounds: int, tally: Tally, times: dict[str, list[float]],
             checked: dict[str, int], elapsed: float, database: str) -> dict[str, Any]:
    ms = sorted(x * 1000 for x in tally.reconnects)
    kind = "SQLite WAL" if database.startswith("sqlite") else "PostgreSQL"
    return {
        "games": games, "restarts (SIGTERM, exit, start again)": 2 * rounds,
        "seats still playing at each SIGTERM": times["seats left"],
        "moves acknowledged": len(tally.acks), "acknowledged moves lost": checked["lost"],
        "games broken": checked["broken"],
        "connections closed by a restart": tally.closes,
        "reconnected (view resynced)": len(ms),
        "restart notices received": tally.notices,
        "closes without a word from the server": tally.unannounced,
        "moves refused while stopping (sent again)": tally.refused,
        "moves left in doubt": tally.in_doubt,
        "reconnection p50 (ms)": round(statistics.median(ms), 1) if ms else None,
        "reconnection max (ms)": round(ms[-1], 1) if ms else None,
        "stop: SIGTERM to exit, median / max (s)": _median_max(times["stop"]),
        "start: launch to answering, median / max (s)": _median_max(times["start"]),
        "wall time (s)": round(elapsed, 1),
        "server": f"uvicorn, 2 processes on separate ports with Redis, {kind}, loopback, "
                  f"{os.cpu_count()} cores shared with the clients",
    }


def _median_max(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):.2f} / {max(values):.2f}"
