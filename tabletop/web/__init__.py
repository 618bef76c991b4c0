"""The web server of every game: storage, rooms, bot workers, connections, input limits.

Nothing in a game's rules imports this package; it drives them like any other client.
"""

from __future__ import annotations

import json
import os
from typing import Any

from .storage import GameStore, SeqConflict, SqliteStore, StoreError, open_store

__all__ = ["GameStore", "SeqConflict", "SqliteStore", "StoreError", "open_store", "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///gonzaga.db",
          *, games: list[str] | None = None, bot_delay: float = 0.35, log_level: str = "warning",
          limits: dict[str, float] | None = None, redis: str | None = None,
          workers: int = 1) -> None:
    """Run the web app of `games` (default: every game with a web side) with uvicorn until
    interrupted; `limits` overrides fields of `app.Limits` (rates of 0: no limit). With
    `workers` > 1, that many processes share the port and the database, and hear of each
    other's moves through Redis at `redis` (required then)."""
    import uvicorn

    if workers > 1 and not redis:
        raise ValueError("several workers need --redis redis://HOST:PORT to hear of each "
                         "other's moves")
    options = {"db": db, "games": games, "bot_delay": bot_delay, "limits": limits or {},
               "redis": redis}
    from .deadline import RequestDeadline

    common = {"host": host, "port": port, "log_level": log_level, "ws_max_size": 1 << 16,
              "ws_per_message_deflate": False, "http": RequestDeadline}
    # no WebSocket message is near 64 KiB (the server refuses over 16 KiB with a clear error);
    # a request must arrive within `Limits.request_seconds` (`deadline`)
    if workers > 1:
        os.environ[_OPTIONS] = json.dumps(options)
        uvicorn.run("tabletop.web:app_from_environment", factory=True, workers=workers,
                    **common)  # type: ignore[arg-type]
        return
    uvicorn.run(_app(options), **common)  # type: ignore[arg-type]


_OPTIONS = "TABLETOP_SERVE_OPTIONS"  # how `serve` hands its options to its worker processes


def app_from_environment() -> Any:
    """The app of one worker process of `serve(workers=N)`."""
    return _app(json.loads(os.environ[_OPTIONS]))


def _app(options: dict[str, Any]) -> Any:
    from .app import Limits, create_app
    from .deadline import RequestDeadline

    limits = Limits(**options["limits"])
    RequestDeadline.seconds = limits.request_seconds  # this process's HTTP connections
    return create_app(options["db"], games=options["games"], bot_delay=options["bot_delay"],
                      limits=limits, redis=options["redis"])
