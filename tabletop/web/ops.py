"""What the people running the server watch: liveness, readiness and Prometheus metrics.

`/healthz` says the process answers; `/readyz` whether the database (and Redis, with several
processes) answer too, each asked in a thread of its own with a short timeout, so a stuck
database cannot hang the probe or pile up threads; `/metrics` is Prometheus' text format from
the `prometheus_client` library, readable from loopback or with the bearer token only.

With several worker processes (`serve(workers=N)`) every process writes its metrics to files
in `PROMETHEUS_MULTIPROC_DIR`, which `serve` sets to a fresh private folder before any worker
starts, and any process answers `/metrics` for all of them (the library's multiprocess mode).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("tabletop.web.ops")
MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
TOKEN_ENV = "TABLETOP_METRICS_TOKEN"  # the bearer token of /metrics, when not given to serve
PROBE_SECONDS = 2.0  # a dependency that has not answered a readiness check by then is down
PROBE_FRESH = 1.0  # seconds a readiness answer is reused: probes cost at most one check a second
#: headers a proxy adds: a request carrying one came through a proxy, so it is never loopback
FORWARDED = ("forwarded", "x-forwarded-for", "x-real-ip")

# -- the metrics ------------------------------------------------------------------------------

GAMES_LIVE = Gauge("tabletop_games_live", "Games in the server's memory (played or watched), "
                   "by game", ["game"], multiprocess_mode="livesum")
CONNECTIONS = Gauge("tabletop_connections_open", "Open game WebSockets",
                    multiprocess_mode="livesum")
MOVES = Counter("tabletop_moves", "Moves made (by a person or a bot), by game",
                ["game", "by"])
MOVE_SECONDS = Histogram("tabletop_move_seconds", "From receiving an action to every "
                         "connection's view of it queued, by game", ["game"],
                         buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5))
BOT_SECONDS = Histogram("tabletop_bot_decision_seconds", "A bot's decision in its worker, by "
                        "game and level", ["game", "level"],
                        buckets=(.01, .05, .1, .25, .5, 1, 2, 4, 8, 15, 30))
STORE_SECONDS = Histogram("tabletop_store_seconds", "Store calls of the moves' path, by "
                          "operation", ["operation"],
                          buckets=(.0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1, 5))
NOTICES = Counter("tabletop_notices", "Notifications: deliveries queued, sent and failed for "
                  "good, by channel", ["state", "channel"])
CLIENT_ERRORS = Counter("tabletop_client_errors", "Requests and messages refused, by error "
                        "code", ["code"])
SERVER_ERRORS = Counter("tabletop_server_errors", "Exceptions the server did not expect, by "
                        "where they happened", ["where"])


def metrics_text() -> bytes:
    """Every metric in Prometheus' text format: this process's, or with several processes
    every live and dead one's (a dead process's live gauges dropped first)."""
    folder = os.environ.get(MULTIPROC)
    if not folder:
        return generate_latest(REGISTRY)
    forget_dead(Path(folder))
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)
    return generate_latest(registry)


_LIVE_FILE = re.compile(r"gauge_live(?:sum|all|max|min|mostrecent)_(\d+)\.db")


def forget_dead(folder: Path) -> None:
    """Drop the live gauges of processes that died (a worker killed and replaced): their
    games and connections are gone. Their counters stay, so no total ever goes back."""
    for path in folder.glob("gauge_live*_*.db"):
        found = _LIVE_FILE.fullmatch(path.name)
        if found and not _alive(int(found[1])):
            multiprocess.mark_process_dead(int(found[1]), str(folder))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def leaving() -> None:
    """This process stops: its live gauges leave the shared folder with it."""
    folder = os.environ.get(MULTIPROC)
    if folder:
        with contextlib.suppress(OSError):
            multiprocess.mark_process_dead(os.getpid(), folder)


# -- who may read them ------------------------------------------------------------------------


def may_read_metrics(request: Request, token: str | None) -> bool:
    """From loopback, not through a proxy; or from anywhere with `Authorization: Bearer
    TOKEN`. Behind a trusted proxy the client's address is the one forwarded, and a request
    carrying a proxy's headers is never taken for loopback even if it names 127.0.0.1."""
    if token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and secrets.compare_digest(given.strip().encode(),
                                                                 token.encode()):
            return True
    if any(name in request.headers for name in FORWARDED):
        return False
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# -- readiness ----------------------------------------------------------------------------------


class Probe:
    """One dependency's check, in a thread of its own: at most one at a time, and one that
    has not answered within `timeout` makes the dependency down until it does."""

    def __init__(self, name: str, check: Callable[[], object], timeout: float = PROBE_SECONDS,
                 fresh: float = PROBE_FRESH) -> None:
        self.name = name
        self.check = check
        self.timeout = timeout
        self.fresh = fresh
        self._thread = ThreadPoolExecutor(1, thread_name_prefix=f"probe-{name}")
        self._running: Future[object] | None = None
        self._answer: tuple[float, str | None] | None = None  # when, and the problem

    async def problem(self) -> str | None:
        """None when the dependency answered; else what is wrong, in a few words."""
        now = time.monotonic()
        if self._answer is not None and now - self._answer[0] < self.fresh:
            return self._answer[1]
        if self._running is None or self._running.done():
            self._running = self._thread.submit(self.check)
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(self._running)),
                                   self.timeout)
            problem = None
        except TimeoutError:
            problem = f"no answer within {self.timeout:g} s"
        except Exception as exc:  # whatever the driver raises: the dependency is down
            log.warning("readiness: %s: %s", self.name, exc)
            problem = "unreachable"
        self._answer = (time.monotonic(), problem)
        return problem

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)


def redis_check(url: str, timeout: float = PROBE_SECONDS) -> Callable[[], object]:
    """A PING on a connection of its own, so the probe never waits behind the cluster's."""
    def ping() -> object:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=timeout,
                                      socket_timeout=timeout)
        try:
            return client.ping()
        finally:
            client.close()
    return ping


def probes(server: GameServer, redis: str | None) -> list[Probe]:
    """The database, and Redis when the server is one of several processes."""
    found = [Probe("database", server.store.ping)]
    if redis:
        found.append(Probe("redis", redis_check(redis)))
    return found


# -- the routes ---------------------------------------------------------------------------------


def routes(app: FastAPI, server: GameServer, *, redis: str | None = None,
           metrics_token: str | None = None) -> list[Probe]:
    """/healthz, /readyz and /metrics; the probes returned are closed with the server."""
    token = metrics_token or os.environ.get(TOKEN_ENV) or None
    checks = probes(server, redis)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        problems = await asyncio.gather(*(probe.problem() for probe in checks))
        down = {probe.name: problem for probe, problem in zip(checks, problems, strict=True)
                if problem is not None}
        if down:
            return JSONResponse({"status": "down", "down": down}, status_code=503)
        return JSONResponse({"status": "ready", "checked": [p.name for p in checks]})

    @app.get("/metrics")
    async def metrics(request: Request) -> Response:
        if not may_read_metrics(request, token):
            return JSONResponse({"type": "error", "code": "forbidden",
                                 "message": "metrics are read from loopback or with the "
                                            "bearer token"}, status_code=403)
        text = await asyncio.get_running_loop().run_in_executor(None, metrics_text)
        return Response(text, media_type=CONTENT_TYPE_LATEST)

    return checks


def count_client_error(code: str) -> None:
    CLIENT_ERRORS.labels(code).inc()


def count_server_error(where: str) -> None:
    SERVER_ERRORS.labels(where).inc()


def observe(histogram: Histogram, since: float, *labels: Any) -> None:
    """Seconds from `since` (`time.perf_counter`) to now, into `histogram`."""
    histogram.labels(*labels).observe(time.perf_counter() - since)
