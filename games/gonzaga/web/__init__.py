"""Gonzaga in the browser: an ASGI server (lobby, WebSocket play, saved games) and its web UI.

Nothing in the rules core imports this package; it drives the engine like any other client.
"""

from __future__ import annotations

from tabletop.web.storage import GameStore, SqliteStore, StoreError, open_store

__all__ = ["GameStore", "SqliteStore", "StoreError", "open_store", "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///gonzaga.db",
          *, bot_delay: float = 0.35, log_level: str = "warning",
          limits: dict[str, float] | None = None) -> None:
    """Run the web app with uvicorn until interrupted; `limits` overrides fields of
    `app.Limits` (rates of 0: no limit)."""
    import uvicorn

    from .app import Limits, create_app

    app = create_app(db, bot_delay=bot_delay, limits=Limits(**(limits or {})))
    # no WebSocket message is near 64 KiB (the server refuses over 16 KiB with a clear error)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 16,
                ws_per_message_deflate=False)
