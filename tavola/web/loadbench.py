"""Load benchmark of the web server (`tavola bench --server`), for any game it hosts.

Starts the server in a subprocess on loopback with a fresh SQLite file, creates many games at
once whose seats are all people (of one game, or of every game in turn), and plays every seat
from a client script over WebSockets with simple logic on the client side (each game's
`WebGame.bench_reply`: for Gonzaga random plans and the best-scoring placement the server
lists). It measures, for every move, the time from sending it to receiving the new view, and
reports percentiles (overall and per game) and games per minute.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import orjson
import websockets

from .. import registry
from ..collector import freeze_long_lived
from .changes import applied
from .site import load_site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: Limits for a server that one local program drives hard (tests, this benchmark): every
#: request comes from one address, so the per-address rates would stop it.
LOCAL_LIMITS = {"creates_per_minute": 0, "lobby_per_second": 0, "max_active_games": 100_000,
                "games_per_address": 100_000, "games_per_account": 100_000,
                "replays_per_second": 0, "undo_wait": 0, "address_chat_per_second": 0,
                "connections_per_address": 0, "address_hints_per_minute": 0}


def db_url(db: str | Path) -> str:
    """A database URL as given, or an SQLite URL for a file path."""
    if isinstance(db, str) and "://" in db:
        return db
    return f"sqlite:///{Path(db).resolve()}"


def start_redis(folder: str | Path) -> tuple[subprocess.Popen[bytes], str]:
    """A throwaway Redis (Debian's `redis-server`) in `folder` on a free loopback port, saving
    nothing; returns it and its URL once it answers."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed (Debian: apt-get install "
                           "redis-server)")
    port = free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not answer within 10 s")


def start_server(port: int, db: str | Path, *, bot_delay: float = 0.0,
                 limits: dict[str, float] | None = None, redis: str | None = None,
                 workers: int = 1, proxies: Sequence[str] = (),
                 extra: Sequence[str] = (), log: IO[bytes] | None = None
                 ) -> subprocess.Popen[bytes]:
    """The server as a separate process, as in production, on the database `db` (a URL or
    an SQLite file); waits until it answers. With `redis` it is one of several processes on
    the same database; `proxies` are the addresses whose forwarded headers it believes;
    `extra`: more of its options (`python -m tavola.web --help`); `log`: a file its log
    goes to (default: a temporary one, read if it fails to start)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    limits = LOCAL_LIMITS if limits is None else limits
    cluster = ["--redis", redis, "--workers", str(workers)] if redis else []
    # its log goes to a file, not a pipe nobody reads: a full pipe would stall the server
    err = log or tempfile.TemporaryFile()  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavola.web", "--port", str(port), "--db",
         db_url(db), "--bot-delay", str(bot_delay), *cluster,
         *[f"--proxy={address}" for address in proxies],
         *[f"--limit={name}={value}" for name, value in limits.items()], *extra],
        env=env, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err.seek(0)
            said = err.read().decode(errors="replace")
            raise RuntimeError(f"the server exited with {proc.returncode}: {said[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lobby", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not answer within 30 s")


def http_json(url: str, body: Any | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


async def play_seat(ws_url: str, token: str | None, rng: random.Random,
                    latencies: list[float] | None = None,
                    messages: list[dict[str, Any]] | None = None,
                    think: float = 0.0, game: str = registry.DEFAULT,
                    sizes: list[int] | None = None, changes: bool = True,
                    wire: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play one seat of a `game` to the end; returns the last view received.

    `think` is the mean time the seat waits before each move (uniform from 0 to twice it);
    `sizes` gets the bytes of every view message (a full view or, asking for `changes`, a
    change), as they cross the wire; `wire` every message as it came (`messages` gets the
    views that changes make)."""
    reply = load_site(game).bench_reply
    views = _Views(sizes, wire)
    async with websockets.connect(ws_url, max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "changes": changes}))
        welcome = orjson.loads(await ws.recv())
        if messages is not None:
            messages.append(welcome)
        seat = welcome.get("seat")
        sent_at: float | None = None
        sent_seq = -1
        while True:
            msg = await views.read(ws)
            if messages is not None:
                messages.append(msg)
            if msg["type"] == "error":
                raise RuntimeError(f"server error: {msg}")
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["seq"] > sent_seq and msg["last_player"] == seat:
                if latencies is not None:
                    latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["phase"] == "over":
                return msg
            if msg["legal"] and sent_at is None:
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                    msg = await views.latest(ws, msg)
                    if not msg["legal"] or msg["phase"] == "over":
                        continue
                action = reply(msg, rng)
                sent_seq = msg["seq"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "seq": sent_seq, "action": action}))


class _Views:
    """A client's side of the views: full views and changes made whole again, as the page
    does (a change that does not follow the last view asks for the full view)."""

    def __init__(self, sizes: list[int] | None, wire: list[dict[str, Any]] | None = None
                 ) -> None:
        self.sizes = sizes
        self.wire = wire
        self.view: dict[str, Any] | None = None

    async def read(self, ws: Any) -> dict[str, Any]:
        """The next message; a change comes back as the whole view it makes."""
        while True:
            text = await ws.recv()
            msg = orjson.loads(text)
            if self.wire is not None:
                self.wire.append(msg)
            if msg.get("type") not in ("state", "change"):
                return msg
            if self.sizes is not None:
                self.sizes.append(len(text.encode() if isinstance(text, str) else text))
            if msg["type"] == "state":
                self.view = msg
                return msg
            if self.view is None or msg["n"] != self.view.get("n", -1) + 1:
                await ws.send('{"type": "state"}')
                continue
            self.view = {**applied(self.view, msg), "n": msg["n"], "type": "state"}
            return self.view

    async def latest(self, ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
        """The newest state already received (messages that came in while thinking)."""
        while True:
            try:
                new = await asyncio.wait_for(self.read(ws), 0.001)
            except TimeoutError:
                return msg
            if new.get("type") == "state":
                msg = new


def _poll_lobby(base: str, stop: threading.Event, counts: dict[str, int]) -> None:
    """A client reading the lobby in a loop, as fast as the server answers."""
    while not stop.is_set():
        try:
            http_json(f"{base}/api/games")
            counts["answered"] += 1
        except urllib.error.HTTPError as exc:
            counts[str(exc.code)] = counts.get(str(exc.code), 0) + 1


def cpu_seconds(pids: Sequence[int]) -> float:
    """Processor time (user and system) the processes `pids` have used so far (Linux
    /proc): the server processes' own, without their bot workers, PostgreSQL or Redis."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        # the fields after the command's name (which may hold spaces) in parentheses
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


async def _run(base: str, games: int, players: int, seed: int, think: float,
               lobby_pollers: int = 0, names: Sequence[str] = (registry.DEFAULT,),
               ports: Sequence[int] = (), route: str = "game",
               options: dict[str, Any] | None = None, pids: Sequence[int] = ()
               ) -> dict[str, Any]:
    # people's games are dealt by the server's own randomness (a chosen seed is refused)
    created = [http_json(f"{base}/api/games", {
        **(options or {}), "game": names[g % len(names)],
        "seats": [{"kind": "person"} for _ in range(players)]}) for g in range(games)]
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports] or [base.replace("http://", "ws://")]
    latencies: list[float] = []
    by_game: dict[str, list[float]] = {name: [] for name in names}
    sizes: dict[str, list[int]] = {name: [] for name in names}
    # the clients are the measuring instrument: keep their own collector pauses out of it
    freeze_long_lived()
    t0 = time.perf_counter()
    cpu0 = cpu_seconds(pids)
    tasks = []
    for g, game in enumerate(created):
        for s in game["seats"]:
            token = s["link"].split("#", 1)[1]
            rng = random.Random(seed * 1000 + g * 10 + s["seat"])
            ws_base = ws_bases[_process_of(game["id"], s["seat"], len(ws_bases), route)]
            tasks.append(play_seat(f"{ws_base}/ws/{game['id']}", token, rng,
                                   by_game[game["game"]], think=think, game=game["game"],
                                   sizes=sizes[game["game"]]))
    stop = threading.Event()
    counts = {"answered": 0}
    pollers = [threading.Thread(target=_poll_lobby, args=(base, stop, counts), daemon=True)
               for _ in range(lobby_pollers)]
    for t in pollers:
        t.start()
    finals = await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    played = cpu_seconds(pids) - cpu0
    stop.set()
    for t in pollers:
        t.join()
    assert all(f["phase"] == "over" for f in finals)
    latencies = [x for times in by_game.values() for x in times]
    ms = sorted(x * 1000 for x in latencies)
    return {
        "games": games, "of": ", ".join(names), "players per game": players,
        "think time per move (s)": f"uniform 0–{2 * think:g}, mean {think:g}" if think
        else "none (as fast as the server answers)",
        "moves timed": len(ms),
        "move → new view p50 (ms)": round(statistics.median(ms), 2),
        "move → new view p99 (ms)": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 2),
        "move → new view max (ms)": round(ms[-1], 2),
        **({f"{name}: moves, p50, p99 (ms)": _percentiles(times) for name, times in
            by_game.items()} if len(names) > 1 else {}),
        **{f"{name}: view messages, bytes p50, p95": _sizes(got) for name, got in sizes.items()},
        "wall time (s)": round(elapsed, 2),
        "games per minute": round(games / elapsed * 60, 1),
        **({"server CPU per move (ms)": round(played / max(1, len(ms)) * 1000, 2)}
           if pids else {}),
        **({"lobby pollers": lobby_pollers, "lobby reads answered": counts}
           if lobby_pollers else {}),
    }


def _process_of(game_id: str, seat: int, processes: int, route: str) -> int:
    """Which process a seat's connection goes to. "game": every connection of a game to one
    process, chosen by a hash of its id, as a reverse proxy hashing the game's address does
    (the recommended deployment); "seat": a game's seats on different processes, so every
    move crosses from one process to another (the worst case, as a proxy that spreads
    connections at random does half the time)."""
    if route == "game":
        return zlib.crc32(game_id.encode()) % processes
    if route == "seat":
        return seat % processes
    raise ValueError(f"route is 'game' or 'seat', not {route!r}")


def _sizes(sizes: list[int]) -> str:
    """How many view messages a game's clients got, and their bytes: median, 95th percentile."""
    got = sorted(sizes)
    return f"{len(got)}, {statistics.median(got):.0f}, {got[int(0.95 * (len(got) - 1))]}"


def _percentiles(times: list[float]) -> str:
    ms = sorted(x * 1000 for x in times)
    return f"{len(ms)}, {statistics.median(ms):.2f}, " \
           f"{ms[min(len(ms) - 1, int(0.99 * len(ms)))]:.2f}"


def run_load_bench(games: int = 50, players: int = 2, seed: int = 0, think: float = 0.5,
                   lobby_pollers: int = 0, limits: dict[str, float] | None = None,
                   names: Sequence[str] = (registry.DEFAULT,), db: str | None = None,
                   workers: int = 1, route: str = "game",
                   options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Start a server, play `games` concurrent games of `names` (in turn) over WebSockets,
    return the figures. The server's database is `db` (a URL; its games stay there) or a
    fresh SQLite file; `options` go into each lobby request, as the lobby sends them.

    With `think` 0 every client answers at once, which measures a saturated server (latency
    is then mostly queueing); a think time gives the load of fast players. `lobby_pollers`
    threads read the lobby in a loop meanwhile (with the production lobby rate limit unless
    `limits` says otherwise). With `workers` > 1 that many server processes share the
    database, each on its own port, with a Redis of their own; `route` says which process
    each seat's connection goes to (`_process_of`)."""
    _process_of("", 0, 1, route)  # a wrong route fails before any server starts
    with tempfile.TemporaryDirectory() as tmp:
        limits = limits or {**LOCAL_LIMITS, "messages_per_second": 0,
                            **({"lobby_per_second": 1} if lobby_pollers else {})}
        procs: list[subprocess.Popen[bytes]] = []
        redis = None
        client0 = resource.getrusage(resource.RUSAGE_SELF)
        server0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            if workers > 1:
                redis, url = start_redis(tmp)
            ports = [free_port() for _ in range(workers)]
            procs = [start_server(port, db or Path(tmp) / "bench.db", limits=limits,
                                  redis=url if redis else None) for port in ports]
            figures = asyncio.run(_run(f"http://127.0.0.1:{ports[0]}", games, players, seed,
                                       think, lobby_pollers, names, ports, route,
                                       dict(options or {}), [p.pid for p in procs]))
        finally:
            for proc in [*procs, *([redis] if redis else [])]:
                proc.terminate()
                proc.wait(10)
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        server1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = lambda a, b: round(b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime, 1)  # noqa: E731
    # from start to end, the start (its bot workers preparing their tables) included
    figures["server CPU (s)"] = cpu(server0, server1)
    figures["client scripts CPU (s)"] = cpu(client0, client1)
    kind = "PostgreSQL" if db and not db.startswith("sqlite") else "SQLite WAL"
    figures["server"] = ("uvicorn, one process" if workers == 1 else
                         f"uvicorn, {workers} processes on separate ports with Redis pub/sub, "
                         + ("each game's connections on one process, by a hash of its id"
                            if route == "game" else "each game's seats on different processes")
                         ) + \
        f", {kind}, loopback, 2-core machine shared with the clients"
    return figures


def _rss_mb(pid: int) -> float:
    """Resident memory of a process (Linux /proc), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def run_memory_bench(games: int = 500) -> dict[str, Any]:
    """The server's memory before and after `games` finished games (one person against the
    random bot each): finished games leave memory, so it stays flat."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(port, Path(tmp) / "memory.db",
                            limits={**LOCAL_LIMITS, "messages_per_second": 0,
                                    "sweep_seconds": 1})
        try:
            time.sleep(2)
            before = _rss_mb(proc.pid)
            base = f"http://127.0.0.1:{port}"

            async def play_all() -> None:
                for g in range(games):
                    game = http_json(f"{base}/api/games", {"seats": [
                        {"kind": "person"}, {"kind": "bot", "bot": "random"}]})
                    token = game["seats"][0]["link"].split("#", 1)[1]
                    await play_seat(f"ws://127.0.0.1:{port}/ws/{game['id']}", token,
                                    random.Random(g))

            t0 = time.perf_counter()
            asyncio.run(play_all())
            elapsed = time.perf_counter() - t0
            peak = _rss_mb(proc.pid)
            time.sleep(3)  # a sweep lets the finished games go
            after = _rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    return {"finished games": games, "wall time (s)": round(elapsed, 1),
            "server RSS before (MB)": round(before, 1),
            "server RSS right after the last game (MB)": round(peak, 1),
            "server RSS after the sweep (MB)": round(after, 1),
            "growth per finished game (kB)": round((after - before) * 1024 / games, 1)}
