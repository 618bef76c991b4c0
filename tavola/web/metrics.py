"""The server's Prometheus metrics (`prometheus_client`), and where they are read from.

One process keeps them in memory. Several worker processes (`serve(workers=N)`) each write
theirs to files in `PROMETHEUS_MULTIPROC_DIR`, which `serve` sets to a fresh private folder
before any worker starts (so before any imports this module), and any of them answers for
all (the library's multiprocess mode): counters and histograms add up, gauges of open
things count live processes only (`multiprocess_mode="livesum"`).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
T = TypeVar("T")

GAMES_LIVE = Gauge("tavola_games_live", "Games in the server's memory (played or watched), "
                   "by game", ["game"], multiprocess_mode="livesum")
CONNECTIONS = Gauge("tavola_connections_open", "Open game WebSockets",
                    multiprocess_mode="livesum")
MOVES = Counter("tavola_moves", "Moves made (by a person or a bot), by game",
                ["game", "by"])
MOVE_SECONDS = Histogram("tavola_move_seconds", "From receiving an action to every "
                         "connection's view of it queued, by game", ["game"],
                         buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5))
BOT_SECONDS = Histogram("tavola_bot_decision_seconds", "A bot's decision in its worker, by "
                        "game and level", ["game", "level"],
                        buckets=(.01, .05, .1, .25, .5, 1, 2, 4, 8, 15, 30))
STORE_SECONDS = Histogram("tavola_store_seconds", "Calls of the game store, by operation",
                          ["operation"],
                          buckets=(.0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1, 5))
NOTICES = Counter("tavola_notices", "Notifications: deliveries queued, sent and failed for "
                  "good, by channel", ["state", "channel"])
CLIENT_ERRORS = Counter("tavola_client_errors", "Requests and messages refused, by error "
                        "code", ["code"])
SERVER_ERRORS = Counter("tavola_server_errors", "Exceptions the server did not expect, by "
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


def count_client_error(code: str) -> None:
    CLIENT_ERRORS.labels(code).inc()


def count_server_error(where: str) -> None:
    SERVER_ERRORS.labels(where).inc()


def observe(histogram: Histogram, since: float, *labels: Any) -> None:
    """Seconds from `since` (`time.perf_counter`) to now, into `histogram`."""
    histogram.labels(*labels).observe(time.perf_counter() - since)


#: the calls of a `GameStore` that `timed` times (`STORE_SECONDS`' operation label)
STORE_OPERATIONS = ("create", "append", "take_back", "set_status", "set_params",
                    "set_summary", "claim", "load", "game_ids", "lobby", "active_games")


def timed(cls: type[T]) -> type[T]:
    """A store class whose `STORE_OPERATIONS` each time their calls into `STORE_SECONDS`,
    coroutines (`pgasync`) as well as functions, failed calls too."""
    for name in STORE_OPERATIONS:
        method = cls.__dict__.get(name)
        if method is not None:
            setattr(cls, name, _timed(name, method))
    return cls


def _timed(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(method):
        @functools.wraps(method)
        async def timed_coroutine(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                observe(STORE_SECONDS, began, name)
        return timed_coroutine

    @functools.wraps(method)
    def timed_call(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            observe(STORE_SECONDS, began, name)
    return timed_call
