"""What the people running the server watch: /healthz, /readyz and /metrics.

`/healthz` says the process answers; `/readyz` whether the database (and Redis, with several
processes) answer too, each asked in a thread of its own with a short timeout, so a stuck
database cannot hang the probe or pile up threads; `/metrics` is Prometheus' text format
(`metrics`), readable from loopback or with the bearer token only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from .metrics import metrics_text

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("tavola.web.ops")
TOKEN_ENV = "TAVOLA_METRICS_TOKEN"  # the bearer token of /metrics, when not given to serve
PROBE_SECONDS = 2.0  # a dependency that has not answered a readiness check by then is down
PROBE_FRESH = 1.0  # seconds a readiness answer is reused: probes cost at most one check a second
#: headers a proxy adds: a request carrying one came through a proxy, so it is never loopback
FORWARDED = ("forwarded", "x-forwarded-for", "x-real-ip")

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


def redis_check(url: str, timeout: float = 5.0) -> Callable[[], object]:
    """A PING on a connection of its own, so the probe never waits behind the cluster's;
    `timeout` bounds its thread, longer than the probe waits (which then says "no answer")."""
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


